package classify

import (
	"errors"
	"math"
	"slices"
	"testing"

	"rkhs/internal/coding"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

func gaussianOf(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }

// threeClasses returns n points of three Gaussian clouds, labels 1, 2, 3.
func threeClasses(seed uint64, n int) (*linalg.Dense, []float64) {
	rnd := newRand(seed)
	x := linalg.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range n {
		c := i % 3
		y[i] = float64(c + 1)
		x.Set(i, 0, rnd.NormFloat64()+2*math.Cos(2*math.Pi*float64(c)/3))
		x.Set(i, 1, rnd.NormFloat64()+2*math.Sin(2*math.Pi*float64(c)/3))
	}
	return x, y
}

// TestSelectRLSBruteForce: the choice is the pair a brute-force scan of
// the per-σ RLS fits picks by the rule (fewest errors, then the smallest
// squared residual, then the first pair), and the model predicts as the
// RLS fit at that pair; the table holds every σ's path.
func TestSelectRLSBruteForce(t *testing.T) {
	for _, c := range []struct {
		name   string
		seed   uint64
		three  bool
		sigmas []float64
	}{
		{"two classes", 1, false, []float64{0.3, 1, 3}},
		{"three classes", 2, true, []float64{0.5, 2}},
	} {
		x, labels := blobs(c.seed, 90, 3, 0.8, -1, 1)
		if c.three {
			x, labels = threeClasses(c.seed, 90)
		}
		lambdas := loo.Geometric(1e-6, 1, 7)
		sel, err := SelectRLS{Kernel: gaussianOf, Sigmas: c.sigmas, Lambdas: lambdas, Intercept: regress.FreeIntercept}.Fit(x, labels)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ba, bj, bestErr, bestMSE := -1, -1, math.Inf(1), math.Inf(1)
		for a, s := range c.sigmas {
			m, err := RLS{Kernel: gaussianOf(s), ChooseLambda: true, Lambdas: lambdas, Intercept: regress.FreeIntercept}.Fit(x, labels)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(sel.Scores.Scores[a], m.LOOErrors) || !slices.Equal(sel.Scores.Ties[a], m.LOOMSE) {
				t.Errorf("%s: row %d of the table is not σ = %g's path", c.name, a, s)
			}
			for j := range lambdas {
				if e, q := m.LOOErrors[j], m.LOOMSE[j]; e < bestErr || e == bestErr && q < bestMSE {
					ba, bj, bestErr, bestMSE = a, j, e, q
				}
			}
		}
		if sel.Sigma != c.sigmas[ba] || sel.Lambda != lambdas[bj] || sel.Score != bestErr {
			t.Errorf("%s: chose σ %g, λ %g (%g); brute force σ %g, λ %g (%g)", c.name, sel.Sigma, sel.Lambda, sel.Score, c.sigmas[ba], lambdas[bj], bestErr)
		}
		want, err := RLS{Kernel: gaussianOf(sel.Sigma), Lambda: sel.Lambda, Intercept: regress.FreeIntercept}.Fit(x, labels)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := sel.Model.Scores(x)
		ref, _ := want.Scores(x)
		for i := range got.Data {
			if d := math.Abs(got.Data[i] - ref.Data[i]); d > 1e-8*(1+math.Abs(ref.Data[i])) {
				t.Fatalf("%s: score %d is %g, the fit at the pair gives %g", c.name, i, got.Data[i], ref.Data[i])
			}
		}
	}
}

// TestSelectNystromCodes: the classifier selection is loo.SelectNystrom on
// the ±1 codes, bit for bit, with the error rate by default; the
// classifier's model is the selection's fit.
func TestSelectNystromCodes(t *testing.T) {
	x, labels := threeClasses(3, 120)
	centers := x.Slice(0, 25, 0, 2).Clone()
	base := loo.SelectNystrom{Kernel: gaussianOf, Centers: centers, Sigmas: []float64{0.5, 1.5}, Lambdas: loo.Geometric(1e-6, 1e-1, 6), Intercept: regress.FreeIntercept}
	for _, c := range []struct {
		crit ClassCriterion
		want loo.Criterion
	}{{ErrorRate, loo.LOOErrorRate}, {CodeMSE, loo.LOOMSE}, {GCV, loo.GCV}} {
		got, err := SelectNystrom{Selection: base, Criterion: c.crit}.Fit(x, labels)
		if err != nil {
			t.Fatal(err)
		}
		y := linalg.NewDense(len(labels), 3, nil)
		coding.Targets(y, labels, []float64{1, 2, 3})
		ref := base
		ref.Criterion = c.want
		want, err := ref.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if got.Choice != want.Choice || got.Criterion != c.want || !slices.Equal(got.Scores.Scores[1], want.Scores.Scores[1]) {
			t.Errorf("criterion %d: %+v, want %+v", c.crit, got.Choice, want.Choice)
		}
		if got.Classifier.Model != got.Fit.Model || got.Classifier.Lambda != got.Lambda || !slices.Equal(got.Classifier.Classes, []float64{1, 2, 3}) {
			t.Errorf("criterion %d: classifier %+v is not the selection's fit", c.crit, got.Classifier)
		}
	}
}

// TestSelectBadInput: one error, naming the argument, for each bad input.
func TestSelectBadInput(t *testing.T) {
	x, labels := blobs(1, 30, 2, 1, 0, 1)
	one := make([]float64, len(labels))
	c := x.Slice(0, 5, 0, 2).Clone()
	for _, tc := range []struct {
		name, arg string
		err       error
	}{
		{"nil kernel", "Kernel", errOf2(SelectRLS{Sigmas: []float64{1}}.Fit(x, labels))},
		{"no σ", "Sigmas", errOf2(SelectRLS{Kernel: gaussianOf}.Fit(x, labels))},
		{"σ NaN", "Sigmas[1]", errOf2(SelectRLS{Kernel: gaussianOf, Sigmas: []float64{1, math.NaN()}, Lambdas: []float64{1}}.Fit(x, labels))},
		{"several σ, no λ", "Lambdas", errOf2(SelectRLS{Kernel: gaussianOf, Sigmas: []float64{1, 2}}.Fit(x, labels))},
		{"one class", "labels", errOf2(SelectRLS{Kernel: gaussianOf, Sigmas: []float64{1}}.Fit(x, one))},
		{"bad kernel", "Kernel(-1)", errOf2(SelectRLS{Kernel: gaussianOf, Sigmas: []float64{1}}.Fit(x, labels)) /* replaced below */},
		{"nystrom one class", "labels", errOf2(SelectNystrom{Selection: loo.SelectNystrom{Kernel: gaussianOf, Centers: c, Sigmas: []float64{1}, Lambdas: []float64{1e-3}}}.Fit(x, one))},
		{"nystrom criterion", "Criterion", errOf2(SelectNystrom{Criterion: 7}.Fit(x, labels))},
		{"nystrom labels short", "labels", errOf2(SelectNystrom{}.Fit(x, labels[1:]))},
	} {
		if tc.name == "bad kernel" {
			tc.err = errOf2(SelectRLS{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: -s} }, Sigmas: []float64{1}}.Fit(x, labels))
			tc.arg = "Kernel(1).Sigma"
		}
		var ie *linalg.InputError
		if !errors.Is(tc.err, ErrInput) || !errors.As(tc.err, &ie) || ie.Arg != tc.arg {
			t.Errorf("%s: %v, want an ErrInput on %s", tc.name, tc.err, tc.arg)
		}
	}
}

