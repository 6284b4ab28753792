package kernels

import (
	"fmt"

	"rkhs/internal/avx"
	"rkhs/linalg"
)

// Rows is the kernel matrix K(X, Z), K[i][j] = k(xᵢ, zⱼ), kept implicit:
// it yields blocks of rows on demand and multiplies by vectors, so that an
// iterative solver or a Nyström fit never holds more than a block of rows.
// For a Gram matrix use Z = X.
//
// A Rows keeps references to X (and a prepared copy of Z); the caller must
// not modify X while the Rows is in use. Its methods are safe for concurrent
// use.
type Rows struct {
	p  *prepared
	x  linalg.Dense
	nx []float64 // p.xNorms(x)
}

// NewRows prepares K(X, Z) for block-wise evaluation (for a distance kernel
// it centres a copy of Z and stores the row norms of both sets, O((n+m)d)).
// It returns the ErrParameter and ErrData errors of CrossTo.
//
// Non-finite kernel values are an error of NewRows, since the methods that
// produce them return none: for data so far from 0 that a value of
// Linear or Polynomial overflows to ±Inf or NaN (or a Gaussian's centring
// does, see CrossTo), NewRows returns ErrData. It bounds every value from
// the largest squared row norms of X and Z, O((n + m)d), as CrossTo does;
// only the rows of K the bound does not cover are computed (one at a
// time, 2md flops each) and scanned, so that data whose bound is merely
// large still works. The Gaussian values of such rows are computed as
// CrossTo computes them, 0 for a row infinitely far from a centre. Values
// of other kernels (Laplacian's are always finite) are not checked.
func NewRows(k Kernel, x, z *linalg.Dense) (*Rows, error) {
	const op = "NewRows"
	p, err := prepareCross(op, k, x, z)
	if err != nil {
		return nil, err
	}
	r := &Rows{p: p, x: *x, nx: p.xNorms(x)}
	var row linalg.Dense
	err = p.crossCheck(op, r.nx, func(i int) []float64 {
		return r.BlockTo(row.Reuse(1, p.z.Rows), i, i+1).Row(0)
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// Dims returns the shape n×m of K.
func (r *Rows) Dims() (n, m int) { return r.x.Rows, r.p.z.Rows }

// BlockTo writes rows [i0, i1) of K into dst and returns it. An empty dst
// is allocated; otherwise it must be (i1−i0)×m. The values are those CrossTo
// would give for the same rows, bit for bit.
func (r *Rows) BlockTo(dst *linalg.Dense, i0, i1 int) *linalg.Dense {
	n, m := r.Dims()
	if i0 < 0 || i1 < i0 || i1 > n {
		panic(fmt.Sprintf("kernels: Rows.BlockTo: rows [%d,%d) outside [0,%d)", i0, i1, n))
	}
	dst = destination("Rows.BlockTo", dst, i1-i0, m)
	r.blockTo(dst, nil, i0, i1)
	return dst
}

// blockTo is BlockTo on checked rows into dst ((i1−i0)×m), with work, if
// not nil, reused for the centred rows of X (see prepared.crossTo).
func (r *Rows) blockTo(dst, work *linalg.Dense, i0, i1 int) {
	var nx []float64
	if r.nx != nil {
		nx = r.nx[i0:i1]
	}
	r.p.crossTo(*dst, r.x.Slice(i0, i1, 0, r.x.Cols), nx, work)
}

// MulVecTo computes dst = K·v (dst of length n, v of length m) and returns
// dst; a nil dst is allocated. It streams K through EachBlock (one chunk a
// block) and sets dstᵢ to the dot product of row i of K with v, summed in
// increasing order of j, while the block is in cache: each dstᵢ is one such
// sum, so the result is bit-identical for any GOMAXPROCS. The cost is that
// of evaluating K, 2nmd flops and nm kernel transforms for the kernels of
// this package, plus 2nm flops; the memory, the rows of K the goroutines
// evaluate at once, at most 2¹⁸ values (2 MiB) in all (see NormalMulTo).
// MulVecTo panics if len(v) ≠ m or a non-nil dst is not of
// length n.
func (r *Rows) MulVecTo(dst, v []float64) []float64 {
	n, m := r.Dims()
	if len(v) != m {
		panic(fmt.Sprintf("kernels: Rows.MulVecTo: len(v) is %d, want %d", len(v), m))
	}
	if dst == nil {
		dst = make([]float64, n)
	} else if len(dst) != n {
		panic(fmt.Sprintf("kernels: Rows.MulVecTo: len(dst) is %d, want %d", len(dst), n))
	}
	if m == 0 {
		clear(dst)
		return dst
	}
	r.eachBlock(r.blocks(), true, func(_, i0 int, kb *linalg.Dense) {
		for i := range kb.Rows {
			avx.ClearUpper()
			row := kb.Row(i)
			v := v[:len(row)]
			var s float64
			for j, kij := range row {
				s += kij * v[j]
			}
			dst[i0+i] = s
		}
	})
	return dst
}

// MulTo computes dst = K·V for an m×q matrix V (dst n×q) and returns dst;
// an empty dst is allocated. It streams K through EachBlock (one chunk a
// block) and writes rows [i0, i0+b) of dst as K_b·V, one linalg.Gemm per
// block K_b while it is in cache. Gemm's value of an entry does not depend
// on the rows around it, so the result is bit-identical for any
// GOMAXPROCS. Iterative solvers use it to apply K to several vectors for
// the price of evaluating K once: 2nmd flops and nm kernel transforms,
// plus 2nmq flops. Memory: the rows of K the goroutines evaluate at once,
// at most 2¹⁸ values (2 MiB) in all (see NormalMulTo), besides Gemm's
// packing buffers. MulTo panics if V does not have m rows
// or dst is not n×q.
func (r *Rows) MulTo(dst, v *linalg.Dense) *linalg.Dense {
	n, m := r.Dims()
	dst = operands("Rows.MulTo", "V", v, m, dst, n)
	if v.Cols == 0 {
		return dst
	}
	if m == 0 {
		dst.Zero()
		return dst
	}
	r.eachBlock(r.blocks(), true, func(_, i0 int, kb *linalg.Dense) {
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, kb, v, 0, dst.Slice(i0, i0+kb.Rows, 0, v.Cols))
	})
	return dst
}
