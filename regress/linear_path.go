package regress

import (
	"fmt"

	"rkhs/internal/center"
	"rkhs/linalg"
)

// LinearPath is linear-kernel RLS for many λ from one thin SVD. With
// X = U·diag(s)·Vᵀ (n×d, rank r ≤ min(n, d)), the primal solution of
// (XᵀX + nλI)·W = XᵀY is
//
//	W(λ) = V·diag(sₖ/(sₖ² + nλ))·UᵀY,
//
// so once the SVD and UᵀY exist each λ costs O(r·(d+1)·q) — independent of
// n. The intercept modes are those of LinearRLS: FreeIntercept factors the
// centred X (and centres Y), b = ȳ − Wᵀx̄; PenalizedIntercept factors X with
// a column of ones appended, b its weight. It agrees with LinearRLS and with
// RLS{Kernel: kernels.Linear{}} for every λ.
//
// Building it costs the thin SVD (for n ≫ d a blocked QR of the n×d matrix,
// 2nd² flops, then a d×d SVD; see linalg.SVD) and 2ndq for UᵀY. A
// LinearPath is read-only after NewLinearPath and safe for concurrent use.
type LinearPath struct {
	ic           Intercept
	u, v         *linalg.Dense // n×r and p×r (p = d, or d+1 with a penalized intercept)
	s            []float64     // singular values, descending
	uty          *linalg.Dense // UᵀY (r×q), of the centred Y for a free intercept
	yc           *linalg.Dense // Y, centred for a free intercept (n×q)
	xMean, yMean []float64     // free intercept only
	d            int
}

// NewLinearPath factors X (n×d) for the intercept mode ic and projects Y
// (n×q). x and y are not modified. Errors wrap ErrInput, or
// linalg.ErrNoConvergence from the SVD.
func NewLinearPath(x, y *linalg.Dense, ic Intercept) (*LinearPath, error) {
	const op = "NewLinearPath"
	if err := checkXY(op, x, y); err != nil {
		return nil, err
	}
	if err := ic.check(op); err != nil {
		return nil, err
	}
	d := x.Cols
	lp := &LinearPath{ic: ic, d: d}
	xs := x
	lp.yc = y.Clone()
	switch ic {
	case FreeIntercept:
		lp.xMean, lp.yMean = center.Means(x), center.Means(y)
		xs, lp.yc = center.Subtract(x, lp.xMean), center.Subtract(y, lp.yMean)
	case PenalizedIntercept:
		xs = appendOnes(x)
	}
	var svd linalg.SVD
	if err := svd.Factorize(xs, linalg.SVDThin); err != nil {
		return nil, fmt.Errorf("regress: SVD of X: %w", err)
	}
	lp.s = svd.Values(nil)
	lp.u, lp.v = svd.UTo(nil), svd.VTo(nil)
	lp.uty = linalg.NewDense(lp.u.Cols, y.Cols, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, lp.u, lp.yc, 0, lp.uty)
	return lp, nil
}

// check reports a LinearPath that NewLinearPath did not build (nil, or the
// zero value) and a λ that is not positive and finite.
func (lp *LinearPath) check(op string, lambda float64) error {
	if lp == nil || lp.u == nil {
		return inputError(op, "LinearPath", "nil or zero LinearPath: build one with NewLinearPath")
	}
	return checkLambda(op, "lambda", lambda)
}

// Fit returns the linear model for λ > 0 (K + nλI convention).
func (lp *LinearPath) Fit(lambda float64) (*LinearModel, error) {
	const op = "LinearPath.Fit"
	if err := lp.check(op, lambda); err != nil {
		return nil, err
	}
	n := float64(lp.u.Rows)
	r, q := len(lp.s), lp.uty.Cols
	a := linalg.NewDense(r, q, nil) // diag(s/(s² + nλ))·UᵀY
	for k := 0; k < r; k++ {
		f := lp.s[k] / (lp.s[k]*lp.s[k] + n*lambda)
		for j, v := range lp.uty.Row(k) {
			a.Set(k, j, f*v)
		}
	}
	w := linalg.NewDense(lp.v.Rows, q, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, lp.v, a, 0, w)
	b := make([]float64, q)
	switch lp.ic {
	case FreeIntercept:
		b = freeOffsets(lp.yMean, lp.xMean, w)
	case PenalizedIntercept:
		copy(b, w.Row(lp.d))
		w = w.Slice(0, lp.d, 0, q).Clone()
	}
	if err := checkModel(op, w, b); err != nil {
		return nil, err
	}
	return &LinearModel{Weights: w, Intercept: b}, nil
}

