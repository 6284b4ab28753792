package linalg

import "runtime"

// productJob is the state of one band of a (jc, pc) step of
// blockedProduct: packB fills the block of B of the step (through
// packStep), and Run computes one piece, packing the blocks of A it
// enters that no other piece holds (enter). It lives in the pooled
// workspace, so handing it to forEach and claim allocates nothing.
//
// The cells of the band are numbered row by row; the block row ib = ibLo+r
// holds the micro-panels [s0, s1) that its panels method gives, each of
// weight rows(r). weight[r] is the total weight of the block rows before r,
// and piece u covers the cells from weight total·u/pieces up to
// total·(u+1)/pieces: the pieces tile the cells exactly, and their work
// differs by less than one cell.
//
// At n = 4096 with the AVX-512 kernel on a 16-core Xeon (MC = 192, NR = 16,
// KC = 512, NC = 4096) a GEMM step has 22 block rows (the last of 64 rows)
// × 256 micro-panels, in bands of 10 block rows (2²⁰ values of packed A),
// 10, 10 and 2. 16 goroutines get 64 pieces of each of the first two, 4
// per goroutine, each about a sixth of a block row, where splitting by
// block rows alone gave 22 units to 16 goroutines, so that 6 of them did
// two while 10 waited. B (512×4096) is packed in 16 chunks of 256
// columns. Each block of A is packed once, 22 per step (again only when
// re-entered after every holder left it), by the six or so
// pieces that enter it, together (see enter). When each piece packed the
// blocks it entered, in a buffer of its goroutine, a step packed 64 or
// more blocks of 192×512 values for its 22 block rows, the workspace grew
// with the goroutines, and a choice of σ and λ at 16 cores spent 42.9 s
// of CPU packing A against 9.2 s at 2 (docs/notes/scaling-16-cores.md).
// Nothing in a band is serial but its join; at 64 goroutines there are
// 256 pieces. TestProductPieces checks the cover and the balance and logs
// these counts.
type productJob struct {
	tA, tB      Op
	alpha, beta float64
	a, b, c     Dense
	tri         triangle
	mc          int // rows of a block row (MC, or fewer: see blockedProductRows)
	jc, nc      int // the block of columns (loop 5)
	pc, kc      int // the block of k (loop 4)
	ibLo        int // the first block row of the band
	weight      []int64
	pieces      int
	bChunk      int // columns of a chunk of B (packB)
	bp          []float64
	ws          *workspace
}

// minPiece is the least work of a piece, in cells weighted by rows (a
// block row by JB/2 columns): smaller products get fewer pieces, but never
// fewer than one per goroutine.
func (j *productJob) minPiece() int64 { return int64(j.mc) * int64(max(1, gemmJB/kern.nr/2)) }

// setColumns prepares the steps of the columns [jc, jc+nc) of C and
// returns the block rows [ibLo, ibHi) that meet the triangle there.
func (j *productJob) setColumns(jc, nc int) (ibLo, ibHi int) {
	m := j.c.Rows
	rowLo, rowHi := 0, m // rows of C that meet the triangle in these columns
	switch j.tri {
	case lower:
		rowLo = jc
	case upper:
		rowHi = min(m, jc+nc)
	}
	j.jc, j.nc = jc, nc
	return rowLo / j.mc, (rowHi + j.mc - 1) / j.mc
}

// setBand prepares the band of block rows [ibLo, ibHi) for p goroutines:
// their weights and the number of pieces.
func (j *productJob) setBand(ibLo, ibHi, p int) {
	j.ibLo = ibLo
	ws := j.ws
	ws.free = ws.free[:0]
	for r := ibHi - ibLo - 1; r >= 0; r-- {
		ws.slot[r], ws.holders[r] = -1, 0
		ws.free = append(ws.free, int32(r)) // slot 0 on top
	}
	j.weight = j.ws.weight[:ibHi-ibLo+1]
	j.weight[0] = 0
	for r := range ibHi - ibLo {
		s0, s1 := j.panels(r)
		j.weight[r+1] = j.weight[r] + int64(j.rows(r))*int64(max(0, s1-s0))
	}
	j.pieces = 1
	if p > 1 {
		total := j.weight[len(j.weight)-1]
		j.pieces = p * productPieces
		for j.pieces > p && total < int64(j.pieces)*j.minPiece() {
			j.pieces -= p
		}
	}
}

// packB packs the block of B of the step, split over p goroutines in
// chunks of at most packBChunk columns (smaller where that gives every
// goroutine a chunk): with one block row of C the other cores would
// otherwise idle while B is packed. Packing is a copy, so the split cannot
// change any value.
func (j *productJob) packB(p int) {
	group := roundUp(packGroup, kern.nr)
	j.bChunk = max(group, min(packBChunk/group*group, roundUp((j.nc+p-1)/p, group)))
	forEach(p, (j.nc+j.bChunk-1)/j.bChunk, (*packStep)(j))
}

