package optimize

import (
	"fmt"
	"math"
	"slices"

	"rkhs/linalg"
)

// Objective returns f(x) and writes ∇f(x) into grad (len(grad) = len(x)).
// It must not modify x, nor keep x or grad after it returns: both are the
// minimizer's work vectors.
type Objective func(x, grad []float64) float64

// Callback is called by LBFGS.Minimize after every iteration with the
// iteration number (1, 2, …), the new iterate x, its value f and its
// projected gradient norm (see Result.ProjGrad). x is valid during the
// call only and must not be modified. Returning false stops the run at x
// (StopCallback).
type Callback func(iter int, x []float64, f, projGrad float64) bool

// LBFGS is a projected limited-memory BFGS minimizer for a smooth function
// inside a box lo ≤ x ≤ hi. The zero value is ready to use: every option
// defaults when 0, and a negative one is an error.
//
// The method is a two-metric projection method (Gafni and Bertsekas 1984)
// with an L-BFGS metric on the free variables. Let P be the projection
// onto the box and, at an iterate x with gradient g, let B be the binding
// set, the variables at a bound whose gradient points out of the box
// (xᵢ = loᵢ and gᵢ > 0, or xᵢ = hiᵢ and gᵢ < 0), and F the others. The
// direction is d = −H_F·P_F·g, where P_F keeps the components in F and H_F
// is the L-BFGS approximation of the inverse Hessian over F: the two-loop
// recursion (Nocedal 1980) on the last M pairs sₖ = xₖ₊₁ − xₖ,
// yₖ = gₖ₊₁ − gₖ restricted to F, from H₀ = γI with γ = s_Fᵀy_F/y_Fᵀy_F of
// the newest pair (Liu and Nocedal 1989). Restricting the pairs makes H_F
// approximate the inverse of the Hessian's F×F block, the Newton step on
// the free variables, once the bounds that hold at the solution are found
// (a pair whose restricted curvature s_Fᵀy_F ≤ 10⁻⁸·‖s_F‖‖y_F‖ is left
// out, so H_F stays positive definite and d a descent direction). The
// components of d that would leave the box at once are dropped. The step
// follows the projection arc x(α) = P(x + αd):
//
//   - when the unit step stays inside the box, a line search for the
//     strong Wolfe conditions f(x+αd) ≤ f(x) + C1·α·gᵀd and
//     |∇f(x+αd)ᵀd| ≤ C2·|gᵀd| (Nocedal and Wright, Algorithms 3.5 and 3.6,
//     cubic interpolation), whose steps stop where d meets the box: there
//     the sufficient decrease alone accepts the step, as in L-BFGS-B;
//   - when it leaves the box, backtracking along the arc from α = 1 until
//     f(x(α)) ≤ f(x) + C1·gᵀ(x(α) − x) (Bertsekas 1982), so that several
//     variables may reach their bounds in one step.
//
// This is not L-BFGS-B (Byrd, Lu, Nocedal and Zhu 1995), which finds the
// generalized Cauchy point along the projected gradient path and
// minimizes its model over the free variables there: the two agree in the
// stopping tests and in capping steps at the box, and the method here is
// simpler, O(M·d) an iteration with no small dense systems.
//
// While the memory is empty (at the start, after it is cleared), the first
// trial step is α = min(1, 1/‖d‖₂); otherwise α = 1. A trial point where f
// or its gradient is NaN or ±Inf counts as a step too long: the search
// backs off to a tenth of the way from its best acceptable step (α = 0 at
// first). A pair is stored only when sᵀy > 10⁻⁸·‖s‖₂‖y‖₂. A line search
// that finds no acceptable step within MaxLineSearch evaluations, or whose
// steps would change f by less than its rounding errors (2⁻⁵⁰·|f|),
// clears the memory and the search starts again from the steepest descent
// −P_F·g.
//
// A slope gᵀd that overflows is measured on d scaled by a power of two
// (exact), the steps in that unit, so that a direction of huge entries
// still gets its steps.
//
// # Stopping
//
// The run stops, after iteration k with values fₖ₋₁ → fₖ, at the first of
// these, in this order: the callback returns false (StopCallback); the
// projected gradient norm ‖P(x − g) − x‖∞ is at most GradTol (StopGradTol;
// also tested at x0, before any iteration); fₖ₋₁ − fₖ ≤
// Tol·max(|fₖ₋₁|, |fₖ|, 1) (StopTol); fₖ₋ᵥ − fₖ ≤ RelTol·|fₖ|, when
// RelTol is set and k ≥ w = RelTolIters (StopRelTol: the last w
// iterations together decreased f by at most RelTol relative to |f|; w = 1
// by default, the last iteration alone); k = MaxIter (StopMaxIter). A line
// search that fails from the steepest descent stops the run at the last
// iterate (StopLineSearch).
//
// A window w > 1 makes the relative test one of progress over several
// iterations, not of one step: a single short step (as the first ones
// often are, while the memory learns the curvature) does not end the run,
// and a looser RelTol can stop a slow tail sooner without stopping on such
// a step.
//
// RelTol also bounds what a line search spends where it cannot matter.
// Along d from x, convexity of φ(α) = f(x + αd) bounds the decrease of a
// step α by α·|gᵀd|, and the decrease still to be had past an acceptable
// step lo, inside a bracket [lo, hi], by |hi − lo|·|φ'(lo)| (lo = 0:
// hi·|gᵀd|). So zoom accepts lo once its bracket can add at most RelTol·|f|
// (an iteration that small would end the run anyway), the backtracking
// stops where its steps could not decrease f by more, and a search that
// so finds no step ends the run at the last iterate with StopRelTol —
// the decrease RelTol asks for is not to be had along d — without the
// restart from the steepest descent. A decrease of the
// relative size RelTol is a test on f alone, well above its rounding, so
// that two runs whose values differ in the last bits take the same
// stopping decisions unless a decrease falls within those bits of the
// tolerance.
//
// Cost: each iteration is one line search, usually one evaluation of f
// near the solution, and about 10·M·d flops for the two-loop recursion
// plus O(d) per trial point. Memory: 11·d float64s and d bools, and 2·d
// float64s for each pair kept, up to M pairs. Minimize keeps no state in
// the LBFGS value: one LBFGS may serve concurrent calls with objectives
// that are safe to run concurrently.
type LBFGS struct {
	// M is the number of curvature pairs (s, y) kept; 0 selects 10.
	M int
	// MaxIter is a budget on iterations; 0 selects 1000.
	MaxIter int
	// Tol stops the run when an iteration decreases f by at most
	// Tol·max(|f|, 1) (see LBFGS); 0 selects 1e-9.
	Tol float64
	// RelTol, if positive, stops the run when an iteration decreases f
	// by at most RelTol·|f|, and bounds the line searches by it (see
	// Stopping); 0: no relative test. Below 1.
	RelTol float64
	// RelTolIters is the window w of the relative test: the run stops
	// when the last w iterations together decreased f by at most
	// RelTol·|f| (see Stopping); 0 selects 1. Without RelTol it has no
	// effect.
	RelTolIters int
	// GradTol stops the run when the projected gradient norm
	// ‖P(x − ∇f(x)) − x‖∞ is at most GradTol; 0 selects 1e-5.
	GradTol float64
	// C1 and C2 are the constants of the sufficient decrease and of the
	// curvature condition, 0 < C1 < C2 < 1; 0 selects 1e-4 and 0.9.
	C1, C2 float64
	// MaxLineSearch is the budget of evaluations of f in one line search;
	// 0 selects 20.
	MaxLineSearch int
	// Callback, if not nil, is called after every iteration; returning
	// false stops the run.
	Callback Callback
}

