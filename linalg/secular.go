package linalg

import "math"

// The secular equation of a rank-one modification D + ρ·z·zᵀ of a diagonal
// matrix, the core of both divide-and-conquer merges: dcMerge for the
// symmetric tridiagonal eigenproblem (poles d_i, the eigenvalues of the two
// halves) and bdMerge for the bidiagonal SVD (poles d_i², the squared
// singular values of the two halves), after Gu and Eisenstat, "A
// divide-and-conquer algorithm for the symmetric tridiagonal eigenproblem"
// (1995) and "A divide-and-conquer algorithm for the bidiagonal SVD"
// (1995). Each merge maps its problem onto D + ρ·z·zᵀ and back; in between,
// both run the same three steps, here:
//
//  1. deflation of neighbouring poles (secularDeflate);
//  2. the roots and the differences δ_ij = d_i − λ_j to a few ulps
//     (secularRoots, one secularRoot per root);
//  3. the vector û for which the computed roots are exact (lownerVector),
//     from which the merges build their orthogonal vectors û_i/δ_ij.

// secularDeflate is the deflation of Gu and Eisenstat on a merged problem
// with ascending values d (the poles, or in the SVD their square roots) and
// components z, over the positions from … len(d)−1. A position for which alone reports true deflates by itself (a
// negligible component; alone may first rotate it away in the merge's
// bases). Of two neighbours pj < nj still in play, the rotation
// c = z_nj/r, s = −z_pj/r, r = √(z_pj² + z_nj²) moves pj's component into
// nj's; when the coupling |(d_nj − d_pj)·c·s| it leaves between them is at
// most tol, or coincide (if not nil) reports that their poles are equal in
// floating point (squares that round alike), rotate applies it to the merge's bases, d_pj and d_nj
// become d_pj·c² + d_nj·s² and d_pj·s² + d_nj·c², z_pj = 0 and z_nj = r,
// and pj deflates. The positions left, whose poles are distinct and
// components not negligible, are appended to kept in ascending order, the
// deflated ones to defl in the order found; secularDeflate returns both.
// Each step perturbs the problem by at most about tol.
func secularDeflate(d, z []float64, from int, tol float64, kept, defl []int,
	alone func(i int) bool, coincide func(pj, nj int) bool, rotate func(pj, nj int, c, s float64)) ([]int, []int) {
	pj := -1 // the last position not yet classified
	for nj := from; nj < len(d); nj++ {
		if alone(nj) {
			defl = append(defl, nj)
			continue
		}
		if pj < 0 {
			pj = nj
			continue
		}
		r := math.Hypot(z[pj], z[nj])
		c, s := z[nj]/r, -z[pj]/r
		if t := d[nj] - d[pj]; math.Abs(t*c*s) <= tol || (coincide != nil && coincide(pj, nj)) {
			rotate(pj, nj, c, s)
			z[pj], z[nj] = 0, r
			dp, dn := d[pj], d[nj]
			d[pj] = dp*c*c + dn*s*s
			d[nj] = dp*s*s + dn*c*c
			defl = append(defl, pj)
		} else {
			kept = append(kept, pj)
		}
		pj = nj
	}
	if pj >= 0 {
		kept = append(kept, pj)
	}
	return kept, defl
}

// secularRoots finds the k roots of the secular equation of
// diag(d) + ρ·z·zᵀ (d strictly increasing, every z_i nonzero, ρ > 0): lam
// holds them in ascending order, row j of the k×k matrix delta the
// differences d_i − λ_j (see secularRoot), and zhat the vector for which
// the λ_j are exact (see lownerVector). The roots are spread over p
// goroutines; each is computed by the same operations whatever p is. The
// cost is about 10k² flops and k² divisions per iteration, three to five
// iterations per root being usual. secularRoots returns the first error of
// secularRoot, if any.
func secularRoots(d, z []float64, rho float64, p int) (lam, delta, zhat []float64, err error) {
	k := len(d)
	lam = make([]float64, k)
	delta = scratchFloats(k * k) // every element written by secularRoot; the caller may release it
	errs := make([]error, k)
	forEach(p, k, taskFunc(func(_, j int) {
		lam[j], errs[j] = secularRoot(j, d, z, rho, delta[j*k:(j+1)*k])
	}))
	if err := firstError(errs); err != nil {
		return nil, nil, nil, err
	}
	return lam, delta, lownerVector(d, z, delta, p), nil
}

