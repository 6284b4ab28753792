package loo

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

func gaussianOf(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }

// TestSelectNystromMatchesInMemory: the streamed σ × λ table equals the
// in-memory Nystrom path of every σ, the choice is the table's minimum,
// and the fit is NystromStats.Solve's at that pair.
func TestSelectNystromMatchesInMemory(t *testing.T) {
	x, y := housing(160)
	c := x.Slice(0, 40, 0, x.Cols).Clone()
	sigmas := []float64{0.8, 1.5, 3}
	lambdas := Geometric(1e-5, 1e-1, 5)
	for _, ic := range intercepts {
		var passes []float64
		sel, err := SelectNystrom{Kernel: gaussianOf, Centers: c, Sigmas: sigmas, Lambdas: lambdas, Intercept: ic,
			Progress: func(pass, total int, s float64) { passes = append(passes, s) }}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if want := []float64{math.NaN(), math.NaN()}; !slices.EqualFunc(passes, want, func(a, b float64) bool { return math.IsNaN(a) && math.IsNaN(b) }) {
			t.Errorf("%v: progress %v, want %v", ic, passes, want)
		}
		best := Choice{Score: math.Inf(1)}
		for a, s := range sigmas {
			p, err := Nystrom(regress.Nystrom{Kernel: gaussianOf(s), Given: c, Intercept: ic}, x, y, lambdas)
			if err != nil {
				t.Fatal(err)
			}
			for j, v := range p.MSE {
				if r := math.Abs(sel.Scores.Scores[a][j]-v) / v; r > 1e-9 {
					t.Errorf("%v σ=%g λ=%g: streamed %.12g, in memory %.12g", ic, s, lambdas[j], sel.Scores.Scores[a][j], v)
				}
				if v < best.Score {
					best = Choice{Sigma: s, Lambda: lambdas[j], Score: v}
				}
			}
		}
		if sel.Sigma != best.Sigma || sel.Lambda != best.Lambda {
			t.Errorf("%v: chose σ=%g λ=%g, in memory σ=%g λ=%g", ic, sel.Sigma, sel.Lambda, best.Sigma, best.Lambda)
		}
		want, err := regress.Nystrom{Kernel: gaussianOf(sel.Sigma), Given: c, Lambda: sel.Lambda, Intercept: ic}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := sel.Fit.Predict(x)
		pw, _ := want.Predict(x)
		if r := maxRel(got, pw); r > 1e-8 {
			t.Errorf("%v: the selected fit's predictions differ from Nystrom.Fit's by %.2g", ic, r)
		}
	}
}