// Result is the outcome of LBFGS.Minimize.
type Result struct {
	// X is the last iterate, inside the box; F = f(X) and Grad = ∇f(X).
	X    []float64
	F    float64
	Grad []float64
	// ProjGrad is the projected gradient norm ‖P(X − Grad) − X‖∞: 0 at a
	// point satisfying the first-order (KKT) conditions of the box.
	ProjGrad float64
	// Iterations is the number of accepted steps; Evaluations the number
	// of calls of f, x0's included; NonFinite the number of those that
	// returned NaN or ±Inf in the value or the gradient.
	Iterations, Evaluations, NonFinite int
	// Stop says why the run ended.
	Stop StopReason
}

// StopReason says why LBFGS.Minimize stopped.
type StopReason int

const (
	// StopMaxIter: MaxIter iterations were done.
	StopMaxIter StopReason = iota
	// StopTol: an iteration decreased f by at most Tol relative to |f|.
	StopTol
	// StopGradTol: the projected gradient norm reached GradTol.
	StopGradTol
	// StopLineSearch: no step decreased f enough, even from steepest
	// descent, usually because the decreases are below f's rounding
	// errors, or f was NaN or ±Inf along every step tried.
	StopLineSearch
	// StopCallback: the callback returned false.
	StopCallback
	// StopRelTol: the last RelTolIters iterations (by default the last
	// one) decreased f by at most RelTol·|f|, or no step along the last
	// direction could decrease it by more.
	StopRelTol
)

