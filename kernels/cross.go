package kernels

import (
	"fmt"

	"rkhs/linalg"
)

// Cross returns the n×m cross-kernel matrix K[i][j] = k(xᵢ, zⱼ) between the
// rows of x (n×d) and of z (m×d), the matrix a model needs to predict at the
// points x from training points z. x and z are not modified. A kernel
// value that overflows to ±Inf or NaN (data far from 0) is an ErrData
// error, not an entry. See CrossTo.
func Cross(k Kernel, x, z *linalg.Dense) (*linalg.Dense, error) {
	dst := linalg.NewDense(x.Rows, z.Rows, nil)
	if err := CrossTo(dst, k, x, z); err != nil {
		return nil, err
	}
	return dst, nil
}

// CrossTo writes K[i][j] = k(xᵢ, zⱼ) into the n×m matrix dst.
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
// Errors: ErrParameter (wrapped) for invalid kernel parameters; ErrData for
// NaN or ±Inf in x or z, when x and z have different numbers of columns,
// or when a kernel value overflows (see above). dst is unchanged after the
// other errors, overwritten with unspecified values after an overflow.
// CrossTo panics if dst is not n×m.
func CrossTo(dst *linalg.Dense, k Kernel, x, z *linalg.Dense) error {
	if dst.Rows != x.Rows || dst.Cols != z.Rows {
		panic(fmt.Sprintf("kernels: CrossTo: destination is %d×%d, want %d×%d", dst.Rows, dst.Cols, x.Rows, z.Rows))
	}
	if err := checkCols(x, z); err != nil {
		return err
	}
	p, err := prepare(k, z)
	if err != nil {
		return err
	}
	if err := checkData(x, "X"); err != nil {
		return err
	}
	nx := p.xNorms(x)
	p.crossTo(*dst, x, nx)
	return p.crossCheck(nx, dst.Row)
}
