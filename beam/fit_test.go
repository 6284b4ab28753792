package rkhsbeam

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"rkhs/dataset"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

func TestMain(m *testing.M) {
	// Prism logs every failed bundle at level ERROR; the tests check the
	// errors themselves.
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	// The flags first: started with --worker by a runner's boot loader
	// (TestSelectOnJobServer), this binary is a worker, and beam.Init
	// does not return.
	flag.Parse()
	beam.Init()
	os.Exit(m.Run())
}

// run builds a pipeline with build and runs it on Prism.
func run(t *testing.T, build func(s beam.Scope) error) error {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := build(s); err != nil {
		return err
	}
	_, err := prism.Execute(context.Background(), p)
	return err
}

// readAll reads CSV files (label first) into one data set, in order.
func readAll(t *testing.T, names ...string) (x, y *linalg.Dense) {
	t.Helper()
	var xs, ys []float64
	d := 0
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".gz") {
			b = gunzip(t, b)
		}
		if len(b) == 0 {
			continue
		}
		data, err := dataset.ReadCSV(strings.NewReader(string(b)), dataset.CSVOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d = data.X.Cols
		xs = append(xs, data.X.Data...)
		ys = append(ys, data.Y...)
	}
	return linalg.NewDense(len(ys), d, xs), linalg.NewDense(len(ys), 1, ys)
}

func readModel(t *testing.T, name string) *regress.Model {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var m regress.Model
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return &m
}

func relDiff(a, b *linalg.Dense) float64 {
	var num, den float64
	for i := range a.Data {
		num = math.Max(num, math.Abs(a.Data[i]-b.Data[i]))
		den = math.Max(den, math.Abs(b.Data[i]))
	}
	return num / den
}

