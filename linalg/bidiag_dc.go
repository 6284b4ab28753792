package linalg

import (
	"fmt"
	"math"
	"runtime"
)

// bdsdcCutoff is the largest order of a subproblem that bdsdc solves by
// bdsqr instead of dividing it further; the leaves of its tree have orders
// in about (bdsdcCutoff/2, bdsdcCutoff]. A variable only so that tests can
// exercise many merges on small matrices and TestCalibrateSVD can sweep it.
// On a 2-core Intel Xeon virtual machine (family 6 model 207, default
// build, 2026-11-24), on the bidiagonal form of a random dense matrix,
// cut-offs from 16 to 96 were within 3% of each other at n = 500 and 2000,
// where the top merges dominate; 32 is in the middle (LAPACK's dbdsdc uses
// 25).
var bdsdcCutoff = 32

// bdsdc computes the singular value decomposition B = U·Σ·Wᵀ of the n×n
// upper bidiagonal matrix B with diagonal d (length n) and superdiagonal e
// (length n−1), singular vectors included, by the divide and conquer of Gu
// and Eisenstat, "A divide-and-conquer algorithm for the bidiagonal SVD"
// (1995), the method of LAPACK's dbdsdc. On return d holds the singular
// values in descending order, e is destroyed, and the n×n matrices u and w
// (any stride; their content on entry is ignored) hold the left and right
// singular vectors in columns, column j belonging to d[j], orthonormal to
// working precision.
//
// Method. B is scaled by a power of two to entries at most 1 and cut
// recursively at a middle row: with that row (α at its diagonal, β right
// of it) set aside, what is above is an nl×(nl+1) bidiagonal matrix (one
// more column) and what is below a square one, or one with one more column
// if B has. Subproblems of order at most bdsdcCutoff are solved by bdsqr
// (a leaf with one more column is first made square by plane rotations
// from the right, which chase that column's entry up to the first row and
// out); then, up the tree, each node's two solved halves and its middle row
// are merged by bdMerge: the singular values of an n×n matrix whose first
// row is z and which is diagonal below it, the roots of a secular equation,
// and the vectors from Löwner's formula, applied to the halves' vectors by
// GEMM. The singular values are accurate to about ε·‖B‖ (normwise); for
// high relative accuracy use bdsqr. Independent leaves, and the merges of
// one level when there are at least as many as goroutines, run in parallel;
// every result is computed by the same operations whatever the number of
// goroutines, so d, u and w are bit-identical for any GOMAXPROCS.
//
// Cost: about (8/3)·n³ flops in GEMM for the vectors when nothing deflates
// (twice the tridiagonal divide and conquer, for two bases), much less with
// deflation, plus O(n²) for the values. Workspace is allocated; its peak
// is at the top merge when nothing deflates (k = n): three k×k arrays of
// vectors (yv, yu, and the copy yt that mergeColumns reorders), plus the
// blocks of u or w that mergeColumns copies, about n²/2 for equal halves
// and at most n² — about 3.5·n² float64s, at most 4·n².
//
// bdsdc returns a *ConvergenceError (wrapping ErrNoConvergence) if bdsqr
// fails on a leaf or the iteration for a root of a secular equation does
// not converge; d, u and w then hold no useful values. It panics if
// len(e) ≠ n−1 (for n ≥ 1) or u or w is not n×n. It does not check for NaN
// or ±Inf (the caller does).
func bdsdc(d, e []float64, u, w Dense) error {
	n := len(d)
	if len(e) != max(n-1, 0) {
		panic(fmt.Sprintf("linalg: bdsdc: %d diagonal entries need %d off-diagonal ones, got %d", n, max(n-1, 0), len(e)))
	}
	if u.Rows != n || u.Cols != n || w.Rows != n || w.Cols != n {
		panic(fmt.Sprintf("linalg: bdsdc: vector matrices are %d×%d and %d×%d, want %d×%d", u.Rows, u.Cols, w.Rows, w.Cols, n, n))
	}
	if n == 0 {
		return nil
	}
	if n <= bdsdcCutoff {
		return bdLeaf(d, e, u, w, false, false)
	}
	sc := 0
	if amax := math.Max(maxAbs(d), maxAbs(e)); amax != 0 {
		sc = -exponentOf(amax)
		scaleExp(d, sc)
		scaleExp(e, sc)
	}
	for _, z := range []Dense{u, w} {
		for i := 0; i < n; i++ {
			clear(z.Data[i*z.Stride : i*z.Stride+n])
		}
	}

	// levels[t] lists the nodes at depth t; a node's children are at
	// depth t+1, in order.
	type node struct{ lo, hi, sqre, nl int } // rows [lo, hi), middle row lo+nl
	levels := [][]node{{{0, n, 0, 0}}}
	for size := n; size > bdsdcCutoff; {
		prev := levels[len(levels)-1]
		next := make([]node, 0, 2*len(prev))
		size = 0
		for i := range prev {
			nd := &prev[i]
			nd.nl = (nd.hi - nd.lo) / 2
			mid := nd.lo + nd.nl
			next = append(next, node{nd.lo, mid, 1, 0}, node{mid + 1, nd.hi, nd.sqre, 0})
			size = max(size, nd.nl, nd.hi-mid-1)
		}
		levels = append(levels, next)
	}

	// The leaves. A node of rows [lo, hi) has columns [lo, hi+sqre).
	leaves := levels[len(levels)-1]
	errs := make([]error, len(leaves))
	lsize := float64(n / len(leaves))
	forEach(teamSize(len(leaves), 12*lsize*lsize*lsize*float64(len(leaves))), len(leaves), taskFunc(func(_, i int) {
		nd := leaves[i]
		c1 := nd.hi + nd.sqre
		errs[i] = bdLeaf(d[nd.lo:nd.hi], e[nd.lo:max(c1-1, nd.lo)], u.view(nd.lo, nd.hi, nd.lo, nd.hi), w.view(nd.lo, c1, nd.lo, c1), nd.sqre == 1, true)
	}))
	if err := firstError(errs); err != nil {
		return err
	}

	procs := runtime.GOMAXPROCS(0)
	for t := len(levels) - 2; t >= 0; t-- {
		nodes := levels[t]
		outer, serial := 1, false
		if len(nodes) >= procs {
			size := float64(n / len(nodes))
			outer, serial = teamSize(len(nodes), size*size*size*float64(len(nodes))), true
		}
		errs = errs[:len(nodes)]
		forEach(outer, len(nodes), taskFunc(func(_, i int) {
			nd := nodes[i]
			c1 := nd.hi + nd.sqre
			mid := nd.lo + nd.nl
			beta := 0.0
			if mid+1 < c1 {
				beta = e[mid]
			}
			errs[i] = bdMerge(d[nd.lo:nd.hi], u.view(nd.lo, nd.hi, nd.lo, nd.hi), w.view(nd.lo, c1, nd.lo, c1), nd.nl, nd.sqre, d[mid], beta, serial)
		}))
		if err := firstError(errs); err != nil {
			return err
		}
	}
	// Descending order, and B's scale.
	rev := make([]int, n)
	for j := range rev {
		rev[j] = n - 1 - j
	}
	for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
		d[i], d[j] = d[j], d[i]
	}
	p := teamSize(n, float64(n)*float64(n))
	permuteColumns(u, rev, p)
	permuteColumns(w, rev, p)
	scaleExp(d, -sc)
	return nil
}

