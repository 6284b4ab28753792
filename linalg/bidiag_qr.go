package linalg

import (
	"fmt"
	"math"
)

// bdsqrMaxIter bounds the work of bdsqr: it gives up after
// bdsqrMaxIter·n² inner steps of its sweeps in total (LAPACK's limit; about
// two sweeps per singular value are usual). A variable only so that tests
// can force a failure.
var bdsqrMaxIter = 6

// bdsqrTol is the relative tolerance of bdsqr's convergence tests, LAPACK's
// max(10, min(100, ε^(−1/8)))·ε: an off-diagonal entry counts as zero when
// it is below bdsqrTol times a lower bound on the smallest singular value of
// its block, which changes no singular value by more than a few bdsqrTol
// relative.
const bdsqrTol = 90 * tridiagEps

// bdsqr computes the singular value decomposition B = Q·Σ·Pᵀ of the n×n
// upper bidiagonal matrix B with diagonal d (length n) and superdiagonal e
// (length n−1, B[i][i+1] = e[i]), by the implicit QR iteration of Demmel and
// Kahan, "Accurate singular values of bidiagonal matrices" (1990), the
// method of LAPACK's dbdsqr. On return d holds the singular values
// σ₀ ≥ σ₁ ≥ … ≥ 0 in descending order and e is destroyed. Every singular
// value is accurate to a modest multiple of ε relative to itself — not
// just to ε·‖B‖ — whatever the grading of B.
//
// The rotations are accumulated into ut and wt, which may be empty (no
// vectors) or have n rows and any number of columns: on return ut holds
// Qᵀ·ut and wt holds Pᵀ·wt. Starting both from the identity gives Qᵀ and
// Pᵀ, whose row i is the left and the right singular vector of σᵢ. Both are
// updated by rows, which are contiguous.
//
// Method. B splits into unreduced blocks where an off-diagonal entry is
// negligible: below bdsqrTol times a running lower bound on the smallest
// singular value (the recurrence μ_{i+1} = |d_{i+1}|·μ_i/(μ_i + |e_i|)),
// or below an absolute threshold of the same order. A 2×2 block is solved
// directly (svd2x2). A larger block is swept by bulge-chasing plane
// rotations, top to bottom when its first diagonal entry is the larger in
// magnitude (singular values then converge at the bottom) and bottom to
// top otherwise, which keeps graded matrices accurate. The shift is the
// smaller singular value of the trailing 2×2 block; it is replaced by 0,
// and the sweep by the zero-shift QR of Demmel and Kahan (which involves no
// subtraction at all), whenever shifting could spoil the relative accuracy
// of the smallest singular value. Entries whose size is out of
// [2⁻⁵⁰⁰, 2⁵⁰⁰] are first scaled by a power of two (exactly).
//
// Cost: about two sweeps per singular value, O(n²) flops and square roots
// for the values; with vectors each rotation also costs 6 flops per column
// of ut and wt.
//
// bdsqr returns a *ConvergenceError (wrapping ErrNoConvergence) if the
// iteration reaches its limit; d, ut and wt then hold a partial
// decomposition (singular values not yet sorted). It panics if len(e) ≠ n−1
// (for n ≥ 1) or ut or wt is neither empty nor n rows. It does not check
// for NaN or ±Inf. It starts no goroutines.
func bdsqr(d, e []float64, ut, wt Dense) error {
	n := len(d)
	if len(e) != max(n-1, 0) {
		panic(fmt.Sprintf("linalg: bdsqr: %d diagonal entries need %d off-diagonal ones, got %d", n, max(n-1, 0), len(e)))
	}
	for _, v := range []Dense{ut, wt} {
		if !v.IsEmpty() && v.Rows != n {
			panic(fmt.Sprintf("linalg: bdsqr: vector matrix has %d rows, want %d", v.Rows, n))
		}
	}
	if n == 0 {
		return nil
	}
	scale := 0
	if amax := math.Max(maxAbs(d), maxAbs(e)); amax != 0 && (amax > 0x1p500 || amax < 0x1p-500) {
		scale = -exponentOf(amax)
		scaleExp(d, scale)
		scaleExp(e, scale)
	}
	st := bdsqrState{d: d, e: e, ut: ut, wt: wt}
	err := st.iterate()
	if scale != 0 {
		scaleExp(d, -scale)
	}
	if err != nil {
		return err
	}
	// Make the singular values positive (flipping the right vector) and
	// sort them into descending order, by selection: at most n−1 swaps of
	// vector rows.
	for i, v := range d {
		if v < 0 {
			d[i] = -v
			if !wt.IsEmpty() {
				row := wt.Data[i*wt.Stride : i*wt.Stride+wt.Cols]
				for k := range row {
					row[k] = -row[k]
				}
			}
		}
	}
	for i := 0; i < n-1; i++ {
		best := i
		for j := i + 1; j < n; j++ {
			if d[j] > d[best] {
				best = j
			}
		}
		if best != i {
			d[i], d[best] = d[best], d[i]
			swapRows(ut, i, best)
			swapRows(wt, i, best)
		}
	}
	return nil
}

