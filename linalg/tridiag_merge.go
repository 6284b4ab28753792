package linalg

import (
	"math"
	"slices"
)

// Column types of the merge, after LAPACK's dlaed2: which rows of an
// eigenvector of diag(T₁, T₂) can be non-zero. A column of Q₁ lives in the
// first n₁ rows, one of Q₂ in the last n₂, and a deflation rotation of one
// into the other fills both.
const (
	colTop  = 0 // rows [0, n₁)
	colBoth = 1 // all rows
	colBot  = 2 // rows [n₁, n)
)

// dcMerge merges two solved halves of a divide-and-conquer problem. On entry
// d[:n1] and d[n1:] hold the eigenvalues of T₁ and T₂, each ascending, and the
// n×n matrix z holds diag(Q₁, Q₂), their eigenvectors in columns; beta is
// the off-diagonal entry at the cut, already subtracted from the corners of
// T₁ and T₂ (see stedc). On return d holds the eigenvalues of
// T = diag(T₁, T₂) + |β|·v·vᵀ in ascending order and z its eigenvectors.
//
// In the basis diag(Q₁, Q₂), T is D + ρ·u·uᵀ with D = diag(d),
// u = (last row of Q₁, sign(β)·first row of Q₂)/√2 (a unit vector) and
// ρ = 2|β|. With the eigenvalues merged into ascending order:
//
//  1. Deflation (secularDeflate). With tol = 8ε·max(max|d_i|, max|u_i|), a
//     component with ρ·|u_i| ≤ tol is dropped: d_i is then an eigenvalue
//     and its column an eigenvector. Two neighbouring d's whose rotation
//     would zero one u component at the price of an off-diagonal
//     |(d_j − d_i)·c·s| ≤ tol are rotated (the columns of z too), and the
//     one whose u component vanished deflates. What is left, K values with
//     strictly increasing d and non-zero u, is D' + ρ·u'·u'ᵀ.
//  2. Its eigenvalues are the roots of the secular equation, found by
//     secularRoots with the differences δ_ij = d_i − λ_j accurate to a
//     few ulps.
//  3. Löwner's formula recomputes the vector û for which the computed λ are
//     the exact eigenvalues of D' + ρ·û·ûᵀ (see lownerVector); its
//     eigenvectors are û_i/δ_ij, normalized, and are orthogonal to working
//     precision however close the λ_j.
//  4. The new eigenvectors are Q·U over the K columns (mergeColumns): with the columns grouped by type (top, both,
//     bottom), the first n₁ rows are a GEMM of n₁ × (top+both) by
//     (top+both) × K, the last n₂ a GEMM of n₂ × (both+bottom) by
//     (both+bottom) × K, on contiguous copies, written into the first K
//     columns of z; the deflated columns are kept beside them and all are
//     put into ascending order of eigenvalue at the end.
//
// With serial set everything runs on the calling goroutine (for merges that
// run in parallel with each other); otherwise the roots, the row passes and
// the GEMMs are spread over goroutines. The result does not depend on which.
// dcMerge returns the error of secularRoot, if any.
func dcMerge(d []float64, z Dense, n1 int, beta float64, serial bool) error {
	n := len(d)
	rho := 2 * math.Abs(beta)

	// The updating vector and the merged order: position k of the sorted
	// problem is column perm[k] of z, with value ds[k] and component us[k].
	perm := make([]int, n)
	ds := make([]float64, n)
	us := make([]float64, n)
	typ := make([]int8, n)
	last, first := z.Data[(n1-1)*z.Stride:], z.Data[n1*z.Stride:]
	for k, i, j := 0, 0, n1; k < n; k++ {
		if j == n || (i < n1 && d[i] <= d[j]) {
			perm[k], ds[k], us[k], typ[k] = i, d[i], last[i]/math.Sqrt2, colTop
			i++
		} else {
			u := first[j] / math.Sqrt2
			if beta < 0 {
				u = -u
			}
			perm[k], ds[k], us[k], typ[k] = j, d[j], u, colBot
			j++
		}
	}
	p := 1
	if !serial {
		p = teamSize(n, float64(n)*float64(n))
	}

	umax := maxAbs(us)
	tol := 8 * tridiagEps * math.Max(maxAbs(ds), umax)
	if rho*umax <= tol {
		// T is diag(T₁, T₂) to working precision.
		copy(d, ds)
		permuteColumns(z, perm, p)
		return nil
	}

	// 1. Deflation. kept and defl list sorted positions.
	kept, defl := secularDeflate(ds, us, 0, tol, make([]int, 0, n), make([]int, 0, n),
		func(nj int) bool { return rho*math.Abs(us[nj]) <= tol },
		nil,
		func(pj, nj int, c, s float64) {
			// Rotate columns pj and nj so that pj's component of u
			// vanishes; the coupling left between them is negligible.
			rotateColumns(z, perm[pj], perm[nj], c, s, n1, typ[pj], typ[nj])
			if typ[pj] != typ[nj] {
				typ[nj] = colBoth
			}
		})
	// kept is not empty: the largest |u_i| did not deflate by size.
	sortByValue(defl, ds)

	// The reduced problem.
	k := len(kept)
	dl := make([]float64, k)
	ul := make([]float64, k)
	for i, s := range kept {
		dl[i], ul[i] = ds[s], us[s]
	}

	// 2. Roots: row j of delta holds d_i − λ_j for the sorted i; then
	// Löwner's û.
	pr := 1
	if !serial {
		pr = teamSize(k, 30*float64(k)*float64(k))
	}
	lam, delta, uhat, err := secularRoots(dl, ul, rho, pr)
	if err != nil {
		return err
	}

	// 3. The eigenvectors of D' + ρ·û·ûᵀ, written over delta: row j
	// becomes eigenvector j (row j is read before it is written).
	forEach(pr, k, taskFunc(func(_, j int) {
		row := delta[j*k : (j+1)*k]
		for i, v := range row {
			row[i] = uhat[i] / v
		}
		scaleVector(row)
	}))

	// 4. The new eigenvectors Q·U in the first k columns of z, the deflated
	// columns after them.
	kcol := make([]int, k)
	ktyp := make([]int8, k)
	for i, s := range kept {
		kcol[i], ktyp[i] = perm[s], typ[s]
	}
	dcol := make([]int, len(defl))
	for q, s := range defl {
		dcol[q] = perm[s]
	}
	mergeColumns(z, n1, kcol, ktyp, delta, dcol, p, serial)
	releaseFloats(delta)

	// Merge the roots and the deflated values into ascending order.
	if src := mergeAscending(d, lam, ds, defl); src != nil {
		permuteColumns(z, src, p)
	}
	return nil
}