// TestSelectNystromGCVAndSubset: with the GCV criterion one pass
// and the choice minimizes GCV; with Subset the leave-one-out means are
// over the drawn rows, each residual exact, and StdErr is the standard
// error of the mean of a sample without replacement computed from the
// in-memory residuals of those rows; with every row it is 0.
func TestSelectNystromGCVAndSubset(t *testing.T) {
	x, y := housing(150)
	c := x.Slice(0, 30, 0, x.Cols).Clone()
	lambdas := Geometric(1e-4, 1, 5)
	passes := 0
	sel, err := SelectNystrom{Kernel: gaussianOf, Centers: c, Sigmas: []float64{1, 2}, Lambdas: lambdas,
		Intercept: regress.FreeIntercept, Criterion: GCV, Progress: func(int, int, float64) { passes++ }}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if passes != 1 || sel.LOO[0] != nil || sel.StdErr[0] != nil {
		t.Errorf("GCV criterion: %d passes, LOO %v, StdErr %v; want 1 pass for both σ and neither", passes, sel.LOO, sel.StdErr)
	}
	for a := range sel.GCV {
		for j, v := range sel.GCV[a] {
			if v < sel.Score {
				t.Errorf("GCV[%d][%d] = %g below the chosen score %g", a, j, v, sel.Score)
			}
		}
	}
	const k = 60
	sub, err := SelectNystrom{Kernel: gaussianOf, Centers: c, Sigmas: []float64{1.5}, Lambdas: lambdas,
		Intercept: regress.FreeIntercept, Subset: k, Seed: 9}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	full, err := Nystrom(regress.Nystrom{Kernel: gaussianOf(1.5), Given: c, Intercept: regress.FreeIntercept}, x, y, lambdas)
	if err != nil {
		t.Fatal(err)
	}
	idx := rand.New(rand.NewPCG(9, 0x6c6f6f737562)).Perm(x.Rows)[:k]
	if got, want := (SelectNystrom{Subset: k, Seed: 9}).SubsetRows(x.Rows), slices.Sorted(slices.Values(idx)); !slices.Equal(got, want) {
		t.Errorf("SubsetRows: %v, want the rows the subset's scores are over, %v", got, want)
	}
	for _, sub := range []int{0, x.Rows, x.Rows + 1} {
		if got := (SelectNystrom{Subset: sub, Seed: 9}).SubsetRows(x.Rows); got != nil {
			t.Errorf("SubsetRows with Subset %d of %d rows: %v, want nil (every row)", sub, x.Rows, got)
		}
	}
	for j := range lambdas {
		var s float64
		e := make([]float64, k) // the rows' errors, the mean over the outputs
		for a, i := range idx {
			for _, r := range full.Residuals[j].Row(i) {
				s += r * r
				e[a] += r * r / float64(y.Cols)
			}
		}
		want := s / float64(k*y.Cols)
		if got := sub.LOO[0][j]; math.Abs(got-want)/want > 1e-9 || sub.LOORows != k {
			t.Errorf("λ=%g: subset LOO %.12g over %d rows, want %.12g over %d", lambdas[j], got, sub.LOORows, want, k)
		}
		var v float64
		for _, ea := range e {
			v += (ea - want) * (ea - want)
		}
		wantSE := math.Sqrt((1 - float64(k)/float64(x.Rows)) * v / (k - 1) / k)
		if got := sub.StdErr[0][j]; !(math.Abs(got-wantSE) <= 1e-8*wantSE) {
			t.Errorf("λ=%g: subset StdErr %.12g, want %.12g", lambdas[j], got, wantSE)
		}
	}
	every, err := SelectNystrom{Kernel: gaussianOf, Centers: c, Sigmas: []float64{1.5}, Lambdas: lambdas,
		Intercept: regress.FreeIntercept}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	for j, v := range every.StdErr[0] {
		if v != 0 {
			t.Errorf("λ=%g: StdErr %g with every row, want 0", lambdas[j], v)
		}
	}
}

// TestSelectNystromBadInput: misuse is an InputError.
func TestSelectNystromBadInput(t *testing.T) {
	x, y := housing(40)
	c := x.Slice(0, 8, 0, x.Cols).Clone()
	ok := SelectNystrom{Kernel: gaussianOf, Centers: c, Sigmas: []float64{1}, Lambdas: []float64{1e-2}}
	nan := x.Clone()
	nan.Set(1, 1, math.NaN())
	scaled := func(f float64) *linalg.Dense {
		v := y.Clone()
		for i := range v.Data {
			v.Data[i] *= f
		}
		return v
	}
	for _, c := range []struct {
		name string
		edit func(*SelectNystrom)
		x    *linalg.Dense
		nf   bool
		y    *linalg.Dense // nil: y
		arg  string        // "": any
	}{
		{"subset of one row", func(s *SelectNystrom) { s.Subset = 1 }, x, false, nil, "Subset"},
		{"GCV on a subset", func(s *SelectNystrom) { s.Criterion, s.Subset = GCV, 10 }, x, false, nil, "Subset"},
		{"error rate of labels that are not codes", func(s *SelectNystrom) { s.Criterion = LOOErrorRate }, x, false, nil, "Y"},
		{"error rate of codes with two +1", func(s *SelectNystrom) { s.Criterion = LOOErrorRate }, x, false,
			linalg.NewDense(x.Rows, 2, func() []float64 {
				v := make([]float64, 2*x.Rows)
				for i := range v {
					v[i] = 1
				}
				return v
			}()), "Y"},
		{"labels × 1e300", func(s *SelectNystrom) {}, x, false, scaled(1e300), "Y"},
		{"labels × 1e-300", func(s *SelectNystrom) {}, x, false, scaled(1e-300), "Y"},
		{"nil kernel", func(s *SelectNystrom) { s.Kernel = nil }, x, false, nil, ""},
		{"σ = 0", func(s *SelectNystrom) { s.Sigmas = []float64{1, 0} }, x, false, nil, ""},
		{"λ < 0", func(s *SelectNystrom) { s.Lambdas = []float64{-1} }, x, false, nil, ""},
		{"λ Inf", func(s *SelectNystrom) { s.Lambdas = []float64{math.Inf(1)} }, x, true, nil, ""},
		{"no centres", func(s *SelectNystrom) { s.Centers = nil }, x, false, nil, ""},
		{"centre width", func(s *SelectNystrom) { s.Centers = x.Slice(0, 8, 0, 2) }, x, false, nil, ""},
		{"repeated centres", func(s *SelectNystrom) {
			s.Centers = x.Slice(0, 2, 0, x.Cols).Clone()
			copy(s.Centers.Row(1), s.Centers.Row(0))
		}, x, false, nil, ""},
		{"criterion", func(s *SelectNystrom) { s.Criterion = 9 }, x, false, nil, ""},
		{"subset", func(s *SelectNystrom) { s.Subset = -1 }, x, false, nil, ""},
		{"intercept", func(s *SelectNystrom) { s.Intercept = 5 }, x, false, nil, ""},
		{"X NaN", func(s *SelectNystrom) {}, nan, true, nil, ""},
		{"bad kernel", func(s *SelectNystrom) {
			s.Kernel = func(float64) kernels.Kernel { return kernels.Gaussian{Sigma: -1} }
		}, x, false, nil, ""},
	} {
		s := ok
		c.edit(&s)
		yy := y
		if c.y != nil {
			yy = c.y
		}
		_, err := s.Fit(c.x, yy)
		var ie *linalg.InputError
		if !errors.Is(err, ErrInput) || c.arg != "" && !(errors.As(err, &ie) && ie.Arg == c.arg) {
			t.Errorf("%s: err = %v, want ErrInput on %q", c.name, err, c.arg)
		}
		if c.nf && !errors.Is(err, linalg.ErrNotFinite) {
			t.Errorf("%s: err = %v, want linalg.ErrNotFinite too", c.name, err)
		}
	}
}

