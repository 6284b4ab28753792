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
// Parallelism, within one (jc, pc) step, is on loops 3 and 2 of BLIS (the
// rows and the columns of C, never k). The part of C the step computes is a
// grid of cells, one block row of MC rows by one micro-panel of NR columns,
// restricted for tri ≠ full to the cells that meet the triangle. Taken row
// by row, the cells are cut into pieces of equal work (a cell weighs the
// rows of its block row), productPieces per goroutine, which the goroutines
// claim in turn (parallel.Claim), each packing the block of A of a block
// row its piece enters. Packing B before the pieces is split over the
// goroutines too. Each step thus has two joins and no serial part that
// grows with the number of goroutines; see productJob for the arithmetic at
// n = 4096. Every micro-tile of C lies on the same MR×NR grid, is computed
// from the same packed panels and accumulates its k blocks in the same
// order whatever the pieces, so the result is bit-identical for any number
// of goroutines.
func blockedProduct(tA, tB Op, alpha float64, a, b Dense, beta float64, c Dense, tri triangle, serial bool) {
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

	ws := getWorkspace(p, min(n, gemmNC), min(k, gemmKC), (m+gemmMC-1)/gemmMC)
	defer putWorkspace(ws)
	job := &ws.job
	*job = productJob{tA: tA, tB: tB, alpha: alpha, a: a, c: c, tri: tri, ws: ws}

	for jc := 0; jc < n; jc += gemmNC { // loop 5 (jc): columns of C and op(B), NC at a time
		nc := min(gemmNC, n-jc)
		job.setColumns(jc, nc, p)
		for pc := 0; pc < k; pc += gemmKC { // loop 4 (pc): the k dimension, KC at a time, never split
			kc := min(gemmKC, k-pc)
			job.pc, job.kc = pc, kc
			job.bp = ws.b[:kc*roundUp(nc, kern.nr)]
			packBParallel(p, tB, kc, nc, b, pc, jc, job.bp)
			job.beta = beta
			if pc > 0 {
				job.beta = 1 // later k blocks accumulate onto the first
			}
			for w := range p {
				ws.packed[w] = -1 // no block of A is packed for this k block yet
			}
			claim(p, job.pieces, job) // loops 3 (ic) and 2 (jr), in productJob.Run
		}
	}
	*job = productJob{} // drop references to the caller's matrices
}

// productPieces is the number of pieces of each (jc, pc) step per
// goroutine: several, so that a goroutine slowed by another process or a
// lower clock hands work to the others, and few, because each piece packs
// the blocks of A it touches.
const productPieces = 4

// packBChunk is about the number of columns of B one goroutine packs at a
// time; the chunks are rounded to a multiple of packGroup and NR, so that
// each starts a micro-panel.
const packBChunk = 256

