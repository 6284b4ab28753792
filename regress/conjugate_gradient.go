package regress

import (
	"fmt"
	"math"

	"rkhs/linalg"
)

// The conjugate gradient method (Hestenes and Stiefel, "Methods of
// conjugate gradients for solving linear systems", 1952), written once:
// cgSolve owns the loop — the tolerance test, the residual history, the
// stop reason, the check for NaN and ±Inf and the callback, the last four
// through runState, which Landweber, the ν-method and CGLS share — and a
// solver hands it only its system: the right-hand side and the product
// with the matrix. CG runs it on K + nλI, Falkon on its preconditioned
// normal equations (the design of Falkon's ConjugateGradient.solve, which
// its FalkonConjugateGradient only feeds).

// cgProblem is a symmetric positive definite system A·X = B (X and B k×p)
// and what cgSolve reports of it.
type cgProblem struct {
	b    *linalg.Dense                    // B; not modified
	mul  func(dst, v *linalg.Dense) error // dst = A·v, both k×p; an error stops the run
	what string                           // names vᵀAv in the error for a curvature ≤ 0
	q    int                              // the residual reported is ‖R‖_F over the first q columns
	// tol, if positive, stops the run once ‖r_j‖ ≤ tol·‖b_j‖ for every
	// column j of R (all p of them).
	tol float64
	// relative reports ‖R_k‖_F/‖R₀‖_F (0 when R₀ = 0) instead of ‖R_k‖_F.
	relative bool
	// each, if not nil, is called after every step, before the stopping
	// rules (CG.Fit's KeepPath).
	each func()
}

// cgSolve runs the conjugate gradient method on pr from X = 0, each
// column on its own (its own α and β), with x (k×p, zero on entry)
// holding the iterate, and records the run in st: the residual
// ‖R_k‖_F = ‖B − A·X_k‖_F of the recurrence (over the first pr.q
// columns) before the first step and after each, then the stopping rules
// of runState.after. It returns st.err when the residual turned NaN or
// ±Inf, an error wrapping linalg.ErrNotPositiveDefinite when vᵀAv ≤ 0
// (cgStep), or the error of pr.mul. Memory: three k×p matrices besides
// x. Each iteration is one product with A and O(kp) flops.
func cgSolve(x *linalg.Dense, pr cgProblem, st *runState) error {
	r := pr.b.Clone() // R₀ = B − A·0
	p := pr.b.Clone()
	ap := linalg.NewDense(x.Rows, x.Cols, nil)
	rr := sqNorms(r)
	r0 := sqrtAll(rr)
	scale := 1.0
	if first := frob(r, pr.q); pr.relative && first > 0 {
		scale = first
	}
	st.start(frob(r, pr.q) / scale)
	for it := 1; ; it++ {
		if err := pr.mul(ap, p); err != nil {
			return err
		}
		next, err := cgStep(x, r, p, ap, rr, it, pr.what)
		if err != nil {
			return err
		}
		converged := pr.tol > 0
		for k := range next {
			converged = converged && math.Sqrt(next[k]) <= pr.tol*r0[k]
		}
		rr = next
		if pr.each != nil {
			pr.each()
		}
		if st.after(it, frob(r, pr.q)/scale, converged) {
			return st.err
		}
	}
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

// runState is the record and the stopping rules of an iterative run,
// shared by every solver of this package: the residual history, the
// check for a residual that is NaN or ±Inf, the callback and the stop
// reason.
type runState struct {
	maxIter  int
	callback Callback
	model    func() *Model // the current model, for the callback
	lastOnly bool          // keep only the first and the last residual (Iterative.LastResidual)
	hint     string        // what to change when the iteration diverges ("": hintScale)

	iterations int
	residuals  []float64
	stopped    StopReason
	err        error // set when the iteration diverged
}

// newRunState returns the run of an Iterative solver with the model of
// its current coefficients.
func newRunState(opt Iterative, hint string, model func() *Model) *runState {
	return &runState{maxIter: opt.MaxIter, callback: opt.Callback, model: model, lastOnly: opt.LastResidual, hint: hint}
}

// Divergence hints: a step the caller gave can be too long; otherwise
// the cause is the scale of the data.
const (
	hintGivenEta = "a given step Eta must be below 2/σ_max(K); Eta = 0 chooses one"
	hintScale    = "values this large overflow: scale the labels and features"
)

// start records the residual before the first iteration.
func (s *runState) start(residual float64) {
	s.residuals = append(s.residuals[:0], residual)
}

// after records the residual of iteration it and reports whether to stop;
// converged says whether the solver's own tolerance test passed. A residual
// that is NaN or ±Inf (from finite data: the iteration diverged, as with a
// given step η above 2/σ_max) stops the run with an error in s.err.
// Otherwise the rules are, in order: the callback returned false
// (StopCallback), converged (StopTol), it reached maxIter (StopMaxIter).
func (s *runState) after(it int, residual float64, converged bool) bool {
	s.iterations = it
	if s.lastOnly && len(s.residuals) == 2 {
		s.residuals[1] = residual
	} else {
		s.residuals = append(s.residuals, residual)
	}
	if math.IsNaN(residual) || math.IsInf(residual, 0) {
		hint := s.hint
		if hint == "" {
			hint = hintScale
		}
		s.err = fmt.Errorf("%w: the iteration diverged: residual %v at iteration %d (%s)", linalg.ErrNoConvergence, residual, it, hint)
		return true
	}
	switch {
	case s.callback != nil && !s.callback(it, residual, s.model()):
		s.stopped = StopCallback
	case converged:
		s.stopped = StopTol
	case it >= s.maxIter:
		s.stopped = StopMaxIter
	default:
		return false
	}
	return true
}

// record copies the run into fit.
func (s *runState) record(fit *IterFit) {
	fit.Iterations, fit.Residuals, fit.Stopped = s.iterations, s.residuals, s.stopped
}
