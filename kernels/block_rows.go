package kernels

import (
	"fmt"
	"iter"

	"rkhs/internal/pool"
	"rkhs/linalg"
)

// Passes over the blocks of rows of K on the calling goroutine. A pass that
// must not hold K (n×m) takes its rows a block of b at a time, b fixed by
// one rule, BlockRows, for one of two targets of values per block: a block
// that stays in cache while it is consumed (CacheBlockElems: the streamed
// products of blocks.go and the groups of CrossTo, which for K of fewer
// than 8 columns take more rows than BlockRows, see streamRows), or a
// block large enough for the work done with it to use every core
// (GemmBlockElems: the selection passes of package loo, the statistics of
// regress.NystromStats.Add, the neighbours of classify.KNN). Rows.Blocks
// and Widths.Blocks iterate over such blocks in order, each block
// evaluated as BlockTo evaluates it (its rows split over the goroutines),
// into workspace reused from block to block.

// Targets of BlockRows, in values of K per block.
const (
	// CacheBlockElems is 2¹⁷ doubles, 1 MiB, half of the L2 cache of the
	// Intel Xeon of docs/notes/fast-exp.md, so that a block, V and the
	// partial result of a skinny product fit in cache together. The
	// streamed products (MulTo, MulVecTo, NormalMulTo, MulTransTo,
	// EachBlock) and the groups of rows of CrossTo use it.
	// TestCalibrateStream (go test ./kernels -run CalibrateStream
	// -calibrate -v) times NormalMulTo for 2¹⁵ … 2²⁰.
	CacheBlockElems = 1 << 17
	// GemmBlockElems is 2²⁰ doubles, 8 MiB, for passes that multiply each
	// block K_b (b×m) by a matrix of m rows and m or more columns with
	// linalg.Gemm, or split its rows over the goroutines: large enough
	// that Gemm splits each product over every core, and that packing the
	// m×m operand once a block costs little beside the product (2bm²
	// flops against m² copies). It was set by that argument, not by a
	// sweep.
	GemmBlockElems = 1 << 20
)

// Bounds of BlockRows. Fewer than minBlockRows rows would make the
// distance product's repacking of Z (once per block) cost more than the
// product; more than maxBlockRows would let what a pass holds per row (the
// centred rows of X, b×d; the residuals of a λ path, b×L(q + 1)) grow
// without bound for a narrow K.
const (
	minBlockRows = 8
	maxBlockRows = 1 << 14
)

// BlockRows returns the number of rows b of a block of about elems values
// of a kernel matrix with m columns: elems/m, but at least 8 and at most
// 2¹⁴ (for K narrower than elems/2¹⁴ columns, a block then holds fewer
// values). elems is CacheBlockElems or GemmBlockElems, or a caller's own
// target. It panics if m < 0 or elems < 1.
func BlockRows(m, elems int) int {
	if m < 0 || elems < 1 {
		panic(fmt.Sprintf("kernels: BlockRows: %d columns, %d values", m, elems))
	}
	return max(minBlockRows, min(elems/max(m, 1), maxBlockRows))
}

// Blocks returns an iterator over the rows of K in blocks of rows rows,
// in order: each step gives i0 and K_b, the rows [i0, i0 + K_b.Rows) of
// K (compact, m columns), the values BlockTo gives for them, bit for bit;
// the last block holds the n − i0 rows left, and a K without rows gives
// none. rows is usually BlockRows(m, GemmBlockElems).
//
// K_b is the iterator's workspace, reused by the next step: it is valid
// during its step only, and the caller may overwrite it. Each block is
// evaluated by BlockTo, its rows split over up to GOMAXPROCS goroutines,
// each row computed the same way in any split, so that a pass is
// bit-identical for any GOMAXPROCS when the caller consumes the blocks
// deterministically. Cost: that of evaluating K, 2nmd flops and nm kernel
// transforms. Memory: one block, min(rows, n)×m values, and for a
// distance kernel b×d more; they are taken from a pool at the first step
// and given back when the iteration ends (internal/pool), so that passes
// one after another, such as regress.NystromStats.Add over shards, reuse
// one block. Blocks panics if rows < 1.
func (r *Rows) Blocks(rows int) iter.Seq2[int, *linalg.Dense] {
	if rows < 1 {
		panic(fmt.Sprintf("kernels: Rows.Blocks: blocks of %d rows", rows))
	}
	return func(yield func(int, *linalg.Dense) bool) {
		n, m := r.Dims()
		if n == 0 {
			return
		}
		need := min(rows, n) * m
		st := blockStores.Get(func(st *blockStore) bool { return cap(st.kb.Data) >= need })
		if st == nil {
			st = new(blockStore)
		}
		defer blockStores.Put(st)
		for i0 := 0; i0 < n; i0 += rows {
			i1 := min(i0+rows, n)
			kb := st.kb.Reuse(i1-i0, m)
			r.blockTo(kb, &st.xc, i0, i1)
			if !yield(i0, kb) {
				return
			}
		}
	}
}

