package regress

import (
	"fmt"
	"math"

	"rkhs/kernels"
	"rkhs/linalg"
)

// CG is the conjugate gradient method on the positive definite system of
// kernel RLS, (K + nλI)c = y, run matrix-free: one product with K per
// iteration, and it reaches the Cholesky solution as it converges (in exact
// arithmetic within n iterations; in practice after about √κ·log(1/Tol)
// iterations, κ the condition number of K + nλI).
//
// Intercepts: NoIntercept solves for y; FreeIntercept solves for [y | 1] at
// once and forms b = 1ᵀc_y/1ᵀc₁, c = c_y − b·c₁ (Prato and Zanni 2012, eq. (7), through the SPD
// matrix alone, exact once converged); PenalizedIntercept iterates on
// K + 11ᵀ + nλI with b = 1ᵀc (their eq. (8)). The callback sees ‖y − Gc‖ over the
// outputs; Tol stops when ‖y − Gc‖ ≤ Tol·‖y‖ for every column iterated.
//
// MaxIter is a budget here, not the regularization (λ is): 0 selects n.
type CG struct {
	Kernel    kernels.Kernel
	Lambda    float64 // λ > 0, in the K + nλI convention
	Intercept Intercept
	Iterative
}

// Fit runs the iteration; x and y are not modified.
func (s CG) Fit(x, y *linalg.Dense) (*IterFit, error) {
	const call = "CG.Fit"
	if err := checkRegularized(call, s.Kernel, x, y, s.Lambda, s.Intercept); err != nil {
		return nil, err
	}
	if err := s.Iterative.check(call, false); err != nil {
		return nil, err
	}
	n, q := x.Rows, y.Cols
	opt := s.Iterative
	if opt.MaxIter == 0 {
		opt.MaxIter = n
	}
	op, err := newKernelOperator(call, s.Kernel, x, s.Stream, s.Intercept == PenalizedIntercept)
	if err != nil {
		return nil, err
	}
	shiftBy := float64(n) * s.Lambda
	apply := func(dst, v *linalg.Dense) { // dst = (K + nλI)v
		op.mul(dst, v)
		for i := range dst.Data[:len(v.Data)] {
			dst.Data[i] += shiftBy * v.Data[i]
		}
	}
	free := s.Intercept == FreeIntercept
	rhs := withOnes(y, free)
	p := rhs.Cols
	c := linalg.NewDense(n, p, nil)
	r := rhs.Clone()
	d := rhs.Clone()
	gd := linalg.NewDense(n, p, nil)
	rr := sqNorms(r)
	r0 := sqrtAll(rr)
	fit := &IterFit{}
	st := runState{opt: opt, fit: fit}
	fit.Residuals = append(fit.Residuals, frob(r, q))
	for it := 1; ; it++ {
		apply(gd, d)
		next, err := cgStep(c, r, d, gd, rr, it, "CG: dᵀ(K + nλI)d")
		if err != nil {
			return nil, err
		}
		converged := s.Tol > 0
		for k := range next {
			converged = converged && math.Sqrt(next[k]) <= s.Tol*r0[k]
		}
		rr = next
		if s.KeepPath {
			fit.Path = append(fit.Path, gradientModel(s.Kernel, x, c, q, free, s.Intercept))
		}
		if st.after(it, frob(r, q), converged) {
			break
		}
	}
	if st.err != nil {
		return nil, st.err
	}
	fit.Model = gradientModel(s.Kernel, x, c, q, free, s.Intercept)
	if err := fit.Model.checkFinite(); err != nil {
		return nil, err
	}
	return fit, nil
}

// cgStep does one step of the conjugate gradient method on A·X = B, each
// column on its own, given the direction P, AP = A·P, the residual R and
// rr, the squared norms of R's columns: X += α·P, R −= α·AP, P = R + β·P
// with α = rr/pᵀAp and β = ‖R‖²/rr after the update (0 for a column whose
// residual was already 0). It returns the new squared norms of R's
// columns, or an error wrapping linalg.ErrNotPositiveDefinite, naming what
// pᵀAp is, if pᵀAp ≤ 0 for a column whose residual is not 0.
func cgStep(x, r, p, ap *linalg.Dense, rr []float64, it int, what string) ([]float64, error) {
	q := len(rr)
	pap := make([]float64, q)
	for i := 0; i < p.Rows; i++ {
		for k, v := range p.Row(i) {
			pap[k] += v * ap.At(i, k)
		}
	}
	alpha := make([]float64, q)
	for k := range alpha {
		if pap[k] > 0 {
			alpha[k] = rr[k] / pap[k]
		} else if rr[k] > 0 {
			return nil, fmt.Errorf("regress: %s = %g ≤ 0 at iteration %d: %w", what, pap[k], it, linalg.ErrNotPositiveDefinite)
		}
	}
	axpyCols(x, p, alpha)
	axpyCols(r, ap, neg(alpha))
	next := sqNorms(r)
	for k := range next {
		beta := 0.0
		if rr[k] > 0 {
			beta = next[k] / rr[k]
		}
		for i := 0; i < p.Rows; i++ {
			p.Set(i, k, r.At(i, k)+beta*p.At(i, k))
		}
	}
	return next, nil
}