// sortByValue sorts the positions idx by ascending val[idx[i]], stably.
func sortByValue(idx []int, val []float64) {
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case val[a] < val[b]:
			return -1
		case val[a] > val[b]:
			return 1
		}
		return 0
	})
}

// mergeAscending merges the ascending roots (columns 0…k−1 of a merge) and
// the deflated values val[defl[i]] (columns k…, ascending) into d, and
// returns src, the column each position of d comes from, or nil when that
// is the identity.
func mergeAscending(d, roots, val []float64, defl []int) []int {
	k := len(roots)
	src := make([]int, len(d))
	identity := true
	for q, a, b := 0, 0, 0; q < len(d); q++ {
		if b == len(defl) || (a < k && roots[a] <= val[defl[b]]) {
			src[q], d[q] = a, roots[a]
			a++
		} else {
			src[q], d[q] = k+b, val[defl[b]]
			b++
		}
		identity = identity && src[q] == q
	}
	if identity {
		return nil
	}
	return src
}

// rotateColumns applies the rotation (c, s) to columns a and b of z:
// (z_a, z_b) ← (c·z_a + s·z_b, c·z_b − s·z_a), only in the rows where either
// column can be non-zero according to the types ta and tb (n1 is the
// first bottom row).
func rotateColumns(z Dense, a, b int, c, s float64, n1 int, ta, tb int8) {
	lo, hi := 0, z.Rows
	if ta == colBot && tb == colBot {
		lo = n1
	}
	if ta == colTop && tb == colTop {
		hi = n1
	}
	for r := lo; r < hi; r++ {
		row := z.Data[r*z.Stride : r*z.Stride+z.Cols]
		x, y := row[a], row[b]
		row[a] = c*x + s*y
		row[b] = c*y - s*x
	}
}

// dcProduct sets c = a·btᵀ by the blocked GEMM (on the calling goroutine
// only if serial), or c = 0 when the inner dimension is 0.
func dcProduct(a, bt, c Dense, serial bool) {
	if c.Rows == 0 || c.Cols == 0 {
		return
	}
	if a.Cols == 0 {
		scale(0, c)
		return
	}
	blockedProduct(NoTrans, Trans, 1, a, bt, 0, c, full, serial)
}
