package rkhsbeam

import (
	"compress/gzip"
	"flag"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"rkhs/dataset"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// The figures of BENCHMARKS.md ("More than one machine") come from this
// flag-gated test, which reads data outside the repository:
//
//	go test -run Measure -measure.glob '/work/shared/data/large/skin/*.gz' \
//	    -measure.comma '\t' -measure.label -1 -measure.sigma 30 -measure.m 300 -v
//
// It times the in-process path (read the files with package dataset, one
// NystromStats.Add, Solve) and the same fit as a Beam pipeline on Prism
// with the same centres, and compares the models.
var (
	measureGlob   = flag.String("measure.glob", "", "input files of the measurement (it is skipped without)")
	measureComma  = flag.String("measure.comma", ",", "CSV separator")
	measureLabel  = flag.Int("measure.label", 0, "CSV label column")
	measureSigma  = flag.Float64("measure.sigma", 1, "Gaussian σ")
	measureLambda = flag.Float64("measure.lambda", 1e-6, "λ")
	measureM      = flag.Int("measure.m", 300, "centres")
	measureNys    = flag.Bool("measure.nystrom", true, "also fit regress.Nystrom in-process (n×m memory)")
)

func TestMeasure(t *testing.T) {
	if *measureGlob == "" {
		t.Skip("no -measure.glob")
	}
	names, _ := filepath.Glob(*measureGlob)
	opt := dataset.CSVOptions{LabelCol: *measureLabel, Comma: []rune(strings.ReplaceAll(*measureComma, `\t`, "\t"))[0]}

	t0 := time.Now()
	var xs, ys []float64
	d := 0
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var r io.Reader = f
		if strings.HasSuffix(name, ".gz") {
			if r, err = gzip.NewReader(f); err != nil {
				t.Fatal(err)
			}
		}
		data, err := dataset.ReadCSV(r, opt)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		d = data.X.Cols
		xs, ys = append(xs, data.X.Data...), append(ys, data.Y...)
	}
	x, y := linalg.NewDense(len(ys), d, xs), linalg.NewDense(len(ys), 1, ys)
	tRead := time.Since(t0)

	// The centres: the bottom-m sample the pipeline would draw (seed 1).
	smp := sample{D: d}
	for i := 0; i < x.Rows; i++ {
		smp.add(*measureM, rowKey(1, x.Row(i)), x.Row(i))
	}
	c := smp.dense()
	dir := t.TempDir()
	cfile := filepath.Join(dir, "centres.csv")
	var sb strings.Builder
	if err := dataset.WriteCSV(&sb, &dataset.Data{X: *c, Y: make([]float64, c.Rows)}, opt); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cfile, []byte(sb.String()), 0o644)

	k := kernels.Gaussian{Sigma: *measureSigma}
	t1 := time.Now()
	st, err := regress.NewNystromStats(k, c)
	if err != nil {
		t.Fatal(err)
	}
	tFactor := time.Since(t1)
	t2 := time.Now()
	if err := st.Add(x, y); err != nil {
		t.Fatal(err)
	}
	tAdd := time.Since(t2)
	t3 := time.Now()
	local, err := st.Solve(*measureLambda, regress.FreeIntercept)
	if err != nil {
		t.Fatal(err)
	}
	tSolve := time.Since(t3)
	inProcess := time.Since(t0) - 0

	in := Input{Patterns: []string{*measureGlob}, Format: "csv", CSV: dataset.CSVOptions{LabelCol: opt.LabelCol, Comma: opt.Comma}}
	model := filepath.Join(dir, "model.json")
	t4 := time.Now()
	err = run(t, func(s beam.Scope) error {
		_, err := Fit(s, FitOptions{Input: in, Kernel: kernels.Spec{Type: "gaussian", Sigma: *measureSigma}, Lambda: *measureLambda,
			Intercept: regress.FreeIntercept, CentersFile: cfile, Model: model})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tBeam := time.Since(t4)
	got := readModel(t, model)

	model2 := filepath.Join(dir, "model2.json")
	t5 := time.Now()
	err = run(t, func(s beam.Scope) error {
		_, err := Fit(s, FitOptions{Input: in, Kernel: kernels.Spec{Type: "gaussian", Sigma: *measureSigma}, Lambda: *measureLambda,
			Intercept: regress.FreeIntercept, Centers: *measureM, Seed: 1, Model: model2})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tBeamSample := time.Since(t5)
	sampled := readModel(t, model2)

	t.Logf("n = %d, d = %d, m = %d, σ = %g, λ = %g, %d files, jitter %g", x.Rows, d, *measureM, *measureSigma, *measureLambda, len(names), local.Jitter)
	t.Logf("in-process: read+parse %.2fs, factor K_mm %.2fs, Add %.2fs (%.2f GFLOP/s), solve %.2fs, total %.2fs",
		tRead.Seconds(), tFactor.Seconds(), tAdd.Seconds(), (2*float64(x.Rows)*float64(*measureM)*float64(d+*measureM))/tAdd.Seconds()/1e9, tSolve.Seconds(), inProcess.Seconds())
	t.Logf("Beam on Prism, centres file: %.2fs (%.2f× in-process total, %.2f× read+Add+solve); with the sampling pass: %.2fs",
		tBeam.Seconds(), tBeam.Seconds()/inProcess.Seconds(), tBeam.Seconds()/(tRead+tFactor+tAdd+tSolve).Seconds(), tBeamSample.Seconds())
	t.Logf("sampled centres equal the in-process draw: %v", relDiff(sampled.Centers, c) == 0)
	pl, _ := local.Predict(x)
	pb, _ := got.Predict(x)
	t.Logf("Beam vs in-process statistics: coefficients %.2g, intercept %.2g, predictions %.2g (relative)",
		relDiff(got.Coef, local.Coef), math.Abs(got.Intercept[0]-local.Intercept[0])/math.Abs(local.Intercept[0]), relDiff(pb, pl))
	if *measureNys {
		t6 := time.Now()
		want, err := regress.Nystrom{Kernel: k, Lambda: *measureLambda, Given: c, Intercept: regress.FreeIntercept}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		pn, _ := want.Predict(x)
		t.Logf("regress.Nystrom (%.2fs) vs Beam: coefficients %.2g, intercept %.2g, predictions %.2g; vs in-process statistics: coefficients %.2g",
			time.Since(t6).Seconds(), relDiff(got.Coef, want.Coef), math.Abs(got.Intercept[0]-want.Intercept[0])/math.Abs(want.Intercept[0]), relDiff(pb, pn), relDiff(local.Coef, want.Coef))
	}
}