// packStep is productJob as the task of packB: unit u packs chunk u of B.
type packStep productJob

// Run packs chunk u of B.
func (ps *packStep) Run(_, u int) {
	j := (*productJob)(ps)
	lo := u * j.bChunk
	packB(j.tB, j.kc, min(j.bChunk, j.nc-lo), j.b, j.pc, j.jc+lo, j.bp[lo*j.kc:])
}

// enter returns the packed block of A of block row ibLo+r, for a piece
// that is about to multiply it, packed: the first piece to enter a block
// row takes a slot of the band (the one freed last, whose lines are
// likely still in this core's cache) and packs the block there just before
// its macro-kernel reads it, as when each goroutine packed into a buffer
// of its own. Pieces that enter the block row while it is being packed
// pack the units of packUnitPanels micro-panels that are left, claimed in
// turn, and wait only for those in other hands: at 16 goroutines a block
// row is entered by several pieces at once, which thus pack it together
// instead of one packing while the others wait. leave gives the block row
// up; when no piece holds it, its slot is free again, and a piece that
// enters it later packs it again. The slots are as many as the band's
// block rows, so one is always free; at most one is held per goroutine, so
// those in use stay few and warm.
func (j *productJob) enter(r int) []float64 {
	ws := j.ws
	ws.mu.Lock()
	s := ws.slot[r]
	if s < 0 {
		s = ws.free[len(ws.free)-1]
		ws.free = ws.free[:len(ws.free)-1]
		ws.slot[r], ws.holders[r] = s, 1
		ws.next[r].Store(0)
		ws.done[r].Store(0)
	} else {
		ws.holders[r]++
	}
	ws.mu.Unlock()
	ap := j.slotA(s, r)
	rows, unit := j.rows(r), packUnitPanels*kern.mr
	units := int32((rows + unit - 1) / unit)
	for {
		u := ws.next[r].Add(1) - 1
		if u >= units {
			break
		}
		i0 := int(u) * unit
		packA(j.tA, min(unit, rows-i0), j.kc, j.a, (j.ibLo+r)*j.mc+i0, j.pc, ap[i0*j.kc:])
		ws.done[r].Add(1)
	}
	for i := 1; ws.done[r].Load() < units; i++ {
		if i%spinYield == 0 {
			runtime.Gosched() // let a packing goroutine run where cores are short
		}
	}
	return ap
}

// packUnitPanels is the micro-panels of A (MR rows each) that a piece
// packs at a time in enter: 16 rows with every kernel's MR = 4, 64 KiB of
// packed A at KC = 512.
const packUnitPanels = 4

// leave gives up block row ibLo+r (see enter).
func (j *productJob) leave(r int) {
	ws := j.ws
	ws.mu.Lock()
	if ws.holders[r]--; ws.holders[r] == 0 {
		ws.free = append(ws.free, ws.slot[r])
		ws.slot[r] = -1
	}
	ws.mu.Unlock()
}

// slotA returns slot s of the band, sized for the block of A of block row
// ibLo+r.
func (j *productJob) slotA(s int32, r int) []float64 {
	o := int(s) * j.mc * j.kc
	return j.ws.a[o : o+roundUp(j.rows(r), kern.mr)*j.kc]
}

// spinYield is how many looks a goroutine waiting for a block of A takes
// between two yields of its core.
const spinYield = 256

// bounds returns the weights [x0, x1) of the cells of piece u: equal
// shares of the total.
func (j *productJob) bounds(u int) (x0, x1 int64) {
	total := j.weight[len(j.weight)-1]
	return total * int64(u) / int64(j.pieces), total * int64(u+1) / int64(j.pieces)
}

// rows returns the number of rows of the block row ibLo+r.
func (j *productJob) rows(r int) int {
	return min(j.mc, j.c.Rows-(j.ibLo+r)*j.mc)
}

// panels returns the micro-panels [s0, s1) of the block row ibLo+r that meet
// the triangle: the whole micro-panels, so that tiles stay on the NR grid.
func (j *productJob) panels(r int) (s0, s1 int) {
	NR := kern.nr
	ic := (j.ibLo + r) * j.mc
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

// Run computes piece u on goroutine w: for each block row it enters, the
// macro-kernel (loops 2 and 1) multiplies the block row's packed block of
// A (enter) by the piece's micro-panels of B.
func (j *productJob) Run(w, u int) {
	NR := kern.nr
	j.segments(u, func(r, s0, s1 int) {
		ic := (j.ibLo + r) * j.mc
		j0, j1 := s0*NR, min(j.nc, s1*NR)
		macroKernel(j.rows(r), j1-j0, j.kc, j.alpha, j.enter(r), j.bp[j0*j.kc:], j.beta,
			j.c.Data[ic*j.c.Stride+j.jc+j0:], j.c.Stride, j.tri, ic-(j.jc+j0), j.ws.tmp[w][:])
		j.leave(r)
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
