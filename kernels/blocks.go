package kernels

import (
	"fmt"

	"rkhs/internal/parallel"
	"rkhs/internal/pool"
	"rkhs/linalg"
)

// The streaming engine of Rows: every product with K = K(X, Z), n×m, for n
// so large that K is never stored, is one pass over blocks of rows of K —
// K·V and K·v (MulTo, MulVecTo), the products a Nyström solver needs on
// every iteration, Kᵀ(K·V) and Kᵀ·Y (Rudi, Carratino and Rosasco, "FALKON:
// An optimal large scale kernel method", 2017), and, through EachBlock,
// any other accumulation over the row blocks of K, such as the sufficient
// statistics K_bᵀK_b, K_bᵀY and 1ᵀK_b of a distributed fit.
//
// The rows of K are split into blocks of b consecutive rows, b fixed by m
// alone (streamRows: a block is about CacheBlockElems values, 1 MiB, so
// that it stays in the L2 cache of the core that computes it while it is
// consumed), and the blocks into a number of chunks of
// consecutive blocks fixed by n, m and the caller (never by GOMAXPROCS). Chunks run in parallel, claimed in turn
// by the goroutines (parallel.Claim); within a chunk the blocks run in
// increasing order on one goroutine, which evaluates K_b = K(X_b, Z) (for
// the Gaussian kernel: inner products of the centred rows, then the
// distance and exp pass) into its own workspace and hands it to the
// consumer while it is in cache. The workspaces of all goroutines
// together hold at most streamWorkElems values of K (2 MiB): beyond two
// goroutines each evaluates its blocks a part at a time. A product
// whose rows are those of K (K·V) writes each block's rows of the result;
// a product summed over the rows of K (KᵀW) accumulates each chunk into
// its own partial result, and the partials are summed in chunk order at
// the end. Every block is evaluated by the same code whatever the number
// of goroutines, so the results are bit-identical for any GOMAXPROCS.
//
// With d ≤ 16 (maxSmallDot) the inner products come from dotSmallTo, on
// the chunk's goroutine, as do the products of NormalMulTo and MulTransTo
// (block_products.go) and MulVecTo's dot products. With more columns the
// inner products come from linalg.Gemm, which is worth its packing there;
// Gemm, there and in MulTo's products, may start goroutines of its own
// (and allocate for them) inside a chunk's.

// streamBlockElems is the target number of elements of a block K_b of
// the streamed products and of the groups of rows of CrossTo:
// CacheBlockElems (see there where it comes from). Passes that multiply
// each block by a large matrix take larger blocks (GemmBlockElems, see
// block_rows.go). It is a variable only so that TestCalibrateStream
// (go test ./kernels -run CalibrateStream -calibrate -v) can sweep it.
var streamBlockElems = CacheBlockElems

// maxStreamChunks bounds the number of chunks of Kᵀ(K·V) and Kᵀ·Y, and
// streamPartialElems their partial results: together at most 2²³ doubles
// (64 MiB), and one chunk when m·q alone exceeds that. 128 chunks are 8
// for each of 16 goroutines, enough for them to even out by claiming.
const (
	maxStreamChunks    = 128
	streamPartialElems = 1 << 23
)

// streamWorkElems bounds the kernel blocks that the goroutines of a
// streamed product hold at once, all together: 2¹⁸ doubles (2 MiB), two
// blocks of streamBlockElems. Up to two goroutines evaluate whole blocks;
// more evaluate each block a part of streamWorkElems/p values at a time
// (partRows), so that the workspace of a pass does not grow with
// GOMAXPROCS. The parts are consumed in order, and each row of K, of
// K_b·V and of K_bᵀ·W is computed as it is in the whole block, so the
// results do not change.
const streamWorkElems = 2 * CacheBlockElems

// streamRows returns the number of rows b of a block of K with m columns:
// BlockRows(m, streamBlockElems) for K of 8 columns or more. Narrower K
// get streamBlockElems/m rows, beyond BlockRows' bound of 2¹⁴: the bound
// would change the partition into chunks, and with it the rounding, of
// NormalMulTo and MulTransTo for such K.
func streamRows(m int) int {
	return max(minBlockRows, streamBlockElems/max(m, 1))
}

// streamPlan is the partition of the n rows of K into blocks of b rows
// (the last one shorter) and of the nb blocks into chunks of consecutive
// blocks: chunk c holds blocks [c·nb/chunks, (c+1)·nb/chunks).
type streamPlan struct{ n, b, nb, chunks int }

