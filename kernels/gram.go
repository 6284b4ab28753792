package kernels

import (
	"fmt"

	"rkhs/internal/avx"
	"rkhs/internal/center"
	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/linalg"
)

// Gram returns the n×n kernel matrix K[i][j] = k(xᵢ, xⱼ) of the rows of x
// (n examples of d features, row-major), both triangles filled: GramTo
// with an empty destination and linalg.All. x is not modified. A kernel
// value that overflows to ±Inf or NaN (data far from 0) is an ErrData
// error, not an entry.
func Gram(k Kernel, x *linalg.Dense) (*linalg.Dense, error) {
	return gramTo("Gram", nil, k, x, linalg.All)
}

// GramTo writes the Gram matrix K[i][j] = k(xᵢ, xⱼ) of the rows of x into
// dst and returns dst. An empty dst (nil or the zero Dense) is allocated
// n×n; a non-empty one must be n×n. ul says what is written: linalg.All
// both triangles, linalg.Lower the lower triangle with the diagonal (what a
// Cholesky factorization reads), linalg.Upper the upper one; the other
// triangle of dst is then left as it was.
//
// For Linear and Polynomial, K is f(X·Xᵀ) with X·Xᵀ from linalg.Syrk (n²d
// flops, half of a Gemm). For Gaussian, K[i][j] = f(‖xᵢ‖² + ‖xⱼ‖² − 2xᵢᵀxⱼ)
// with the products from Syrk on X centred by its column means (distances
// do not change, cancellation shrinks); negative rounding of a squared
// distance is clamped to 0 and the diagonal is exactly k(x, x) = 1. Other
// kernels, Laplacian included, are evaluated pair by pair, one triangle
// only. Both passes run in parallel blocks of rows; the result is
// bit-identical for any GOMAXPROCS. Entries agree with k.Eval to rounding,
// not bit for bit. With All, the upper triangle is the mirror of the lower
// one, so K is exactly symmetric.
//
// Data far from 0. GramTo bounds every value from the largest squared row
// norm (the diagonal of the product, O(n)): |xᵢᵀxⱼ| ≤ ‖xᵢ‖‖xⱼ‖, and the
// distance's terms stay below 4 max‖xᵢ‖². For the Gaussian, a pair the
// bound does not cover (a squared norm above a eighth of the largest
// float64, rows of magnitude 4.7e153 and more) is computed from the
// difference of the two rows instead, where ‖xᵢ‖² + ‖xⱼ‖² − 2xᵢᵀxⱼ could be
// ∞ − ∞: its value is that of the kernel's formula, 0 for rows infinitely
// far apart; the other pairs keep their values bit for bit. For Linear
// and Polynomial a value beyond the largest float64 (xᵢᵀxⱼ or
// (xᵢᵀxⱼ + c)^p) is an error, not a result: GramTo scans the rows the
// bound does not cover, so that data whose bound is merely large still
// works, and returns ErrData for a non-finite value. Values of other
// kernels are not checked (Laplacian's are always finite, see
// Laplacian.Validate).
//
// Errors (*linalg.InputError values): ErrParameter for a nil kernel or
// invalid kernel parameters; ErrData for an x that is nil, malformed or
// has NaN or ±Inf (then also linalg.ErrNotFinite), and dst is then
// unchanged; ErrData also if a kernel value overflows (see above), and dst
// then holds unspecified values. When dst is empty and the n×n matrix
// (with the centred copy of x of the Gaussian and the Laplacian) would
// exceed the memory limit, GramTo allocates nothing and returns a
// *linalg.MemoryError (linalg.ErrTooLarge). An x with no rows gives a 0×0
// matrix.
// GramTo panics, as linalg does, if a non-empty dst is not n×n or is
// malformed, or if ul is not Lower, Upper or All.
func GramTo(dst *linalg.Dense, k Kernel, x *linalg.Dense, ul linalg.Uplo) (*linalg.Dense, error) {
	return gramTo("GramTo", dst, k, x, ul)
}

