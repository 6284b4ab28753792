// Package kernels holds positive definite kernel functions and the matrices
// built from them: the Gram matrix K[i][j] = k(xᵢ, xⱼ) of a data set, the
// cross matrix K[i][j] = k(xᵢ, zⱼ) between two sets (for prediction), and
// Rows, the same matrix kept implicit and produced a block of rows at a time
// (for iterative solvers and Nyström fits that must not hold n×n).
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
// Linear, Polynomial and Gaussian matrices are built from linalg.Syrk and
// linalg.Gemm; other kernels are evaluated pair by pair, in parallel blocks.
//
// Failure: invalid kernel parameters (ErrParameter, a Gaussian σ whose 2σ²
// underflows or overflows included) and NaN or ±Inf in the data, data sets
// with different numbers of columns, or data so large that a kernel value
// overflows to ±Inf or NaN (ErrData) are returned as errors that name the
// parameter or the element; Gram, Cross and NewRows never return a matrix
// with a non-finite value of this package's kernels. A destination
// of the wrong shape is a programming error and panics with a message that
// starts with "kernels:". No function modifies its inputs. Results are
// bit-identical for any GOMAXPROCS.
package kernels