func (r *Rows) plan(chunks int) streamPlan {
	n, m := r.Dims()
	b := streamRows(m)
	nb := (n + b - 1) / b
	return streamPlan{n: n, b: b, nb: nb, chunks: chunks}
}

// blocks returns the number of blocks of K, nb; with as many chunks, each
// chunk is one block.
func (r *Rows) blocks() int { return r.plan(1).nb }

// rows returns the rows [lo, hi) of K in chunk c.
func (s streamPlan) rows(c int) (lo, hi int) {
	return c * s.nb / s.chunks * s.b, min((c+1)*s.nb/s.chunks*s.b, s.n)
}

// blockWork is the workspace of one goroutine: a block of K, the centred
// block of X (distance kernels), and K_b·V or Y_b by columns (b×q).
type blockWork struct {
	kb, xc linalg.Dense
	w      []float64
}

// block evaluates rows [i0, i1) of K into the workspace and returns them:
// the values BlockTo gives, bit for bit, computed on this goroutine (but
// for linalg.Gemm when d > maxSmallDot, which may use others) and without
// allocating once the workspace is large enough.
func (ws *blockWork) block(r *Rows, i0, i1 int) *linalg.Dense {
	_, m := r.Dims()
	kb := ws.kb.Reuse(i1-i0, m)
	var xc *linalg.Dense
	if r.p.dist != nil {
		xc = ws.xc.Reuse(i1-i0, r.x.Cols)
	}
	var nx []float64
	if r.nx != nil {
		nx = r.nx[i0:i1]
	}
	r.p.evalRows(kb, r.x.Slice(i0, i1, 0, r.x.Cols), xc, nx)
	return kb
}

// streamOp is what a streamed pass does with each block of K.
type streamOp uint8

const (
	opFunc   streamOp = iota // call f (EachBlock)
	opNormal                 // part c += K_bᵀ(K_b·V) (NormalMulTo)
	opTrans                  // part c += K_bᵀ·Y_b (MulTransTo)
)

// streamJob is one streamed pass over K, shared by its goroutines; pooled
// with its workspaces so that a pass allocates nothing in the steady state.
type streamJob struct {
	r     *Rows
	plan  streamPlan
	op    streamOp
	split bool                              // opFunc: f takes parts of blocks (its rows are independent)
	sub   int                               // rows evaluated at a time: plan.b, or fewer (partRows)
	f     func(c, i0 int, kb *linalg.Dense) // opFunc
	in    *linalg.Dense                     // V (opNormal) or Y (opTrans)
	q     int                               // columns of in
	vt    []float64                         // the columns of V, one after another
	parts []float64                         // one m×q partial result per chunk, by columns
	works []*blockWork                      // one per goroutine
}

// streamJobs pools the jobs (internal/pool: one list for every goroutine,
// the smallest whose partial results are large enough handed out, freed
// by the garbage collector when unused).
var streamJobs = pool.Pool[streamJob]{Size: func(j *streamJob) int {
	n := cap(j.parts) + cap(j.vt)
	for _, w := range j.works {
		n += cap(w.kb.Data) + cap(w.xc.Data) + cap(w.w)
	}
	return n
}}

// Run does chunk c on goroutine w: its blocks in increasing order, each
// evaluated j.sub rows at a time.
func (j *streamJob) Run(w, c int) {
	ws := j.works[w]
	lo, hi := j.plan.rows(c)
	_, m := j.r.Dims()
	q := j.q
	var part []float64
	if j.op != opFunc {
		part = j.parts[c*m*q : (c+1)*m*q]
	}
	for b0 := lo; b0 < hi; b0 += j.plan.b {
		b1 := min(b0+j.plan.b, hi)
		for i0 := b0; i0 < b1; i0 += j.sub {
			kb := ws.block(j.r, i0, min(i0+j.sub, b1))
			b := kb.Rows
			if j.op == opFunc {
				j.f(c, i0, kb)
				continue
			}
			if cap(ws.w) < b*q {
				ws.w = make([]float64, j.sub*q)
			}
			w := ws.w[:b*q]
			if j.op == opNormal {
				mulRows(w, kb.Data, j.vt, b, m, q)
			} else {
				for i := range b {
					for k, y := range j.in.Row(i0 + i) {
						w[k*b+i] = y
					}
				}
			}
			addRows(part, kb.Data, w, b, m, q)
		}
	}
}