// TestSelectNystromInterpolatedRow: a λ at which the fit interpolates a
// row (Hᵢᵢ = 1 to rounding: its leave-one-out residual 0/0 or ±Inf, so the
// pass's sums are not finite there; made here by setting the sum, as
// rounding makes it only by chance) scores +Inf and is never chosen, and
// the other λ of the same path keep their scores and the fit.
func TestSelectNystromInterpolatedRow(t *testing.T) {
	x, y := housing(120)
	c := x.Slice(0, 30, 0, x.Cols).Clone()
	sn := SelectNystrom{Kernel: gaussianOf, Centers: c, Sigmas: []float64{1.5}, Lambdas: Geometric(1e-5, 1e-1, 5),
		Intercept: regress.FreeIntercept}
	want, err := sn.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	stats, err := regress.NewNystromStats(gaussianOf(1.5), c)
	if err == nil {
		err = stats.Add(x, y)
	}
	if err != nil {
		t.Fatal(err)
	}
	path, idx, err := sn.path(stats, new(linalg.EigenSym))
	if err != nil || path == nil {
		t.Fatal(err, path)
	}
	a, err := path.pass("test", x, y)
	if err != nil {
		t.Fatal(err)
	}
	bestJ := slices.Index(sn.Lambdas, want.Lambda)
	for _, v := range []float64{math.NaN(), math.Inf(1)} {
		a.sse[bestJ] = v
		a.keep(x.Rows)
		sel := &NystromSelection{Scores: &Table{Sigmas: sn.Sigmas, Lambdas: sn.Lambdas}}
		var best bestPath
		sn.record(sel, &best, 0, path, idx)
		sel.Choice, _ = sel.Scores.Best()
		path.seen = 0
		for j, got := range sel.LOO[0] {
			if w := want.LOO[0][j]; (j == bestJ && !math.IsInf(got, 1)) || (j != bestJ && got != w) {
				t.Errorf("sum %v at λ=%g: LOO at λ=%g is %g, want %g (+Inf at the first)", v, sn.Lambdas[bestJ], sn.Lambdas[j], got, w)
			}
		}
		if sel.Lambda == want.Lambda || best.path != path || math.IsInf(sel.Score, 1) {
			t.Errorf("sum %v: chose λ=%g (score %g), the λ whose sum is not finite is %g", v, sel.Lambda, sel.Score, want.Lambda)
		}
	}
}