// packBParallel is packB with the micro-panels split over p goroutines in
// chunks of at most packBChunk columns, and smaller where that gives every
// goroutine a chunk: packing is a copy, so the split cannot change any
// value, and with one block row of C the other cores would otherwise idle
// while B is packed.
func packBParallel(p int, tB Op, kc, nc int, b Dense, p0, j0 int, dst []float64) {
	group := roundUp(packGroup, kern.nr)
	chunk := max(group, min(packBChunk/group*group, roundUp((nc+p-1)/p, group)))
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
// method computes one piece. It lives in the pooled workspace, so handing
// it to claim allocates nothing.
//
// The cells of the step are numbered row by row; the block row ib = ibLo+r
// holds the micro-panels [s0, s1) that its panels method gives, each of
// weight rows(r). weight[r] is the total weight of the block rows before r,
// and piece u covers the cells from weight total·u/pieces up to
// total·(u+1)/pieces: the pieces tile the cells exactly, and their work
// differs by less than one cell.
//
// At n = 4096 with the AVX-512 kernel on a 16-core Xeon (MC = 192, NR = 16,
// KC = 512, NC = 4096) a GEMM step has 22 block rows (the last of 64 rows)
// × 256 micro-panels, of weight 4096·256. 16 goroutines get 64 pieces of
// weight 16384, 4 per goroutine: a third of a full block row each, about
// 1365 columns, where splitting by block rows alone gave 22 units to 16
// goroutines, so that 6 of them did two while 10 waited. Each piece packs
// the block of A it lies in: 64 packings of 192×512 values per step instead
// of 22, each against 192·512·1365·2 flops. (Packing each block once for
// all goroutines, beside B, was tried on that machine: the CPU spent packing
// A in a 16-core choice of σ and λ fell from 28 to 16 s, and neither it nor
// GEMM n = 4096 ran faster, for 50% more workspace; the pieces of a block
// row run side by side, so their packings overlap.) A SYRK step (lower
// triangle) has pieces of weight 8572 and 85 packings. B, 512×4096, is packed in 16
// chunks of 256 columns, one per goroutine. Nothing in a step is serial but
// the two joins; at 64 goroutines there are 256 pieces and 64 chunks of B.
// A narrow C has block rows of little work, and pieces of equal work then
// cut through many of them, each cut a second packing of the same block
// of A: the back-transformation's Wᵀ = Zᵀ·Vᵀ (4000×64, A the whole of Zᵀ,
// 16 block rows for 16 goroutines) packed Z about twice. Where the pieces'
// ends, moved to the nearest boundaries between block rows, leave no piece
// more than a quarter above the mean, they are moved (snap): every block
// of A is then packed once per step (1–5% off the back-transformation of
// order 2000 and 4000 on 2 cores). TestProductPieces checks the cover and
// the balance and logs these counts.
type productJob struct {
	tA, tB      Op
	alpha, beta float64
	a, c        Dense
	tri         triangle
	jc, nc      int // the block of columns (loop 5)
	pc, kc      int // the block of k (loop 4)
	ibLo, ibHi  int // the block rows that meet the triangle
	weight      []int64
	pieces      int
	snap        bool // piece boundaries fall between block rows
	bp          []float64
	ws          *workspace
}

// productMinPiece is the least work of a piece, in cells weighted by rows
// (MC rows by JB/2 columns): smaller products get fewer pieces, but never
// fewer than one per goroutine.
func productMinPiece() int64 { return int64(gemmMC) * int64(max(1, gemmJB/kern.nr/2)) }

// setColumns prepares the steps of the columns [jc, jc+nc) of C for p
// goroutines: the block rows that meet the triangle, their weights and the
// number of pieces.
func (j *productJob) setColumns(jc, nc, p int) {
	m := j.c.Rows
	rowLo, rowHi := 0, m // rows of C that meet the triangle in these columns
	switch j.tri {
	case lower:
		rowLo = jc
	case upper:
		rowHi = min(m, jc+nc)
	}
	j.jc, j.nc = jc, nc
	j.ibLo, j.ibHi = rowLo/gemmMC, (rowHi+gemmMC-1)/gemmMC
	j.weight = j.ws.weight[:j.ibHi-j.ibLo+1]
	j.weight[0] = 0
	for r := range j.ibHi - j.ibLo {
		s0, s1 := j.panels(r)
		j.weight[r+1] = j.weight[r] + int64(j.rows(r))*int64(max(0, s1-s0))
	}
	j.pieces, j.snap = 1, false
	if p > 1 {
		total := j.weight[len(j.weight)-1]
		j.pieces = p * productPieces
		for j.pieces > p && total < int64(j.pieces)*productMinPiece() {
			j.pieces -= p
		}
		// Pieces of whole block rows pack each block of A once, where
		// pieces within block rows pack a block once for every piece that
		// enters it: take them when they balance to within a quarter.
		if j.pieces <= j.ibHi-j.ibLo {
			j.snap = true
			var most int64
			for u := range j.pieces {
				x0, x1 := j.bounds(u)
				most = max(most, x1-x0)
			}
			j.snap = 4*most*int64(j.pieces) <= 5*total
		}
	}
}

// bounds returns the weights [x0, x1) of the cells of piece u: equal
// shares of the total, or, with snap set, those shares' ends moved to the
// nearest boundary between block rows.
func (j *productJob) bounds(u int) (x0, x1 int64) {
	total := j.weight[len(j.weight)-1]
	x0, x1 = total*int64(u)/int64(j.pieces), total*int64(u+1)/int64(j.pieces)
	if j.snap {
		x0, x1 = j.snapped(x0), j.snapped(x1)
	}
	return x0, x1
}

// snapped returns the boundary between block rows nearest to the weight x
// (0 ≤ x ≤ total): weight[r] or weight[r+1] for the block row r that x
// falls in.
func (j *productJob) snapped(x int64) int64 {
	r, _ := j.cell(x)
	if r == len(j.weight)-1 || x-j.weight[r] <= j.weight[r+1]-x {
		return j.weight[r]
	}
	return j.weight[r+1]
}

// rows returns the number of rows of the block row ibLo+r.
func (j *productJob) rows(r int) int {
	return min(gemmMC, j.c.Rows-(j.ibLo+r)*gemmMC)
}

// panels returns the micro-panels [s0, s1) of the block row ibLo+r that meet
// the triangle: the whole micro-panels, so that tiles stay on the NR grid.
func (j *productJob) panels(r int) (s0, s1 int) {
	NR := kern.nr
	ic := (j.ibLo + r) * gemmMC
	s0, s1 = 0, (j.nc+NR-1)/NR
	switch j.tri {
	case lower:
		s1 = min(s1, (ic+j.rows(r)-j.jc+NR-1)/NR)
	case upper:
		s0 = max(0, (ic-j.jc)/NR)
	}
	return s0, s1
}

// cell returns the cell at weight x (0 ≤ x ≤ total): block row r and
// micro-panel s, with r = the number of block rows for x = total.
func (j *productJob) cell(x int64) (r, s int) {
	// weight[r] ≤ x < weight[r+1], r found by bisection; block rows of
	// weight zero are passed over.
	lo, hi := 0, len(j.weight)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if j.weight[mid] <= x {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == len(j.weight)-1 {
		return lo, 0
	}
	s0, _ := j.panels(lo)
	return lo, s0 + int((x-j.weight[lo])/int64(j.rows(lo)))
}

// Run computes piece u on goroutine w: for each block row it enters, loop 3
// (ic) packs its block of A, unless this goroutine packed it last, and the
// macro-kernel (loops 2 and 1) multiplies it by the piece's micro-panels.
func (j *productJob) Run(w, u int) {
	NR := kern.nr
	j.segments(u, func(r, s0, s1 int) {
		ib := j.ibLo + r
		ic, mc := ib*gemmMC, j.rows(r)
		j0, j1 := s0*NR, min(j.nc, s1*NR)
		ap := j.ws.a[w][:roundUp(mc, kern.mr)*j.kc]
		if j.ws.packed[w] != ib {
			packA(j.tA, mc, j.kc, j.a, ic, j.pc, ap)
			j.ws.packed[w] = ib
		}
		macroKernel(mc, j1-j0, j.kc, j.alpha, ap, j.bp[j0*j.kc:], j.beta,
			j.c.Data[ic*j.c.Stride+j.jc+j0:], j.c.Stride, j.tri, ic-(j.jc+j0), j.ws.tmp[w][:])
	})
}

// segments calls f(r, s0, s1) for each block row r that piece u enters,
// in increasing order, with the micro-panels [s0, s1) of it in the piece
// (never empty).
func (j *productJob) segments(u int, f func(r, s0, s1 int)) {
	x0, x1 := j.bounds(u)
	rFirst, sFirst := j.cell(x0)
	rLast, sEnd := j.cell(x1)
	for r := rFirst; r <= rLast && r < len(j.weight)-1; r++ {
		s0, s1 := j.panels(r)
		if r == rFirst {
			s0 = sFirst
		}
		if r == rLast {
			s1 = sEnd
		}
		if s0 < s1 {
			f(r, s0, s1)
		}
	}
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
	a      [][]float64
	packed []int // the block row whose A is in a[w] for the current k block, or -1
	b      []float64
	tmp    [][maxTile]float64 // one edge-tile buffer per goroutine
	weight []int64            // the weights of productJob, one more than the block rows
	job    productJob
}

var workspacePool sync.Pool

// getWorkspace returns a workspace for p goroutines, blocks of B of nc
// columns and kc rows, and C of blockRows block rows.
func getWorkspace(p, nc, kc, blockRows int) *workspace {
	ws, _ := workspacePool.Get().(*workspace)
	if ws == nil {
		ws = &workspace{}
	}
	if cap(ws.weight) < blockRows+1 {
		ws.weight = make([]int64, blockRows+1)
	}
	ws.weight = ws.weight[:cap(ws.weight)]
	for len(ws.packed) < p {
		ws.packed = append(ws.packed, -1)
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
