package linalg

import (
	"math"
	"slices"
)

// steqrMaxIter bounds the work of steqr: it gives up after steqrMaxIter·n
// QL/QR iterations in total. Two or three per eigenvalue is usual; the limit
// is LAPACK's. It is a variable only so that tests can force a failure.
var steqrMaxIter = 30

// steqr computes all eigenvalues and, if z is not empty, the eigenvectors of
// the n×n symmetric tridiagonal matrix T with diagonal d (length n) and
// off-diagonal e (length n−1, T[i][i+1] = T[i+1][i] = e[i]): T = Z·Λ·Zᵀ with
// Λ = diag(λ₀, …, λₙ₋₁) and Z orthogonal, by the implicit QL or QR method with
// Wilkinson shifts.
//
// On return d holds the eigenvalues in ascending order and e is destroyed. If
// z is not empty it must be n×n (any stride); its content on entry is ignored
// and on return column j is a unit eigenvector for d[j], T·z_j = d[j]·z_j,
// the columns orthonormal to working precision. An empty z selects
// eigenvalues only, which are computed by sterf (the root-free variant of
// the same iteration) with no vector work at all.
//
// The method is that of LAPACK's dsteqr. T is split into unreduced blocks
// where an off-diagonal entry is negligible, |e_i| ≤ ε·√|d_i|·√|d_{i+1}|.
// A block whose largest entry lies outside [√safmin/ε², √(1/safmin)/3] is
// scaled by a power of two into that range (exactly, and undone at the end),
// so that the iteration neither overflows nor loses precision to
// underflow. Each block is then iterated by QL (eigenvalues converging at its
// top) when its last diagonal entry is larger in magnitude than its first,
// and by QR (converging at its bottom) otherwise, which keeps graded matrices
// accurate. Row-major storage makes the columns of Z strided, so the plane
// rotations are applied to the contiguous rows of Zᵀ (each rotation touches
// only the columns of its block) and Z is transposed in place at the end.
//
// Cost: with about two iterations per eigenvalue (2.2 on random matrices),
// roughly 15n² flops for the eigenvalues alone; with vectors about 30n² flops
// and n² square roots for the rotations and 6n³ flops to apply them (less
// when T splits).
//
// steqr returns a *ConvergenceError (wrapping ErrNoConvergence) if the total
// number of iterations reaches 30·n. With vectors, d and e then hold,
// unsorted, a tridiagonal matrix T' orthogonally similar to the input (the
// eigenvalues found so far on the diagonal beside zero off-diagonals) and z
// holds the orthogonal Q with T = Q·T'·Qᵀ; without, d holds the diagonal of
// such a T' and e the squares of its off-diagonal (see sterf).
//
// steqr panics if len(e) ≠ n−1 (for n ≥ 1) or z is neither empty nor n×n.
// It does not check for NaN or ±Inf (the caller does). It starts no
// goroutines and is safe for concurrent use on disjoint arguments.
func steqr(d, e []float64, z Dense) error {
	n := len(d)
	checkTridiag("steqr", d, e, z)
	if z.IsEmpty() {
		return sterf(d, e)
	}
	// z holds Zᵀ until the end: start from the identity.
	for i := 0; i < n; i++ {
		row := z.Data[i*z.Stride : i*z.Stride+n]
		clear(row)
		row[i] = 1
	}
	if n <= 1 {
		return nil
	}

	st := steqrState{d: d, e: e, zt: z, maxIter: steqrMaxIter * n}
	st.c = make([]float64, n-1)
	st.s = make([]float64, n-1)
	// QL when the block's last diagonal entry is larger in magnitude than
	// its first, QR otherwise.
	failed := !tridiagBlocks(d, e, true, func(lo, hi int) bool {
		st.col0, st.col1 = lo, hi+1
		if math.Abs(d[hi]) < math.Abs(d[lo]) {
			return st.qr(hi, lo)
		}
		return st.ql(lo, hi)
	})

	if !failed {
		sortRowsByValue(d, z)
	}
	z.TransposeInPlace()
	if failed {
		return &ConvergenceError{Algorithm: "tridiagonal QL/QR", Iterations: st.iter}
	}
	return nil
}

