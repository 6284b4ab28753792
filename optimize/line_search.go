package optimize

import (
	"math"

	"rkhs/linalg"
)

// The line searches of LBFGS along dir from x: strong Wolfe on the segment
// inside the box (Nocedal and Wright 2006, Algorithms 3.5 and 3.6), Armijo
// backtracking along the projection arc (Bertsekas 1982) when the first
// trial step leaves the box. Each trial is one evaluation of f, with its
// gradient, at xt; the best acceptable trial so far waits in xl, gl, so
// that no point is ever evaluated twice.

// roundoff is the smallest decrease, relative to |f|, that a line search
// tries to see: a step α whose predicted decrease α·|gᵀd| is below
// roundoff·|f| changes f by about its rounding error, so that no test on f
// can accept it, and the search gives up instead of spending evaluations
// on it.
const roundoff = 0x1p-50

// point is a trial step α with φ(α) = f(P(x + α·dir)) and φ'(α) =
// ∇f(x + α·dir)ᵀdir; ok is false when the value or the gradient is NaN or
// ±Inf, and then f and d are not used.
type point struct {
	a, f, d float64
	ok      bool
}

// search finds a step along dir from x, whose value is f0 and slope
// d0 = gᵀdir, starting with the step a. It leaves the new point and its
// gradient in xt, gt and returns its value, or false when d0 is not
// negative (a slope that underflowed) or no step was acceptable within
// MaxLineSearch evaluations and above minStep, or (belowRelTol) none
// could decrease f by more than RelTol·|f0| (see LBFGS).
func (r *run) search(f0, d0, a float64) (float64, bool) {
	r.belowRelTol = false
	if !(d0 < 0) || math.IsInf(d0, -1) {
		return 0, false
	}
	r.minStep = roundoff * math.Abs(f0) / -d0
	if a <= r.minStep {
		return 0, false
	}
	if amax := r.maxStep(); a <= amax {
		return r.wolfe(f0, d0, a, amax)
	}
	return r.backtrack(f0, d0, a)
}

// maxStep returns the largest α with x + α·dir inside the box, +Inf if
// there is none.
func (r *run) maxStep() float64 {
	amax := math.Inf(1)
	for i, di := range r.dir {
		switch {
		case di > 0:
			amax = math.Min(amax, (r.hi[i]-r.x[i])/di)
		case di < 0:
			amax = math.Min(amax, (r.lo[i]-r.x[i])/di)
		}
	}
	return amax
}

// negligible reports whether a decrease of at most dec (≥ 0) is one that
// RelTol ignores, dec ≤ RelTol·|f0|, and notes it in belowRelTol.
func (r *run) negligible(f0, dec float64) bool {
	r.belowRelTol = r.relTol > 0 && dec <= r.relTol*math.Abs(f0)
	return r.belowRelTol
}

// armijo is the sufficient decrease condition at the step a of value fa:
// fa ≤ f0 + C1·dec, where dec = a·d0 is the decrease the slope predicts
// (along the arc, gᵀ(x(a) − x)). A NaN fa fails it.
func (r *run) armijo(f0, dec, fa float64) bool { return fa <= f0+r.c1*dec }

// strongWolfe is the curvature condition of the strong Wolfe conditions
// at a step whose slope is da: |da| ≤ C2·|d0|.
func (r *run) strongWolfe(d0, da float64) bool { return math.Abs(da) <= -r.c2*d0 }

// trial evaluates f at P(x + a·dir) into xt, gt.
func (r *run) trial(a float64) point {
	for i, xi := range r.x {
		r.xt[i] = clamp(xi+float64(a*r.dir[i]), r.lo[i], r.hi[i])
	}
	fa, ok := r.eval(r.xt, r.gt)
	p := point{a: a, f: fa, ok: ok}
	if ok {
		p.d = linalg.Dot(r.gt, r.dir)
	}
	return p
}

// swapBest exchanges the trial point with the best one kept: it keeps the
// trial, or brings the kept point back to be returned.
func (r *run) swapBest() {
	r.xt, r.xl = r.xl, r.xt
	r.gt, r.gl = r.gl, r.gt
}

