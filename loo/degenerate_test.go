package loo

import (
	"errors"
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"math"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Degenerate input: every public entry point returns an error (or panics
// where its documentation says so) instead of a NaN result or an
// undocumented panic.

// degMat returns an r×c matrix with reproducible, distinct entries (a fixed
// seed of a simple congruential sequence scaled to [−1, 1)).
func degMat(seed uint64, r, c int) *linalg.Dense {
	m := linalg.NewDense(r, c, nil)
	s := seed
	for i := range m.Data {
		s = s*6364136223846793005 + 1442695040888963407
		m.Data[i] = float64(s>>11)/(1<<52) - 1
	}
	return m
}

// degWith returns a copy of m with element (i, j) set to v.
func degWith(m *linalg.Dense, i, j int, v float64) *linalg.Dense {
	c := m.Clone()
	c.Set(i, j, v)
	return c
}

// degCall runs f, turning a panic into an error so that one failing case
// does not stop the table.
func degCall(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// degPath adapts an entry point's result: a nil error with a NaN anywhere
// is reported as such.
func degPath(p *Path, err error) error {
	if err != nil {
		return err
	}
	for j, v := range p.MSE {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("no error, but MSE[%d] = %v", j, v)
		}
	}
	for j, v := range p.GCV {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("no error, but GCV[%d] = %v", j, v)
		}
	}
	return nil
}

func degSpectral(t *testing.T, k kernels.Kernel, x, y *linalg.Dense) *regress.Spectral {
	t.Helper()
	s, err := regress.NewSpectral(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Grids: Geometric panics on impossible bounds or counts, as documented,
// while LambdaGrid returns an error for count < 1 (it takes a
// decomposition, an argument like any other); the docs say so.
func TestDegenerateGridPanics(t *testing.T) {
	x, y := degMat(1, 8, 2), degMat(2, 8, 1)
	s := degSpectral(t, kernels.Gaussian{Sigma: 1}, x, y)
	for _, c := range []struct {
		name string
		f    func()
		want string // in the panic message
	}{
		{"Geometric hi +Inf", func() { Geometric(1e-3, math.Inf(1), 3) }, "Geometric"},
		{"Geometric count 0", func() { Geometric(1e-3, 1, 0) }, "Geometric"},
	} {
		msg := func() (msg string) {
			defer func() {
				if r := recover(); r != nil {
					msg = fmt.Sprint(r)
				}
			}()
			c.f()
			return ""
		}()
		if !strings.Contains(msg, c.want) {
			t.Errorf("%s: panic %q, want one mentioning %q", c.name, msg, c.want)
		}
	}

	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "select.go", nil, parser.ParseComments)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		t.Skipf("source not readable here: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := doc.NewFromFiles(fset, []*ast.File{f}, "rkhs/loo")
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, fn := range pkg.Funcs {
		docs[fn.Name] = strings.Join(strings.Fields(fn.Doc), " ")
	}
	for _, count := range []int{0, -1} {
		var ie *linalg.InputError
		if _, err := LambdaGrid(s, count); !errors.As(err, &ie) || !errors.Is(err, ErrInput) || ie.Arg != "count" {
			t.Errorf("LambdaGrid(s, %d): %v, want an InputError on count", count, err)
		}
	}
	for _, c := range []struct{ fn, want string }{
		{"LambdaGrid", "count < 1"},
		{"Geometric", "hi = +Inf"},
		{"Geometric", "count ≤ 0 panics"},
	} {
		if !strings.Contains(docs[c.fn], c.want) {
			t.Errorf("doc of %s does not say %q:\n%s", c.fn, c.want, docs[c.fn])
		}
	}
}

// Nystrom validates y as regress.Nystrom.Fit does.
func TestDegenerateNystromY(t *testing.T) {
	x, y := degMat(3, 10, 2), degMat(4, 10, 1)
	lambdas := []float64{1e-3, 1e-1}
	for _, ic := range intercepts {
		cfg := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Centers: 4, Seed: 1, Intercept: ic}
		for _, c := range []struct {
			name string
			y    *linalg.Dense
			want string
		}{
			{"y NaN", degWith(y, 3, 0, math.NaN()), "Y: row 4, column 1 is NaN"},
			{"y +Inf", degWith(y, 0, 0, math.Inf(1)), "Y: row 1, column 1 is +Inf"},
			{"y -Inf", degWith(y, 9, 0, math.Inf(-1)), "Y: row 10, column 1 is -Inf"},
			{"y 0 columns", linalg.NewDense(10, 0, nil), "Y: no columns"},
			{"y nil", nil, "Y: nil matrix"},
		} {
			err := degCall(func() error { return degPath(Nystrom(cfg, x, c.y, lambdas)) })
			if !errors.Is(err, ErrInput) || !strings.Contains(fmt.Sprint(err), c.want) {
				t.Errorf("Nystrom(%s, %v): err %v, want ErrInput with %q", c.name, ic, err, c.want)
			}
		}
		if _, err := Nystrom(cfg, x, y, lambdas); err != nil {
			t.Errorf("Nystrom(good y, %v): %v", ic, err)
		}
	}
}

// DistanceQuantiles rejects NaN and ±Inf in x, and returns finite widths
// for finite x even when squared distances overflow.
func TestDegenerateDistanceQuantiles(t *testing.T) {
	x := degMat(5, 12, 3)
	q := []float64{0.1, 0.5, 0.9}
	for _, c := range []struct {
		name string
		x    *linalg.Dense
		want string
	}{
		{"x NaN", degWith(x, 1, 1, math.NaN()), "X: row 2, column 2 is NaN"},
		{"x +Inf", degWith(x, 11, 2, math.Inf(1)), "X: row 12, column 3 is +Inf"},
		{"x -Inf", degWith(x, 0, 0, math.Inf(-1)), "X: row 1, column 1 is -Inf"},
		{"x nil", nil, "X: nil matrix"},
	} {
		_, err := degCall2(func() ([]float64, error) { return DistanceQuantiles(c.x, q, 100, 1) })
		if !errors.Is(err, ErrInput) || !strings.Contains(fmt.Sprint(err), c.want) {
			t.Errorf("DistanceQuantiles(%s): err %v, want ErrInput with %q", c.name, err, c.want)
		}
	}
	base, err := DistanceQuantiles(x, q, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	big := x.Clone()
	for i := range big.Data {
		big.Data[i] *= 1e300
	}
	got, err := DistanceQuantiles(big, q, 100, 1)
	if err != nil {
		t.Fatal(err)
	}
	for j := range got {
		if r := got[j] / 1e300 / base[j]; math.IsInf(got[j], 0) || math.Abs(r-1) > 1e-12 {
			t.Errorf("DistanceQuantiles(x·1e300)[%d] = %v, want %v·1e300", j, got[j], base[j])
		}
	}
}

func degCall2(f func() ([]float64, error)) (v []float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// Leave-one-out needs at least 2 points, in every entry point.
func TestDegenerateOnePoint(t *testing.T) {
	x1, y1 := degMat(6, 1, 2), degMat(7, 1, 1)
	g := kernels.Gaussian{Sigma: 1}
	s1 := degSpectral(t, g, x1, y1)
	lambdas := []float64{1e-3, 1}
	type entry struct {
		name string
		f    func() error
	}
	var cases []entry
	for _, ic := range intercepts {
		cases = append(cases, entry{fmt.Sprintf("RLS %v", ic), func() error { return degPath(RLS(s1, lambdas, ic)) }})
		lp, err := regress.NewLinearPath(x1, y1, ic)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, entry{fmt.Sprintf("Linear %v", ic), func() error { return degPath(Linear(lp, lambdas)) }})
		cfg := regress.Nystrom{Kernel: g, Centers: 1, Seed: 1, Intercept: ic}
		cases = append(cases, entry{fmt.Sprintf("Nystrom %v", ic), func() error { return degPath(Nystrom(cfg, x1, y1, lambdas)) }})
		cases = append(cases, entry{fmt.Sprintf("SelectRLS %v", ic), func() error {
			_, _, err := SelectRLS(func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, x1, y1, []float64{1}, lambdas, ic)
			return err
		}})
	}
	for _, ic := range intercepts[:2] {
		fs := []regress.Filter{regress.TikhonovFilter{Lambda: 1e-2}, regress.LandweberFilter{Steps: 3}}
		cases = append(cases, entry{fmt.Sprintf("Filters %v", ic), func() error { return degPath(Filters(s1, fs, ic)) }})
	}
	cases = append(cases, entry{"Augmented", func() error { return degPath(Augmented(s1, lambdas)) }})
	for _, c := range cases {
		err := degCall(c.f)
		if !errors.Is(err, ErrInput) || !strings.Contains(fmt.Sprint(err), "at least 2") {
			t.Errorf("%s on 1 point: err %v, want ErrInput with \"at least 2\"", c.name, err)
		}
	}
}

// A system that is singular in floating point gives an error that
// names the parameter and wraps linalg.ErrNotPositiveDefinite, not NaN.
func TestDegenerateSingular(t *testing.T) {
	y := degMat(9, 10, 1)
	zeroK := degSpectral(t, kernels.Linear{}, linalg.NewDense(10, 2, nil), y) // K = 0
	// Two points far apart: K = I exactly, every point has leverage 1 as
	// λ → 0, so 1 − Hᵢᵢ = 0 in floating point for λ = 1e-300.
	xFar := linalg.NewDense(2, 2, []float64{0, 0, 100, 0})
	yFar := linalg.NewDense(2, 1, []float64{1, -2})
	lpEye, err := regress.NewLinearPath(linalg.NewDense(2, 2, []float64{1, 0, 0, 1}), yFar, regress.NoIntercept)
	if err != nil {
		t.Fatal(err)
	}
	tiny := []float64{1e-2, 1e-300}
	for _, c := range []struct {
		name, want string
		f          func() error
	}{
		{"RLS penalized, K = 0", "RLS: ", func() error { return degPath(RLS(zeroK, tiny, regress.PenalizedIntercept)) }},
		{"Augmented, K = 0", "Augmented: ", func() error { return degPath(Augmented(zeroK, tiny)) }},
		{"Linear, leverage 1", "Linear: ", func() error { return degPath(Linear(lpEye, tiny)) }},
		{"Nystrom, leverage 1", "Nystrom: ", func() error {
			return degPath(Nystrom(regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Centers: 2, Seed: 1}, xFar, yFar, tiny))
		}},
	} {
		err := degCall(c.f)
		msg := fmt.Sprint(err)
		if !errors.Is(err, linalg.ErrNotPositiveDefinite) || !strings.Contains(msg, "numerically singular") || !strings.Contains(msg, c.want) {
			t.Errorf("%s: err %v, want linalg.ErrNotPositiveDefinite, \"numerically singular\" and %q", c.name, err, c.want)
		}
		if !strings.Contains(msg, "λ = 1e-300") {
			t.Errorf("%s: error %q does not name λ = 1e-300", c.name, msg)
		}
	}
	// The same entry points at a regular λ: no error.
	if _, err := RLS(zeroK, []float64{1e-2}, regress.PenalizedIntercept); err != nil {
		t.Errorf("RLS penalized, K = 0, λ = 1e-2: %v", err)
	}
	if _, err := Augmented(zeroK, []float64{1e-2}); err != nil {
		t.Errorf("Augmented, K = 0, λ = 1e-2: %v", err)
	}
}

// Inputs the audit also found: a nil filter, a nil kernel function and a
// negative Split size.
func TestDegenerateNilArguments(t *testing.T) {
	x, y := degMat(10, 8, 2), degMat(11, 8, 1)
	s := degSpectral(t, kernels.Gaussian{Sigma: 1}, x, y)
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"Filters nil filter", func() error { return degPath(Filters(s, []regress.Filter{nil}, regress.NoIntercept)) }},
		{"SelectRLS nil kernel", func() error {
			_, _, err := SelectRLS(nil, x, y, []float64{1}, []float64{1e-3}, regress.NoIntercept)
			return err
		}},
	} {
		if err := degCall(c.f); !errors.Is(err, ErrInput) {
			t.Errorf("%s: err %v, want ErrInput", c.name, err)
		}
	}
	msg := func() (msg string) {
		defer func() { msg = fmt.Sprint(recover()) }()
		Split(-1, 0.3, 1)
		return ""
	}()
	if !strings.HasPrefix(msg, "loo: Split") {
		t.Errorf("Split(-1, …): panic %q, want the documented loo: Split panic", msg)
	}
}