// stream runs j over every block of K in j.plan.chunks chunks (see the top
// of this file) and returns when all are done. Goroutines: at most
// min(GOMAXPROCS, chunks), besides those of linalg.Gemm. They claim the
// chunks in turn (parallel.Claim), so that a core slowed by the others
// (sixteen cores of a Xeon ran the same kernel block 1.04–1.27× slower than
// one alone) takes fewer chunks instead of holding up the pass; what a
// chunk computes does not depend on which goroutine runs it.
func (j *streamJob) stream() {
	n, m := j.r.Dims()
	p := parallel.Team(j.plan.chunks, float64(n)*float64(m), minParallelWork)
	j.sub = j.plan.b
	if j.op != opFunc || j.split {
		j.sub = partRows(j.plan.b, m, p)
	}
	for len(j.works) < p {
		j.works = append(j.works, new(blockWork))
	}
	parallel.Claim(p, j.plan.chunks, j)
}

// partRows returns the rows of K that each of p goroutines evaluates at a
// time in a pass of blocks of b rows and m columns: b while p blocks fit
// in streamWorkElems, otherwise as many rows as a p-th of it holds, a
// multiple of 4 (the rows addRows takes together, so that the parts of a
// block group its rows as the block does), and at least 4.
func partRows(b, m, p int) int {
	if p*b*m <= streamWorkElems {
		return b
	}
	return min(b, max(4, streamWorkElems/(p*max(m, 1))/4*4))
}

// getJob returns a pooled job for op over K with the given number of
// chunks, whose partial results hold at least parts values; putJob
// returns it to the pool.
func (r *Rows) getJob(op streamOp, chunks, parts int) *streamJob {
	j := streamJobs.Get(func(j *streamJob) bool { return cap(j.parts) >= parts })
	if j == nil {
		j = new(streamJob)
	}
	j.r, j.op, j.plan = r, op, r.plan(chunks)
	return j
}

func putJob(j *streamJob) {
	j.r, j.f, j.in, j.split = nil, nil, nil, false // keep no references to the caller's data
	streamJobs.Put(j)
}

// EachBlock calls f(c, i0, kb) once for every block of rows of K, with kb
// holding rows [i0, i0+kb.Rows) of K (kb.Cols = m), the values BlockTo
// gives, bit for bit. It is the engine of MulTo, MulVecTo, NormalMulTo and
// MulTransTo, and serves any other pass over the blocks of K, such as
// K_bᵀK_b (linalg.Syrk), K_bᵀY or the column sums 1ᵀK_b.
//
// Partition and order: the rows are split into blocks of a size fixed by m
// (about 1 MiB of K each), and the blocks into chunks chunks of
// consecutive blocks, a split that depends only on n, m and chunks. Calls
// for the same chunk c come from one goroutine, in increasing order of i0;
// calls for different chunks may run at the same time. A caller that keeps
// one partial result per chunk and sums the partials in chunk order at the
// end therefore gets a result that is bit-identical for any GOMAXPROCS.
// Use chunks = 1 when a partial is large (m×m): f then runs sequentially
// and can itself use every core (linalg's products do). At most
// min(GOMAXPROCS, chunks) chunks run at once; some chunks receive no
// block when there are fewer blocks than chunks.
//
// kb is workspace, valid during the call only; f must not modify it or
// keep it. Memory: one block (about 1 MiB, and b×d) per running chunk.
// The cost is that of evaluating K, 2nmd flops and nm kernel transforms
// (an exp each for the Gaussian kernel), plus what f does. EachBlock
// panics if chunks < 1.
func (r *Rows) EachBlock(chunks int, f func(c, i0 int, kb *linalg.Dense)) {
	if chunks < 1 {
		panic(fmt.Sprintf("kernels: Rows.EachBlock: %d chunks", chunks))
	}
	r.eachBlock(chunks, false, f)
}

// eachBlock is EachBlock, but with split set f is called for parts of the
// blocks (partRows), each with its own i0: for consumers whose rows are
// independent of one another (MulVecTo, MulTo), so that the kernel blocks
// of a pass stay within streamWorkElems whatever GOMAXPROCS is.
func (r *Rows) eachBlock(chunks int, split bool, f func(c, i0 int, kb *linalg.Dense)) {
	if n, m := r.Dims(); n == 0 || m == 0 {
		return
	}
	j := r.getJob(opFunc, chunks, 0)
	j.f, j.split = f, split
	j.stream()
	putJob(j)
}