// String returns "iterations", "tolerance", "gradient tolerance",
// "line search", "callback" or "relative tolerance".
func (r StopReason) String() string {
	switch r {
	case StopMaxIter:
		return "iterations"
	case StopTol:
		return "tolerance"
	case StopGradTol:
		return "gradient tolerance"
	case StopLineSearch:
		return "line search"
	case StopCallback:
		return "callback"
	case StopRelTol:
		return "relative tolerance"
	}
	return fmt.Sprintf("StopReason(%d)", int(r))
}

// curvatureEps: a pair (s, y) is kept only when sᵀy > curvatureEps·‖s‖‖y‖,
// the cosine of the angle between s and y bounded away from 0.
const curvatureEps = 1e-8

// Minimize minimizes f over the box lo ≤ x ≤ hi from x0 (see LBFGS for the
// method and its stopping rules). lo and hi have len(x0) elements, or are
// nil for no bound on that side; −Inf in lo and +Inf in hi also mean no
// bound, and loᵢ = hiᵢ fixes xᵢ. A starting point outside the box is
// projected onto it. x0, lo and hi are not modified.
//
// The errors are *linalg.InputError values wrapping ErrInput (see package
// optimize, Failure); with a nil error the Result always holds a point of
// the box, its value and gradient, even when the run stops on
// StopLineSearch.
func (lb LBFGS) Minimize(f Objective, x0, lo, hi []float64) (*Result, error) {
	const op = "LBFGS.Minimize"
	opt, err := lb.settings(op)
	if err != nil {
		return nil, err
	}
	if err := checkProblem(op, f, x0, lo, hi); err != nil {
		return nil, err
	}
	r := newRun(opt, f, x0, lo, hi)
	fx, ok := r.eval(r.x, r.g)
	if !ok {
		return nil, startError(op, fx, r.g)
	}
	res := &Result{Stop: StopGradTol}
	pg := r.projGrad()
	// The values of the last RelTolIters iterates, fx's among them, in a
	// ring: hist[k%len(hist)] is f after iteration k (x0's at k = 0).
	hist := make([]float64, opt.relIters+1)
	hist[0] = fx
	for iter := 1; pg > opt.gradTol; iter++ {
		fNew, stop := r.step(fx)
		if stop != 0 {
			res.Stop = stop
			break
		}
		r.update()
		fOld := fx
		fx, pg = fNew, r.projGrad()
		res.Iterations = iter
		if opt.callback != nil && !opt.callback(iter, r.x, fx, pg) {
			res.Stop = StopCallback
			break
		}
		if pg <= opt.gradTol {
			break
		}
		if fOld-fx <= opt.tol*math.Max(math.Max(math.Abs(fOld), math.Abs(fx)), 1) {
			res.Stop = StopTol
			break
		}
		w := len(hist) - 1
		hist[iter%len(hist)] = fx
		if iter >= w && hist[(iter-w)%len(hist)]-fx <= opt.relTol*math.Abs(fx) {
			res.Stop = StopRelTol
			break
		}
		if iter >= opt.maxIter {
			res.Stop = StopMaxIter
			break
		}
	}
	res.X, res.F, res.Grad, res.ProjGrad = slices.Clone(r.x), fx, slices.Clone(r.g), pg
	res.Evaluations, res.NonFinite = r.evals, r.nonFinite
	return res, nil
}

