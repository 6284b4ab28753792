package interval

import (
	"math"
	"slices"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/linalg"
	"rkhs/regress"
)

var intercepts = []regress.Intercept{regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept}

// problem returns n training rows in [−2, 2]² with q outputs
// sin(x₁)·(k+1) + x₂ + noise, and t test rows.
func problem(seed uint64, n, t, q int) (x, y, xt *linalg.Dense) {
	rnd := testmat.NewRand(seed)
	x, xt = linalg.NewDense(n, 2, nil), linalg.NewDense(t, 2, nil)
	for _, m := range []*linalg.Dense{x, xt} {
		for i := range m.Data {
			m.Data[i] = 4*rnd.Float64() - 2
		}
	}
	y = linalg.NewDense(n, q, nil)
	for i := 0; i < n; i++ {
		for k := 0; k < q; k++ {
			y.Set(i, k, math.Sin(x.At(i, 0))*float64(k+1)+x.At(i, 1)+0.3*rnd.NormFloat64())
		}
	}
	return x, y, xt
}

// without returns the rows of m not in the sorted set drop.
func without(m *linalg.Dense, drop []int) *linalg.Dense {
	out := linalg.NewDense(m.Rows-len(drop), m.Cols, nil)
	r := 0
	for i := 0; i < m.Rows; i++ {
		if _, found := slices.BinarySearch(drop, i); found {
			continue
		}
		copy(out.Row(r), m.Row(i))
		r++
	}
	return out
}

// rowsOf returns the rows of m in idx.
func rowsOf(m *linalg.Dense, idx []int) *linalg.Dense {
	out := linalg.NewDense(len(idx), m.Cols, nil)
	for r, i := range idx {
		copy(out.Row(r), m.Row(i))
	}
	return out
}

type predictor interface {
	Predict(*linalg.Dense) (*linalg.Dense, error)
}

// refit fits the model on the rows x, y (a part of the n training rows)
// with the penalty of the fit on all n: λ·n/rows in its own convention.
type refit func(t *testing.T, x, y *linalg.Dense, n int) predictor

// bruteIntervals refits without each fold of folds (a partition of the
// rows; singletons for jackknife+) and returns the intervals of Barber et
// al. by sorting, and the held-out residuals yᵢ − μ̂₋ₖ₍ᵢ₎(xᵢ).
func bruteIntervals(t *testing.T, x, y, xt *linalg.Dense, folds [][]int, level float64, fit refit) (lower, upper, e *linalg.Dense) {
	t.Helper()
	n, q, nt := x.Rows, y.Cols, xt.Rows
	e = linalg.NewDense(n, q, nil)
	at := make([]*linalg.Dense, n) // μ̂₋ₖ₍ᵢ₎(xt), t×q
	for _, f := range folds {
		m := fit(t, without(x, f), without(y, f), n)
		pt, err := m.Predict(xt)
		if err != nil {
			t.Fatal(err)
		}
		pf, err := m.Predict(rowsOf(x, f))
		if err != nil {
			t.Fatal(err)
		}
		for r, i := range f {
			at[i] = pt
			for k := 0; k < q; k++ {
				e.Set(i, k, y.At(i, k)-pf.At(r, k))
			}
		}
	}
	lo, hi := ranks(n, level)
	lower, upper = linalg.NewDense(nt, q, nil), linalg.NewDense(nt, q, nil)
	a, b := make([]float64, n), make([]float64, n)
	for j := 0; j < nt; j++ {
		for k := 0; k < q; k++ {
			for i := 0; i < n; i++ {
				a[i] = at[i].At(j, k) - math.Abs(e.At(i, k))
				b[i] = at[i].At(j, k) + math.Abs(e.At(i, k))
			}
			slices.Sort(a)
			slices.Sort(b)
			lv, uv := math.Inf(-1), math.Inf(1)
			if lo >= 1 {
				lv = a[lo-1]
			}
			if hi <= n {
				uv = b[hi-1]
			}
			lower.Set(j, k, lv)
			upper.Set(j, k, uv)
		}
	}
	return lower, upper, e
}

// singletons returns the folds {0}, {1}, …, {n−1} of jackknife+.
func singletons(n int) [][]int {
	f := make([][]int, n)
	for i := range f {
		f[i] = []int{i}
	}
	return f
}

// scaledDiff returns max|got − want| / max(1, max|want|) over the finite
// entries, +Inf where one is infinite and the other is not.
func scaledDiff(got, want *linalg.Dense) float64 {
	var num, den float64 = 0, 1
	for i := 0; i < want.Rows; i++ {
		for j := 0; j < want.Cols; j++ {
			g, w := got.At(i, j), want.At(i, j)
			if math.IsInf(w, 0) || math.IsInf(g, 0) {
				if g != w {
					return math.Inf(1)
				}
				continue
			}
			num = max(num, math.Abs(g-w))
			den = max(den, math.Abs(w))
		}
	}
	return num / den
}

func vecDense(v []float64) *linalg.Dense { return linalg.NewDense(len(v), 1, v) }
