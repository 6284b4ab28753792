package linalg

import (
	"fmt"

	"rkhs/internal/cpuinfo"
)

// Op says whether a matrix operand is used as it is or transposed.
type Op bool

const (
	NoTrans Op = false // use A
	Trans   Op = true  // use Aᵀ
)

// dims returns the shape of op(A): a's, or its transpose's.
func (t Op) dims(a Dense) (rows, cols int) {
	if t == Trans {
		return a.Cols, a.Rows
	}
	return a.Rows, a.Cols
}

// Block sizes of the GEMM layers, in the names of BLIS; MR and NR are the
// register block of the micro-kernel in use (gemm_kernel.go). KC bounds
// the k dimension of a packed panel, MC the rows of the packed block of A,
// JB the columns of B that one pass of the macro-kernel covers (see
// macroKernel) and NC the columns of the packed block of B. They are set
// once, for the kernel in use and the caches of the CPU, by blockingFor
// (gemm_blocking.go), from the values each kernel was calibrated with on
// the machine of BENCHMARKS.md; they are variables only so that tests can
// shrink them and TestCalibrate (go test ./linalg -run Calibrate
// -calibrate -v) can sweep them.
//
// For the scalar kernel on that machine, KC=384, MC=64 was the best of
// KC ∈ {128…512} × MC ∈ {64…256}, 5–10% ahead of KC=256, MC=128 at both
// GOAMD64=v1 and v3; JB = 256 was best or within noise of it for every
// kernel, for k = 128 and k = 2048 (of JB ∈ {128, 256, 512}).
var (
	gemmBlocking = blockingFor(kern, cpuinfo.Detect())

	gemmKC = gemmBlocking.kc
	gemmMC = gemmBlocking.mc // a multiple of MR
	gemmJB = gemmBlocking.jb // a multiple of NR
	gemmNC = gemmBlocking.nc // a multiple of JB
)

// Gemm computes C = α·op(A)·op(B) + β·C, where op(X) is X or Xᵀ as tA and
// tB say, op(A) is m×k, op(B) is k×n and C is m×n.
//
// Only C is modified. C must not share storage with A or B. When β is 0, C
// is not read, so NaN or Inf already in C does not propagate (the BLAS
// convention). The cost is 2mnk flops.
//
// The computation is blocked and packed in the layers of BLIS (loops jc, pc
// and the bands of ic in this file, the pieces of ic and jr that the
// goroutines claim in gemm_job.go; packing in gemm_pack.go; jr, ir and the
// register-blocked micro-kernel in gemm_kernel.go; the pooled packing
// buffers in gemm_workspace.go). Block rows and columns of C are spread
// over up to GOMAXPROCS goroutines; the k dimension is never split, so the
// result is bit-identical for any number of goroutines. A C of one or two
// columns (K·v, Kᵀ·v) is instead computed as matrix–vector products that
// read A once without packing it (gemv.go), equally deterministic.
//
// Memory: the packed blocks, shared by the goroutines whatever their
// number: KC·(⌈min(n, NC)/NR⌉·NR + MC·min(⌈m/MC⌉, max(1, ⌊2²⁰/(MC·KC)⌋)))
// doubles, at most 24 MiB with the AVX-512 kernel (KC = 512, NC = 4096),
// and 1 KiB a goroutine for its edge tiles. They are pooled between calls
// (let go when a garbage collection finds them unused since the last), so
// a stream of products of one size allocates nothing once they exist.
//
// Gemm panics if the shapes do not match or a view is invalid.
func Gemm(tA, tB Op, alpha float64, a, b *Dense, beta float64, c *Dense) {
	a.check("Gemm")
	b.check("Gemm")
	c.check("Gemm")
	m, k := tA.dims(*a)
	kb, n := tB.dims(*b)
	if kb != k || c.Rows != m || c.Cols != n {
		panic(fmt.Sprintf("linalg: Gemm: op(A) %d×%d, op(B) %d×%d, C %d×%d", m, k, kb, n, c.Rows, c.Cols))
	}
	gemm(tA, tB, alpha, *a, *b, beta, *c)
}

// gemm is Gemm on views whose shapes have been checked.
func gemm(tA, tB Op, alpha float64, a, b Dense, beta float64, c Dense) {
	m, n := c.Rows, c.Cols
	_, k := tA.dims(a)
	if m == 0 || n == 0 {
		return
	}
	if alpha == 0 || k == 0 {
		scale(beta, c)
		return
	}
	if n <= gemvMaxCols {
		gemv(tA, tB, alpha, a, b, beta, c)
		return
	}
	blockedProduct(tA, tB, alpha, a, b, beta, c, full, false)
}

// triangle selects which elements of C a blocked product writes: all of them
// (GEMM) or, for SYRK, those on and below (lower) or on and above (upper)
// the diagonal of the whole matrix.
type triangle uint8

const (
	full triangle = iota
	lower
	upper
)

