package regress

import (
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
	shifted := func(dst, v *linalg.Dense) error { // dst = (K + nλI)v
		op.mul(dst, v)
		for i := range dst.Data[:len(v.Data)] {
			dst.Data[i] += shiftBy * v.Data[i]
		}
		return nil
	}
	free := s.Intercept == FreeIntercept
	rhs := withOnes(y, free)
	c := linalg.NewDense(n, rhs.Cols, nil)
	fit := &IterFit{}
	st := newRunState(opt, "", func() *Model { return gradientModel(s.Kernel, x, c, q, free, s.Intercept) })
	pr := cgProblem{b: rhs, mul: shifted, what: "CG: dᵀ(K + nλI)d", q: q, tol: s.Tol}
	if s.KeepPath {
		pr.each = func() { fit.Path = append(fit.Path, st.model()) }
	}
	if err := cgSolve(c, pr, st); err != nil {
		return nil, err
	}
	st.record(fit)
	fit.Model = gradientModel(s.Kernel, x, c, q, free, s.Intercept)
	if err := fit.Model.checkFinite(); err != nil {
		return nil, err
	}
	return fit, nil
}
