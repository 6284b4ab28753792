// Package regress fits kernel regularized least squares (RLS): the function
// f(x) = Σᵢ cᵢ k(x, xᵢ) + b that minimizes
//
//	(1/n)·Σᵢ (yᵢ − f(xᵢ))² + λ‖f‖²
//
// over n training points, whose coefficients solve (K + nλI)c = y.
//
// The λ convention is fixed throughout rkhs: λ enters as K + nλI, n the
// number of training rows. LambdaFromAlpha converts scikit-learn's alpha
// (and the (K + λI) convention of Rifkin's notes), LambdaFromC LIBSVM's C.
//
// Fitters are small value types with a Fit method:
//
//   - RLS: the exact solution by a Cholesky factorization of K + nλI, with
//     no intercept, a free (unpenalized) intercept or a penalized one (see
//     Intercept), and any number of outputs (columns of Y) sharing one
//     factorization.
//   - LinearRLS: the linear kernel solved in the primal, a d×d system.
//   - Nystrom: the subset-of-regressors approximation on m ≪ n centres,
//     O(nm) memory.
//
// They return a *Model (a kernel expansion) or a *LinearModel, which hold
// everything prediction needs and are safe for concurrent Predict calls.
//
// Failure: bad input — empty data, mismatched sizes, NaN or ±Inf, λ ≤ 0,
// more centres than points — is an error wrapping ErrInput that names the
// argument; bad kernel parameters wrap kernels.ErrParameter; a matrix that
// is not numerically positive definite wraps linalg.ErrNotPositiveDefinite.
// An iteration that diverges or overflows wraps linalg.ErrNoConvergence.
// Nothing in this package panics on data, and no function modifies its
// arguments. A *linalg.Dense whose Data is shorter than its Rows, Cols and
// Stride require is a programming error, not data, and panics.
package regress