func gramTo(op string, dst *linalg.Dense, k Kernel, x *linalg.Dense, ul linalg.Uplo) (*linalg.Dense, error) {
	if ul != linalg.Lower && ul != linalg.Upper && ul != linalg.All {
		panic(fmt.Sprintf("kernels: %s: triangle %v, want Lower, Upper or All", op, ul))
	}
	if err := checkKernel(op, k); err != nil {
		return nil, err
	}
	if err := check.Data(ErrData, op, "X", x, 0); err != nil {
		return nil, err
	}
	n := x.Rows
	if dst == nil || dst.IsEmpty() {
		if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(n, n), memlimit.Floats(n, x.Cols+1))); err != nil {
			return nil, err
		}
	}
	dst = destination(op, dst, n, n)
	tri := ul
	if ul == linalg.All {
		tri = linalg.Lower // computed in the lower triangle, then mirrored
	}
	// span returns the columns of row i in the triangle: [0, i] or [i, n).
	span := func(i int) (int, int) {
		if tri == linalg.Lower {
			return 0, i + 1
		}
		return i, n
	}
	var norms []float64 // squared row norms, the diagonal of the product
	switch kk := k.(type) {
	case dotKernel:
		linalg.Syrk(tri, linalg.NoTrans, 1, x, 0, dst)
		norms = diagonal(dst)
		rowsParallel(n, n/2, func(i int) {
			j0, j1 := span(i)
			row := dst.Row(i)[j0:j1]
			for j, g := range row {
				if j%clearEvery == 0 {
					avx.ClearUpper()
				}
				row[j] = kk.fromDot(g)
			}
		})
	case distKernel:
		xc := center.Subtract(x, center.Means(x))
		linalg.Syrk(tri, linalg.NoTrans, 1, xc, 0, dst)
		norms = diagonal(dst)
		big := maxNorm(norms)
		far := !sqDistFits(big, big) // some pair is not covered: see farGramRow
		rowsParallel(n, n/2, func(i int) {
			row := dst.Row(i)
			if tri == linalg.Lower {
				kk.rowFromDots(row[:i], norms[:i], norms[i])
			} else {
				kk.rowFromDots(row[i+1:], norms[i+1:], norms[i])
			}
			row[i] = kk.fromSqDist(0)
			if far {
				j0, j1 := span(i)
				farGramRow(kk, row, x, norms, i, j0, j1)
			}
		})
	default:
		rowsParallel(n, n/2, func(i int) {
			j0, j1 := span(i)
			row, xi := dst.Row(i)[j0:j1], x.Row(i)
			for j := range row {
				if j%clearEvery == 0 {
					avx.ClearUpper()
				}
				row[j] = k.Eval(xi, x.Row(j0+j))
			}
		})
	}
	if bad := unfit(k, norms, maxNorm(norms)); bad != nil {
		desc := fmt.Sprintf("largest squared row norm %.3g in X", maxNorm(norms))
		for _, i := range bad {
			j0, j1 := span(i)
			if err := checkRow(op, k, dst.Row(i)[j0:j1], i, j0, true, desc); err != nil {
				return nil, err
			}
		}
	}
	if ul == linalg.All {
		mirrorLower(dst)
	}
	return dst, nil
}

// farGramRow recomputes the entries j ∈ [j0, j1), j ≠ i, of row i of the
// Gram matrix of the rows of x whose pair of squared norms (of the
// centred rows, norms) sqDistFits does not cover, from the differences of
// the two rows of x as Eval computes them: each difference of finite
// values is finite or ±Inf, so the distance is finite or +Inf, and the
// Gaussian value 0 for rows infinitely far apart. The other entries, all
// of them for ordinary data, keep the values of the matrix path.
func farGramRow(k distKernel, row []float64, x *linalg.Dense, norms []float64, i, j0, j1 int) {
	xi := x.Row(i)
	for j := j0; j < j1; j++ {
		if j == i || sqDistFits(norms[i], norms[j]) {
			continue
		}
		xj := x.Row(j)
		xj = xj[:len(xi)]
		var s float64
		for l, v := range xi {
			t := v - xj[l]
			s += t * t
		}
		row[j] = k.fromSqDist(s)
	}
}

// destination returns dst, or a new r×c matrix when dst is empty (the To
// contract); it panics if a non-empty dst is malformed or not r×c.
func destination(op string, dst *linalg.Dense, r, c int) *linalg.Dense {
	if dst == nil || dst.IsEmpty() {
		return linalg.NewDense(r, c, nil)
	}
	if dst.Rows != r || dst.Cols != c {
		panic(fmt.Sprintf("kernels: %s: destination is %d×%d, want %d×%d", op, dst.Rows, dst.Cols, r, c))
	}
	if err := check.View(nil, op, "dst", dst); err != nil {
		panic("kernels: " + err.Error())
	}
	return dst
}

// diagonal returns a copy of the diagonal of the square matrix m.
func diagonal(m *linalg.Dense) []float64 {
	d := make([]float64, m.Rows)
	for i := range d {
		d[i] = m.At(i, i)
	}
	return d
}

// mirrorLower copies the strict lower triangle of the square matrix m into
// its upper triangle, tile by tile so that rows read and columns written
// stay in cache; tiles of rows go to different goroutines (each writes its
// own columns of the upper triangle, so no two write the same element).
func mirrorLower(m *linalg.Dense) {
	const tile = 64
	n := m.Rows
	tiles := (n + tile - 1) / tile
	rowsParallel(tiles, tiles*tile*tile/2, func(t int) {
		i0, i1 := t*tile, min((t+1)*tile, n)
		for j0 := 0; j0 < i1; j0 += tile {
			avx.ClearUpper()
			for i := i0; i < i1; i++ {
				row := m.Row(i)
				for j := j0; j < min(j0+tile, i); j++ {
					m.Data[j*m.Stride+i] = row[j]
				}
			}
		}
	})
}
