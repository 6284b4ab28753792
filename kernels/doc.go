// Package kernels holds positive definite kernel functions and the matrices
// built from them: the Gram matrix K[i][j] = k(xᵢ, xⱼ) of a data set, the
// cross matrix K[i][j] = k(xᵢ, zⱼ) between two sets (for prediction), and
// Rows, the same matrix kept implicit and produced a block of rows at a time
// (for iterative solvers and Nyström fits that must not hold n×n), and
// Widths, the matrices of several widths σ of one Gaussian or Laplacian
// kernel produced together, each block's distances computed once (for a
// choice of σ that must read the rows once for all σ).
//
// Conventions: data sets are linalg.Dense matrices, row-major, one example
// per row. The kernels are
//
//	Linear{}                  k(x, z) = xᵀz
//	Polynomial{Degree, Offset} k(x, z) = (xᵀz + Offset)^Degree
//	Gaussian{Sigma}           k(x, z) = exp(−‖x − z‖² / (2σ²))
//	Laplacian{Sigma}          k(x, z) = exp(−‖x − z‖₁ / σ)
//
// and any type with an Eval(x, z []float64) float64 method is a Kernel too.
// A kernel's parameters have no defaults: σ and the degree set how much the
// model is regularized, so their zero values are errors, as λ's are (the
// zero-value rule of rkhs, in the documentation of package rkhs).
// Linear, Polynomial and Gaussian matrices are built from linalg.Syrk and
// linalg.Gemm; other kernels are evaluated pair by pair, in parallel blocks.
//
// # One scale for every feature
//
// A Gaussian or Laplacian kernel has one σ for all features, so features
// hundreds apart (a pressure near 1000, a wind speed near 2) make one
// feature decide every distance. Standardization maps each feature to
// mean 0 and standard deviation 1 by the mean and the population standard
// deviation of the training rows, Moments computes those in one pass in a
// form that merges across shards (Chan, Golub and LeVeque 1979), and the
// fitted models of packages regress and classify carry the map, so that
// they take raw rows and save it in their files. A constant feature is an
// error, never divided by zero; features of any magnitude, 1e300 or
// 1e-300, get their standard deviation (Moments counts extreme columns in
// a unit near their magnitude). Standardization.Outlying reports rows
// that lie far outside the training rows' scale, where a kernel model
// predicts its intercept alone. Scaled goes further: a Gaussian or
// Laplacian kernel with one length scale per feature, whose blocks of
// rows and whose derivatives in every log σ_j it gives to an objective
// that learns the scales (package loo's ScaleObjective).
//
// # Passes over blocks of rows
//
// A pass over K = K(X, Z) that must not hold it (n×m for large n) takes its
// rows in blocks of BlockRows(m, elems) rows, for one of two targets:
// CacheBlockElems (2¹⁷ values, 1 MiB), for the streamed products of Rows,
// which consume each block while it is in cache, and GemmBlockElems (2²⁰
// values, 8 MiB), for passes that multiply each block by an m×m matrix or
// split its rows over every core. Rows.Blocks and Widths.Blocks iterate
// over the blocks in order, for a pass on the calling goroutine (each
// block evaluated in parallel); Rows.EachBlock runs chunks of blocks on
// several goroutines, for sums that are reduced at the end.
//
// # Failure
//
// Every argument is validated and every invalid one is returned as a
// *linalg.InputError (see rkhs/linalg) naming the call and the argument,
// never a panic: a nil kernel or invalid kernel parameters (ErrParameter,
// a Gaussian σ for which 1/(2σ²) overflows or 2σ² does included), and a data
// matrix that is nil, malformed (negative dimensions, Stride < Cols, Data
// too short), holds NaN or ±Inf, has a different number of columns than
// the other set, or is so large that a Linear or Polynomial kernel value
// overflows to ±Inf or NaN (ErrData; a Gaussian value of rows infinitely
// far apart is 0, computed from their differences). NaN or ±Inf in data or in a parameter also wraps
// linalg.ErrNotFinite, so errors.Is(err, linalg.ErrNotFinite) tests for it
// as in every package of rkhs. Gram, Cross and NewRows never return a
// matrix with a non-finite value of this package's kernels. Data sets
// without rows are valid and give empty matrices. A Gram or cross matrix
// larger than the memory limit (see package rkhs) is not allocated: the
// error is a *linalg.MemoryError (linalg.ErrTooLarge).
//
// CheckDegenerate judges a kernel's width on a set of points: a kernel
// matrix numerically the identity or all ones is a *DegenerateError
// wrapping ErrDegenerate, a verdict rather than a failure, so that a caller
// can warn and go on.
//
// Destinations follow linalg's To contract: GramTo, CrossTo and the Rows
// methods BlockTo, MulTo, NormalMulTo and MulTransTo (and Widths' SharedTo
// and KernelTo) allocate an empty
// destination (nil or the zero Dense) and return it; a non-empty destination of the wrong shape, or a row range
// outside the matrix, is a programming error and panics with a message
// that starts with "kernels:". No function modifies its inputs. Results
// are bit-identical for any GOMAXPROCS.
package kernels
