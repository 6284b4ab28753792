package kernels

import (
	"fmt"

	"rkhs/internal/avx"
	"rkhs/linalg"
)

// Gram returns the n×n kernel matrix K[i][j] = k(xᵢ, xⱼ) of the rows of x
// (n examples of d features, row-major), both triangles filled. x is not
// modified. A kernel value that overflows to ±Inf or NaN (data far from 0)
// is an ErrData error, not an entry. See GramTo.
func Gram(k Kernel, x *linalg.Dense) (*linalg.Dense, error) {
	dst := linalg.NewDense(x.Rows, x.Rows, nil)
	if err := GramTo(dst, k, x, false); err != nil {
		return nil, err
	}
	return dst, nil
}

// GramTo writes the Gram matrix K[i][j] = k(xᵢ, xⱼ) of the rows of x into
// the n×n matrix dst. With lowerOnly set, only the lower triangle (diagonal
// included) is written — what a Cholesky factorization reads — and the
// strict upper triangle of dst is left as it was.
//
// For Linear and Polynomial, K is f(X·Xᵀ) with X·Xᵀ from linalg.Syrk (n²d
// flops, half of a Gemm). For Gaussian, K[i][j] = f(‖xᵢ‖² + ‖xⱼ‖² − 2xᵢᵀxⱼ)
// with the products from Syrk on X centred by its column means (distances
// do not change, cancellation shrinks); negative rounding of a squared
// distance is clamped to 0 and the diagonal is exactly k(x, x) = 1. Other
// kernels, Laplacian included, are evaluated pair by pair, lower triangle
// only. Both passes run in parallel blocks of rows; the result is
// bit-identical for any GOMAXPROCS. Entries agree with k.Eval to rounding,
// not bit for bit.
//
// Non-finite kernel values are an error, not a result. For data so far
// from 0 that a value of Linear, Polynomial or Gaussian overflows — xᵢᵀxⱼ
// or (xᵢᵀxⱼ + c)^p beyond the largest float64, or, for the Gaussian,
// ‖xᵢ‖² + ‖xⱼ‖² − 2xᵢᵀxⱼ = ∞ − ∞ = NaN where Eval gives 0 — GramTo returns
// ErrData. It does not scan K: it bounds every value from the largest
// squared row norm (the diagonal of the product, O(n)) — |xᵢᵀxⱼ| ≤
// ‖xᵢ‖‖xⱼ‖, and the distance's terms stay below 4 max‖xᵢ‖² — and scans only
// the rows the bound does not cover, so that data whose bound is merely
// large, but whose values are finite, still works. Values of other
// kernels are not checked (Laplacian's are always finite, see
// Laplacian.Validate).
//
// Errors: ErrParameter (wrapped) if k's parameters are invalid, ErrData if
// x holds NaN or ±Inf; dst is then unchanged. ErrData also if a kernel
// value overflows (see above); dst then holds unspecified values. GramTo
// panics if dst is not n×n.
func GramTo(dst *linalg.Dense, k Kernel, x *linalg.Dense, lowerOnly bool) error {
	n := x.Rows
	if dst.Rows != n || dst.Cols != n {
		panic(fmt.Sprintf("kernels: GramTo: destination is %d×%d, want %d×%d", dst.Rows, dst.Cols, n, n))
	}
	if k == nil {
		return fmt.Errorf("%w: nil kernel", ErrParameter)
	}
	if v, ok := k.(Validator); ok {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	if err := checkData(x, "X"); err != nil {
		return err
	}
	var norms []float64 // squared row norms, the diagonal of the product
	switch kk := k.(type) {
	case dotKernel:
		linalg.Syrk(linalg.Lower, linalg.NoTrans, 1, x, 0, dst)
		norms = diagonal(dst)
		rowsParallel(n, n/2, func(i int) {
			row := dst.Row(i)[:i+1]
			for j, g := range row {
				if j%clearEvery == 0 {
					avx.ClearUpper()
				}
				row[j] = kk.fromDot(g)
			}
		})
	case distKernel:
		xc := centred(x, columnMeans(x))
		linalg.Syrk(linalg.Lower, linalg.NoTrans, 1, &xc, 0, dst)
		norms = diagonal(dst)
		rowsParallel(n, n/2, func(i int) {
			row := dst.Row(i)[:i+1]
			kk.sqDistRow(row[:i], norms[:i], norms[i])
			row[i] = kk.fromSqDist(0)
		})
	default:
		rowsParallel(n, n/2, func(i int) {
			row, xi := dst.Row(i)[:i+1], x.Row(i)
			for j := range row {
				if j%clearEvery == 0 {
					avx.ClearUpper()
				}
				row[j] = k.Eval(xi, x.Row(j))
			}
		})
	}
	if bad := unfit(k, norms, maxNorm(norms)); bad != nil {
		desc := fmt.Sprintf("largest squared row norm %.3g in X", maxNorm(norms))
		for _, i := range bad {
			if err := checkRow(k, dst.Row(i)[:i+1], i, desc); err != nil {
				return err
			}
		}
	}
	if !lowerOnly {
		mirrorLower(dst)
	}
	return nil
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
