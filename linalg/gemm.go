package linalg

import (
	"fmt"
	"sync"

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
// The computation is blocked and packed in the layers of BLIS (loops jc, pc,
// ic in this file; packing in gemm_pack.go; jr, ir and the register-blocked
// micro-kernel in gemm_kernel.go). Block rows and columns of C are spread
// over up to GOMAXPROCS goroutines; the k dimension is never split, so the
// result is bit-identical for any number of goroutines. A C of one or two
// columns (K·v, Kᵀ·v) is instead computed as matrix–vector products that
// read A once without packing it (gemv.go), equally deterministic.
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
// Parallelism: within one (jc, pc) step the block rows of C (MC rows each)
// are split over the goroutines; when there are fewer block rows than
// goroutines, each block row is further split into column chunks whose
// edges are multiples of NR. Every micro-tile of C is therefore computed by
// the same code whatever the number of goroutines.
func blockedProduct(tA, tB Op, alpha float64, a, b Dense, beta float64, c Dense, tri triangle, serial bool) {
	m, n := c.Rows, c.Cols
	_, k := tA.dims(a)
	flops := 2 * float64(m) * float64(n) * float64(k)
	if tri != full {
		flops /= 2
	}
	blockRows := (m + gemmMC - 1) / gemmMC
	p := teamSize((m+kern.mr-1)/kern.mr*((n+kern.nr-1)/kern.nr), flops)
	if serial {
		p = 1
	}
	// Column chunks per block row, so that there are at least p units.
	chunks := 1
	if blockRows < p {
		chunks = (p + blockRows - 1) / blockRows
	}

	ws := getWorkspace(p, min(n, gemmNC), min(k, gemmKC))
	defer putWorkspace(ws)
	job := &ws.job
	*job = productJob{tA: tA, tB: tB, alpha: alpha, a: a, c: c, tri: tri, chunks: chunks, ws: ws}

	for jc := 0; jc < n; jc += gemmNC { // loop 5 (jc): columns of C and op(B), NC at a time
		nc := min(gemmNC, n-jc)
		rowLo, rowHi := 0, m // rows of C that meet the triangle in these columns
		switch tri {
		case lower:
			rowLo = jc
		case upper:
			rowHi = min(m, jc+nc)
		}
		job.jc, job.nc = jc, nc
		job.ibLo = rowLo / gemmMC
		job.chunkCols = roundUp((nc+chunks-1)/chunks, kern.nr)
		units := ((rowHi+gemmMC-1)/gemmMC - job.ibLo) * chunks
		for pc := 0; pc < k; pc += gemmKC { // loop 4 (pc): the k dimension, KC at a time, never split
			kc := min(gemmKC, k-pc)
			job.pc, job.kc = pc, kc
			job.bp = ws.b[:kc*roundUp(nc, kern.nr)]
			packBParallel(p, tB, kc, nc, b, pc, jc, job.bp)
			job.beta = beta
			if pc > 0 {
				job.beta = 1 // later k blocks accumulate onto the first
			}
			forEach(p, units, job) // loop 3 (ic), in productJob.run
		}
	}
	*job = productJob{} // drop references to the caller's matrices
}

// packBChunk is about the number of columns of B one goroutine packs at a
// time; the chunks are rounded down to a multiple of NR, so that each
// starts a micro-panel.
const packBChunk = 256

// packBParallel is packB with the micro-panels split over p goroutines in
// chunks of about packBChunk columns: packing is a copy, so the split
// cannot change any value, and with one block row of C the second core
// would otherwise idle while B is packed.
func packBParallel(p int, tB Op, kc, nc int, b Dense, p0, j0 int, dst []float64) {
	chunk := max(kern.nr, packBChunk/kern.nr*kern.nr)
	chunks := (nc + chunk - 1) / chunk
	if p <= 1 || chunks <= 1 {
		packB(tB, kc, nc, b, p0, j0, dst)
		return
	}
	forEach(p, chunks, taskFunc(func(_, u int) {
		lo := u * chunk
		packB(tB, kc, min(chunk, nc-lo), b, p0, j0+lo, dst[lo*kc:])
	}))
}

// productJob is the state of one (jc, pc) step of blockedProduct; its Run
// method is loop 3 (ic) for one unit: a block of MC rows of C, or a chunk of
// its columns. It lives in the pooled workspace, so handing it to forEach
// allocates nothing.
type productJob struct {
	tA, tB      Op
	alpha, beta float64
	a, c        Dense
	tri         triangle
	chunks      int // column chunks per block row
	chunkCols   int // columns per chunk, a multiple of NR
	jc, nc      int // the block of columns (loop 5)
	pc, kc      int // the block of k (loop 4)
	ibLo        int // first block row that meets the triangle
	bp          []float64
	ws          *workspace
}

func (j *productJob) Run(w, u int) {
	ic := (j.ibLo + u/j.chunks) * gemmMC
	mc := min(gemmMC, j.c.Rows-ic)
	j0 := (u % j.chunks) * j.chunkCols
	j1 := min(j.nc, j0+j.chunkCols)
	// Skip whole micro-panels outside the triangle; the bounds stay on the
	// NR grid, so tiles are unchanged.
	switch j.tri {
	case lower:
		j1 = min(j1, roundUp(ic+mc-j.jc, kern.nr))
	case upper:
		j0 = max(j0, (ic-j.jc)/kern.nr*kern.nr)
	}
	if j0 >= j1 {
		return
	}
	ap := j.ws.a[w][:roundUp(mc, kern.mr)*j.kc]
	packA(j.tA, mc, j.kc, j.a, ic, j.pc, ap)
	macroKernel(mc, j1-j0, j.kc, j.alpha, ap, j.bp[j0*j.kc:], j.beta,
		j.c.Data[ic*j.c.Stride+j.jc+j0:], j.c.Stride, j.tri, ic-(j.jc+j0), j.ws.tmp[w][:])
}

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

// workspace holds the packing buffers of one blocked product: one block of
// A per goroutine and one shared block of B. Workspaces are pooled, so a
// steady stream of products of the same size allocates no new buffers.
type workspace struct {
	a   [][]float64
	b   []float64
	tmp [][maxTile]float64 // one edge-tile buffer per goroutine
	job productJob
}

var workspacePool sync.Pool

func getWorkspace(p, nc, kc int) *workspace {
	ws, _ := workspacePool.Get().(*workspace)
	if ws == nil {
		ws = &workspace{}
	}
	nb := roundUp(nc, kern.nr) * kc
	if cap(ws.b) < nb {
		ws.b = make([]float64, nb)
	}
	ws.b = ws.b[:cap(ws.b)]
	na := roundUp(gemmMC, kern.mr) * kc
	for len(ws.a) < p {
		ws.a = append(ws.a, nil)
	}
	for len(ws.tmp) < p {
		ws.tmp = append(ws.tmp, [maxTile]float64{})
	}
	for w := 0; w < p; w++ {
		if cap(ws.a[w]) < na {
			ws.a[w] = make([]float64, na)
		}
		ws.a[w] = ws.a[w][:cap(ws.a[w])]
	}
	return ws
}

func putWorkspace(ws *workspace) { workspacePool.Put(ws) }
