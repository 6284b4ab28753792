package linalg

import "fmt"

// trsmNB is the block size of the blocked triangular solves: diagonal blocks
// of trsmNB rows are solved by substitution and the rest of B is updated by
// Gemm. A variable only so that TestCalibrate can sweep it. On the machine
// of BENCHMARKS.md 96 and 128 beat 32 and 64 by 5–15% with 8 and 256
// right-hand sides at n=2048.
var trsmNB = 128

// Trsm solves op(A)·X = B for X, where A is an n×n triangular matrix (the
// triangle ul; the other triangle is not read) with a nonzero diagonal,
// op(A) is A or Aᵀ as t says, and B is n×k. B is overwritten with X; A is not
// modified. There is no test for singularity: a zero on the diagonal of A
// gives Inf or NaN in X. The cost is n²k flops.
//
// The solve is blocked: diagonal blocks of op(A) are solved by substitution
// (in smaller blocks, with Gemm between them) and the
// remaining rows of B are updated with Gemm. With many right-hand
// sides the columns of B are split over the goroutines; with few, the Gemm
// updates are. Every element of X is computed by the same operations either
// way, so the result is bit-identical for any number of goroutines.
// Memory: the packing buffers of the Gemm updates (products of n×128 by
// 128×k at most), and, when the columns are split, those of each chunk's
// own updates: their blocks of B together 128·k doubles, their blocks of
// A at most 2¹⁶ doubles (512 KiB) together up to 32 goroutines
// (trsmPackedA; beyond, 2¹¹ doubles a goroutine, a block of 16 rows).
//
// Trsm panics if A is not square, B does not have n rows or ul is All.
func Trsm(ul Uplo, t Op, a, b *Dense) {
	ul.checkTriangle("Trsm")
	a.check("Trsm")
	b.check("Trsm")
	if a.Rows != a.Cols || b.Rows != a.Rows {
		panic(fmt.Sprintf("linalg: Trsm: A is %d×%d, B is %d×%d", a.Rows, a.Cols, b.Rows, b.Cols))
	}
	trsm(ul, t, *a, *b)
}

// trsmChunks is the number of chunks of rows per goroutine of
// trsmRightLowerTrans: several, so that a goroutine slowed by another
// process hands rows to the others.
const trsmChunks = 4

// trsmInnerNB is the block size inside each diagonal block of trsmNB rows:
// the diagonal block is itself solved in blocks of trsmInnerNB rows, the
// rows between them updated by Gemm, so that substitution does a quarter
// of what it did. Substitution does n·nb·k of the n²·k flops of a solve
// with diagonal blocks of nb rows (13% of them at n = 1000, nb = 128) and
// runs at half Gemm's rate or less. On the 2-core AMD EPYC of
// BENCHMARKS.md, 2026-11-27, n = 1000 with 1056 right-hand sides (the
// Nyström statistics' shape with m = 1000 centres), one core: 11.4 → 11.9
// GFLOP/s in the default build, 60.5 → 64.3 with AVX-512; two cores: 22.2
// and 21.1 → 23.1 and 22.4, 98 and 113 → 126 and 121 (inner blocks of 16
// and 64 rows in between). It is faster with few right-hand sides too,
// two cores: k = 1 2.8 → 3.1 GFLOP/s (both builds), k = 8 at n = 2048
// 14.0 → 14.6 (default) and 24.8 → 28.0 (AVX-512). The blocks do not
// depend on k, so a column's solution is the same whatever columns it is
// solved with. A variable only so that tests can sweep it.
var trsmInnerNB = 32

// trsmMinCols is the fewest right-hand sides worth a goroutine of their own.
const trsmMinCols = 16

// trsm is Trsm on checked views.
func trsm(ul Uplo, t Op, a, b Dense) {
	n, k := b.Rows, b.Cols
	if n == 0 || k == 0 {
		return
	}
	p := teamSize(k/trsmMinCols, float64(n)*float64(n)*float64(k))
	if p <= 1 {
		trsmBlocked(ul, t, a, b, trsmNB, 0)
		return
	}
	// Column chunks start on multiples of 8 and of NR, so the micro-tiles
	// of the Gemm updates (NR columns wide) fall on the same columns as in
	// the unsplit solve. Each chunk packs its own blocks of A in its
	// products: of fewer rows than MC where p blocks of trsmNB columns
	// would hold more than trsmPackedA values.
	mc := min(gemmMC, max(4*kern.mr, trsmPackedA/(p*trsmNB)/kern.mr*kern.mr))
	chunks := newRowChunks(k, p, roundUp(8, kern.nr))
	forEach(p, chunks.Count(), taskFunc(func(_, c int) {
		lo, hi := chunks.Bounds(c)
		trsmBlocked(ul, t, a, b.view(0, n, lo, hi), trsmNB, mc)
	}))
}