// blockStore is the storage of Rows.Blocks: a block of K and the centred
// rows of X it is computed from.
type blockStore struct{ kb, xc linalg.Dense }

// blockStores pools the storage of Rows.Blocks (internal/pool: one list
// for every goroutine, the smallest that fits handed out, let go by the
// garbage collector when unused).
var blockStores = pool.Pool[blockStore]{Size: func(st *blockStore) int { return cap(st.kb.Data) + cap(st.xc.Data) }}

// WidthsBlock is one block of rows of the matrices of a Widths as
// Widths.Blocks gives it: the part every width shares, computed once for
// the block, from which Kernel computes the block of any width. It is also
// the storage of the block: a shared part and a kernel block of b×m values
// each, and b×d for the centred rows of X of a Gaussian kernel, reused
// from block to block. The zero value is ready to use and
// grows to the largest block it has held; NewWidthsBlock makes one with
// room for blocks of a given size, so that passes with blocks of different
// sizes (of Widths with the same m) can share one without allocating
// again. A WidthsBlock is not safe for concurrent use.
type WidthsBlock struct {
	w          *Widths
	i0         int
	sh, kb, xc linalg.Dense // xc: the centred rows of X (Gaussian)
}

// NewWidthsBlock returns a WidthsBlock with room for blocks of up to rows
// rows of m columns: 2·rows·m values. It panics on negative sizes.
func NewWidthsBlock(rows, m int) *WidthsBlock {
	b := new(WidthsBlock)
	b.sh.Reuse(rows, m)
	b.kb.Reuse(rows, m)
	return b
}

// Kernel returns the block of K_s, the matrix of width s: rows
// [i0, i0 + b) of K_s for the block's i0 and b rows, computed from the
// block's shared part (Widths.KernelTo: one kernel transform, an exp, an
// entry, the rows split over up to GOMAXPROCS goroutines), bit for bit
// the block Rows.BlockTo gives for the kernel of that width. The result is
// the block's workspace: valid until the next call of Kernel or the next
// step of the iteration; the caller may overwrite it. Kernel panics if s
// is not in [0, Len()) or b is not a block Widths.Blocks gave.
func (b *WidthsBlock) Kernel(s int) *linalg.Dense {
	if b.w == nil {
		panic("kernels: WidthsBlock.Kernel: not a block of Widths.Blocks")
	}
	return b.w.KernelTo(b.kb.Reuse(b.sh.Rows, b.sh.Cols), &b.sh, s, b.i0)
}

// Blocks returns an iterator over the rows of the matrices in blocks of
// rows rows, in order: each step computes the shared part of the block
// (SharedTo) into blk and gives i0 and blk, whose Kernel(s) is then rows
// [i0, i0 + b) of K_s; the last block holds the n − i0 rows left. A pass
// over all widths reads
//
//	for i0, blk := range w.Blocks(rows, nil) {
//		for s := range w.Len() {
//			kb := blk.Kernel(s)
//			… rows [i0, i0+kb.Rows) of K_s
//		}
//	}
//
// blk is the storage of the blocks: nil for a new WidthsBlock, or one the
// caller keeps to share its storage between passes. It is valid during
// its step only. Each step computes the shared part once for every width:
// 2md flops a row (Gaussian; 3md Laplacian), split over the goroutines as
// in SharedTo, so that a pass is bit-identical for any GOMAXPROCS when
// the caller consumes the blocks deterministically. Memory: blk's two
// blocks, 2·min(rows, n)·m values, and min(rows, n)·d for a Gaussian
// kernel; nothing is allocated once blk has grown. Blocks panics if
// rows < 1.
func (w *Widths) Blocks(rows int, blk *WidthsBlock) iter.Seq2[int, *WidthsBlock] {
	if rows < 1 {
		panic(fmt.Sprintf("kernels: Widths.Blocks: blocks of %d rows", rows))
	}
	if blk == nil {
		blk = new(WidthsBlock)
	}
	return func(yield func(int, *WidthsBlock) bool) {
		n, m := w.Dims()
		for i0 := 0; i0 < n; i0 += rows {
			i1 := min(i0+rows, n)
			w.sharedTo(blk.sh.Reuse(i1-i0, m), &blk.xc, i0, i1)
			blk.w, blk.i0 = w, i0
			if !yield(i0, blk) {
				return
			}
		}
	}
}
