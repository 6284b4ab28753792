package regress

import (
	"fmt"

	"rkhs/internal/center"
	"rkhs/kernels"
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
	if err := checkRegularized(op, kernels.Linear{}, x, y, r.Lambda, r.Intercept); err != nil {
		return nil, err
	}
	d, q := x.Cols, y.Cols
	xs, ys := x, y
	var xMean, yMean []float64
	switch r.Intercept {
	case FreeIntercept:
		xMean, yMean = center.Means(x), center.Means(y)
		xs, ys = center.Subtract(x, xMean), center.Subtract(y, yMean)
	case PenalizedIntercept:
		xs = appendOnes(x)
	}
	w, err := ridge(xs, linalg.Trans, ys, r.Lambda, "XᵀX + nλI")
	if err != nil {
		return nil, err
	}
	b := make([]float64, q)
	switch r.Intercept {
	case FreeIntercept:
		b = freeOffsets(yMean, xMean, w)
	case PenalizedIntercept:
		copy(b, w.Row(d))
		w = w.Slice(0, d, 0, q).Clone()
	}
	if err := checkModel(op, w, b); err != nil {
		return nil, err
	}
	return &LinearModel{Weights: w, Intercept: b}, nil
}

// ridge solves the primal ridge problem (AᵀA + nλI)·W = AᵀY, n = Y.Rows,
// for the design matrix A given as a with op(a) = Aᵀ: a is A (n×p) for
// tA = Trans, Aᵀ (p×n) for tA = NoTrans. AᵀA comes from linalg.Syrk (np²
// flops), AᵀY from linalg.Gemm (2npq), and the p×p system is factored by
// Cholesky (p³/3); system names the matrix in errors, which wrap
// linalg.ErrNotPositiveDefinite.
func ridge(a *linalg.Dense, tA linalg.Op, y *linalg.Dense, lambda float64, system string) (*linalg.Dense, error) {
	p := a.Rows
	if tA == linalg.Trans {
		p = a.Cols
	}
	g := linalg.NewDense(p, p, nil)
	linalg.Syrk(linalg.Lower, tA, 1, a, 0, g)
	shift(g, float64(y.Rows)*lambda, false)
	w := linalg.NewDense(p, y.Cols, nil)
	linalg.Gemm(tA, linalg.NoTrans, 1, a, y, 0, w)
	var ch linalg.Cholesky
	if err := ch.FactorizeInPlace(g); err != nil {
		return nil, fmt.Errorf("regress: %s with λ = %g: %w", system, lambda, err)
	}
	ch.SolveTo(w, w)
	return w, nil
}

// freeOffsets returns the free intercepts b = ȳ − Wᵀx̄ of a fit on centred
// data: b[k] = yMean[k] − Σⱼ xMean[j]·W[j][k], summed in order of j.
func freeOffsets(yMean, xMean []float64, w *linalg.Dense) []float64 {
	b := make([]float64, len(yMean))
	for k := range b {
		v := yMean[k]
		for j, m := range xMean {
			v -= m * w.At(j, k)
		}
		b[k] = v
	}
	return b
}
