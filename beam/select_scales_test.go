package rkhsbeam

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// scaleFiles writes 300 rows of 4 features (label first, no header) to
// three files in dir, 120, 100 and 80 rows: y = sin 2x₀ + x₁²/18 +
// 0.1·noise, x₂ and x₃ noise, the features on scales 1, 3, 10 and 0.5 (so
// that the standardization matters), and with constant a fifth feature,
// 2.5 in every row; it returns their names.
func scaleFiles(t *testing.T, dir string, constant bool) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	var names []string
	for k, n := range []int{120, 100, 80} {
		var sb strings.Builder
		for range n {
			x := []float64{r.NormFloat64(), 3 * r.NormFloat64(), 10 * r.NormFloat64(), 0.5 * r.NormFloat64()}
			if constant {
				x = append(x, 2.5)
			}
			y := math.Sin(2*x[0]) + x[1]*x[1]/18 + 0.1*r.NormFloat64()
			row := []string{strconv.FormatFloat(y, 'g', -1, 64)}
			for _, v := range x {
				row = append(row, strconv.FormatFloat(v, 'g', -1, 64))
			}
			sb.WriteString(strings.Join(row, ",") + "\n")
		}
		name := filepath.Join(dir, "part-"+strconv.Itoa(k)+".csv")
		if err := os.WriteFile(name, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

// scaleOptions are the options of the tests of the length scales on the
// files: 30 centres drawn by the pipeline, the features standardized, a
// grid of 4 σ and 6 λ, then the descent for 5 iterations.
func scaleOptions(t *testing.T, files []string, crit loo.Criterion) SelectOptions {
	return SelectOptions{
		Input: Input{Patterns: files, Format: "csv"}, Kernel: kernels.Spec{Type: "gaussian"},
		Sigmas: []float64{0.5, 1, 2, 4}, Lambdas: loo.Geometric(1e-6, 1e-1, 6), Standardize: true,
		Intercept: regress.FreeIntercept, Criterion: crit, Centers: 30, Seed: 3,
		ARD: true, ARDIters: 5, Model: filepath.Join(t.TempDir(), "model.json"), Scratch: t.TempDir(),
	}
}

// maxRelDiff returns max |a − b| / max |b| over the entries.
func maxRelDiff(a, b []float64) float64 {
	var num, den float64
	for i := range b {
		num = math.Max(num, math.Abs(a[i]-b[i]))
		den = math.Max(den, math.Abs(b[i]))
	}
	return num / den
}

// TestScaleEvaluationEqualsEvaluate: one evaluation of the length scales'
// objective by pipelines on Prism (pass 0, the path, pass A, pass B over
// three files) gives J and ∇J equal to loo.ScaleObjective.Evaluate on the
// same rows, standardized by the first pass's map, and the same centres,
// to 10⁻¹² relative, with each criterion: the sums of the three files
// are merged, those of Evaluate run over the rows in one order, and only
// the rounding differs (at most 1.3·10⁻¹⁴ here, on the gradient of
// GCV); at a λ where the fit interpolates a row, the
// evaluation is singular (linalg.ErrNotPositiveDefinite) as Evaluate's.
func TestScaleEvaluationEqualsEvaluate(t *testing.T) {
	files := scaleFiles(t, t.TempDir(), false)
	x, y := readAll(t, files...)
	for _, crit := range []loo.Criterion{loo.LOOMSE, loo.GCV} {
		o := scaleOptions(t, files, crit)
		r := &selection{o: o, ctx: context.Background(), run: prismRun, dir: t.TempDir(), ns: len(o.Sigmas)}
		for _, step := range []func() error{r.firstPass, r.draw, r.statistics} {
			if err := step(); err != nil {
				t.Fatal(err)
			}
		}
		if err := r.lambdaPaths(); err != nil {
			t.Fatal(err)
		}
		xs, err := r.first.Scale.Apply(x)
		if err != nil {
			t.Fatal(err)
		}
		sr := newScaleRun(r)
		theta := []float64{math.Log(0.7), math.Log(1.3), math.Log(2), math.Log(1.1), math.Log(1e-3)}
		got, err := sr.evaluate(theta)
		if err != nil {
			t.Fatal(err)
		}
		want, err := sr.obj.Evaluate(xs, y, theta)
		if err != nil {
			t.Fatal(err)
		}
		ev, eg := math.Abs(got.Value-want.Value)/want.Value, maxRelDiff(got.Gradient, want.Gradient)
		t.Logf("%v: J %.6g, ∇J %.4g; from Evaluate's: J %.2g, ∇J %.2g relative", crit, got.Value, got.Gradient, ev, eg)
		if !(ev <= 1e-12) || !(eg <= 1e-12) || got.LOORows != want.LOORows || !(math.Abs(got.DF-want.DF) <= 1e-12*want.DF) {
			t.Errorf("%v: J %.15g, ∇J %v over %d rows; Evaluate %.15g, %v over %d", crit, got.Value, got.Gradient, got.LOORows, want.Value, want.Gradient, want.LOORows)
		}
		if crit != loo.LOOMSE {
			continue
		}
		// Every row a centre and λ tiny: the fit interpolates.
		sing := newScaleRun(r)
		_, werr := sing.obj.Evaluate(xs, y, []float64{-4, -4, -4, -4, -300})
		_, gerr := sing.evaluate([]float64{-4, -4, -4, -4, -300})
		if !errors.Is(werr, linalg.ErrNotPositiveDefinite) || !errors.Is(gerr, linalg.ErrNotPositiveDefinite) {
			t.Errorf("σ_j = e⁻⁴, λ = e⁻³⁰⁰: the pipelines give %v, Evaluate %v; want both singular", gerr, werr)
		}
	}
}

// TestSelectScalesEqualsFit: Select with ARD on Prism (three files, 300
// rows, 4 features, 30 centres, 5 iterations) ends where
// loo.SelectScales.Fit ends from the grid's pair on the same rows,
// standardized by the first pass's map, and centres: J(θ₀) within
// 10⁻¹², the same number of iterations, the scales, λ and the history
// within 10⁻⁸ relative, J at the scales within 10⁻¹⁰. The evaluations
// differ by the rounding of the merges (10⁻¹⁴, see
// TestScaleEvaluationEqualsEvaluate), and L-BFGS amplifies that along its
// path — its steps divide differences of gradients by differences of
// points, and the objective is flat along the noise features — to
// 1.7·10⁻¹⁰ in the scales after 5 iterations here; J, stationary at the
// end, moves by 5·10⁻¹³ only. The model written is the fit at the
// scales: its predictions of the raw rows equal Fit's model's to 10⁻⁸
// relative.
func TestSelectScalesEqualsFit(t *testing.T) {
	files := scaleFiles(t, t.TempDir(), false)
	x, y := readAll(t, files...)
	o := scaleOptions(t, files, loo.LOOMSE)
	var iters []int
	o.ARDProgress = func(iter int, _, _, _ float64) { iters = append(iters, iter) }
	sel, err := Select(context.Background(), o, prismRun)
	if err != nil {
		t.Fatal(err)
	}
	grid, got := sel.Grid, sel.Scales
	if grid == nil || got == nil || sel.Model != got.Fit.Model {
		t.Fatalf("Grid %v, Scales %v: want the grid's model and the scales, the model the scales' fit", grid, got)
	}
	xs, err := grid.Standardization.Apply(x)
	if err != nil {
		t.Fatal(err)
	}
	want, err := loo.SelectScales{
		Objective: loo.ScaleObjective{Centers: grid.Centers, Intercept: regress.FreeIntercept},
		Sigma:     sel.Sigma, Lambda: sel.Lambda, MaxIter: 5, Standardization: grid.Standardization,
	}.Fit(xs, y)
	if err != nil {
		t.Fatal(err)
	}
	es, el := maxRelDiff(got.Sigmas, want.Sigmas), math.Abs(got.Lambda-want.Lambda)/want.Lambda
	ej, eh := math.Abs(got.Objective-want.Objective)/want.Objective, maxRelDiff(got.History, want.History)
	t.Logf("σ %.4g, λ %.4g, J %.4g → %.4g in %d iterations, %d evaluations; from Fit's: σ %.2g, λ %.2g, J %.2g, history %.2g relative",
		got.Sigmas, got.Lambda, got.Start, got.Objective, got.Iterations, got.Evaluations, es, el, ej, eh)
	if got.Iterations != want.Iterations || len(got.History) != len(want.History) {
		t.Fatalf("%d iterations, history %v; Fit %d, %v", got.Iterations, got.History, want.Iterations, want.History)
	}
	if math.Abs(got.Start-want.Start) > 1e-12*want.Start {
		t.Errorf("J(θ₀) %.15g, Fit %.15g", got.Start, want.Start)
	}
	if !(es <= 1e-8) || !(el <= 1e-8) || !(ej <= 1e-10) || !(eh <= 1e-8) {
		t.Errorf("σ %v, λ %v, J %v; Fit σ %v, λ %v, J %v", got.Sigmas, got.Lambda, got.Objective, want.Sigmas, want.Lambda, want.Objective)
	}
	if want := append([]int{0}, seq(1, got.Iterations)...); !slices.Equal(iters, want) {
		t.Errorf("progress at %v, want %v", iters, want)
	}
	if got.FitRows != x.Rows || got.LOORows != x.Rows {
		t.Errorf("FitRows %d, LOORows %d: want every row, %d", got.FitRows, got.LOORows, x.Rows)
	}
	// The model file predicts raw rows as Fit's model does.
	model := readModel(t, o.Model)
	pg, err := model.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	pw, err := want.Fit.Model.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	if e := relDiff(pg, pw); !(e <= 1e-8) {
		t.Errorf("the model's predictions differ from Fit's model's by %.2g relative", e)
	}
}

// TestSelectScalesRows: with ARDRows, the descent on 150 of the 300 rows,
// gathered from the three files by their places among all the rows, is
// loo.SelectScales.Fit's with Rows 150 and the same seed, bit for bit
// (the same rows, read and standardized as Fit's caller reads them, and
// the same computation in this process); the objective at the scales
// over every row, and the model, come from pass 0 and pass A on the
// workers and equal Fit's to the rounding of the merges (10⁻¹² tested).
func TestSelectScalesRows(t *testing.T) {
	files := scaleFiles(t, t.TempDir(), false)
	x, y := readAll(t, files...)
	o := scaleOptions(t, files, loo.LOOMSE)
	o.ARDRows = func(n, _ int) (int, error) { return n / 2, nil }
	sel, err := Select(context.Background(), o, prismRun)
	if err != nil {
		t.Fatal(err)
	}
	got, grid := sel.Scales, sel.Grid
	xs, err := grid.Standardization.Apply(x)
	if err != nil {
		t.Fatal(err)
	}
	want, err := loo.SelectScales{
		Objective: loo.ScaleObjective{Centers: grid.Centers, Intercept: regress.FreeIntercept, Seed: o.Seed},
		Sigma:     sel.Sigma, Lambda: sel.Lambda, MaxIter: 5, Rows: 150, Standardization: grid.Standardization,
	}.Fit(xs, y)
	if err != nil {
		t.Fatal(err)
	}
	g := append(append(slices.Clone(got.Sigmas), got.Lambda, got.Start), got.History...)
	w := append(append(slices.Clone(want.Sigmas), want.Lambda, want.Start), want.History...)
	if !slices.Equal(g, w) || got.Iterations != want.Iterations || got.Evaluations != want.Evaluations {
		t.Errorf("the descent on 150 gathered rows: %v in %d iterations; Fit with Rows 150: %v in %d", g, got.Iterations, w, want.Iterations)
	}
	if got.FitRows != 150 || got.LOORows != 300 || math.Abs(got.Objective-want.Objective) > 1e-12*want.Objective {
		t.Errorf("FitRows %d, J %.15g over %d rows; Fit: %d, %.15g over %d", got.FitRows, got.Objective, got.LOORows, want.FitRows, want.Objective, want.LOORows)
	}
	pg, err := sel.Model.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	pw, err := want.Fit.Model.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	if e := relDiff(pg, pw); !(e <= 1e-10) {
		t.Errorf("the model's predictions differ from Fit's model's by %.2g relative", e)
	}
}

// TestSelectScalesConstant: a feature that holds one value in every row
// (and so in every centre) is found by the first pass, as
// loo.SelectScales finds it on the rows in memory: its scale is held at
// the grid's σ and it is ranked last.
func TestSelectScalesConstant(t *testing.T) {
	o := scaleOptions(t, scaleFiles(t, t.TempDir(), true), loo.LOOMSE)
	o.ARDIters = 2
	sel, err := Select(context.Background(), o, prismRun)
	if err != nil {
		t.Fatal(err)
	}
	s := sel.Scales
	if !slices.Equal(s.Constant, []int{4}) || s.Sigmas[4] != sel.Sigma || s.Ranking()[4] != 4 {
		t.Errorf("constant features %v, σ_4 = %g, ranking %v: want [4], the grid's σ = %g, and feature 4 last", s.Constant, s.Sigmas[4], s.Ranking(), sel.Sigma)
	}
}

// seq returns lo, lo+1, …, hi.
func seq(lo, hi int) []int {
	var s []int
	for i := lo; i <= hi; i++ {
		s = append(s, i)
	}
	return s
}

// TestSelectScalesRefuses: ARD with another kernel than the Gaussian, a
// negative budget, or the descent's options without ARD are errors of
// kind ErrOptions before any pipeline.
func TestSelectScalesRefuses(t *testing.T) {
	ok := scaleOptions(t, []string{"testdata/train-0.csv"}, loo.LOOMSE)
	for _, tc := range []struct {
		name string
		edit func(o *SelectOptions)
	}{
		{"laplacian", func(o *SelectOptions) { o.Kernel.Type = "laplacian" }},
		{"ARDIters < 0", func(o *SelectOptions) { o.ARDIters = -1 }},
		{"ARDIters without ARD", func(o *SelectOptions) { o.ARD = false }},
		{"ARDRows without ARD", func(o *SelectOptions) {
			o.ARD, o.ARDIters, o.ARDRows = false, 0, func(int, int) (int, error) { return 2, nil }
		}},
	} {
		o := ok
		tc.edit(&o)
		_, err := Select(context.Background(), o, func(context.Context, *beam.Pipeline) error {
			t.Fatalf("%s: a pipeline ran", tc.name)
			return nil
		})
		var ie *linalg.InputError
		if !errors.Is(err, ErrOptions) || !errors.As(err, &ie) {
			t.Errorf("%s: got %v, want an InputError of kind ErrOptions", tc.name, err)
		}
	}
}

// TestDecodeRows: the gathered rows are placed by their places whatever
// the order of the files' parts; a part that is truncated, a place twice
// or a place missing is an error.
func TestDecodeRows(t *testing.T) {
	part := func(places []uint64, vals ...float64) []byte {
		b := appendUint64s(nil, uint64(len(places)), 1, 1)
		b = appendUint64s(b, places...)
		for _, v := range vals {
			b = appendUint64s(b, math.Float64bits(v))
		}
		return b
	}
	var c concatFn
	idx := []int{3, 7, 9}
	late, early := part([]uint64{9}, 90, -9), part([]uint64{3, 7}, 30, 70, -3, -7)
	x, y, err := decodeRows(c.AddInput(c.AddInput(nil, late), early), idx, 1, 1)
	if err != nil || !slices.Equal(x.Data, []float64{30, 70, 90}) || !slices.Equal(y.Data, []float64{-3, -7, -9}) {
		t.Errorf("two parts, the later first: x %v, y %v, %v; want [30 70 90], [-3 -7 -9]", x, y, err)
	}
	for name, b := range map[string][]byte{
		"truncated":     c.AddInput(nil, late[:len(late)-8]),
		"a place twice": c.AddInput(c.AddInput(c.AddInput(nil, late), early), late),
		"a place gone":  c.AddInput(nil, early),
		"another place": c.AddInput(c.AddInput(nil, early), part([]uint64{8}, 80, -8)),
	} {
		if _, _, err := decodeRows(b, idx, 1, 1); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