// steqrState is the state of steqr shared by its QL and QR sweeps.
type steqrState struct {
	d, e       []float64
	zt         Dense     // Zᵀ: row j is the eigenvector of d[j]
	c, s       []float64 // the rotations of one sweep
	col0, col1 int       // the rows of zt in the current block are zero outside these columns
	iter       int
	maxIter    int
}

// ql runs QL iterations on the unreduced block [l, lend], l < lend, until
// every eigenvalue of it has converged (true) or the iteration limit is
// reached (false). Eigenvalues converge at the top: d[l] first.
func (st *steqrState) ql(l, lend int) bool {
	const eps2 = tridiagEps * tridiagEps
	d, e := st.d, st.e
	for l <= lend {
		// Find the first negligible e[m], m ≥ l; the active block is [l, m].
		m := l
		for ; m < lend; m++ {
			if e[m]*e[m] <= (eps2*math.Abs(d[m]))*math.Abs(d[m+1])+tridiagSafmin {
				break
			}
		}
		if m < lend {
			e[m] = 0
		}
		p := d[l]
		if m == l { // d[l] has converged
			l++
			continue
		}
		if m == l+1 { // a 2×2 block: solve it directly
			rt1, rt2, c, s := tridiag2x2(d[l], e[l], d[l+1])
			st.rotateRows(l, c, s)
			d[l], d[l+1], e[l] = rt1, rt2, 0
			l += 2
			continue
		}
		if st.iter == st.maxIter {
			return false
		}
		st.iter++

		// Wilkinson shift from the 2×2 at the top, then the sweep chases the
		// bulge from the bottom of [l, m] up to l.
		g := (d[l+1] - p) / (2 * e[l])
		r := hypot1(g)
		g = d[m] - p + e[l]/(g+math.Copysign(r, g))
		s, c := 1.0, 1.0
		p = 0
		for i := m - 1; i >= l; i-- {
			f := s * e[i]
			b := c * e[i]
			c, s, r = givensRotation(g, f)
			if i != m-1 {
				e[i+1] = r
			}
			g = d[i+1] - p
			r = (d[i]-g)*s + 2*c*b
			p = s * r
			d[i+1] = g + p
			g = c*r - b
			st.c[i], st.s[i] = c, -s
		}
		for i := m - 1; i >= l; i-- {
			st.rotateRows(i, st.c[i], st.s[i])
		}
		d[l] -= p
		e[l] = g
	}
	return true
}

// qr runs QR iterations on the unreduced block [lend, l], l > lend, until
// every eigenvalue of it has converged (true) or the iteration limit is
// reached (false). Eigenvalues converge at the bottom: d[l] first.
func (st *steqrState) qr(l, lend int) bool {
	const eps2 = tridiagEps * tridiagEps
	d, e := st.d, st.e
	for l >= lend {
		// Find the last negligible e[m−1], m ≤ l; the active block is [m, l].
		m := l
		for ; m > lend; m-- {
			if e[m-1]*e[m-1] <= (eps2*math.Abs(d[m]))*math.Abs(d[m-1])+tridiagSafmin {
				break
			}
		}
		if m > lend {
			e[m-1] = 0
		}
		p := d[l]
		if m == l {
			l--
			continue
		}
		if m == l-1 {
			rt1, rt2, c, s := tridiag2x2(d[l-1], e[l-1], d[l])
			st.rotateRows(l-1, c, s)
			d[l-1], d[l], e[l-1] = rt1, rt2, 0
			l -= 2
			continue
		}
		if st.iter == st.maxIter {
			return false
		}
		st.iter++

		g := (d[l-1] - p) / (2 * e[l-1])
		r := hypot1(g)
		g = d[m] - p + e[l-1]/(g+math.Copysign(r, g))
		s, c := 1.0, 1.0
		p = 0
		for i := m; i < l; i++ {
			f := s * e[i]
			b := c * e[i]
			c, s, r = givensRotation(g, f)
			if i != m {
				e[i-1] = r
			}
			g = d[i] - p
			r = (d[i+1]-g)*s + 2*c*b
			p = s * r
			d[i] = g + p
			g = c*r - b
			st.c[i], st.s[i] = c, s
		}
		for i := m; i < l; i++ {
			st.rotateRows(i, st.c[i], st.s[i])
		}
		d[l] -= p
		e[l-1] = g
	}
	return true
}

