package regress

import (
	"fmt"

	"rkhs/linalg"
)

// LinearRLS is RLS with the linear kernel k(x, z) = xᵀz solved in the primal:
// f(x) = Wᵀx + b with
//
//	(XᵀX + nλI)·W = XᵀY
//
// a d×d system instead of the n×n one of RLS, for n ≫ d. It gives the same
// function as RLS{Kernel: kernels.Linear{}} (W = XᵀC). The intercept modes
// match RLS's: FreeIntercept is ridge regression on data centred by the
// column means of X and Y, with b = ȳ − Wᵀx̄ (the unpenalized-intercept
// solution, 1ᵀC = 0 in the dual); PenalizedIntercept appends a column of
// ones to X (the kernel xᵀz + 1) and b is its weight.
type LinearRLS struct {
	Lambda    float64 // λ > 0, in the K + nλI convention
	Intercept Intercept
}

// Fit fits the model; X (n×d) and Y (n×q) are not modified. The cost is
// n·d² flops for XᵀX (linalg.Syrk), 2ndq for XᵀY and d³/3 for the Cholesky
// factorization; memory O(d² + dq), plus a centred or augmented copy of X
// (n×d) with an intercept. Errors as RLS.Fit.
func (r LinearRLS) Fit(x, y *linalg.Dense) (*LinearModel, error) {
	const op = "LinearRLS.Fit"
	if err := checkXY(op, x, y); err != nil {
		return nil, err
	}
	if err := checkLambda(op, "Lambda", r.Lambda); err != nil {
		return nil, err
	}
	if err := r.Intercept.check(op); err != nil {
		return nil, err
	}
	n, d, q := x.Rows, x.Cols, y.Cols
	xs, ys := x, y
	var xMean, yMean []float64
	switch r.Intercept {
	case FreeIntercept:
		xMean, yMean = colMeans(x), colMeans(y)
		xs, ys = centre(x, xMean), centre(y, yMean)
	case PenalizedIntercept:
		xs = linalg.NewDense(n, d+1, nil)
		xs.Slice(0, n, 0, d).Copy(x)
		for i := 0; i < n; i++ {
			xs.Set(i, d, 1)
		}
	}
	p := xs.Cols
	a := linalg.NewDense(p, p, nil)
	linalg.Syrk(linalg.Lower, linalg.Trans, 1, xs, 0, a)
	for i := 0; i < p; i++ {
		a.Set(i, i, a.At(i, i)+float64(n)*r.Lambda)
	}
	w := linalg.NewDense(p, q, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, xs, ys, 0, w)
	var ch linalg.Cholesky
	if err := ch.FactorizeInPlace(a); err != nil {
		return nil, fmt.Errorf("regress: XᵀX + nλI with λ = %g: %w", r.Lambda, err)
	}
	ch.SolveTo(w, w)
	b := make([]float64, q)
	switch r.Intercept {
	case FreeIntercept:
		for k := range b {
			s := yMean[k]
			for j := 0; j < d; j++ {
				s -= xMean[j] * w.At(j, k)
			}
			b[k] = s
		}
	case PenalizedIntercept:
		copy(b, w.Row(d))
		w = w.Slice(0, d, 0, q).Clone()
	}
	return &LinearModel{Weights: w, Intercept: b}, nil
}

// colMeans returns the column means of m, rows summed in order.
func colMeans(m *linalg.Dense) []float64 {
	mu := make([]float64, m.Cols)
	for i := 0; i < m.Rows; i++ {
		for j, v := range m.Row(i) {
			mu[j] += v
		}
	}
	for j := range mu {
		mu[j] /= float64(m.Rows)
	}
	return mu
}

// centre returns a copy of m with mu subtracted from every row.
func centre(m *linalg.Dense, mu []float64) *linalg.Dense {
	c := linalg.NewDense(m.Rows, m.Cols, nil)
	for i := 0; i < m.Rows; i++ {
		dst := c.Row(i)
		for j, v := range m.Row(i) {
			dst[j] = v - mu[j]
		}
	}
	return c
}