// secularMaxIter bounds the iterations for one root of the secular
// equation. Three to five are usual; the bisection safeguard alone would
// need about 60 to pin a root down to rounding from the midpoint of its
// interval. It is a variable only so that tests can force a failure.
var secularMaxIter = 100

// secularRoot returns the j-th smallest root λ_j (0-based) of the secular
// equation
//
//	f(λ) = 1/ρ + Σ_i z_i²/(d_i − λ) = 0,
//
// the j-th eigenvalue of D + ρ·z·zᵀ with D = diag(d), for d strictly
// increasing (length K), every z_i nonzero and ρ > 0 (the form
// 1 + ρ·Σ z_i²/(d_i − λ) = 0 has the same roots). The roots interlace the
// poles: d_j < λ_j < d_{j+1} for j < K−1, and d_{K−1} < λ_{K−1} ≤
// d_{K−1} + ρ·‖z‖².
//
// It also writes delta[i] = d_i − λ_j for every i, computed without
// cancellation: the root is sought as λ = d_o + τ with the origin d_o the
// pole nearer to it (d_j or d_{j+1}, found from the sign of f at the
// midpoint), and delta[i] = (d_i − d_o) − τ. These differences, not λ_j
// itself, are what the eigenvectors of D + ρ·z·zᵀ are built from, and their
// accuracy is what makes those eigenvectors orthogonal.
//
// Each iteration evaluates f and replaces it by a rational model with three
// poles (see secularModel.root): the origin's own term exactly, and for the
// terms with poles below the origin, and again for those above it, a single
// term c + s/(p − λ) matching their value and first two derivatives at the
// current iterate, its pole p a weighted mean of theirs. The model's root is
// the next iterate. Keeping the origin's weight z_o² exact is what finds a
// root very near its pole (a tiny z_o) in a step or two, and letting each
// side's pole sit where its weight is (not at the nearest pole, as in the
// "middle way" of LAPACK's dlaed4) is what keeps steps long when a heavy
// pole lies beyond a light near one, as in clusters of nearly equal d.
// Matching f, f′ and f″ makes convergence cubic near the root. The root is
// kept in a bracket that shrinks with the sign of f at each iterate; a model
// step in the wrong direction is replaced by a Newton step, and one that
// leaves the bracket, or follows two steps that did not halve |f| (model
// steps that land alternately on the two sides of a root without closing
// in), by bisection — of the exponent when the bracket spans orders of
// magnitude. So the iteration cannot diverge or stall. It stops when |f|
// is below a bound on the rounding error in evaluating it, or when no
// float64 is left strictly inside the bracket. Each iteration costs about
// 10K flops and K divisions.
//
// secularRoot returns a *ConvergenceError if it has not converged after
// secularMaxIter iterations; λ and delta then hold the last iterate.
func secularRoot(j int, d, z []float64, rho float64, delta []float64) (float64, error) {
	k := len(d)
	delta = delta[:k]
	if k == 1 {
		t := rho * z[0] * z[0]
		delta[0] = -t
		return d[0] + t, nil
	}

	var o int          // index of the origin pole
	var lo, hi float64 // bracket of τ = λ − d[o], which holds the root
	var tau float64
	if j == k-1 {
		o = k - 1
		lo, hi = 0, rho*dot(z, z) // f(d[k−1] + hi) ≥ 0
		tau = hi / 2
	} else {
		mid := (d[j+1] - d[j]) / 2
		f := 1 / rho
		for i := range k {
			f += z[i] * z[i] / ((d[i] - d[j]) - mid)
		}
		if f >= 0 { // the root is in (d_j, d_j + mid]
			o = j
			lo, hi, tau = 0, d[j+1]-d[j], mid
		} else { // the root is in (d_{j+1} − mid, d_{j+1})
			o = j + 1
			lo, hi, tau = d[j]-d[j+1], 0, -mid
		}
	}
	do := d[o]
	rhoinv := 1 / rho
	w1, w2 := math.Inf(1), math.Inf(1) // f at the last two iterates

	for it := 0; it < secularMaxIter; it++ {
		// f at τ in three parts: the terms with poles below the origin
		// (value vb ≤ 0, derivative d1b, and d2b = Σ z_i²/δ_i³, half the
		// second derivative), those above (va ≥ 0, d1a, d2a), and the
		// origin's. Each part is summed from the far poles inward, so that
		// the large terms come last. erretm collects the partial sums,
		// whose total bounds the rounding error of the sums (over ε).
		vb, d1b, d2b, erretm := secularSide(d, z, delta, do, tau, 0, o, 1, 0)
		va, d1a, d2a, erretm := secularSide(d, z, delta, do, tau, k-1, o, -1, erretm)
		delta[o] = -tau
		to := z[o] / delta[o]
		vo := z[o] * to
		w := rhoinv + vb + va + vo
		dw := d1b + d1a + to*to
		// The error in w: the sums above, the four-term sum for w, and the
		// rounding of each d_i − λ, which is relative to |τ|.
		erretm += 4*(va-vb+math.Abs(vo)) + 2*rhoinv + math.Abs(tau)*dw
		if math.Abs(w) <= tridiagEps*erretm {
			return do + tau, nil
		}
		// f is increasing in λ: the sign of w says on which side the root
		// lies. The root is now strictly inside (lo, hi), and τ is one of
		// the two.
		if w > 0 {
			hi = tau
		} else {
			lo = tau
		}

		m := secularModel{c: rhoinv, so: z[o] * z[o], pb: math.Inf(-1), pa: math.Inf(1)}
		m.addSide(vb, d1b, d2b, tau, &m.sb, &m.pb)
		m.addSide(va, d1a, d2a, tau, &m.sa, &m.pa)
		next := m.root(lo, hi)
		if !((next-tau)*w < 0) { // NaN, or the model step goes the wrong way
			next = tau - w/dw
		}
		// Bisect when the steps stall: |f| not halved in two iterations
		// (model steps that land alternately on the two sides of the root
		// without closing in on it).
		stalled := math.Abs(w) > math.Abs(w2)/2
		w2, w1 = w1, w
		if stalled || !(next > lo && next < hi) {
			next = secularBisect(lo, hi)
			if !(next > lo && next < hi) {
				// No float64 lies strictly inside the bracket: τ is as
				// close to the root as can be represented.
				return do + tau, nil
			}
		}
		tau = next
	}
	return do + tau, &ConvergenceError{Algorithm: "secular equation of divide and conquer", Iterations: secularMaxIter}
}