// TestCheckClasses: the limit max(20, n/10), an explicit limit, a label
// of its own on every one of a handful of rows (refused by default,
// accepted under a limit given), and the count of distinct labels with
// −0 as 0.
func TestCheckClasses(t *testing.T) {
	for _, c := range []struct {
		distinct, n, limit int
		bad                bool
	}{
		{20, 80, 0, false}, {21, 80, 0, true}, {80, 80, 0, true}, {100, 1000, 0, false},
		{101, 1000, 0, true}, {80, 80, 80, false}, {3, 10, 2, true},
		{5, 5, 0, true}, {2, 2, 0, true}, {4, 5, 0, false}, {1, 1, 0, false}, {5, 5, 5, false}, {2, 2, 2, false},
	} {
		err := CheckClasses(c.distinct, c.n, c.limit)
		if (err != nil) != c.bad || err != nil && !errors.Is(err, ErrInput) {
			t.Errorf("%d classes in %d rows, limit %d: %v, want error %v", c.distinct, c.n, c.limit, err, c.bad)
		}
	}
	if n := CountClasses([]float64{math.Copysign(0, -1), 0, 1, 1, 2}); n != 3 {
		t.Errorf("CountClasses: %d, want 3", n)
	}
}

// TestMissingClasses: the classes no row of a subset holds, in ascending
// order, −0 as 0; none for every row (nil) or a subset holding them all.
func TestMissingClasses(t *testing.T) {
	labels := []float64{2, 0, 1, 1, math.Copysign(0, -1), 7, 2}
	for _, c := range []struct {
		rows []int
		want []float64
	}{
		{nil, nil}, {[]int{0, 1, 2, 5}, nil}, {[]int{4, 2, 5}, []float64{2}}, {[]int{1}, []float64{1, 2, 7}}, {[]int{}, []float64{0, 1, 2, 7}},
	} {
		if got := MissingClasses(labels, c.rows); !slices.Equal(got, c.want) {
			t.Errorf("rows %v: %v, want %v", c.rows, got, c.want)
		}
	}
}
