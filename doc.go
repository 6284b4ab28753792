// Package rkhs is regularized least squares in a reproducing kernel Hilbert
// space, and the family of kernel methods around it, in pure Go with no
// dependencies beyond the standard library.
//
// The module is organised in layers:
//
//   - [rkhs/linalg]: dense linear algebra written for this module — blocked,
//     packed matrix multiply (GEMM, SYRK) with goroutine parallelism, blocked
//     Cholesky factorization and triangular solves.
//   - [rkhs/kernels]: kernel functions and Gram matrices.
//   - [rkhs/regress]: kernel regularized least squares and spectral filters.
//   - [rkhs/classify]: kernel classifiers.
//   - [rkhs/loo]: leave-one-out errors and parameter selection.
//
// Conventions shared by every package: matrices are row-major (see
// [rkhs/linalg.Dense]); the regularization parameter λ enters as K + nλI,
// where n is the number of training rows; results do not depend on the
// number of goroutines (GOMAXPROCS): the same inputs give bit-identical
// outputs.
package rkhs
