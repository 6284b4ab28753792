package rkhsbeam

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"rkhs/kernels"
	"rkhs/loo"
	"rkhs/regress"
)

// TestSelectOnJobServer runs a selection as a cluster runs it: Prism as a
// job server, the pipelines submitted to it by the universal runner, and
// the workers in separate processes of the PROCESS environment
// (beam:env:process:v1) — each started by the Go SDK's own boot loader
// (the entry point of its worker container, built here from the module
// cache), which fetches the staged worker binary (this test binary) from
// the job server and starts it in worker mode. What crosses a process
// boundary is exercised: the coders of the first pass (the sample, the
// moments, the classes), of the statistics and of the leave-one-out sums,
// the prep as a side input, and the scratch directory the workers read
// the statistics from; with ARD, the passes of the length scales, whose
// workers rebuild the path and the adjoint from the scratch directory.
// With standardization, σ around the median distance and three classes,
// every score equals the in-process run's to 1e-10 and the same pair is
// chosen; the descent's iteration ends at the same scales to 1e-8
// (the runners merge the files' sums in their own order).
//
// Prism (v2.77) starts the command of the environment as
// `command --id='ID' --provision_endpoint=ADDR`, the quotes part of the
// id, which the boot loader would send back as is; a short script strips
// them, and starts the boot loader in a directory of the test, where it
// writes the pipeline's options (pipeline_options.json). The boot loader runs the worker as its child in a copy
// under /tmp/bin*, and Prism stops only the boot loader when a job ends,
// so the test stops the workers it started (found by their
// --semi_persist_dir, a directory of the test) and removes their copies.
func TestSelectOnJobServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the Go SDK's boot loader and starts worker processes: not with -short")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the workers are stopped through /proc: Linux only")
	}
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	boot := filepath.Join(dir, "boot")
	if out, err := exec.Command("go", "build", "-o", boot, "github.com/apache/beam/sdks/v2/go/container").CombinedOutput(); err != nil {
		t.Skipf("cannot build the Go SDK's boot loader: %v\n%s", err, out)
	}
	persist := filepath.Join(dir, "persist")
	script := filepath.Join(dir, "boot.sh")
	err = os.WriteFile(script, []byte("#!/bin/sh\nid=${1#--id=}; id=${id#\\'}; id=${id%\\'}; shift\ncd "+dir+" || exit 1\nexec "+boot+" --id=\"$id\" --semi_persist_dir="+persist+" \"$@\"\n"), 0o755)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopWorkers(t, "--semi_persist_dir="+persist) })

	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Skip(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	if _, err := prism.CreateJobServer(ctx, prism.Options{Port: port}); err != nil {
		t.Fatal(err)
	}
	onServer := func(ctx context.Context, p *beam.Pipeline) error {
		flags := []*string{jobopts.Endpoint, jobopts.EnvironmentType, jobopts.EnvironmentConfig, jobopts.WorkerBinary}
		saved := make([]string, len(flags))
		for i, f := range flags {
			saved[i] = *f
		}
		defer func() {
			for i, f := range flags {
				*f = saved[i]
			}
		}()
		*jobopts.Endpoint = "localhost:" + strconv.Itoa(port)
		*jobopts.EnvironmentType = "PROCESS"
		*jobopts.EnvironmentConfig = fmt.Sprintf(`{"command": %q}`, script)
		*jobopts.WorkerBinary = self
		_, err := universal.Execute(ctx, p)
		return err
	}

	var files []string
	for _, f := range []string{"testdata/train-0.csv", "testdata/train-1.csv", "testdata/train-2.csv.gz"} {
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, abs)
	}
	o := SelectOptions{
		Input: Input{Patterns: files, Format: "csv"}, Kernel: kernels.Spec{Type: "gaussian"},
		MedianRatios: []float64{0.5, 1, 2}, Lambdas: loo.Geometric(1e-6, 1e-2, 5), Intercept: regress.FreeIntercept,
		Standardize: true, Classes: true, Criterion: loo.LOOErrorRate, Centers: 12, Seed: 5,
		ARD: true, ARDIters: 1,
	}
	o.Model, o.Scratch = filepath.Join(dir, "local.json"), filepath.Join(dir, "scratch-local")
	os.Mkdir(o.Scratch, 0o755)
	// The labels of the training files, in three classes.
	o.Input.Patterns = classFiles(t, files)
	want, err := Select(ctx, o, prismRun)
	if err != nil {
		t.Fatal(err)
	}
	o.Model, o.Scratch = filepath.Join(dir, "server.json"), filepath.Join(dir, "scratch-server")
	os.Mkdir(o.Scratch, 0o755)
	start := time.Now()
	got, err := Select(ctx, o, onServer)
	if err != nil {
		t.Fatalf("on the job server: %v", err)
	}
	t.Logf("the selection on the job server took %.1f s", time.Since(start).Seconds())
	// The workers were the boot loader's: it fetched the staged binary
	// into its directory.
	if staged, err := os.ReadDir(filepath.Join(persist, "staged")); err != nil || len(staged) == 0 {
		t.Errorf("no worker binary staged by the boot loader in %s: %v", persist, err)
	}
	if got.Sigma != want.Sigma || got.Lambda != want.Lambda || got.Median != want.Median || got.Rows != want.Rows {
		t.Errorf("on the job server: σ = %g, λ = %g, median %g, %d rows; in process σ = %g, λ = %g, median %g, %d rows",
			got.Sigma, got.Lambda, got.Median, got.Rows, want.Sigma, want.Lambda, want.Median, want.Rows)
	}
	for name, tb := range map[string][2][][]float64{"LOO": {got.LOO, want.LOO}, "error rate": {got.LOOError, want.LOOError}, "GCV": {got.GCV, want.GCV}} {
		for a := range tb[1] {
			for j := range tb[1][a] {
				if g, w := tb[0][a][j], tb[1][a][j]; !(absDiff(g, w) <= 1e-10*absDiff(w, 0)) {
					t.Errorf("%s at σ = %g, λ = %g: %.15g on the job server, %.15g in process", name, want.Scores.Sigmas[a], o.Lambdas[j], g, w)
				}
			}
		}
	}
	if e := relDiff(got.Grid.Coef, want.Grid.Coef); e > 1e-10 {
		t.Errorf("the grid models' coefficients differ by %.2g relative", e)
	}
	gs, ws := got.Scales, want.Scales
	if gs.Iterations != ws.Iterations || maxRelDiff(gs.Sigmas, ws.Sigmas) > 1e-8 || absDiff(gs.Lambda, ws.Lambda) > 1e-8*ws.Lambda ||
		absDiff(gs.Objective, ws.Objective) > 1e-10*ws.Objective {
		t.Errorf("the length scales on the job server: σ %v, λ %g, J %.15g in %d iterations; in process σ %v, λ %g, J %.15g in %d",
			gs.Sigmas, gs.Lambda, gs.Objective, gs.Iterations, ws.Sigmas, ws.Lambda, ws.Objective, ws.Iterations)
	}
	if e := relDiff(got.Model.Coef, want.Model.Coef); e > 1e-8 {
		t.Errorf("the models' coefficients at the scales differ by %.2g relative", e)
	}
	entries, _ := os.ReadDir(o.Scratch)
	if len(entries) != 0 {
		t.Errorf("the scratch directory holds %d entries after the selection", len(entries))
	}
}

