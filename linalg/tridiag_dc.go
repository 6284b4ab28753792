package linalg

import (
	"math"
	"runtime"
	"slices"
)

// stedcCutoff is the largest order of a subproblem that stedc hands to
// steqr instead of dividing it further; the leaves of its tree have orders in
// (stedcCutoff/2, stedcCutoff]. It is a variable only so that
// TestCalibrateTridiagDC (go test ./linalg -run CalibrateTridiagDC -calibrate
// -v) can sweep it. On the 2-core machine of BENCHMARKS.md, at n = 500 and
// 2000, cut-offs from 16 to 96 (leaves of about 16, 31 and 62) were within
// 3% of each other on the tridiagonal form of a dense matrix, where the top
// merges dominate; on a random tridiagonal matrix (much deflation, so the
// leaves weigh more) 16–48 were equal and 64 and above 5–50% slower. 32 is
// in the middle of the flat range (LAPACK's dstedc uses 25).
var stedcCutoff = 32

// stedc computes all eigenvalues and, if z is not empty, the eigenvectors of
// the n×n symmetric tridiagonal matrix T with diagonal d (length n) and
// off-diagonal e (length n−1, T[i][i+1] = T[i+1][i] = e[i]): T = Z·Λ·Zᵀ with
// Λ = diag(λ₀, …, λₙ₋₁) and Z orthogonal, by Cuppen's divide and conquer
// with the deflation and the eigenvector formula of Gu and Eisenstat (the
// method of LAPACK's dstedc).
//
// The contract is steqr's: on return d holds the eigenvalues in ascending
// order and e is destroyed; if z is not empty it must be n×n (any stride),
// its content on entry is ignored, and on return column j is a unit
// eigenvector for d[j], the columns orthonormal to working precision. With
// an empty z, or n ≤ stedcCutoff, stedc is steqr.
//
// Method. T is first split where an off-diagonal entry is negligible
// (|e_i| ≤ ε·√|d_i|·√|d_{i+1}|) and each block is scaled by a power of two to
// largest entry in [½, 1). A block is then halved recursively until the
// pieces have order at most stedcCutoff. At each cut between rows k and k+1,
//
//	T = diag(T₁, T₂) + |β|·v·vᵀ,  β = e[k], v = ê_k + sign(β)·ê_{k+1},
//
// where ê_i is the i-th unit vector and T₁ and T₂ are the two halves with
// |β| subtracted from their adjacent corners. The leaves are solved by steqr; then, up the tree, two solved
// halves T₁ = Q₁D₁Q₁ᵀ and T₂ = Q₂D₂Q₂ᵀ are merged by solving
// D + ρ·u·uᵀ = U·Λ·Uᵀ with D = diag(D₁, D₂), u = (last row of Q₁,
// sign(β)·first row of Q₂) and ρ = |β| (see dcMerge), so that
// T = (diag(Q₁, Q₂)·U)·Λ·(…)ᵀ. The product diag(Q₁, Q₂)·U is two calls of
// the blocked GEMM on contiguous copies of the non-zero blocks, which is
// where nearly all the time goes. Independent leaves, and the merges of one
// level when there are at least as many as goroutines, run in parallel;
// every result is computed by the same operations whatever the number of
// goroutines, so d and z are bit-identical for any GOMAXPROCS.
//
// Cost: at most about (4/3)·n³ flops in GEMM for the vectors (less, often
// much less, with deflation), plus O(n²) for the eigenvalues. Workspace is
// allocated: about 1.5·n² float64s for the top merge.
//
// stedc returns a *ConvergenceError (wrapping ErrNoConvergence) if steqr
// fails on a leaf or the iteration for a root of a secular equation does not
// converge; d, e and z then hold no useful values.
//
// stedc panics if len(e) ≠ n−1 (for n ≥ 1) or z is neither empty nor n×n.
// It does not check for NaN or ±Inf (the caller does). The goroutines it
// starts (through forEach) end before it returns; it is safe for concurrent
// use on disjoint arguments.
func stedc(d, e []float64, z Dense) error {
	n := len(d)
	checkTridiag("stedc", d, e, z)
	if z.IsEmpty() || n <= stedcCutoff {
		return steqr(d, e, z)
	}
	for i := 0; i < n; i++ {
		clear(z.Data[i*z.Stride : i*z.Stride+n])
	}
	blocks := 0
	for start := 0; start < n; blocks++ {
		end := start // the unreduced block is [start, end]
		for ; end < n-1; end++ {
			if math.Abs(e[end]) <= math.Sqrt(math.Abs(d[end]))*math.Sqrt(math.Abs(d[end+1]))*tridiagEps {
				e[end] = 0
				break
			}
		}
		db, eb := d[start:end+1], e[start:end]
		zb := z.view(start, end+1, start, end+1)
		var err error
		if len(db) <= stedcCutoff {
			err = steqr(db, eb, zb)
		} else {
			k := -exponentOf(math.Max(maxAbs(db), maxAbs(eb)))
			scaleExp(db, k)
			scaleExp(eb, k)
			err = dcUnreduced(db, eb, zb)
			scaleExp(db, -k)
		}
		if err != nil {
			return err
		}
		start = end + 1
	}
	if blocks > 1 {
		sortColumnsByValue(d, z)
	}
	return nil
}

