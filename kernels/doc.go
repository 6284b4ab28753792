// Package kernels holds positive definite kernel functions — linear,
// polynomial, Gaussian and Laplacian — and builds Gram matrices
// K[i][j] = k(xᵢ, xⱼ) and cross-kernel matrices from row-major data, in
// parallel blocks on top of the matrix products of rkhs/linalg.
//
// Conventions: data sets are row-major, one example per row; the Gaussian
// kernel is exp(−‖x−z‖²/(2σ²)).
package kernels