// Intercept returns the intercept mode (NoIntercept for a nil or zero
// LinearPath).
func (lp *LinearPath) Intercept() Intercept {
	if lp == nil {
		return NoIntercept
	}
	return lp.ic
}

// FitAugmented is Tikhonov regularization on the augmented system
// [K 1]·c̃ = y (see Spectral.FitAugmented) for the linear kernel K = XXᵀ, from the SVD of
// the uncentred X (a LinearPath built with NoIntercept; other modes return
// an error). With X = U·diag(s)·Vᵀ, K̃K̃ᵀ + nλI = U·diag(s⁴)·Uᵀ + 11ᵀ + nλI,
// whose inverse applied to y and 1 follows from Sherman–Morrison with
// A₀⁻¹v = U·diag(1/(s⁴+nλ))·Uᵀv + (v − UUᵀv)/(nλ); then w = (K̃K̃ᵀ + nλI)⁻¹y,
// b = 1ᵀw and the weights are Xᵀc = XᵀK·w = V·diag(s³)·Uᵀw. Each λ costs
// O(r·d·q): the rank deficiency of the linear kernel (r ≤ d ≪ n) is what
// makes Tikhonov on [K 1] cheap for it (Prato and Zanni 2012).
func (lp *LinearPath) FitAugmented(lambda float64) (*LinearModel, error) {
	const op = "LinearPath.FitAugmented"
	if err := lp.check(op, lambda); err != nil {
		return nil, err
	}
	if lp.ic != NoIntercept {
		return nil, inputError(op, "LinearPath", "built with intercept %v; FitAugmented needs the SVD of the uncentred X: build the LinearPath with NoIntercept (Tikhonov on [K 1] has its own b)", lp.ic)
	}
	n := float64(lp.u.Rows)
	r, q := len(lp.s), lp.uty.Cols
	o := lp.ut1()
	h := make([]float64, r)
	var oo, oho float64
	for k, sk := range lp.s {
		s2 := sk * sk
		h[k] = 1 / (s2*s2 + n*lambda)
		oo += o[k] * o[k]
		oho += o[k] * h[k] * o[k]
	}
	h0 := 1 / (n * lambda)
	s1 := oho + h0*(n-oo) // 1ᵀA₀⁻¹1
	ys := colSums(lp.yc)  // 1ᵀy per output
	a := linalg.NewDense(r, q, nil)
	b := make([]float64, q)
	for j := 0; j < q; j++ {
		var ohz, oz float64
		for k := 0; k < r; k++ {
			z := lp.uty.At(k, j)
			ohz += o[k] * h[k] * z
			oz += o[k] * z
		}
		t := ohz + h0*(ys[j]-oz) // 1ᵀA₀⁻¹y
		f := t / (1 + s1)
		b[j] = f
		for k := 0; k < r; k++ {
			uw := h[k]*lp.uty.At(k, j) - h[k]*o[k]*f // (Uᵀw)ₖ
			a.Set(k, j, lp.s[k]*lp.s[k]*lp.s[k]*uw)
		}
	}
	w := linalg.NewDense(lp.v.Rows, q, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, lp.v, a, 0, w)
	if err := checkModel(op, w, b); err != nil {
		return nil, err
	}
	return &LinearModel{Weights: w, Intercept: b}, nil
}

// ut1 returns Uᵀ1.
func (lp *LinearPath) ut1() []float64 {
	o := make([]float64, lp.u.Cols)
	for i := 0; i < lp.u.Rows; i++ {
		for k, v := range lp.u.Row(i) {
			o[k] += v
		}
	}
	return o
}