// NormalMulTo computes dst = Kᵀ(K·V) for an m×q matrix V (dst m×q), the
// product with KᵀK that a Nyström solver's conjugate gradient iteration
// needs, without storing K: for every block K_b of rows of K it forms
// W = K_b·V (b×q) and adds K_bᵀ·W to the partial result of its chunk,
// while K_b is in cache (see EachBlock for the partition). An empty dst
// is allocated; dst may be V itself, since it is written only at the end.
//
// Cost per call: 2nmd flops and nm kernel transforms to evaluate K (an exp
// each for the Gaussian kernel), plus 4nmq flops for the two products
// (block_products.go: each entry of W a dot product, each block added to
// the partial four rows at a time, in a fixed order).
// Memory: besides the inputs, the rows of K the goroutines evaluate at
// once, r×(m + d + q) values each, p·r·m ≤ 2¹⁸ (2 MiB) for p goroutines
// unless r is at its least, 4 rows (r = b for p ≤ 2, b the rows of a
// block, about 2¹⁷/m); a copy of V; and the partial results of the chunks,
// C·m·q doubles with C = min(128, ⌊2²³/(m·q)⌋, blocks) ≥ 1 (at most 64 MiB
// unless one m×q partial is larger): a bound that does not depend on
// GOMAXPROCS but through p·r ≤ max(2¹⁸/m, 4p). The chunks are summed in order, so the result is
// bit-identical for any GOMAXPROCS; it agrees with Kᵀ(K·V) from the full
// matrices to rounding, not bit for bit. Once the pooled workspaces have
// grown, a call allocates nothing per block (for d ≤ 16, nothing but the
// goroutines of its chunks).
//
// NormalMulTo panics if V does not have m rows or dst is not m×q.
func (r *Rows) NormalMulTo(dst, v *linalg.Dense) *linalg.Dense {
	return r.reduce(opNormal, dst, v)
}

// MulTransTo computes dst = Kᵀ·Y for an n×q matrix Y (dst m×q), the
// right-hand side of a Nyström fit, without storing K: for every block
// K_b it adds K_bᵀ·Y_b to the partial result of its chunk (see EachBlock
// for the partition). An empty dst is allocated; dst may be Y itself when
// n = m.
//
// Cost per call: 2nmd flops and nm kernel transforms to evaluate K, plus
// 2nmq flops. Memory, and the summation order that makes the result
// bit-identical for any GOMAXPROCS, are those of NormalMulTo. MulTransTo
// panics if Y does not have n rows or dst is not m×q.
func (r *Rows) MulTransTo(dst, y *linalg.Dense) *linalg.Dense {
	return r.reduce(opTrans, dst, y)
}

// reduce runs op (opNormal or opTrans) with input in over K, with one m×q
// partial result per chunk, writes the sum of the partials, in chunk
// order, into dst (m×q, allocated when empty) and returns dst.
func (r *Rows) reduce(op streamOp, dst, in *linalg.Dense) *linalg.Dense {
	n, m := r.Dims()
	name, arg, want := "Rows.NormalMulTo", "V", m
	if op == opTrans {
		name, arg, want = "Rows.MulTransTo", "Y", n
	}
	dst = operands(name, arg, in, want, dst, m)
	q := in.Cols
	if m == 0 || q == 0 {
		return dst
	}
	if n == 0 {
		dst.Zero()
		return dst
	}
	chunks := min(maxStreamChunks, max(1, streamPartialElems/(m*q)), r.blocks())
	j := r.getJob(op, chunks, chunks*m*q)
	j.in, j.q = in, q
	j.parts = grow(j.parts, chunks*m*q)
	clear(j.parts)
	if op == opNormal {
		j.vt = grow(j.vt, m*q)
		for i := range m {
			for c, v := range in.Row(i) {
				j.vt[c*m+i] = v
			}
		}
	}
	j.stream()
	for i := range m {
		d := dst.Row(i)
		for c := range d {
			s := j.parts[c*m+i]
			for k := 1; k < chunks; k++ {
				s += j.parts[(k*q+c)*m+i]
			}
			d[c] = s
		}
	}
	putJob(j)
	return dst
}

// operands panics unless in, the argument arg of the product op, has want
// rows, and returns op's destination: dst, of dstRows×in.Cols, or a new
// matrix when dst is empty.
func operands(op, arg string, in *linalg.Dense, want int, dst *linalg.Dense, dstRows int) *linalg.Dense {
	if in.Rows != want {
		panic(fmt.Sprintf("kernels: %s: %s has %d rows, want %d", op, arg, in.Rows, want))
	}
	return destination(op, dst, dstRows, in.Cols)
}

// grow returns s with length n, reallocated only when its capacity is
// smaller.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