// dcUnreduced is stedc for one unreduced block larger than stedcCutoff: it
// builds the tree of subproblems, solves the leaves and merges level by
// level. z is n×n and zero on entry.
func dcUnreduced(d, e []float64, z Dense) error {
	n := len(d)
	// bounds[t] holds the 2^t+1 boundaries of the subproblems at depth t:
	// subproblem i is [bounds[t][i], bounds[t][i+1]) and has children
	// 2i and 2i+1 at depth t+1.
	bounds := [][]int{{0, n}}
	for size := n; size > stedcCutoff; size = (size + 1) / 2 {
		prev := bounds[len(bounds)-1]
		next := make([]int, 0, 2*len(prev)-1)
		for i := 0; i+1 < len(prev); i++ {
			a, b := prev[i], prev[i+1]
			next = append(next, a, a+(b-a)/2)
		}
		bounds = append(bounds, append(next, n))
	}

	// Tear T at every cut: subtract |β| from the two corners beside it.
	leaves := bounds[len(bounds)-1]
	for _, k := range leaves[1 : len(leaves)-1] {
		b := math.Abs(e[k-1])
		d[k-1] -= b
		d[k] -= b
	}

	nl := len(leaves) - 1
	errs := make([]error, nl)
	leaf := float64(n / nl)
	forEach(teamSize(nl, 6*leaf*leaf*leaf*float64(nl)), nl, taskFunc(func(_, u int) {
		a, b := leaves[u], leaves[u+1]
		errs[u] = steqr(d[a:b], e[a:b-1], z.view(a, b, a, b))
	}))
	if err := firstError(errs); err != nil {
		return err
	}

	procs := runtime.GOMAXPROCS(0)
	for t := len(bounds) - 1; t >= 1; t-- {
		parents, children := bounds[t-1], bounds[t]
		np := len(parents) - 1
		// Enough merges to keep every goroutine busy: run them in parallel,
		// each on one goroutine; otherwise one at a time, each parallel
		// inside (GEMM, roots, row passes).
		outer, serial := 1, false
		if np >= procs {
			size := float64(n / np)
			outer, serial = teamSize(np, size*size*size*float64(np)), true
		}
		errs = errs[:np]
		forEach(outer, np, taskFunc(func(_, u int) {
			lo, hi, mid := parents[u], parents[u+1], children[2*u+1]
			errs[u] = dcMerge(d[lo:hi], z.view(lo, hi, lo, hi), mid-lo, e[mid-1], serial)
		}))
		if err := firstError(errs); err != nil {
			return err
		}
	}
	return nil
}

func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// sortColumnsByValue sorts d into ascending order and permutes the columns
// of the n×n matrix z alike. The sort is stable.
func sortColumnsByValue(d []float64, z Dense) {
	n := len(d)
	if slices.IsSorted(d) {
		return
	}
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	sortByValue(perm, d)
	tmp := slices.Clone(d)
	for j, src := range perm {
		d[j] = tmp[src]
	}
	permuteColumns(z, perm, 1)
}

// permuteColumns sets column j of z to its old column src[j] for
// j < len(src), row by row through a copy, on up to p goroutines (each
// owning a range of rows). Columns past len(src) are left alone.
func permuteColumns(z Dense, src []int, p int) {
	chunks := newRowChunks(z.Rows, max(p, 1), 1)
	tmp := make([]float64, chunks.Count()*z.Cols)
	forEach(p, chunks.Count(), taskFunc(func(_, u int) {
		t := tmp[u*z.Cols : (u+1)*z.Cols]
		lo, hi := chunks.Bounds(u)
		for r := lo; r < hi; r++ {
			row := z.Data[r*z.Stride : r*z.Stride+z.Cols]
			copy(t, row)
			for j, s := range src {
				row[j] = t[s]
			}
		}
	}))
}