// swapRows swaps rows i and j of a (nothing if a is empty).
func swapRows(a Dense, i, j int) {
	if a.IsEmpty() {
		return
	}
	ri := a.Data[i*a.Stride : i*a.Stride+a.Cols]
	rj := a.Data[j*a.Stride : j*a.Stride+a.Cols]
	for k := range ri {
		ri[k], rj[k] = rj[k], ri[k]
	}
}

// bdsqrState is the state of bdsqr's iteration: B, the vector matrices,
// and the rotations of the current sweep (cr, sr from the right, applied to
// wt; cl, sl from the left, applied to ut), kept so that they are applied
// to the vectors after the sweep, row pair by row pair.
type bdsqrState struct {
	d, e           []float64
	ut, wt         Dense
	cr, sr, cl, sl []float64
	thresh         float64
}

// iterate runs the QR iteration until every off-diagonal entry is zero.
func (st *bdsqrState) iterate() error {
	d, e := st.d, st.e
	n := len(d)
	if n == 1 {
		return nil
	}
	st.cr, st.sr = make([]float64, n-1), make([]float64, n-1)
	st.cl, st.sl = make([]float64, n-1), make([]float64, n-1)

	// The absolute threshold: bdsqrTol times an estimate of σmin (the
	// recurrence's minimum over √n), but at least far above underflow.
	smin := math.Abs(d[0])
	for mu, i := smin, 1; i < n && smin != 0; i++ {
		mu = math.Abs(d[i]) * (mu / (mu + math.Abs(e[i-1])))
		smin = math.Min(smin, mu)
	}
	smin /= math.Sqrt(float64(n))
	st.thresh = math.Max(bdsqrTol*smin, float64(bdsqrMaxIter)*float64(n)*float64(n)*tridiagSafmin)

	maxIter := bdsqrMaxIter * n * n
	iter := 0
	oldLo, oldHi := -1, -1
	down := true
	// Invariant: rows hi+1… of B are finished (their e entries are zero).
	for hi := n - 1; hi > 0; {
		if iter > maxIter {
			return &ConvergenceError{Algorithm: "bidiagonal QR", Iterations: iter}
		}
		// The unreduced block [lo, hi], and its largest entry.
		smax := math.Abs(d[hi])
		lo := 0
		for l := hi - 1; l >= 0; l-- {
			if math.Abs(e[l]) <= st.thresh {
				e[l] = 0
				lo = l + 1
				break
			}
			smax = math.Max(smax, math.Max(math.Abs(d[l]), math.Abs(e[l])))
		}
		if lo == hi {
			hi--
			continue
		}
		if lo == hi-1 {
			smin, smax, cl, sl, cr, sr := svd2x2(d[lo], e[lo], d[hi])
			d[lo], e[lo], d[hi] = smax, 0, smin
			st.cr[lo], st.sr[lo], st.cl[lo], st.sl[lo] = cr, sr, cl, sl
			st.rotate(lo, hi, true)
			hi -= 2
			continue
		}
		// A new block: chase towards its smaller end.
		if lo > oldHi || hi < oldLo {
			down = math.Abs(d[lo]) >= math.Abs(d[hi])
		}
		// Relative convergence tests, which also yield the lower bound
		// sminl on the block's smallest singular value.
		sminl, split := st.converged(lo, hi, down)
		if split {
			continue
		}
		oldLo, oldHi = lo, hi

		// The shift, unless it could spoil relative accuracy.
		shift := 0.0
		if float64(n)*bdsqrTol*(sminl/smax) > math.Max(tridiagEps, 0.01*bdsqrTol) {
			var sll float64
			if down {
				sll = math.Abs(d[lo])
				shift, _ = singular2x2(d[hi-1], e[hi-1], d[hi])
			} else {
				sll = math.Abs(d[hi])
				shift, _ = singular2x2(d[lo], e[lo], d[lo+1])
			}
			if sll > 0 && sq(shift/sll) < tridiagEps {
				shift = 0
			}
		}
		iter += hi - lo
		switch {
		case down && shift == 0:
			st.zeroShiftDown(lo, hi)
		case down:
			st.shiftedDown(lo, hi, shift)
		case shift == 0:
			st.zeroShiftUp(lo, hi)
		default:
			st.shiftedUp(lo, hi, shift)
		}
	}
	return nil
}

