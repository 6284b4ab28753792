package kernels

import (
	"fmt"

	"rkhs/internal/avx"
	"rkhs/internal/parallel"
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
// Linear, Polynomial or Gaussian overflows to ±Inf or NaN, NewRows returns
// ErrData. It bounds every value from the largest squared row norms of X
// and Z, O((n + m)d), as CrossTo does; only the rows of K the bound does not
// cover are computed (one at a time, 2md flops each) and scanned, so that
// data whose bound is merely large still works. Values of other kernels
// (Laplacian's are always finite) are not checked.
func NewRows(k Kernel, x, z *linalg.Dense) (*Rows, error) {
	const op = "NewRows"
	p, err := prepareCross(op, k, x, z)
	if err != nil {
		return nil, err
	}
	r := &Rows{p: p, x: *x, nx: p.xNorms(x)}
	var row linalg.Dense
	err = p.crossCheck(op, r.nx, func(i int) []float64 {
		return r.BlockTo(reuse(&row, 1, p.z.Rows), i, i+1).Row(0)
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
	var nx []float64
	if r.nx != nil {
		nx = r.nx[i0:i1]
	}
	r.p.crossTo(*dst, r.x.Slice(i0, i1, 0, r.x.Cols), nx)
	return dst
}

// blockRows returns how many rows of K a block holds: about 2²⁰ elements
// (8 MiB), at least one row.
func (r *Rows) blockRows() int {
	_, m := r.Dims()
	return max(1, (1<<20)/max(m, 1))
}

// MulVecTo computes dst = K·v (dst of length n, v of length m) one block of
// rows at a time, in O(m·block) memory, and returns dst; a nil dst is
// allocated. Each dstᵢ is one dot product, so the result is bit-identical
// for any GOMAXPROCS. The cost is that of building K, 2nmd flops and nm
// kernel transforms for the kernels of this package, plus 2nm flops.
func (r *Rows) MulVecTo(dst, v []float64) []float64 {
	n, m := r.Dims()
	if len(v) != m {
		panic(fmt.Sprintf("kernels: Rows.MulVecTo: len(v) is %d, want %d", len(v), m))
	}
	dst = sized(dst, n, "MulVecTo")
	bs := r.blockRows()
	var blk linalg.Dense
	for i0 := 0; i0 < n; i0 += bs {
		i1 := min(i0+bs, n)
		b := r.BlockTo(reuse(&blk, i1-i0, m), i0, i1)
		rowsParallel(i1-i0, m, func(i int) {
			var s float64
			for j, kij := range b.Row(i) {
				s += kij * v[j]
			}
			dst[i0+i] = s
		})
	}
	return dst
}

// MulTo computes dst = K·V for an m×q matrix V (dst n×q) one block of
// rows at a time, in O(m·block) memory, and returns dst; an empty dst is
// allocated. Each block is one linalg.Gemm, so the result is bit-identical
// for any GOMAXPROCS. Iterative solvers use it to apply K to several
// vectors for the price of building K's rows once.
func (r *Rows) MulTo(dst, v *linalg.Dense) *linalg.Dense {
	n, m := r.Dims()
	if v.Rows != m {
		panic(fmt.Sprintf("kernels: Rows.MulTo: V has %d rows, want %d", v.Rows, m))
	}
	dst = destination("Rows.MulTo", dst, n, v.Cols)
	bs := r.blockRows()
	var blk linalg.Dense
	for i0 := 0; i0 < n; i0 += bs {
		i1 := min(i0+bs, n)
		b := r.BlockTo(reuse(&blk, i1-i0, m), i0, i1)
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, b, v, 0, dst.Slice(i0, i1, 0, v.Cols))
	}
	return dst
}

// MulTransVecTo computes dst = Kᵀ·v (dst of length m, v of length n) one
// block of rows at a time and returns dst; a nil dst is allocated. The
// blocks are added in increasing order and, within a block, the rows in
// increasing order (columns split over goroutines), so the result is
// bit-identical for any GOMAXPROCS.
func (r *Rows) MulTransVecTo(dst, v []float64) []float64 {
	n, m := r.Dims()
	if len(v) != n {
		panic(fmt.Sprintf("kernels: Rows.MulTransVecTo: len(v) is %d, want %d", len(v), n))
	}
	dst = sized(dst, m, "MulTransVecTo")
	clear(dst)
	bs := r.blockRows()
	var blk linalg.Dense
	for i0 := 0; i0 < n; i0 += bs {
		i1 := min(i0+bs, n)
		b := r.BlockTo(reuse(&blk, i1-i0, m), i0, i1)
		p := parallel.Team(m/64, float64(i1-i0)*float64(m), minParallelWork)
		cols := parallel.NewChunks(m, p, 8)
		parallel.For(p, cols.Count(), parallel.Func(func(_, c int) {
			lo, hi := cols.Bounds(c)
			out := dst[lo:hi]
			for i := 0; i < i1-i0; i++ {
				avx.ClearUpper()
				vi := v[i0+i]
				for j, kij := range b.Row(i)[lo:hi] {
					out[j] += vi * kij
				}
			}
		}))
	}
	return dst
}

func sized(dst []float64, n int, op string) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("kernels: Rows.%s: len(dst) is %d, want %d", op, len(dst), n))
	}
	return dst
}

// reuse makes *m an r×c matrix on its existing storage when large enough.
func reuse(m *linalg.Dense, r, c int) *linalg.Dense {
	if cap(m.Data) >= r*c {
		*m = linalg.Dense{Rows: r, Cols: c, Stride: c, Data: m.Data[:r*c]}
	} else {
		*m = *linalg.NewDense(r, c, nil)
	}
	return m
}