// run is the state of one minimization: the iterate and its gradient, the
// trial point of the line search, the point it would fall back to, and
// the ring of curvature pairs.
type run struct {
	settings
	f      Objective
	lo, hi []float64 // the box, ±Inf where there is no bound

	x, g   []float64 // the iterate and ∇f(x)
	xt, gt []float64 // the line search's trial point and its gradient
	xl, gl []float64 // the best acceptable trial point so far and its gradient
	dir    []float64 // the search direction

	// The pairs: a ring of up to M slots s[j], y[j], grown as pairs are
	// kept, holding the n newest, the newest in slot head−1 (mod M); rho
	// and alpha are the two-loop recursion's work; sNew, yNew are scratch
	// vectors swapped into the ring when a pair is kept.
	s, y       [][]float64
	rho, alpha []float64
	sNew, yNew []float64
	head, n    int
	gamma      float64 // sᵀy/yᵀy of the newest pair
	free       []bool  // the variables not in the binding set

	minStep          float64 // the shortest step the line search tries (see roundoff)
	belowRelTol      bool    // the last search gave up at minStep, set by RelTol
	evals, nonFinite int
}

func newRun(opt settings, f Objective, x0, lo, hi []float64) *run {
	d := len(x0)
	buf := make([]float64, 11*d)
	next := func() []float64 {
		v := buf[:d:d]
		buf = buf[d:]
		return v
	}
	r := &run{settings: opt, f: f, lo: next(), hi: next(), x: next(), g: next(), xt: next(), gt: next(),
		xl: next(), gl: next(), dir: next(), sNew: next(), yNew: next(), gamma: 1, free: make([]bool, d)}
	for i := range x0 {
		r.lo[i], r.hi[i] = math.Inf(-1), math.Inf(1)
		if lo != nil {
			r.lo[i] = lo[i]
		}
		if hi != nil {
			r.hi[i] = hi[i]
		}
		r.x[i] = clamp(x0[i], r.lo[i], r.hi[i])
	}
	return r
}

// clamp projects v onto [lo, hi].
func clamp(v, lo, hi float64) float64 { return math.Min(math.Max(v, lo), hi) }

// eval evaluates f at x, its gradient into g, and reports whether both are
// finite.
func (r *run) eval(x, g []float64) (float64, bool) {
	r.evals++
	fx := r.f(x, g)
	ok := !math.IsNaN(fx) && !math.IsInf(fx, 0)
	for _, v := range g {
		ok = ok && !math.IsNaN(v) && !math.IsInf(v, 0)
	}
	if !ok {
		r.nonFinite++
	}
	return fx, ok
}

// projGrad returns ‖P(x − g) − x‖∞.
func (r *run) projGrad() float64 {
	m := 0.0
	for i, xi := range r.x {
		m = math.Max(m, math.Abs(clamp(xi-r.g[i], r.lo[i], r.hi[i])-xi))
	}
	return m
}

// binding reports whether variable i is at a bound with its gradient
// pointing out of the box.
func (r *run) binding(i int) bool {
	return (r.x[i] <= r.lo[i] && r.g[i] > 0) || (r.x[i] >= r.hi[i] && r.g[i] < 0)
}

// step finds the next iterate into xt, gt and returns its value and 0, or
// the reason to stop: StopLineSearch when neither the L-BFGS direction
// nor, after the memory is cleared, the steepest descent gives an
// acceptable step, StopRelTol when no step could decrease f by more than
// RelTol·|f| (see LBFGS).
func (r *run) step(fx float64) (float64, StopReason) {
	for {
		slope, unit := r.direction()
		a := unit
		if r.n == 0 {
			a = math.Min(unit, 1/linalg.Nrm2(r.dir))
		}
		fNew, ok := r.search(fx, slope, a)
		switch {
		case ok:
			return fNew, 0
		case r.belowRelTol:
			return 0, StopRelTol
		case r.n == 0:
			return 0, StopLineSearch
		}
		r.n, r.gamma = 0, 1
	}
}