// trsmPackedA bounds the packed blocks of A that the chunks of columns of
// a split solve hold at once, all together: 2¹⁶ doubles (512 KiB), so that
// they do not grow with the goroutines. Blocks of trsmNB = 128 columns
// keep MC = 128 rows (the AVX-512 kernel's on the 2-core AMD EPYC of
// BENCHMARKS.md) for up to four chunks, 32 rows for sixteen, and at least
// 4·MR. The rows of a block change nothing in the result.
const trsmPackedA = 1 << 16

// trsmBlocked solves op(A)·X = B in place by blocks of nb rows, on the
// fixed grid of blocks [j·nb, (j+1)·nb). A diagonal block of more than
// trsmInnerNB rows is solved the same way in blocks of trsmInnerNB rows
// (when nb is larger), a smaller one by substitution. With serialRows > 0,
// its Gemm updates run on the calling goroutine, with blocks of A of that
// many rows; with 0, over the goroutines.
func trsmBlocked(ul Uplo, t Op, a, b Dense, nb int, serialRows int) {
	n, k := b.Rows, b.Cols
	nblocks := (n + nb - 1) / nb
	forward := (ul == Lower) == (t == NoTrans) // op(A) is lower triangular
	for s := 0; s < nblocks; s++ {
		blk := s
		if !forward {
			blk = nblocks - 1 - s
		}
		i0, i1 := blk*nb, min((blk+1)*nb, n)
		x := b.view(i0, i1, 0, k)
		if nb > trsmInnerNB && i1-i0 > trsmInnerNB {
			trsmBlocked(ul, t, a.view(i0, i1, i0, i1), x, trsmInnerNB, serialRows)
		} else {
			trsmUnblocked(ul, t, a.view(i0, i1, i0, i1), x)
		}
		// Remove the contribution of the solved rows from the rows still
		// to be solved: B[rest] −= op(A)[rest, i0:i1]·X[i0:i1].
		serial, mc := serialRows > 0, gemmMC
		if serial {
			mc = serialRows
		}
		switch {
		case forward && i1 < n && t == NoTrans: // A lower: op(A)[i1:, i0:i1] = A[i1:, i0:i1]
			blockedProductRows(NoTrans, NoTrans, -1, a.view(i1, n, i0, i1), x, 1, b.view(i1, n, 0, k), full, serial, mc)
		case forward && i1 < n: // A upper, transposed: op(A)[i1:, i0:i1] = A[i0:i1, i1:]ᵀ
			blockedProductRows(Trans, NoTrans, -1, a.view(i0, i1, i1, n), x, 1, b.view(i1, n, 0, k), full, serial, mc)
		case !forward && i0 > 0 && t == NoTrans: // A upper: op(A)[:i0, i0:i1] = A[:i0, i0:i1]
			blockedProductRows(NoTrans, NoTrans, -1, a.view(0, i0, i0, i1), x, 1, b.view(0, i0, 0, k), full, serial, mc)
		case !forward && i0 > 0: // A lower, transposed: op(A)[:i0, i0:i1] = A[i0:i1, :i0]ᵀ
			blockedProductRows(Trans, NoTrans, -1, a.view(i0, i1, 0, i0), x, 1, b.view(0, i0, 0, k), full, serial, mc)
		}
	}
}

