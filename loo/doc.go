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
//     distances, train/test and k-fold splits with a seed (Split draws
//     the same split as dataset.Data.Split), and SelectRLS, which returns
//     the best (σ, λ) with the whole score table.
//   - Length scales: ScaleObjective, the exact leave-one-out error (or
//     GCV) of a Nyström fit as a function of one Gaussian length scale
//     per feature and λ, with its gradient, in three streamed, mergeable
//     passes; SelectScales, which descends on it from a grid's isotropic
//     choice (automatic relevance determination).
//
// "Exact" means equal to refitting without point i while keeping the full
// fit's penalty nλ (not rescaling it to (n−1)λ): that is the refit for which
// the identity (yᵢ − ŷᵢ)/(1 − Hᵢᵢ) holds, and the tests check it against n
// refits to 1e-9.
//
// λ enters as K + nλI, n the number of training rows, as everywhere in rkhs.
//
// # Failure
//
// Errors about the arguments are *linalg.InputError values wrapping
// ErrInput that name the call and the argument: a nil or zero
// regress.Spectral or regress.LinearPath, an empty or invalid parameter
// list, nil, malformed or non-finite data, fewer than 2 points (leaving one
// out of one point leaves nothing to fit). NaN or ±Inf, in data or in a
// parameter, also wraps linalg.ErrNotFinite. A parameter at which the
// system is numerically singular, so that a residual or score would come
// out NaN or ±Inf from finite input, gives an error that names it and wraps
// linalg.ErrNotPositiveDefinite (a failed computation, not bad input).
// A path whose work matrices would exceed the memory limit returns a
// *linalg.MemoryError (linalg.ErrTooLarge) before allocating them.
//
// Nothing here panics on data or on a nil or malformed argument. The index
// and grid helpers Geometric, Split, KFold and Complement take sizes and
// fractions that are constants of a program, not data, and panic, as
// documented, on impossible ones (count < 1, k > n, a fraction outside
// [0, 1]), as make does on a negative size.
package loo
