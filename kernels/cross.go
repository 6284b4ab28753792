package kernels

import (
	"rkhs/internal/memlimit"
	"rkhs/linalg"
)

// Cross returns the n×m cross-kernel matrix K[i][j] = k(xᵢ, zⱼ) between the
// rows of x (n×d) and of z (m×d), the matrix a model needs to predict at the
// points x from training points z: CrossTo with an empty destination. x
// and z are not modified. A Linear or Polynomial value that overflows to
// ±Inf or NaN (data far from 0) is an ErrData error, not an entry; a
// Gaussian value of a row infinitely far from a centre is 0 (see CrossTo).
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
// Data far from 0. CrossTo bounds every value from the largest squared row
// norms, O((n + m)d). For the Gaussian, a row of X the bound does not
// cover (‖xᵢ − μ‖² or the largest ‖zⱼ − μ‖² above a eighth of the largest
// float64: values of magnitude 4.7e153 and more) is computed from the
// differences xᵢ − zⱼ instead, where ‖xᵢ‖² + ‖zⱼ‖² − 2xᵢᵀzⱼ could be
// ∞ − ∞: its values are those of the kernel's formula, 0 for a row
// infinitely far from a centre (a test value of 1.5e308 gives a row of
// zeros, and a model's prediction there its intercept); the other rows,
// those of every ordinary problem, keep the matrix path's values bit for
// bit. For Linear and Polynomial a value beyond the largest float64 is an
// error, not a result: CrossTo scans the rows the bound does not cover,
// so that data whose bound is merely large still works, and returns
// ErrData for a non-finite value, as it does for the NaN of a Gaussian
// whose centring overflows (data near ±MaxFloat64 on both sides of Z's
// mean). Values of other kernels (Laplacian's are always finite) are not
// checked.
//
// Errors (*linalg.InputError values): ErrParameter for a nil kernel or
// invalid kernel parameters; ErrData for an x or z that is nil, malformed
// or has NaN or ±Inf (then also linalg.ErrNotFinite), when x and z have
// different numbers of columns, or when a kernel value is not finite (see
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
	p.crossTo(*dst, x, nx, nil)
	if err := p.crossCheck(op, nx, dst.Row); err != nil {
		return nil, err
	}
	return dst, nil
}