// converged applies the relative convergence tests to the block [lo, hi]
// in the direction of the chase: an e entry below bdsqrTol times the
// running lower bound μ on the smallest singular value of the part of the
// block it closes is set to zero (split reports that one was). Otherwise it
// returns the bound for the whole block.
func (st *bdsqrState) converged(lo, hi int, down bool) (sminl float64, split bool) {
	d, e := st.d, st.e
	if down {
		if math.Abs(e[hi-1]) <= bdsqrTol*math.Abs(d[hi]) {
			e[hi-1] = 0
			return 0, true
		}
		mu := math.Abs(d[lo])
		sminl = mu
		for l := lo; l < hi; l++ {
			if math.Abs(e[l]) <= bdsqrTol*mu {
				e[l] = 0
				return 0, true
			}
			mu = math.Abs(d[l+1]) * (mu / (mu + math.Abs(e[l])))
			sminl = math.Min(sminl, mu)
		}
		return sminl, false
	}
	if math.Abs(e[lo]) <= bdsqrTol*math.Abs(d[lo]) {
		e[lo] = 0
		return 0, true
	}
	mu := math.Abs(d[hi])
	sminl = mu
	for l := hi - 1; l >= lo; l-- {
		if math.Abs(e[l]) <= bdsqrTol*mu {
			e[l] = 0
			return 0, true
		}
		mu = math.Abs(d[l]) * (mu / (mu + math.Abs(e[l])))
		sminl = math.Min(sminl, mu)
	}
	return sminl, false
}

// zeroShiftDown is one implicit zero-shift QR sweep on the block [lo, hi],
// top to bottom (Demmel and Kahan): no entry is ever formed by a
// subtraction, so every entry keeps high relative accuracy.
func (st *bdsqrState) zeroShiftDown(lo, hi int) {
	d, e := st.d, st.e
	cs, oldcs := 1.0, 1.0
	var sn, oldsn, r float64
	for i := lo; i < hi; i++ {
		cs, sn, r = givensRotation(d[i]*cs, e[i])
		if i > lo {
			e[i-1] = oldsn * r
		}
		oldcs, oldsn, d[i] = givensRotation(oldcs*r, d[i+1]*sn)
		st.cr[i], st.sr[i], st.cl[i], st.sl[i] = cs, sn, oldcs, oldsn
	}
	h := d[hi] * cs
	d[hi] = h * oldcs
	e[hi-1] = h * oldsn
	st.rotate(lo, hi, true)
	if math.Abs(e[hi-1]) <= st.thresh {
		e[hi-1] = 0
	}
}

// zeroShiftUp is zeroShiftDown from the bottom of the block to its top: the
// same sweep on the reversed transpose of the block, so that the roles of
// the left and right rotations are exchanged.
func (st *bdsqrState) zeroShiftUp(lo, hi int) {
	d, e := st.d, st.e
	cs, oldcs := 1.0, 1.0
	var sn, oldsn, r float64
	for i := hi; i > lo; i-- {
		cs, sn, r = givensRotation(d[i]*cs, e[i-1])
		if i < hi {
			e[i] = oldsn * r
		}
		oldcs, oldsn, d[i] = givensRotation(oldcs*r, d[i-1]*sn)
		st.cl[i-1], st.sl[i-1], st.cr[i-1], st.sr[i-1] = cs, -sn, oldcs, -oldsn
	}
	h := d[lo] * cs
	d[lo] = h * oldcs
	e[lo] = h * oldsn
	st.rotate(lo, hi, false)
	if math.Abs(e[lo]) <= st.thresh {
		e[lo] = 0
	}
}