// blockedProduct is the driver shared by GEMM and SYRK: the three outer
// loops of BLIS around packing and the macro-kernel. For tri ≠ full, C is
// square and only the selected triangle is computed and written. With
// serial set it runs on the calling goroutine only (for callers that are
// themselves split over goroutines).
//
// Parallelism, within one (jc, pc) step, is on loops 3 and 2 of BLIS (the
// rows and the columns of C, never k). The block of B of the step is
// packed first, its chunks split over the goroutines. The block rows of
// MC rows that the step computes (for tri ≠ full, those that meet the
// triangle) are then taken in bands of at most gemmPackedA values of
// packed A; a band's cells, one block row by one micro-panel of NR
// columns, are cut into pieces of equal work (a cell weighs the rows of
// its block row), productPieces per goroutine, which the goroutines claim
// in turn (parallel.Claim). The first piece to enter a block row packs its
// block of A into the band's buffer, which every goroutine reads, just
// before its macro-kernel; pieces that enter it meanwhile pack the rest of
// it alongside.
// Each band thus has one join, and no serial part that grows with the
// number of goroutines, each block of A is packed once (again only when a
// piece enters it after every piece that held it has left), and the workspace
// is one block of B (KC×NC values at most) and one band of A whatever the
// number of goroutines; see productJob for the arithmetic at n = 4096. On
// one goroutine a band is one block row. Every micro-tile of C lies on
// the same MR×NR grid, is computed from the same packed panels and
// accumulates its k blocks in the same order whatever the bands and the
// pieces, so the result is bit-identical for any number of goroutines.
func blockedProduct(tA, tB Op, alpha float64, a, b Dense, beta float64, c Dense, tri triangle, serial bool) {
	blockedProductRows(tA, tB, alpha, a, b, beta, c, tri, serial, gemmMC)
}

// blockedProductRows is blockedProduct with blocks of A of at most mcMax
// rows (a positive multiple of MR, at most MC); the rows of a block change
// which goroutine computes a tile and nothing in how it is computed.
// Trsm's chunks of columns, which run their serial products side by side,
// take blocks of fewer rows, so that their blocks together stay small.
func blockedProductRows(tA, tB Op, alpha float64, a, b Dense, beta float64, c Dense, tri triangle, serial bool, mcMax int) {
	m, n := c.Rows, c.Cols
	_, k := tA.dims(a)
	flops := 2 * float64(m) * float64(n) * float64(k)
	if tri != full {
		flops /= 2
	}
	p := teamSize((m+kern.mr-1)/kern.mr*((n+kern.nr-1)/kern.nr), flops)
	if serial {
		p = 1
	}
	mc := min(mcMax, roundUp(m, kern.mr))
	kc := min(k, gemmKC)
	band := 1 // block rows of a band
	if p > 1 {
		band = max(1, gemmPackedA/(mc*kc))
	}
	nc := min(n, gemmNC)
	ws := getWorkspace(p, roundUp(nc, kern.nr)*kc, min(band, (m+mc-1)/mc)*mc*kc, (m+mc-1)/mc)
	defer putWorkspace(ws)
	job := &ws.job
	*job = productJob{tA: tA, tB: tB, alpha: alpha, a: a, b: b, c: c, tri: tri, mc: mc, ws: ws}

	for jc := 0; jc < n; jc += gemmNC { // loop 5 (jc): columns of C and op(B), NC at a time
		nc := min(gemmNC, n-jc)
		ibLo, ibHi := job.setColumns(jc, nc)
		for pc := 0; pc < k; pc += gemmKC { // loop 4 (pc): the k dimension, KC at a time, never split
			kc := min(gemmKC, k-pc)
			job.pc, job.kc = pc, kc
			job.bp = ws.b[:kc*roundUp(nc, kern.nr)]
			job.beta = beta
			if pc > 0 {
				job.beta = 1 // later k blocks accumulate onto the first
			}
			if ibLo < ibHi {
				job.packB(p)
			}
			for ib := ibLo; ib < ibHi; ib += band { // the bands of loop 3 (ic)
				job.setBand(ib, min(ib+band, ibHi), p)
				claim(p, job.pieces, job) // loops 3 (ic) and 2 (jr), packing A, in productJob.Run
			}
		}
	}
	*job = productJob{} // drop references to the caller's matrices
}

// gemmPackedA bounds the values of a band of packed A (see
// blockedProduct): 2²⁰ doubles, 8 MiB, 2048 rows of the AVX-512 kernel's
// KC = 512, 2730 of the scalar kernel's 384. The goroutines of a product
// share the band, so that its size does not depend on their number; at
// m = 1000, the order of the products of a Nyström fit and of a choice of
// σ and λ, a band holds every block row of a step. A variable only so
// that tests can shrink it.
var gemmPackedA = 1 << 20

// productPieces is the number of pieces of each band per goroutine:
// several, so that a goroutine slowed by another process or a lower clock
// hands work to the others.
const productPieces = 4

// packBChunk is about the number of columns of B one goroutine packs at a
// time; the chunks are rounded to a multiple of packGroup and NR, so that
// each starts a micro-panel.
const packBChunk = 256

// scale sets C = β·C (C = 0 when β is 0, without reading C).
func scale(beta float64, c Dense) {
	for i := 0; i < c.Rows; i++ {
		row := c.Data[i*c.Stride : i*c.Stride+c.Cols]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

func roundUp(x, m int) int { return (x + m - 1) / m * m }
