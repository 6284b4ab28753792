package interval

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/regress"
)

// TestRLSCVEqualsRefits: the CV+ ends and held-out residuals of exact RLS
// equal those of K refits without each fold, in every intercept mode.
func TestRLSCVEqualsRefits(t *testing.T) {
	x, y, xt := problem(5, 31, 6, 2)
	for _, k := range []int{2, 5} {
		folds, err := Folds(x.Rows, k, 7)
		if err != nil {
			t.Fatal(err)
		}
		for _, ic := range intercepts {
			t.Run(fmt.Sprintf("K=%d/%v", k, ic), func(t *testing.T) {
				cfg := regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 2e-3, Intercept: ic}
				cv, err := RLSCV(cfg, x, y, folds)
				if err != nil {
					t.Fatal(err)
				}
				for _, level := range []float64{0.6, 0.9} {
					got, err := cv.Predict(xt, level)
					if err != nil {
						t.Fatal(err)
					}
					lo, hi, _ := bruteIntervals(t, x, y, xt, folds, level, rlsRefit(cfg))
					if d := scaledDiff(got.Lower, lo); d > 1e-9 {
						t.Errorf("level %g: lower ends differ from refits' by %.2g", level, d)
					}
					if d := scaledDiff(got.Upper, hi); d > 1e-9 {
						t.Errorf("level %g: upper ends differ from refits' by %.2g", level, d)
					}
				}
				for f, m := range cv.Models() {
					want := rlsRefit(cfg)(t, without(x, folds[f]), without(y, folds[f]), x.Rows)
					pw, _ := want.Predict(xt)
					pg, err := m.Predict(xt)
					if err != nil {
						t.Fatal(err)
					}
					if d := scaledDiff(pg, pw); d > 1e-9 {
						t.Errorf("fold model %d differs from the refit by %.2g", f, d)
					}
				}
			})
		}
	}
}

// TestSelectShifted: the rank-r value of K shifted sorted lists, for
// every rank, is that of a sort of all the values, with ties and empty
// lists, both signs.
func TestSelectShifted(t *testing.T) {
	rnd := testmat.NewRand(9)
	for _, sizes := range [][]int{{1, 1}, {3, 0, 5}, {40, 41, 39, 40}, {200, 3, 150, 77, 1, 90, 64}} {
		l := shiftedLists{res: make([][]float64, len(sizes)), shift: make([]float64, len(sizes))}
		for k, s := range sizes {
			r := make([]float64, s)
			for i := range r {
				r[i] = math.Round(rnd.Float64()*20) / 4 // ties
			}
			slices.Sort(r)
			l.res[k] = r
			l.shift[k] = math.Round(rnd.NormFloat64()*8) / 2
		}
		for _, sign := range []float64{-1, 1} {
			l.sign = sign
			var all []float64
			for k, r := range l.res {
				for _, v := range r {
					all = append(all, l.shift[k]+sign*v)
				}
			}
			slices.Sort(all)
			lo, hi := make([]int, len(sizes)), make([]int, len(sizes))
			buf := make([]float64, 0, 16*len(sizes))
			for rank := 1; rank <= len(all); rank++ {
				if got := selectShifted(&l, rank, lo, hi, buf); got != all[rank-1] {
					t.Fatalf("sizes %v, sign %v: rank %d is %v, want %v", sizes, sign, rank, got, all[rank-1])
				}
			}
		}
	}
}

// TestNthSmallest: every rank of arrays with ties, sorted, reversed and
// constant runs, against a sort.
func TestNthSmallest(t *testing.T) {
	rnd := testmat.NewRand(10)
	cases := map[string][]float64{"one": {3}, "constant": {2, 2, 2, 2, 2, 2, 2}}
	for _, n := range []int{2, 17, 100, 1000} {
		a := make([]float64, n)
		for i := range a {
			a[i] = math.Round(rnd.NormFloat64() * 5)
		}
		cases[fmt.Sprintf("random n=%d", n)] = a
		s := slices.Clone(a)
		slices.Sort(s)
		cases[fmt.Sprintf("sorted n=%d", n)] = s
		r := slices.Clone(s)
		slices.Reverse(r)
		cases[fmt.Sprintf("reversed n=%d", n)] = r
	}
	for name, a := range cases {
		want := slices.Clone(a)
		slices.Sort(want)
		for k := 1; k <= len(a); k++ {
			if got := nthSmallest(slices.Clone(a), k); got != want[k-1] {
				t.Fatalf("%s: rank %d is %v, want %v", name, k, got, want[k-1])
			}
		}
	}
}

// TestNystromCVEqualsRefits: the CV+ ends of a Nyström fit from per-fold
// statistics equal those of K refits with the same centres, in every
// intercept mode, and each fold model is the refit.
func TestNystromCVEqualsRefits(t *testing.T) {
	x, y, xt := problem(6, 45, 6, 2)
	folds, err := Folds(x.Rows, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, ic := range intercepts {
		t.Run(fmt.Sprint(ic), func(t *testing.T) {
			cfg := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Centers: 10, Seed: 2, Intercept: ic}
			cv, err := NystromCV(cfg, x, y, folds)
			if err != nil {
				t.Fatal(err)
			}
			centers := cv.Model().Centers
			got, err := cv.Predict(xt, 0.75)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi, _ := bruteIntervals(t, x, y, xt, folds, 0.75, nystromRefit(cfg, centers))
			if d := scaledDiff(got.Lower, lo); d > 1e-9 {
				t.Errorf("lower ends differ from refits' by %.2g", d)
			}
			if d := scaledDiff(got.Upper, hi); d > 1e-9 {
				t.Errorf("upper ends differ from refits' by %.2g", d)
			}
			fit, err := cfg.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := fit.Predict(xt)
			if d := scaledDiff(got.Prediction, want); d > 1e-9 {
				t.Errorf("predictions differ from regress.Nystrom's by %.2g", d)
			}
		})
	}
}
