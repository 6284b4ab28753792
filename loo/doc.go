// Package loo computes exact leave-one-out errors of kernel regularized
// least squares for whole paths of the regularization parameter, and
// chooses the kernel width σ and λ by them: in memory from one
// eigendecomposition of the kernel matrix, or streamed over the rows of a
// Nyström fit at any n.
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
//     without an n×n matrix; and NystromPath (NewNystromPath,
//     UsableNystromPath), the same for data too large to hold: GCV for
//     every λ from regress.NystromStats, and the exact residuals of every
//     λ from one more streamed pass over the rows, mergeable across
//     goroutines, processes and machines.
//   - Selection: SelectRLS chooses σ and λ from one eigendecomposition per
//     σ; SelectNystrom chooses them at any n, two passes over the rows for
//     every σ of a grid at once (the Criterion: the leave-one-out MSE, the
//     leave-one-out error rate of classes, or GCV), on a σ grid around the
//     median distance between rows (MedianDistance, MedianDistanceOf in the
//     kernel's own norm). Every selection fills a Table and lets it choose
//     (Table.Best: one rule for ties and singular pairs), and Table.Facts
//     says what a user should hear about the choice (an edge of a grid, a
//     flat table). Grids of λ from the spectrum and of σ from pairwise
//     distances, and train/test and k-fold splits with a seed (Split draws
//     the same split as dataset.Data.Split), complete it.
//   - Length scales: ScaleObjective, the exact leave-one-out error (or
//     GCV) of a Nyström fit as a function of one Gaussian (or Laplacian)
//     length scale per feature and λ, with its gradient, in three
//     streamed, mergeable passes; SelectScales, which descends on it from a grid's isotropic
//     choice (automatic relevance determination), on rows in memory (Fit)
//     or on passes the caller runs elsewhere (Descend).
//
// # Reading the selection
//
// From `rkhs fit -method nystrom -sigma auto -lambda auto` to the chosen
// model, the computation reads in six files, in this order:
//
//  1. cmd/rkhs/choose.go: the command's choice of σ and λ (fitRun.choose
//     and fitRun.streamed), on features its driver has standardized: the
//     σ grid from the median distance, the centres
//     (regress.NystromCenters), the call of SelectNystrom.Fit;
//  2. loo/select_nystrom.go: SelectNystrom.Fit — the checks, the rows of a
//     leave-one-out subset, the passes for every σ at once or one σ at a
//     time, each σ's scores recorded in the table as they come;
//  3. loo/select_nystrom_shared.go: the two passes over the rows for every
//     σ, each block of distances computed once (kernels.Widths.Blocks) and
//     turned into each σ's kernel block;
//  4. regress/nystrom_stats_add.go: what the first pass folds each block
//     into, NystromStats.AddKernelRows (the statistics themselves are
//     stated in NystromStats's documentation);
//  5. loo/nystrom_path.go: the λ path of one σ — the ridge problem the
//     statistics define (NystromStats.Gram), one eigendecomposition, tr H
//     and GCV for every λ, the second pass's leave-one-out residuals
//     (streamPass.block, one screen, on the frame of
//     loo/nystrom_frame.go: the rows F = K_b·W − 1cᵀ, the residuals, the
//     hat diagonal), and the fit at the chosen λ;
//  6. loo/table.go: the choice, Table.Best, and Table.Facts.
//
// # Reading the length scales
//
// From `rkhs fit -method nystrom -sigma ard -lambda auto`, past the grid
// selection above that gives its start, the descent reads in ten files, in
// eight steps:
//
//  1. cmd/rkhs/choose.go: fitRun.descend, the command's call of
//     SelectScales.Fit from the grid's (σ₀, λ₀) on the same centres;
//  2. loo/scale_select.go: SelectScales — the box, the start, the
//     descent by optimize.LBFGS on J/J(θ₀), and the final fit on every
//     row;
//  3. loo/scale_evaluate.go: one evaluation of the objective and its
//     gradient, the three passes in order (scaleData.eval);
//  4. loo/scale_stats.go: ScaleObjective (the objective, the scaled
//     kernel) and pass 0, the statistics of the scaled rows;
//  5. loo/scale_path.go, then loo/nystrom_frame.go: the fit at one λ, the
//     frame the grid's λ path stands on too (the rows F = K_b·W − 1cᵀ,
//     the hat diagonal, the residuals), and the leave-one-out weights of
//     a row;
//  6. loo/scale_loo.go: pass A, the leave-one-out sums over S;
//  7. loo/scale_weights.go, then loo/scale_adjoint.go: the criterion's
//     weights (leave-one-out or GCV), the adjoint's matrices formed from
//     them in the frame (NewAdjoint), and pass B, the adjoint contracted
//     with the kernel's derivatives (kernels.Scaled);
//  8. optimize/lbfgs.go: the descent itself.
//
// docs/notes/ard-gradient.md derives every formula; the code cites its
// equations by number.
//
// "Exact" means equal to refitting without point i while keeping the full
// fit's penalty nλ (not rescaling it to (n−1)λ): that is the refit for which
// the identity (yᵢ − ŷᵢ)/(1 − Hᵢᵢ) holds, and the tests check it against n
// refits to 1e-9.
//
// λ enters as K + nλI, n the number of training rows, as everywhere in rkhs.
//
// # Mergeable sums
//
// The streamed quantities are sums over the rows, and every type that
// holds one — regress.NystromStats, NystromPath, ScaleStats, ScaleLOO and
// ScaleAdjoint — follows one protocol, so that shards of the rows can be
// summed on different goroutines, processes or machines:
//
//   - it is made from what the sums depend on (the statistics, λ, θ, the
//     pass-A sums), the same way on every worker: bit for bit the same
//     value, the computation being deterministic;
//   - Add adds a block of rows; Rows says how many were added; a failed
//     Add leaves the sums unchanged or, where a block is folded in as it
//     is computed (ScaleLOO, ScaleAdjoint), makes them unusable: every
//     later call returns that error (a sticky error) until decoding
//     resets them;
//   - Merge adds the sums of another value made the same way, for other
//     rows; the result depends on the grouping and order of the merges
//     only through rounding;
//   - MarshalBinary encodes the sums with a fingerprint of what they were
//     made from (sizes, parameters, a 64-bit FNV-1a hash of matrices too
//     large to carry); UnmarshalBinary into a value made the same way
//     replaces its sums, refuses the sums of anything else, and leaves the
//     value unchanged on error. Decoding the encoding of a fresh value
//     resets one, and merging two encodings is decoding one, decoding the
//     other into a second value and Merge.
//
// Each encoding is little-endian words and float64 bits after an 8-byte
// magic that names its type and version; its layout is stated beside its
// codec.
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