// secularSide sums the terms of f at λ = d_o + τ whose poles lie on one
// side of the origin o, from the far pole i = from inward to i = to
// (excluded) in steps of ±1: their value v = Σ z_i²/δ_i (of one sign), its
// derivative d1 = Σ z_i²/δ_i² and d2 = Σ z_i²/δ_i³, writing δ_i =
// (d_i − d_o) − τ to delta. It adds each partial |v| to e, the running
// bound on the rounding error of the sums, and returns the new bound.
func secularSide(d, z, delta []float64, do, tau float64, from, to, step int, e float64) (v, d1, d2, e2 float64) {
	for i := from; i != to; i += step {
		di := (d[i] - do) - tau
		delta[i] = di
		t := z[i] / di
		v += z[i] * t
		d1 += t * t
		d2 += t * t / di
		e += math.Abs(v)
	}
	return v, d1, d2, e
}

// secularModel is the rational model of f used by secularRoot, in the
// coordinate t = λ − d_o relative to the origin pole:
//
//	m(t) = c + sb/(pb − t) − so/t + sa/(pa − t),
//
// with pb < 0 the effective pole of the terms below the origin and pa > 0
// that of the terms above (±Inf, with weight 0, when there are none).
type secularModel struct {
	c, so, sb, pb, sa, pa float64
}

// addSide adds to the model one side of f — value v, derivative d1 and
// d2 = Σ z_i²/δ_i³ at the iterate τ — as the single term s/(p − t) plus a
// constant that match v, d1 and 2·d2: the distance to the pole is
// p − τ = d1/d2, a weighted mean of the distances δ_i, so the pole stays on
// the side's own side of the bracket.
func (m *secularModel) addSide(v, d1, d2, tau float64, s, p *float64) {
	e := d1 / d2
	if d1 == 0 || math.IsInf(e, 0) || math.IsNaN(e) {
		m.c += v // no terms (or too small to shape the model): a constant
		return
	}
	*s = d1 * e * e
	*p = tau + e
	m.c += v - d1*e
}