// shiftedDown is one implicit QR sweep with the given shift on the block
// [lo, hi], top to bottom: the first rotation is that of the shifted
// BᵀB − shift²·I, and the bulge it creates is chased down by alternating
// right and left rotations.
func (st *bdsqrState) shiftedDown(lo, hi int, shift float64) {
	d, e := st.d, st.e
	f := (math.Abs(d[lo]) - shift) * (math.Copysign(1, d[lo]) + shift/d[lo])
	g := e[lo]
	for i := lo; i < hi; i++ {
		cr, sr, r := givensRotation(f, g)
		if i > lo {
			e[i-1] = r
		}
		f = cr*d[i] + sr*e[i]
		e[i] = cr*e[i] - sr*d[i]
		g = sr * d[i+1]
		d[i+1] *= cr
		cl, sl, r := givensRotation(f, g)
		d[i] = r
		f = cl*e[i] + sl*d[i+1]
		d[i+1] = cl*d[i+1] - sl*e[i]
		if i < hi-1 {
			g = sl * e[i+1]
			e[i+1] *= cl
		}
		st.cr[i], st.sr[i], st.cl[i], st.sl[i] = cr, sr, cl, sl
	}
	e[hi-1] = f
	st.rotate(lo, hi, true)
	if math.Abs(e[hi-1]) <= st.thresh {
		e[hi-1] = 0
	}
}

// shiftedUp is shiftedDown from the bottom of the block to its top.
func (st *bdsqrState) shiftedUp(lo, hi int, shift float64) {
	d, e := st.d, st.e
	f := (math.Abs(d[hi]) - shift) * (math.Copysign(1, d[hi]) + shift/d[hi])
	g := e[hi-1]
	for i := hi; i > lo; i-- {
		cr, sr, r := givensRotation(f, g)
		if i < hi {
			e[i] = r
		}
		f = cr*d[i] + sr*e[i-1]
		e[i-1] = cr*e[i-1] - sr*d[i]
		g = sr * d[i-1]
		d[i-1] *= cr
		cl, sl, r := givensRotation(f, g)
		d[i] = r
		f = cl*e[i-1] + sl*d[i-1]
		d[i-1] = cl*d[i-1] - sl*e[i-1]
		if i > lo+1 {
			g = sl * e[i-2]
			e[i-2] *= cl
		}
		st.cl[i-1], st.sl[i-1], st.cr[i-1], st.sr[i-1] = cr, -sr, cl, -sl
	}
	e[lo] = f
	st.rotate(lo, hi, false)
	if math.Abs(e[lo]) <= st.thresh {
		e[lo] = 0
	}
}

// rotate applies the rotations of the last sweep on the block [lo, hi] to
// the vectors: the rotation stored at index i acts on rows i and i+1,
// (x, y) ← (c·x + s·y, c·y − s·x), which is rotateRows with −s; the right
// ones (cr, sr) on wt and the left ones (cl, sl) on ut, in the order they
// were generated: increasing i for a sweep down, decreasing for a sweep up.
func (st *bdsqrState) rotate(lo, hi int, down bool) {
	for _, v := range []struct {
		a    Dense
		c, s []float64
	}{{st.wt, st.cr, st.sr}, {st.ut, st.cl, st.sl}} {
		if v.a.IsEmpty() {
			continue
		}
		for k := 0; k < hi-lo; k++ {
			i := lo + k
			if !down {
				i = hi - 1 - k
			}
			c, s := v.c[i], v.s[i]
			if c == 1 && s == 0 {
				continue
			}
			a := v.a
			rotateRows(c, -s, a.Data[i*a.Stride:i*a.Stride+a.Cols],
				a.Data[(i+1)*a.Stride:(i+1)*a.Stride+a.Cols])
		}
	}
}
