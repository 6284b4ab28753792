package interval

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// streamFolds returns the folds StreamFold draws for rows 0…n−1.
func streamFolds(n, k int, seed uint64) [][]int {
	folds := make([][]int, k)
	for i := 0; i < n; i++ {
		j := StreamFold(seed, i, k)
		folds[j] = append(folds[j], i)
	}
	return folds
}

// streamCV runs both passes over x, y in the pieces cut (row indices,
// increasing) as separate shards merged in order, and returns the CV:
// fixed λ when sn is nil, otherwise the folds' own GCV choice.
func streamCV(t *testing.T, ks []kernels.Kernel, centers, x, y *linalg.Dense, k int, seed uint64, cuts []int, lambda float64, ic regress.Intercept, sn *loo.SelectNystrom) *CV {
	t.Helper()
	bounds := append(append([]int{0}, cuts...), x.Rows)
	var all *FoldStats
	for s := 0; s+1 < len(bounds); s++ {
		a, b := bounds[s], bounds[s+1]
		f, err := NewFoldStats(ks, centers, k, seed, a)
		if err != nil {
			t.Fatal(err)
		}
		// Within a shard, rows in two Add calls of odd sizes.
		mid := a + (b-a)/3
		for _, r := range [][2]int{{a, mid}, {mid, b}} {
			if r[1] > r[0] {
				if err := f.Add(x.Slice(r[0], r[1], 0, x.Cols), y.Slice(r[0], r[1], 0, y.Cols)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if all == nil {
			all = f
		} else if err := all.Merge(f); err != nil {
			t.Fatal(err)
		}
	}
	var fits *FoldFits
	var err error
	if sn == nil {
		fits, err = all.Models(lambda, ic)
	} else {
		fits, err = all.Choose(*sn)
	}
	if err != nil {
		t.Fatal(err)
	}
	var pass *CVPass
	for s := 0; s+1 < len(bounds); s++ {
		a, b := bounds[s], bounds[s+1]
		p, err := fits.Pass(a)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Add(x.Slice(a, b, 0, x.Cols), y.Slice(a, b, 0, y.Cols)); err != nil {
			t.Fatal(err)
		}
		if pass == nil {
			pass = p
		} else if err := pass.Merge(p); err != nil {
			t.Fatal(err)
		}
	}
	cv, err := pass.CV()
	if err != nil {
		t.Fatal(err)
	}
	return cv
}

// TestStreamedCVEqualsRefits: the streamed CV+ at a fixed λ, its rows in
// one shard or three, has the ends of K brute-force Nyström refits without
// each fold (same centres, penalty nλ) to 1e-9, in every intercept mode;
// each fold model predicts as its refit; Prediction is regress.Nystrom's
// fit on all rows.
func TestStreamedCVEqualsRefits(t *testing.T) {
	x, y, xt := problem(41, 1500, 7, 2)
	centers := x.Slice(0, 25, 0, 2).Clone()
	const k, seed, lambda = 5, 9, 1e-3
	folds := streamFolds(x.Rows, k, seed)
	ks := []kernels.Kernel{kernels.Gaussian{Sigma: 1}}
	for _, ic := range intercepts {
		cfg := regress.Nystrom{Kernel: ks[0], Lambda: lambda, Given: centers, Intercept: ic}
		lo, hi, _ := bruteIntervals(t, x, y, xt, folds, 0.8, nystromRefit(cfg, centers))
		fit, err := cfg.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := fit.Predict(xt)
		for _, cuts := range [][]int{nil, {400, 1111}} {
			t.Run(fmt.Sprintf("%v/shards=%d", ic, len(cuts)+1), func(t *testing.T) {
				cv := streamCV(t, ks, centers, x, y, k, seed, cuts, lambda, ic, nil)
				if cv.Rows() != x.Rows {
					t.Errorf("%d rows, want %d", cv.Rows(), x.Rows)
				}
				got, err := cv.Predict(xt, 0.8)
				if err != nil {
					t.Fatal(err)
				}
				if d := scaledDiff(got.Lower, lo); d > 1e-9 {
					t.Errorf("lower ends differ from refits' by %.2g", d)
				}
				if d := scaledDiff(got.Upper, hi); d > 1e-9 {
					t.Errorf("upper ends differ from refits' by %.2g", d)
				}
				if d := scaledDiff(got.Prediction, want); d > 1e-9 {
					t.Errorf("predictions differ from regress.Nystrom's by %.2g", d)
				}
				for j, m := range cv.Models() {
					c := cfg
					c.Lambda = lambda * float64(x.Rows) / float64(x.Rows-len(folds[j]))
					ref, err := c.Fit(without(x, folds[j]), without(y, folds[j]))
					if err != nil {
						t.Fatal(err)
					}
					pr, _ := ref.Predict(xt)
					pm, _ := m.Predict(xt)
					if d := scaledDiff(pm, pr); d > 1e-9 {
						t.Errorf("fold model %d differs from its refit by %.2g", j, d)
					}
				}
				if _, _, ok := cv.Choices(); ok {
					t.Error("Choices reported for a fixed λ")
				}
			})
		}
	}
}

// gcvRefit chooses σ and λ by sn (GCV) on the rows given and fits there:
// the brute force of a fold's own choice.
func gcvRefit(sn loo.SelectNystrom) refit {
	return func(t *testing.T, x, y *linalg.Dense, n int) predictor {
		sel, err := sn.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		return sel.Fit
	}
}

// TestStreamedCVChosenEqualsRefits: with each fold choosing σ and λ by
// GCV from its merged statistics, the streamed CV+ equals K brute-force
// selections (loo.SelectNystrom.Fit on the rows outside each fold) and
// their fits to 1e-9, with the same choices.
func TestStreamedCVChosenEqualsRefits(t *testing.T) {
	x, y, xt := problem(42, 900, 6, 1)
	centers := x.Slice(0, 20, 0, 2).Clone()
	const k, seed = 4, 3
	folds := streamFolds(x.Rows, k, seed)
	sigmas := []float64{0.5, 1, 2}
	ks := make([]kernels.Kernel, len(sigmas))
	for s, sg := range sigmas {
		ks[s] = kernels.Gaussian{Sigma: sg}
	}
	gauss := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
	for _, ic := range intercepts {
		t.Run(fmt.Sprint(ic), func(t *testing.T) {
			sn := loo.SelectNystrom{Kernel: gauss, Centers: centers, Sigmas: sigmas, Lambdas: loo.Geometric(1e-6, 1, 7), Intercept: ic, Criterion: loo.GCV}
			cv := streamCV(t, ks, centers, x, y, k, seed, []int{300}, 0, ic, &sn)
			lo, hi, _ := bruteIntervals(t, x, y, xt, folds, 0.9, gcvRefit(sn))
			got, err := cv.Predict(xt, 0.9)
			if err != nil {
				t.Fatal(err)
			}
			if d := scaledDiff(got.Lower, lo); d > 1e-9 {
				t.Errorf("lower ends differ from refits' by %.2g", d)
			}
			if d := scaledDiff(got.Upper, hi); d > 1e-9 {
				t.Errorf("upper ends differ from refits' by %.2g", d)
			}
			full, chosen, ok := cv.Choices()
			if !ok || len(chosen) != k {
				t.Fatalf("Choices: %v %v %v", full, chosen, ok)
			}
			all, err := sn.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			if full.Sigma != all.Sigma || full.Lambda != all.Lambda {
				t.Errorf("full fit chose σ=%g λ=%g, the selection on all rows σ=%g λ=%g", full.Sigma, full.Lambda, all.Sigma, all.Lambda)
			}
			for j, f := range folds {
				sel, err := sn.Fit(without(x, f), without(y, f))
				if err != nil {
					t.Fatal(err)
				}
				if chosen[j].Sigma != sel.Sigma || chosen[j].Lambda != sel.Lambda {
					t.Errorf("fold %d chose σ=%g λ=%g, its refit σ=%g λ=%g", j, chosen[j].Sigma, chosen[j].Lambda, sel.Sigma, sel.Lambda)
				}
			}
		})
	}
}

// TestNystromCVChosenEqualsRefits: in memory, with the leave-one-out
// criterion and with GCV, each fold's choice and model are the
// selection's on the rows outside the fold, and the ends those of the
// brute-force refits, to 1e-9.
func TestNystromCVChosenEqualsRefits(t *testing.T) {
	x, y, xt := problem(43, 120, 5, 1)
	centers := x.Slice(0, 15, 0, 2).Clone()
	folds, _ := Folds(x.Rows, 4, 2)
	gauss := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
	for _, crit := range []loo.Criterion{loo.LOOMSE, loo.GCV} {
		sn := loo.SelectNystrom{Kernel: gauss, Centers: centers, Sigmas: []float64{0.7, 1.5}, Lambdas: loo.Geometric(1e-6, 1, 7), Intercept: regress.FreeIntercept, Criterion: crit}
		cv, err := NystromCVChosen(sn, x, y, folds)
		if err != nil {
			t.Fatal(err)
		}
		got, err := cv.Predict(xt, 0.8)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, _ := bruteIntervals(t, x, y, xt, folds, 0.8, gcvRefit(sn))
		if d := max(scaledDiff(got.Lower, lo), scaledDiff(got.Upper, hi)); d > 1e-9 {
			t.Errorf("%v: ends differ from refits' by %.2g", crit, d)
		}
		_, chosen, _ := cv.Choices()
		for j, f := range folds {
			sel, _ := sn.Fit(without(x, f), without(y, f))
			if chosen[j].Sigma != sel.Sigma || chosen[j].Lambda != sel.Lambda {
				t.Errorf("%v fold %d: chose σ=%g λ=%g, refit σ=%g λ=%g", crit, j, chosen[j].Sigma, chosen[j].Lambda, sel.Sigma, sel.Lambda)
			}
		}
	}
}

// looChoice chooses σ and λ by the leave-one-out MSE computed by n
// refits (penalty held: λ·n/(n − 1) on n − 1 rows), the first of equal
// scores in grid order, and fits the choice: the brute force of
// loo.SelectRLS and a fit.
func looChoice(t *testing.T, sigmas, lambdas []float64, ic regress.Intercept, x, y *linalg.Dense) (*regress.Model, loo.Choice) {
	n := x.Rows
	best := loo.Choice{Score: 1e300}
	for _, sg := range sigmas {
		for _, l := range lambdas {
			var sse float64
			for i := 0; i < n; i++ {
				m, err := regress.RLS{Kernel: kernels.Gaussian{Sigma: sg}, Lambda: l * float64(n) / float64(n-1), Intercept: ic}.Fit(without(x, []int{i}), without(y, []int{i}))
				if err != nil {
					t.Fatal(err)
				}
				p, _ := m.Predict(rowsOf(x, []int{i}))
				for k := 0; k < y.Cols; k++ {
					e := y.At(i, k) - p.At(0, k)
					sse += e * e
				}
			}
			if s := sse / float64(n*y.Cols); s < best.Score {
				best = loo.Choice{Sigma: sg, Lambda: l, Score: s}
			}
		}
	}
	m, err := regress.RLS{Kernel: kernels.Gaussian{Sigma: best.Sigma}, Lambda: best.Lambda, Intercept: ic}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	return m, best
}

// TestRLSCVChosenEqualsRefits: RLSCVChosen's choices are those of the
// leave-one-out MSE by refits on the rows outside each fold (and on all
// rows for the full fit), and its ends those of the brute-force CV+ of
// that method, to 1e-9, in every intercept mode.
func TestRLSCVChosenEqualsRefits(t *testing.T) {
	x, y, xt := problem(44, 30, 5, 1)
	folds, _ := Folds(x.Rows, 3, 4)
	sigmas, lambdas := []float64{0.6, 1.5}, []float64{1e-4, 1e-2, 0.3}
	gauss := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
	for _, ic := range intercepts {
		t.Run(fmt.Sprint(ic), func(t *testing.T) {
			cv, err := RLSCVChosen(gauss, sigmas, lambdas, ic, x, y, folds)
			if err != nil {
				t.Fatal(err)
			}
			got, err := cv.Predict(xt, 0.8)
			if err != nil {
				t.Fatal(err)
			}
			lo, hi, _ := bruteIntervals(t, x, y, xt, folds, 0.8, func(t *testing.T, xs, ys *linalg.Dense, n int) predictor {
				m, _ := looChoice(t, sigmas, lambdas, ic, xs, ys)
				return m
			})
			if d := max(scaledDiff(got.Lower, lo), scaledDiff(got.Upper, hi)); d > 1e-9 {
				t.Errorf("ends differ from refits' by %.2g", d)
			}
			full, chosen, ok := cv.Choices()
			if !ok {
				t.Fatal("no choices")
			}
			fm, fc := looChoice(t, sigmas, lambdas, ic, x, y)
			if full.Sigma != fc.Sigma || full.Lambda != fc.Lambda {
				t.Errorf("full: chose σ=%g λ=%g, refits σ=%g λ=%g", full.Sigma, full.Lambda, fc.Sigma, fc.Lambda)
			}
			want, _ := fm.Predict(xt)
			if d := scaledDiff(got.Prediction, want); d > 1e-9 {
				t.Errorf("predictions differ from the chosen fit's by %.2g", d)
			}
			for j, f := range folds {
				_, c := looChoice(t, sigmas, lambdas, ic, without(x, f), without(y, f))
				if chosen[j].Sigma != c.Sigma || chosen[j].Lambda != c.Lambda {
					t.Errorf("fold %d: chose σ=%g λ=%g, refits σ=%g λ=%g", j, chosen[j].Sigma, chosen[j].Lambda, c.Sigma, c.Lambda)
				}
			}
		})
	}
}

// TestStreamedCVErrors: bad arguments to the streamed passes are input
// errors, and a pass that did not see every row refuses to make a CV.
func TestStreamedCVErrors(t *testing.T) {
	x, y, _ := problem(45, 200, 0, 1)
	centers := x.Slice(0, 10, 0, 2).Clone()
	g := kernels.Gaussian{Sigma: 1}
	if _, err := NewFoldStats([]kernels.Kernel{g}, centers, 1, 0, 0); !errors.Is(err, ErrInput) {
		t.Errorf("1 fold: %v", err)
	}
	if _, err := NewFoldStats(nil, centers, 3, 0, 0); !errors.Is(err, ErrInput) {
		t.Errorf("no kernel: %v", err)
	}
	if _, err := NewFoldStats([]kernels.Kernel{g}, centers, 3, 0, -1); !errors.Is(err, ErrInput) {
		t.Errorf("first −1: %v", err)
	}
	two, _ := NewFoldStats([]kernels.Kernel{g, kernels.Gaussian{Sigma: 2}}, centers, 3, 0, 0)
	if err := two.Add(x, y); err != nil {
		t.Fatal(err)
	}
	if _, err := two.Models(1e-3, regress.FreeIntercept); !errors.Is(err, ErrInput) {
		t.Errorf("a fixed λ with two kernels: %v", err)
	}
	if _, err := two.Choose(loo.SelectNystrom{Sigmas: []float64{1, 2}}); !errors.Is(err, ErrInput) {
		t.Errorf("streamed leave-one-out choice: %v", err)
	}
	if _, err := two.Choose(loo.SelectNystrom{Sigmas: []float64{1}, Criterion: loo.GCV}); !errors.Is(err, ErrInput) {
		t.Errorf("σ grid of another length: %v", err)
	}
	f, _ := NewFoldStats([]kernels.Kernel{g}, centers, 3, 0, 0)
	if err := f.Add(x, linalg.NewDense(x.Rows, 1, nil)); err != nil {
		t.Fatal(err)
	}
	if err := f.Add(x.Slice(0, 5, 0, 2), linalg.NewDense(5, 2, nil)); !errors.Is(err, ErrInput) {
		t.Errorf("another number of outputs: %v", err)
	}
	if err := f.Add(linalg.NewDense(5, 3, nil), linalg.NewDense(5, 1, nil)); !errors.Is(err, ErrInput) {
		t.Errorf("another width: %v", err)
	}
	// More folds than rows, and a fold no row hashed to: each says which,
	// with the rows and folds counted.
	for _, tc := range []struct {
		rows, folds int
		want        string
	}{
		{5, 10, "10, want 2 ≤ K ≤ n = 5"},
		{12, 12, "none of the 12 rows drew this one of 12 folds; use fewer folds"},
	} {
		few, _ := NewFoldStats([]kernels.Kernel{g}, centers, tc.folds, 0, 0)
		if err := few.Add(x.Slice(0, tc.rows, 0, 2), y.Slice(0, tc.rows, 0, 1)); err != nil {
			t.Fatal(err)
		}
		if _, err := few.Models(1e-3, regress.FreeIntercept); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d rows in %d folds: %v; want an input error saying %q", tc.rows, tc.folds, err, tc.want)
		}
	}
	other, _ := NewFoldStats([]kernels.Kernel{g}, centers, 3, 1, 0)
	if err := f.Merge(other); !errors.Is(err, ErrInput) {
		t.Errorf("merge of another seed: %v", err)
	}
	fits, err := f.Models(1e-3, regress.FreeIntercept)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := fits.Pass(0)
	if err := p.Add(x.Slice(0, 100, 0, 2), y.Slice(0, 100, 0, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := p.CV(); !errors.Is(err, ErrInput) {
		t.Errorf("half the rows: %v", err)
	}
	if err := p.Add(x, y); !errors.Is(err, ErrInput) {
		t.Errorf("more rows than summed: %v", err)
	}
	if err := p.Add(x.Slice(100, 200, 0, 2), y.Slice(100, 200, 0, 1)); err != nil {
		t.Fatal(err)
	}
	if _, err := p.CV(); err != nil {
		t.Fatal(err)
	}
	if err := p.Add(x, y); !errors.Is(err, ErrInput) {
		t.Errorf("a spent pass: %v", err)
	}
	var zero *FoldFits
	if _, err := zero.Pass(0); !errors.Is(err, ErrInput) {
		t.Errorf("nil fits: %v", err)
	}
	if _, err := (&FoldFits{}).Pass(0); !errors.Is(err, ErrInput) {
		t.Errorf("zero fits: %v", err)
	}
	if _, err := RLSCVChosen(nil, []float64{1}, []float64{1}, regress.FreeIntercept, x, y, [][]int{{0}}); !errors.Is(err, ErrInput) {
		t.Errorf("RLSCVChosen, nil kernel: %v", err)
	}
	if _, err := NystromCVChosen(loo.SelectNystrom{Kernel: func(float64) kernels.Kernel { return g }, Centers: centers}, x, y, streamFolds(200, 3, 0)); !errors.Is(err, ErrInput) {
		t.Errorf("NystromCVChosen without σ: %v", err)
	}
}

// TestStreamFold: the folds are the same for any cut of the rows, in
// range, and of about n/k rows each.
func TestStreamFold(t *testing.T) {
	const n, k = 100000, 7
	counts := make([]int, k)
	for i := 0; i < n; i++ {
		j := StreamFold(12, i, k)
		if j < 0 || j >= k {
			t.Fatalf("row %d: fold %d", i, j)
		}
		counts[j]++
	}
	for j, c := range counts {
		// Binomial(n, 1/k): standard deviation about 111.
		if d := c - n/k; d > 600 || d < -600 {
			t.Errorf("fold %d: %d rows, want about %d", j, c, n/k)
		}
	}
	if StreamFold(12, 5, k) == StreamFold(13, 5, k) && StreamFold(12, 6, k) == StreamFold(13, 6, k) && StreamFold(12, 7, k) == StreamFold(13, 7, k) {
		t.Error("the seed does not change the folds")
	}
}