// TestFitEqualsNystrom: on Prism with five shards (one gzip, one of one
// row, one empty), the fitted coefficients equal regress.Nystrom on all
// the rows with the same centres to 1e-10 relative, in every intercept
// mode.
func TestFitEqualsNystrom(t *testing.T) {
	train, _ := filepath.Glob("testdata/train-*")
	x, y := readAll(t, train...)
	k := kernels.Spec{Type: "gaussian", Sigma: 1}
	kern, _ := k.Kernel()
	for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept} {
		out := filepath.Join(t.TempDir(), "model.json")
		err := run(t, func(s beam.Scope) error {
			_, err := Fit(s, FitOptions{
				Input:  Input{Patterns: []string{"testdata/train-*"}, Format: "csv"},
				Kernel: k, Lambda: 1e-3, Intercept: ic, Centers: 40, Seed: 3, Model: out,
			})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		got := readModel(t, out)
		if got.Centers.Rows != 40 {
			t.Fatalf("%d centres, want 40", got.Centers.Rows)
		}
		want, err := regress.Nystrom{Kernel: kern, Lambda: 1e-3, Given: got.Centers, Intercept: ic}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if e := relDiff(got.Coef, want.Coef); e > 1e-10 {
			t.Errorf("%v: coefficients differ from Nystrom.Fit by %.2g relative", ic, e)
		}
		if e := math.Abs(got.Intercept[0] - want.Intercept[0]); e > 1e-10*math.Abs(want.Intercept[0]) {
			t.Errorf("%v: intercept %v, want %v", ic, got.Intercept[0], want.Intercept[0])
		}
	}
}

// TestFitErrors: a malformed line fails the job naming its file and line,
// or goes to the dead-letter file; files of different widths, too few
// distinct rows and no rows are clear errors.
func TestFitErrors(t *testing.T) {
	k := kernels.Spec{Type: "gaussian", Sigma: 1}
	dir := t.TempDir()
	fit := func(o FitOptions) error {
		o.Kernel, o.Lambda, o.Model = k, 1e-3, filepath.Join(dir, "model.json")
		if o.Centers == 0 && o.CentersFile == "" {
			o.Centers = 5
		}
		o.Input.Format = "csv"
		return run(t, func(s beam.Scope) error { _, err := Fit(s, o); return err })
	}
	for _, tc := range []struct {
		name string
		o    FitOptions
		want string
	}{
		{"bad line", FitOptions{Input: Input{Patterns: []string{"testdata/bad/*.csv"}}}, "testdata/bad/shard-1.csv:5: field 3: \"abc\" is not a decimal number"},
		{"widths", FitOptions{Input: Input{Patterns: []string{"testdata/wide/*.csv"}}}, "has 3 features"},
		{"too few rows", FitOptions{Input: Input{Patterns: []string{"testdata/train-3.csv"}}, Centers: 2}, "1 distinct row, fewer than the 2 centres"},
		{"no rows", FitOptions{Input: Input{Patterns: []string{"testdata/train-4.csv"}}, CentersFile: "testdata/train-3.csv"}, "no rows"},
		{"duplicate centres", FitOptions{Input: Input{Patterns: []string{"testdata/train-0.csv"}}, CentersFile: "testdata/dup-centres.csv"}, "rows 0 and 2 are identical"},
		{"no files", FitOptions{Input: Input{Patterns: []string{"testdata/none-*.csv"}}}, "no file matches"},
	} {
		err := fit(tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	if err := fit(FitOptions{Input: Input{Patterns: []string{"testdata/x"}}, Centers: -1}); err == nil || errors.Is(err, nil) && !strings.Contains(err.Error(), "centres") {
		t.Errorf("negative centres: %v", err)
	}

	// With a dead-letter file the bad line is set aside and the fit goes on.
	dead := filepath.Join(dir, "dead.txt")
	if err := fit(FitOptions{Input: Input{Patterns: []string{"testdata/bad/*.csv"}}, DeadLetter: dead}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(dead)
	if err != nil || !strings.Contains(string(b), "shard-1.csv:5: field 3") || strings.Count(string(b), "\n") != 1 {
		t.Errorf("dead letters %q (err %v), want the one bad line", b, err)
	}
}

// TestFitRefusesAndBlames: options that cannot mean what they say are
// errors before the pipeline runs (centres drawn and read from a file; a
// LIBSVM fit whose centres and statistics cannot fit in memory), a
// centres file of the wrong width is named as the culprit, and a job in
// which every line is malformed still writes its dead letters and no
// model.
func TestFitRefusesAndBlames(t *testing.T) {
	dir := t.TempDir()
	k := kernels.Spec{Type: "gaussian", Sigma: 1}
	fit := func(o FitOptions) error {
		o.Kernel, o.Lambda, o.Model = k, 1e-3, filepath.Join(dir, "model.json")
		if o.Input.Format == "" {
			o.Input.Format = "csv"
		}
		return run(t, func(s beam.Scope) error { _, err := Fit(s, o); return err })
	}
	if err := fit(FitOptions{Input: Input{Patterns: []string{"testdata/train-0.csv"}}, Centers: 5, CentersFile: "testdata/train-3.csv"}); err == nil || !strings.Contains(err.Error(), "centres file") {
		t.Errorf("-centers with a centres file: got %v", err)
	}

	old := debug.SetMemoryLimit(1 << 30)
	err := fit(FitOptions{Input: Input{Patterns: []string{"testdata/train-0.csv"}, Format: "libsvm", Width: 1_000_000}, Centers: 1000})
	debug.SetMemoryLimit(old)
	if !errors.Is(err, linalg.ErrTooLarge) {
		t.Errorf("10³ centres of 10⁶ features under a 1 GiB limit: got %v, want linalg.ErrTooLarge", err)
	}

	narrow := filepath.Join(dir, "centres.csv")
	os.WriteFile(narrow, []byte("0,1,2\n0,3,4\n"), 0o644)
	if err := fit(FitOptions{Input: Input{Patterns: []string{"testdata/train-0.csv"}}, CentersFile: narrow}); err == nil ||
		!strings.Contains(err.Error(), "the centres file "+narrow+" has 2 features, testdata/train-0.csv has 3") {
		t.Errorf("centres of the wrong width: got %v", err)
	}

	allBad := filepath.Join(dir, "bad.csv")
	os.WriteFile(allBad, []byte("a,b,c,d\n1,x,2,3\n"), 0o644)
	dead := filepath.Join(dir, "dead.txt")
	os.Remove(filepath.Join(dir, "model.json"))
	if err := fit(FitOptions{Input: Input{Patterns: []string{allBad}}, Centers: 1, DeadLetter: dead}); err != nil {
		t.Errorf("every line malformed, with dead letters: %v", err)
	}
	if b, err := os.ReadFile(dead); err != nil || strings.Count(string(b), "\n") != 2 {
		t.Errorf("dead letters %q (%v), want both lines", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "model.json")); err == nil {
		t.Error("a model was written from no rows")
	}
}