// direction sets dir to −H_F·P_F·g with the components that would leave
// the box at once dropped, and returns the slope gᵀdir and the unit step,
// 1. Those components belong to free variables at a bound, whose gradient
// points into the box (or is 0): each dropped term gᵢdᵢ is ≥ 0, so the
// slope stays at most −(P_F·g)ᵀH_F(P_F·g) < 0. When the slope overflows,
// dir is scaled by 2⁻ᵏ, exactly, to a largest entry in [½, 1), and the
// unit step is 2ᵏ: the steps along the scaled dir are the same points.
func (r *run) direction() (slope, unit float64) {
	d := r.dir
	for i := range d {
		r.free[i] = !r.binding(i)
		d[i] = 0
		if r.free[i] {
			d[i] = r.g[i]
		}
	}
	r.twoLoop(d)
	for i := range d {
		d[i] = -d[i]
		if (r.x[i] <= r.lo[i] && d[i] < 0) || (r.x[i] >= r.hi[i] && d[i] > 0) {
			d[i] = 0
		}
	}
	slope, unit = linalg.Dot(r.g, d), 1
	if math.IsInf(slope, -1) {
		big := 0.0
		for _, v := range d {
			big = math.Max(big, math.Abs(v))
		}
		_, k := math.Frexp(big)
		for i := range d {
			d[i] = math.Ldexp(d[i], -k)
		}
		slope, unit = linalg.Dot(r.g, d), math.Ldexp(1, k)
	}
	return slope, unit
}

// twoLoop overwrites q, zero outside the free variables, with H_F·q by the
// two-loop recursion, newest pair to oldest and back: H_F is the L-BFGS
// matrix of the kept pairs restricted to the free variables (s_F, y_F),
// with H₀ = γI, γ = s_Fᵀy_F/y_Fᵀy_F of the newest of them. A pair whose
// restricted curvature s_Fᵀy_F is not above curvatureEps·‖s_F‖‖y_F‖ is
// left out (rho[j] = 0), which keeps H_F positive definite.
func (r *run) twoLoop(q []float64) {
	m, gamma := r.m, 0.0
	for k := 0; k < r.n; k++ {
		j := (r.head - 1 - k + m) % m
		sy, ss, yy := r.freeDots(r.s[j], r.y[j])
		r.rho[j] = 0
		if sy <= curvatureEps*math.Sqrt(ss)*math.Sqrt(yy) {
			continue
		}
		if gamma == 0 {
			gamma = sy / yy
		}
		r.rho[j] = 1 / sy
		r.alpha[j] = r.rho[j] * linalg.Dot(r.s[j], q)
		r.axpyFree(-r.alpha[j], r.y[j], q)
	}
	if gamma == 0 {
		gamma = r.gamma
	}
	for i := range q {
		q[i] *= gamma
	}
	for k := r.n - 1; k >= 0; k-- {
		if j := (r.head - 1 - k + m) % m; r.rho[j] != 0 {
			b := r.rho[j] * linalg.Dot(r.y[j], q)
			r.axpyFree(r.alpha[j]-b, r.s[j], q)
		}
	}
}

// freeDots returns s_Fᵀy_F, s_Fᵀs_F and y_Fᵀy_F over the free variables.
func (r *run) freeDots(s, y []float64) (sy, ss, yy float64) {
	for i, f := range r.free {
		if f {
			sy += float64(s[i] * y[i])
			ss += float64(s[i] * s[i])
			yy += float64(y[i] * y[i])
		}
	}
	return sy, ss, yy
}

// axpyFree computes q_F += a·x_F, each product rounded before the add.
func (r *run) axpyFree(a float64, x, q []float64) {
	for i, f := range r.free {
		if f {
			q[i] += float64(a * x[i])
		}
	}
}

// update moves to the trial point xt, gt, keeping the pair s = xt − x,
// y = gt − g when its curvature sᵀy is positive enough.
func (r *run) update() {
	for i := range r.x {
		r.sNew[i] = r.xt[i] - r.x[i]
		r.yNew[i] = r.gt[i] - r.g[i]
	}
	sy := linalg.Dot(r.sNew, r.yNew)
	if sy > curvatureEps*linalg.Nrm2(r.sNew)*linalg.Nrm2(r.yNew) {
		h := r.head
		if h == len(r.s) { // the ring is still filling
			d := len(r.x)
			r.s, r.y = append(r.s, make([]float64, d)), append(r.y, make([]float64, d))
			r.rho, r.alpha = append(r.rho, 0), append(r.alpha, 0)
		}
		r.s[h], r.sNew = r.sNew, r.s[h]
		r.y[h], r.yNew = r.yNew, r.y[h]
		r.gamma = sy / linalg.Dot(r.y[h], r.y[h])
		r.head = (h + 1) % r.m
		r.n = min(r.n+1, r.m)
	}
	r.x, r.xt = r.xt, r.x
	r.g, r.gt = r.gt, r.g
}