// trsmUnblocked solves op(A)·X = B in place by substitution, one row of X
// at a time: row i of X is row i of B minus the multiples op(A)[i, j]·X[j]
// of the rows already solved, divided by A[i, i]. Each element of row i is
// computed by the same sequence of operations, whatever the columns are
// cut into: x = B[i, c]; then x = x + (−op(A)[i, j])·X[j, c] for the solved
// rows j in increasing order, each product rounded before it is added (no
// fused multiply-add, in any build: the products are converted explicitly,
// which the Go specification says prevents fusion, so GOAMD64=v3 and arm64
// give the bits of GOAMD64=v1); then x / A[i, i]. substCols8 does that for
// 8 columns per vector where a SIMD build has AVX-512, bit-identical to
// substCols.
func trsmUnblocked(ul Uplo, t Op, a, b Dense) {
	n := b.Rows
	forward := (ul == Lower) == (t == NoTrans)
	var buf [256]float64
	coef := buf[:0]
	if n > len(buf) {
		coef = make([]float64, 0, n)
	}
	for s := 0; s < n; s++ {
		i := s
		if !forward {
			i = n - 1 - s
		}
		// Solved rows: j < i going forward, j > i going backward.
		jlo, jhi := 0, i
		if !forward {
			jlo, jhi = i+1, n
		}
		coef = coef[:0]
		for j := jlo; j < jhi; j++ {
			v := a.Data[i*a.Stride+j] // op(A)[i, j]
			if t == Trans {
				v = a.Data[j*a.Stride+i]
			}
			coef = append(coef, -v)
		}
		d := a.Data[i*a.Stride+i]
		c := substCols8(coef, b, jlo, i, d)
		substCols(coef, b, jlo, i, d, c)
	}
}

// substCols computes the columns c0, c0+1, … of row i of X in trsmUnblocked:
// X[i, c] = (B[i, c] + Σ_q coef[q]·X[jlo+q, c]) / d, the sum taken in
// increasing q, one rounded product added at a time. Four columns are
// carried in registers through the sum, so row i is read and written once.
func substCols(coef []float64, b Dense, jlo, i int, d float64, c0 int) {
	k := b.Cols
	xi := b.Data[i*b.Stride : i*b.Stride+k]
	c := c0
	for ; c+4 <= k; c += 4 {
		x0, x1, x2, x3 := xi[c], xi[c+1], xi[c+2], xi[c+3]
		for q, w := range coef {
			r := b.Data[(jlo+q)*b.Stride+c:]
			r = r[:4]
			x0 += float64(w * r[0]) // the conversion rounds: no fused multiply-add at any GOAMD64
			x1 += float64(w * r[1])
			x2 += float64(w * r[2])
			x3 += float64(w * r[3])
		}
		xi[c], xi[c+1], xi[c+2], xi[c+3] = x0/d, x1/d, x2/d, x3/d
	}
	for ; c < k; c++ {
		x := xi[c]
		for q, w := range coef {
			x += float64(w * b.Data[(jlo+q)*b.Stride+c])
		}
		xi[c] = x / d
	}
}

// trsmRightLowerTrans overwrites the m×k matrix X with X·L⁻ᵀ, where L is
// k×k lower triangular: each row x of X is replaced by the solution y of
// L·yᵀ = xᵀ. This is the panel step of the blocked Cholesky factorization.
// Rows are independent, so they are cut into contiguous chunks, several per
// goroutine, which the goroutines claim in turn; each row is computed the
// same way in any chunk.
func trsmRightLowerTrans(l, x Dense) {
	m, k := x.Rows, x.Cols
	if m == 0 || k == 0 {
		return
	}
	p := teamSize(m/16, float64(m)*float64(k)*float64(k))
	chunks := newRowChunks(m, p*trsmChunks, 1)
	if p <= 1 {
		chunks = newRowChunks(m, 1, 1)
	}
	claim(p, chunks.Count(), taskFunc(func(_, c int) {
		lo, hi := chunks.Bounds(c)
		for r := trsmRows8(l, x, lo, hi); r < hi; r++ {
			trsmRowLowerTrans(l, x.Data[r*x.Stride:r*x.Stride+k])
		}
	}))
}

// trsmRowLowerTrans replaces the row y (of length k) by the solution of
// L·yᵀ = yᵀ, by forward substitution with dot: the substitution of
// trsmRightLowerTrans for one row, and the oracle of trsmRows8.
func trsmRowLowerTrans(l Dense, y []float64) {
	// Invariant: y[:j] holds the solution, y[j:] the right-hand side.
	for j := range y {
		lj := l.Data[j*l.Stride : j*l.Stride+j+1]
		y[j] = (y[j] - dot(y[:j], lj)) / lj[j]
	}
}