// TestDegenerateKeptInSelection: SelectRLS keeps a numerically singular λ in
// its table (a non-finite score) and chooses among the others.
func TestDegenerateKeptInSelection(t *testing.T) {
	y := degMat(9, 10, 1)
	lambdas := []float64{1e-2, 1e-300}
	choice, table, err := SelectRLS(func(float64) kernels.Kernel { return kernels.Linear{} }, linalg.NewDense(10, 2, nil), y, []float64{1}, lambdas, regress.PenalizedIntercept)
	if err != nil {
		t.Fatal(err)
	}
	if choice.Lambda != 1e-2 {
		t.Errorf("chose λ = %g, want 1e-2", choice.Lambda)
	}
	if v := table.Scores[0][1]; !math.IsNaN(v) && !math.IsInf(v, 0) {
		t.Errorf("score at λ = 1e-300 is %v, want NaN or ±Inf (singular)", v)
	}
}

// TestDegenerateFilterKeepsNothing: a truncated SVD that keeps no
// eigendirection fits the mean of y (regress.Spectral, free intercept), so
// H = 11ᵀ/n: rᵢ = (yᵢ − ȳ)·n/(n − 1) and GCV = n‖y − ȳ‖²/(n − 1)².
func TestDegenerateFilterKeepsNothing(t *testing.T) {
	x, y := degMat(8, 10, 2), degMat(9, 10, 2)
	s := degSpectral(t, kernels.Gaussian{Sigma: 1}, x, y)
	p, err := Filters(s, []regress.Filter{regress.TikhonovFilter{Lambda: 1e-2}, regress.TruncatedSVDFilter{Lambda: 1e300}}, regress.FreeIntercept)
	if err != nil {
		t.Fatal(err)
	}
	n := float64(y.Rows)
	var gcv float64
	for k := 0; k < y.Cols; k++ {
		var mean, ss float64
		for i := 0; i < y.Rows; i++ {
			mean += y.At(i, k) / n
		}
		for i := 0; i < y.Rows; i++ {
			d := y.At(i, k) - mean
			ss += d * d
			if got, want := p.Residuals[1].At(i, k), d*n/(n-1); !(math.Abs(got-want) <= 1e-13*(1+math.Abs(want))) {
				t.Errorf("output %d, point %d: residual %v, want %v", k, i, got, want)
			}
		}
		gcv += n * ss / ((n - 1) * (n - 1))
	}
	gcv /= float64(y.Cols)
	if got := p.GCV[1]; !(math.Abs(got-gcv) <= 1e-13*gcv) {
		t.Errorf("GCV %v, want %v", got, gcv)
	}
}