// wolfe is Algorithm 3.5 of Nocedal and Wright: steps a, 4a, 16a, … capped
// at amax, where dir meets the box, until one satisfies the strong Wolfe
// conditions or brackets such a step, which zoom then finds. The step amax
// is accepted on the sufficient decrease alone when f still decreases
// there. When the budget runs out while the steps still decrease f
// enough, the last of them is accepted.
func (r *run) wolfe(f0, d0, a, amax float64) (float64, bool) {
	prev := point{f: f0, d: d0, ok: true} // α = 0: the iterate itself
	for k := 1; k <= r.maxLS; k++ {
		cur := r.trial(a)
		switch {
		case !cur.ok || !r.armijo(f0, a*d0, cur.f) || (prev.a > 0 && cur.f >= prev.f):
			return r.zoom(f0, d0, prev, cur, r.maxLS-k)
		case r.strongWolfe(d0, cur.d):
			return cur.f, true
		case cur.d >= 0:
			r.swapBest()
			return r.zoom(f0, d0, cur, prev, r.maxLS-k)
		case a >= amax:
			return cur.f, true
		}
		r.swapBest()
		prev, a = cur, math.Min(4*a, amax)
	}
	r.swapBest()
	return prev.f, true
}

// zoom is Algorithm 3.6 of Nocedal and Wright, with at most budget
// evaluations. Invariants: lo satisfies the sufficient decrease and has
// the lowest value of the trials that do (its point is in xl, gl unless
// lo.a = 0, the iterate); hi lies past a minimizer of φ seen from lo,
// (hi.a − lo.a)·lo.d < 0. When the budget runs out, the interval shrinks
// to rounding or, with lo.a = 0, the step to below minStep, or, with
// RelTol, the bracket can add at most RelTol·|f0| to lo's decrease
// (|hi.a − lo.a|·|lo.d|, see LBFGS), lo is accepted if it is a step at
// all.
func (r *run) zoom(f0, d0 float64, lo, hi point, budget int) (float64, bool) {
	for ; budget > 0; budget-- {
		a := interpolate(lo, hi)
		w := math.Abs(hi.a - lo.a)
		if w <= 0x1p-40*math.Max(lo.a, hi.a) || (lo.a == 0 && a <= r.minStep) || r.negligible(f0, w*math.Abs(lo.d)) {
			break
		}
		cur := r.trial(a)
		switch {
		case !cur.ok || !r.armijo(f0, a*d0, cur.f) || cur.f >= lo.f:
			hi = cur
		case r.strongWolfe(d0, cur.d):
			return cur.f, true
		default:
			if cur.d*(hi.a-lo.a) >= 0 {
				hi = lo
			}
			lo = cur
			r.swapBest()
		}
	}
	if lo.a == 0 {
		return 0, false
	}
	r.swapBest()
	return lo.f, true
}

// interpolate returns the minimizer of the cubic that matches φ and φ' at
// lo and hi (Nocedal and Wright, eq. 3.59), moved to at least a tenth of
// the interval from either end; the midpoint when the cubic has no
// minimizer; a tenth of the way to hi when f or its gradient is NaN or
// ±Inf there.
func interpolate(lo, hi point) float64 {
	w := hi.a - lo.a
	t := 0.1
	if hi.ok {
		t = 0.5
		d1 := lo.d + hi.d - 3*(lo.f-hi.f)/(lo.a-hi.a)
		if disc := d1*d1 - lo.d*hi.d; disc >= 0 {
			d2 := math.Copysign(math.Sqrt(disc), w)
			a := hi.a - w*(hi.d+d2-d1)/(hi.d-lo.d+2*d2)
			if u := (a - lo.a) / w; !math.IsNaN(u) {
				t = clamp(u, 0.1, 0.9)
			}
		}
	}
	return lo.a + t*w
}

// backtrack shrinks the step a along the projection arc until
// f(P(x + a·dir)) ≤ f0 + C1·gᵀ(P(x + a·dir) − x): each new step is the
// minimizer of the quadratic through f0, the slope d0 and the value at a,
// kept in [a/10, a/2], or a/10 after a NaN or ±Inf; it gives up below
// minStep, or where the steps left could decrease f by at most
// RelTol·|f0| (a·|d0|).
func (r *run) backtrack(f0, d0, a float64) (float64, bool) {
	for k := 0; k < r.maxLS && a > r.minStep && !r.negligible(f0, -a*d0); k++ {
		cur := r.trial(a)
		next := 0.1 * a
		if cur.ok {
			for i, xi := range r.x {
				r.sNew[i] = r.xt[i] - xi
			}
			if dec := linalg.Dot(r.g, r.sNew); dec < 0 && r.armijo(f0, dec, cur.f) {
				return cur.f, true
			}
			next = 0.5 * a
			if q := -d0 * a * a / (2 * (cur.f - f0 - d0*a)); !math.IsNaN(q) {
				next = clamp(q, 0.1*a, 0.5*a)
			}
		}
		a = next
	}
	return 0, false
}