func absDiff(a, b float64) float64 {
	if a > b {
		return a - b
	}
	return b - a
}

// classFiles writes the rows of the CSV files (label first) with their
// labels in three classes, one file each, and returns their names.
func classFiles(t *testing.T, files []string) []string {
	t.Helper()
	dir := t.TempDir()
	var out []string
	for i, f := range files {
		x, y := readAll(t, f)
		var b strings.Builder
		for r := 0; r < x.Rows; r++ {
			fmt.Fprintf(&b, "%d", min(2, max(0, int(y.Data[r]+1))))
			for _, v := range x.Row(r) {
				fmt.Fprintf(&b, ",%.17g", v)
			}
			b.WriteByte('\n')
		}
		name := filepath.Join(dir, fmt.Sprintf("part-%d.csv", i))
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, name)
	}
	return out
}

// stopWorkers stops the processes whose command line holds marker (the
// boot loaders and workers of a test) and removes the copies of the worker
// binary the boot loader made for them (its directory /tmp/bin*).
func stopWorkers(t *testing.T, marker string) {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, c := range procs {
		b, err := os.ReadFile(c)
		if err != nil || !strings.Contains(string(b), marker) {
			continue
		}
		pid, err := strconv.Atoi(filepath.Base(filepath.Dir(c)))
		if err != nil || pid == os.Getpid() {
			continue
		}
		exe, _ := os.Readlink(filepath.Join(filepath.Dir(c), "exe"))
		syscall.Kill(pid, syscall.SIGKILL)
		if d := filepath.Dir(exe); strings.HasPrefix(d, "/tmp/bin") && filepath.Base(exe) == "worker" {
			os.RemoveAll(d)
		}
	}
}