// rotateRows applies the plane rotation (c, s) to rows i and i+1 of Zᵀ,
// which is the rotation of columns i and i+1 of Z:
// (z_i, z_{i+1}) ← (c·z_i + s·z_{i+1}, c·z_{i+1} − s·z_i).
func (st *steqrState) rotateRows(i int, c, s float64) {
	zt := st.zt
	x := zt.Data[i*zt.Stride+st.col0 : i*zt.Stride+st.col1]
	y := zt.Data[(i+1)*zt.Stride+st.col0 : (i+1)*zt.Stride+st.col1]
	y = y[:len(x)]
	for k, xv := range x {
		yv := y[k]
		x[k] = c*xv + s*yv
		y[k] = c*yv - s*xv
	}
}

// givensRotation returns c, s and r with c² + s² = 1 and
//
//	[ c  s] [f]   [r]
//	[−s  c] [g] = [0],
//
// r carrying the sign of f (LAPACK's dlartg). Operands whose squares would
// overflow or underflow are scaled first.
func givensRotation(f, g float64) (c, s, r float64) {
	f1, g1 := math.Abs(f), math.Abs(g)
	if f1 > rotMin && f1 < rotMax && g1 > rotMin && g1 < rotMax {
		d := math.Sqrt(f*f + g*g)
		r = math.Copysign(d, f)
		return f1 / d, g / r, r
	}
	return givensRotationScaled(f, g)
}

// Bounds within which the squares of rotation operands neither overflow nor
// underflow: √safmin and √(safmax/2), rounded down.
const (
	rotMin = 0x1p-511
	rotMax = 0x1p+511
)

// givensRotationScaled is givensRotation for zero operands and operands
// outside [rotMin, rotMax], which are scaled before they are squared.
func givensRotationScaled(f, g float64) (c, s, r float64) {
	switch {
	case g == 0:
		return 1, 0, f
	case f == 0:
		return 0, math.Copysign(1, g), math.Abs(g)
	}
	f1, g1 := math.Abs(f), math.Abs(g)
	u := math.Min(1/tridiagSafmin, math.Max(tridiagSafmin, math.Max(f1, g1)))
	fs, gs := f/u, g/u
	d := math.Sqrt(fs*fs + gs*gs)
	c = math.Abs(fs) / d
	r = math.Copysign(d, f)
	s = gs / r
	return c, s, r * u
}

// sortRowsByValue sorts d into ascending order and permutes the first n rows
// of zt (n×n) alike, so that row j stays with d[j]. The sort is stable.
func sortRowsByValue(d []float64, zt Dense) {
	n := len(d)
	if slices.IsSorted(d) {
		return
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	sortByValue(perm, d)
	// Follow the cycles of perm: row j receives old row perm[j].
	tmp := make([]float64, n)
	done := make([]bool, n)
	for j := 0; j < n; j++ {
		if done[j] || perm[j] == j {
			continue
		}
		copy(tmp, zt.Data[j*zt.Stride:j*zt.Stride+n])
		dj := d[j]
		k := j
		for perm[k] != j {
			src := perm[k]
			copy(zt.Data[k*zt.Stride:k*zt.Stride+n], zt.Data[src*zt.Stride:src*zt.Stride+n])
			d[k] = d[src]
			done[k] = true
			k = src
		}
		copy(zt.Data[k*zt.Stride:k*zt.Stride+n], tmp)
		d[k] = dj
		done[k] = true
	}
}
