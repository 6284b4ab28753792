package interval

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"rkhs/classify"
	"rkhs/internal/coding"
	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// classProblem returns n rows in [−2, 2]² labelled by the quadrant-like
// rule of classes labels (1…classes), with 10 % of the labels flipped.
func classProblem(seed uint64, n, t, classes int) (x *linalg.Dense, labels []float64, xt *linalg.Dense) {
	rnd := testmat.NewRand(seed)
	x, xt = linalg.NewDense(n, 2, nil), linalg.NewDense(t, 2, nil)
	for _, m := range []*linalg.Dense{x, xt} {
		for i := range m.Data {
			m.Data[i] = 4*rnd.Float64() - 2
		}
	}
	labels = make([]float64, n)
	for i := range labels {
		a := math.Atan2(x.At(i, 1), x.At(i, 0)) + math.Pi
		c := int(a/(2*math.Pi)*float64(classes)) % classes
		if rnd.Float64() < 0.1 {
			c = rnd.IntN(classes)
		}
		labels[i] = float64(c + 1)
	}
	return x, labels, xt
}

// bruteSets refits the coded RLS without each fold of folds (singletons
// for jackknife+) and builds the label sets of Classes by counting; it
// returns the sets and each row's score under the model without its fold.
func bruteSets(t *testing.T, ova bool, fit refit, x *linalg.Dense, labels []float64, xt *linalg.Dense, level float64, folds [][]int) ([][]float64, []float64) {
	t.Helper()
	classes := slices.Compact(slices.Sorted(slices.Values(labels)))
	q := 1
	if ova || len(classes) > 2 {
		q = len(classes)
	}
	y := linalg.NewDense(len(labels), q, nil)
	coding.Targets(y, labels, classes)
	n := x.Rows
	score := make([]float64, n)
	at := make([]*linalg.Dense, n)
	decision := func(row []float64, ci int) float64 {
		if q == 1 {
			return float64(2*ci-1) * row[0]
		}
		return row[ci]
	}
	for _, f := range folds {
		m := fit(t, without(x, f), without(y, f), n)
		pt, _ := m.Predict(xt)
		pf, _ := m.Predict(rowsOf(x, f))
		for r, i := range f {
			at[i] = pt
			ci, _ := slices.BinarySearch(classes, labels[i])
			score[i] = -decision(pf.Row(r), ci)
		}
	}
	_, hi := ranks(n, level)
	sets := make([][]float64, xt.Rows)
	for j := range sets {
		for ci, l := range classes {
			count := 0
			for i := 0; i < n; i++ {
				if -decision(at[i].Row(j), ci) > score[i] {
					count++
				}
			}
			if count < hi {
				sets[j] = append(sets[j], l)
			}
		}
	}
	return sets, score
}

// TestClassifyRLSEqualsRefits: the label sets from the exact leave-one-out
// decision values equal those of n refits, binary and one-vs-all, in
// every intercept mode.
func TestClassifyRLSEqualsRefits(t *testing.T) {
	for _, tc := range []struct {
		classes int
		ova     bool
	}{{2, false}, {2, true}, {3, true}} {
		x, labels, xt := classProblem(11, 40, 12, tc.classes)
		for _, ic := range intercepts {
			t.Run(fmt.Sprintf("classes=%d/ova=%v/%v", tc.classes, tc.ova, ic), func(t *testing.T) {
				cfg := classify.RLS{Kernel: kernels.Gaussian{Sigma: 0.7}, Lambda: 1e-2, Intercept: ic, OneVsAll: tc.ova}
				c, err := ClassifyRLS(cfg, x, labels)
				if err != nil {
					t.Fatal(err)
				}
				for _, level := range []float64{0.7, 0.9} {
					got, err := c.Predict(xt, level)
					if err != nil {
						t.Fatal(err)
					}
					want, _ := bruteSets(t, tc.ova, rlsRefit(regress.RLS{Kernel: cfg.Kernel, Lambda: cfg.Lambda, Intercept: cfg.Intercept}), x, labels, xt, level, singletons(x.Rows))
					for j := range want {
						if !slices.Equal(got.Sets[j], want[j]) {
							t.Errorf("level %g, test row %d: set %v, want %v", level, j, got.Sets[j], want[j])
						}
					}
				}
			})
		}
	}
}