// bdLeaf solves a leaf of bdsdc by bdsqr: the n×n (sqre false) or n×(n+1)
// (sqre true, e of length n, its last entry in column n) upper bidiagonal
// matrix B = U·[Σ 0]·Wᵀ, into d (ascending as the merges want it, or
// descending as bdsdc returns it), u (n×n) and w ((n+1)×(n+1) or n×n, the
// null vector last), vectors in columns.
//
// With one more column, plane rotations from the right on columns i and n,
// for i = n−1 down to 0, zero B's entry in column n row by row (each
// rotation moves it one row up, scaled, until it leaves at the top), so
// that B·G = [B' 0] with B' square; then B' = Q·Σ·Pᵀ and W = G·diag(P, 1).
// Both are accumulated on the rows of Wᵀ, which are contiguous, and
// transposed at the end.
func bdLeaf(d, e []float64, u, w Dense, sqre, ascending bool) error {
	n := len(d)
	m := w.Rows
	if n == 0 {
		if m == 1 {
			w.Data[0] = 1 // the null vector of a 0×1 matrix
		}
		return nil
	}
	ut := NewDense(n, n, nil)
	wt := NewDense(m, m, nil)
	for i := 0; i < n; i++ {
		ut.Data[i*n+i] = 1
	}
	for i := 0; i < m; i++ {
		wt.Data[i*m+i] = 1
	}
	ee := e
	if sqre {
		x := e[n-1]
		for i := n - 1; i >= 0 && x != 0; i-- {
			c, s, r := givensRotation(d[i], x)
			d[i] = r
			if i > 0 {
				x = -s * e[i-1]
				e[i-1] *= c
			}
			// Rows i and n of Gᵀ: (x, y) ← (c·x + s·y, c·y − s·x).
			rotateRows(c, -s, wt.Data[i*m:(i+1)*m], wt.Data[n*m:(n+1)*m])
		}
		ee = e[:n-1]
	}
	if err := bdsqr(d, ee, *ut, wt.view(0, n, 0, m)); err != nil {
		return err
	}
	// Columns of u and w are rows of ut and wt, reversed for ascending
	// order (w's last column, the null vector, stays last).
	for j := 0; j < n; j++ {
		src := j
		if ascending {
			src = n - 1 - j
		}
		for i := 0; i < n; i++ {
			u.Data[i*u.Stride+j] = ut.Data[src*n+i]
		}
		for i := 0; i < m; i++ {
			w.Data[i*w.Stride+j] = wt.Data[src*m+i]
		}
	}
	if sqre {
		for i := 0; i < m; i++ {
			w.Data[i*w.Stride+n] = wt.Data[n*m+i]
		}
	}
	if ascending {
		for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
			d[i], d[j] = d[j], d[i]
		}
	}
	return nil
}