// root returns the root of the model in (lo, hi), or NaN if it has none
// there. The bracket lies on one side of the origin and inside (pb, pa),
// where m is increasing. The root solves F(t) = t·r(t) − so = 0 with r the
// model without its origin term; F has no pole at the origin, so Newton's
// method from the end of the bracket nearest the origin (where
// F(0) = −so) finds a root however close to it without cancellation. The
// iteration is safeguarded by bisection on the sign of F.
func (m *secularModel) root(lo, hi float64) float64 {
	sign := 1.0 // orientation: σ·F < 0 left of the root, as m
	if hi <= 0 {
		sign = -1
	}
	eval := func(t float64) (f, df float64) {
		ub, ua := 1/(m.pb-t), 1/(m.pa-t)
		r := m.c + m.sb*ub + m.sa*ua
		dr := m.sb*ub*ub + m.sa*ua*ua
		return t*r - m.so, r + t*dr
	}
	a, b := lo, hi
	t := a
	if sign < 0 {
		t = b
	}
	for range 60 {
		f, df := eval(t)
		switch g := sign * f; {
		case math.IsNaN(g):
			return g
		case g == 0:
			return t
		case g < 0:
			a = t
		default:
			b = t
		}
		next := t - f/df
		if !(next > a && next < b) {
			next = secularBisect(a, b)
		}
		if math.Abs(next-t) <= 2*tridiagEps*math.Abs(next) {
			return next
		}
		t = next
	}
	return t
}

// secularBisect returns a point strictly between lo < hi if there is one: the
// midpoint, or the geometric mean when both have the same sign and differ
// by more than a factor 8, so that a bracket spanning many orders of
// magnitude shrinks by a constant factor in exponent per step.
func secularBisect(lo, hi float64) float64 {
	switch {
	case lo > 0 && hi > 8*lo:
		return math.Sqrt(lo) * math.Sqrt(hi)
	case hi < 0 && lo < 8*hi:
		return -math.Sqrt(-lo) * math.Sqrt(-hi)
	}
	return lo + (hi-lo)/2
}

// lownerVector returns the vector û for which the computed roots λ_j are the
// exact eigenvalues of diag(d) + ρ·û·ûᵀ (up to the common factor ρ, which
// the caller's normalization removes), by Löwner's formula as used by Gu and
// Eisenstat:
//
//	û_i² = −δ_ii · Π_{j≠i} δ_ij / (d_i − d_j),  sign(û_i) = sign(u_i),
//
// with δ_ij = d_i − λ_j read from row j of the k×k matrix delta (as written
// by secularRoot). Every factor is a ratio of accurately known differences,
// so û is accurate to a few ulps componentwise, and the vectors
// û_i/δ_ij are then orthogonal to working precision even for clustered λ —
// which the original u, with λ not exact for it, would not give.
//
// The products for different i are independent, so ranges of i are spread
// over p goroutines; each û_i is computed by the same operations in the same
// order whatever p is. The cost is 2k² flops and k² divisions.
func lownerVector(d, u, delta []float64, p int) []float64 {
	k := len(d)
	w := make([]float64, k)
	chunks := newRowChunks(k, max(p, 1), 1)
	forEach(p, chunks.Count(), taskFunc(func(_, c int) {
		lo, hi := chunks.Bounds(c)
		for i := lo; i < hi; i++ {
			w[i] = delta[i*k+i]
		}
		for j := 0; j < k; j++ {
			row := delta[j*k : (j+1)*k]
			dj := d[j]
			for i := lo; i < min(j, hi); i++ {
				w[i] *= row[i] / (d[i] - dj)
			}
			for i := max(j+1, lo); i < hi; i++ {
				w[i] *= row[i] / (d[i] - dj)
			}
		}
		for i := lo; i < hi; i++ {
			w[i] = math.Copysign(math.Sqrt(-w[i]), u[i])
		}
	}))
	return w
}
