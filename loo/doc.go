// Package loo computes leave-one-out errors of kernel regularized least
// squares for whole paths of the regularization parameter from one
// eigendecomposition of the kernel matrix, and selects parameters by
// leave-one-out, hold-out or k-fold cross-validation.
//
// Rifkin's observation is the starting point: once K = QΛQᵀ is known, the
// leave-one-out residuals of RLS for any λ are cᵢ/(G⁻¹)ᵢᵢ with
// G = K + nλI, O(n²) per λ instead of n refits. This package extends it:
//
//   - RLS: exact residuals for no intercept, a free (unpenalized) intercept
//     and a penalized one, for a whole list of λ, several outputs at once.
//   - Filters: hat-matrix residuals (yᵢ − ŷᵢ)/(1 − Hᵢᵢ) and GCV for every
//     spectral filter of package regress (exact for Tikhonov, the usual
//     approximation for the others).
//   - Nystrom: exact residuals of the subset-of-regressors fit in O(nm²),
//     without an n×n matrix.
//   - Selection: grids of λ from the spectrum and of σ from pairwise
//     distances, hold-out and k-fold splits with a seed, and SelectRLS,
//     which returns the best (σ, λ) with the whole score table.
//
// "Exact" means equal to refitting without point i while keeping the full
// fit's penalty nλ (not rescaling it to (n−1)λ): that is the refit for which
// the identity (yᵢ − ŷᵢ)/(1 − Hᵢᵢ) holds, and the tests check it against n
// refits to 1e-9.
//
// λ enters as K + nλI, n the number of training rows, as everywhere in rkhs.
// Errors about the arguments wrap ErrInput (leave-one-out needs at least 2
// points); a parameter at which the system is numerically singular, so that
// a residual or score would come out NaN or ±Inf from finite input, gives an
// error that names it and wraps linalg.ErrNotPositiveDefinite. Nothing here
// panics on data; the grid and split helpers panic, as documented, on
// impossible sizes.
package loo