// TestClassifyNystromEqualsRefits: the label sets of the Nyström
// classifier equal those of n refits with the same centres.
func TestClassifyNystromEqualsRefits(t *testing.T) {
	x, labels, xt := classProblem(12, 40, 12, 3)
	for _, ic := range intercepts {
		t.Run(fmt.Sprint(ic), func(t *testing.T) {
			cfg := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 0.7}, Lambda: 1e-2, Centers: 15, Seed: 4, Intercept: ic}
			c, err := ClassifyNystrom(cfg, true, x, labels)
			if err != nil {
				t.Fatal(err)
			}
			got, err := c.Predict(xt, 0.8)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := bruteSets(t, true, nystromRefit(cfg, c.Model().Model.Centers), x, labels, xt, 0.8, singletons(x.Rows))
			for j := range want {
				if !slices.Equal(got.Sets[j], want[j]) {
					t.Errorf("test row %d: set %v, want %v", j, got.Sets[j], want[j])
				}
			}
		})
	}
}

// TestClassifyCVEqualsRefits: the CV+ label sets of exact RLS and of
// Nyström equal those of K brute-force refits without each fold (same
// centres, the penalty nλ held), binary and one-vs-all, in every
// intercept mode; each row's score under its fold's model matches the
// refit's to 1e-9.
func TestClassifyCVEqualsRefits(t *testing.T) {
	for _, tc := range []struct {
		classes int
		ova     bool
		nystrom bool
	}{{2, false, false}, {2, true, false}, {3, true, false}, {2, false, true}, {3, true, true}} {
		x, labels, xt := classProblem(13, 45, 15, tc.classes)
		folds, err := Folds(x.Rows, 6, 3)
		if err != nil {
			t.Fatal(err)
		}
		for _, ic := range intercepts {
			t.Run(fmt.Sprintf("classes=%d/ova=%v/nystrom=%v/%v", tc.classes, tc.ova, tc.nystrom, ic), func(t *testing.T) {
				k := kernels.Gaussian{Sigma: 0.7}
				var c *Classes
				var fit refit
				if tc.nystrom {
					cfg := regress.Nystrom{Kernel: k, Lambda: 1e-2, Centers: 15, Seed: 4, Intercept: ic}
					if c, err = ClassifyNystromCV(cfg, tc.ova, x, labels, folds); err != nil {
						t.Fatal(err)
					}
					fit = nystromRefit(cfg, c.Model().Model.Centers)
				} else {
					cfg := classify.RLS{Kernel: k, Lambda: 1e-2, Intercept: ic, OneVsAll: tc.ova}
					if c, err = ClassifyRLSCV(cfg, x, labels, folds); err != nil {
						t.Fatal(err)
					}
					fit = rlsRefit(regress.RLS{Kernel: k, Lambda: cfg.Lambda, Intercept: ic})
				}
				for _, level := range []float64{0.7, 0.9} {
					got, err := c.Predict(xt, level)
					if err != nil {
						t.Fatal(err)
					}
					want, score := bruteSets(t, tc.ova, fit, x, labels, xt, level, folds)
					for j := range want {
						if !slices.Equal(got.Sets[j], want[j]) {
							t.Errorf("level %g, test row %d: set %v, want %v", level, j, got.Sets[j], want[j])
						}
					}
					for kk, f := range folds {
						ws := make([]float64, len(f))
						for r, i := range f {
							ws[r] = score[i]
						}
						slices.Sort(ws)
						for r := range ws {
							if d := math.Abs(c.foldScores[kk][r] - ws[r]); d > 1e-9*(1+math.Abs(ws[r])) {
								t.Fatalf("fold %d: score %v, the refit's %v", kk, c.foldScores[kk][r], ws[r])
							}
						}
					}
				}
			})
		}
	}
}
