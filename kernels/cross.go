package kernels

import (
	"rkhs/internal/memlimit"
	"rkhs/linalg"
)

// Cross returns the n×m cross-kernel matrix K[i][j] = k(xᵢ, zⱼ) between the
// rows of x (n×d) and of z (m×d), the matrix a model needs to predict at the
// points x from training points z: CrossTo with an empty destination. x
// and z are not modified. A kernel value that overflows to ±Inf or NaN
// (data far from 0) is an ErrData error, not an entry.
func Cross(k Kernel, x, z *linalg.Dense) (*linalg.Dense, error) {
	return crossTo("Cross", nil, k, x, z)
}

// CrossTo writes K[i][j] = k(xᵢ, zⱼ) into dst and returns dst. An empty dst
// (nil or the zero Dense) is allocated n×m; a non-empty one must be n×m.
//
// For Linear and Polynomial, K is f(X·Zᵀ) with one linalg.Gemm (2nmd
// flops). For Gaussian, the squared distances ‖xᵢ‖² + ‖zⱼ‖² − 2xᵢᵀzⱼ come
// from one Gemm after centring both sets by the column means of Z (negative
// rounding clamped to 0). Other kernels are evaluated pair by pair. Rows are
// split over goroutines; the result is bit-identical for any GOMAXPROCS.
//
// Non-finite kernel values are an error, not a result: for data so far
// from 0 that a value of Linear, Polynomial or Gaussian overflows (for the
// Gaussian, ‖xᵢ‖² + ‖zⱼ‖² − 2xᵢᵀzⱼ can be ∞ − ∞ where Eval gives 0),
// CrossTo returns ErrData. It bounds every value from the largest squared
// row norms, O((n + m)d), and scans the rows of the result the bound does
// not cover, so that data whose bound is merely large still works. Values
// of other kernels (Laplacian's are always finite) are not checked.
//
// Errors (*linalg.InputError values): ErrParameter for a nil kernel or
// invalid kernel parameters; ErrData for an x or z that is nil, malformed
// or has NaN or ±Inf (then also linalg.ErrNotFinite), when x and z have
// different numbers of columns, or when a kernel value overflows (see
// above). When dst is empty and the n×m matrix would exceed the memory
// limit, CrossTo allocates nothing and returns a *linalg.MemoryError
// (linalg.ErrTooLarge). dst is unchanged after the other errors, overwritten with
// unspecified values after an overflow. Either set may have no rows (the
// result is then empty). CrossTo panics, as linalg does, if a non-empty
// dst is not n×m or is malformed.
func CrossTo(dst *linalg.Dense, k Kernel, x, z *linalg.Dense) (*linalg.Dense, error) {
	return crossTo("CrossTo", dst, k, x, z)
}

func crossTo(op string, dst *linalg.Dense, k Kernel, x, z *linalg.Dense) (*linalg.Dense, error) {
	p, err := prepareCross(op, k, x, z)
	if err != nil {
		return nil, err
	}
	if dst == nil || dst.IsEmpty() {
		if err := memlimit.Check(op, memlimit.Floats(x.Rows, z.Rows)); err != nil {
			return nil, err
		}
	}
	dst = destination(op, dst, x.Rows, z.Rows)
	nx := p.xNorms(x)
	p.crossTo(*dst, x, nx)
	if err := p.crossCheck(op, nx, dst.Row); err != nil {
		return nil, err
	}
	return dst, nil
}
