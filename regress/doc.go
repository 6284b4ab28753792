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
//   - LinearRLS: the linear kernel solved in the primal, a d×d system, and
//     LinearPath, every λ from one thin SVD of X.
//   - Nystrom: the subset-of-regressors approximation on m ≪ n centres,
//     O(nm) memory, solved directly (2nm² flops).
//   - Falkon: the same approximation solved by conjugate gradient with
//     Falkon's preconditioner, K_nm rebuilt in row blocks at every
//     iteration and never stored: O(m² + nd) memory, O(nmt + m³) time for
//     t iterations, for n far beyond one n×m matrix. NystromOperator and
//     Falkon.FitOperator let the passes over the data run elsewhere.
//     Which is faster: BENCHMARKS.md (Large data) measures the crossover.
//   - Spectral: one eigendecomposition of K for every spectral filter
//     (TikhonovFilter, TruncatedSVDFilter, IteratedTikhonovFilter,
//     LandweberFilter, NuFilter) and for Tikhonov on the augmented matrix
//     [K 1] (FitAugmented), for one parameter or a whole path.
//   - Landweber, NuMethod, CGLS and CG: matrix-free iterations; the number
//     of iterations regularizes the first three (early stopping), λ the
//     last.
//
// They return a *Model (a kernel expansion) or a *LinearModel, which hold
// everything prediction needs and are safe for concurrent Predict calls;
// PredictAll predicts the models of a path from one cross-kernel matrix,
// and MSE scores predictions.
//
// Options follow the zero-value rule of rkhs (see package rkhs): λ, the
// kernel's parameters, the number of iterations of an early-stopping
// method and the number of Nyström centres have no default, and 0 is an
// error; Tol, Eta and Nu default when 0, and CG's MaxIter is a budget that
// defaults to n.
//
// # Failure
//
// Errors about the arguments are *linalg.InputError values wrapping
// ErrInput that name the call and the argument: nil, empty or malformed
// matrices (negative dimensions, Stride < Cols, Data too short), mismatched
// sizes, NaN or ±Inf (which also wrap linalg.ErrNotFinite), λ ≤ 0, an
// option out of range, more centres than points, a nil or invalid kernel
// (which also wraps kernels.ErrParameter), kernel values that overflow on
// data this large (kernels.ErrData), and a nil or zero-value Model,
// LinearModel, Spectral or LinearPath. A matrix that is not numerically
// positive definite wraps linalg.ErrNotPositiveDefinite; an iteration that
// diverges or overflows wraps linalg.ErrNoConvergence. A fit that would
// need more memory than the limit (see package rkhs) returns a
// *linalg.MemoryError (linalg.ErrTooLarge) before it allocates. Nothing in this
// package panics on its arguments, and no function modifies them.
package regress
