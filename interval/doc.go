// Package interval says how far to trust each prediction of a kernel RLS
// fit: prediction intervals by jackknife+ and CV+ (Barber, Candès, Ramdas
// and Tibshirani, "Predictive inference with the jackknife+", Annals of
// Statistics 49(1), 2021), conformal label sets for classes, and the
// Gaussian-process posterior standard deviation, all from the exact
// leave-one-out (or leave-fold-out) models of the fit — closed forms of
// the factorization the fit already made, never refits.
//
// It sits beside package loo and reads after it: loo gives the exact
// leave-one-out residuals of a fit, and this package turns the same
// identities into the n leave-one-out models themselves, evaluated at new
// points. It uses regress and loo through their exported API (and the
// factorizations of regress through rkhs/internal/decomp, as loo does).
//
// # The intervals
//
// Let μ̂₋ᵢ be the model fitted without row i and Rᵢ = |yᵢ − μ̂₋ᵢ(xᵢ)| its
// leave-one-out residual. At level 1 − α the jackknife+ interval at a
// test point x is
//
//	lower = the ⌊α(n+1)⌋-th smallest of {μ̂₋ᵢ(x) − Rᵢ}   (−∞ when that rank is 0)
//	upper = the ⌈(1−α)(n+1)⌉-th smallest of {μ̂₋ᵢ(x) + Rᵢ}   (+∞ when that rank exceeds n)
//
// over i = 1…n. CV+ with K folds is the same with μ̂₋ₖ₍ᵢ₎, the model fitted
// without the fold k(i) that holds row i, in place of μ̂₋ᵢ, and Rᵢ its
// residual at xᵢ. Both ranks are infinite together, when
// 1 − α > n/(n+1) (MaxLevel): n = 20 rows cannot give a finite interval
// at 0.99, and Intervals.Unbounded says so. The quantiles are found by
// selection (Hoare's, expected O(n) per test point and output), not by
// sorting n values.
//
// The guarantee (Barber et al., Theorems 1 and 4): if the n training rows
// and the test row are exchangeable and the fitting method treats its
// rows symmetrically, the test target lies in its interval with
// probability at least 1 − 2α for the jackknife+ and, for CV+ with K folds
// of n/K rows each, at least
//
//	1 − 2α − min{2(1 − 1/K)/(n/K + 1), (1 − K/n)/(K + 1)}  >  1 − 2α − √(2/n)
//
// (the two terms multiply to less than 2/n, so the smaller is below
// √(2/n) whatever K; at K = n the second is 0, and CV+ is the jackknife+).
// Folds whose sizes differ by one, as Folds draws when K does not divide
// n, are outside the theorem as stated, and the extra term is then a
// guide. In practice the coverage is about 1 − α. The method here is
// kernel RLS at a fixed kernel and a fixed λ, which is symmetric. What breaks the guarantee is choosing
// σ or λ on the same rows — by their leave-one-out error, as loo.SelectRLS
// and the command's -lambda auto do: the fit then depends on every row
// through the choice, the leave-one-out models do not repeat it, and the
// residuals Rᵢ are those of a model tuned to them (usually too small by a
// little). The honest variant chooses inside each fold: RLSCVChosen,
// NystromCVChosen and FoldStats.Choose make each fold model by the
// selection's own rule on the rows outside its fold alone (loo.SelectRLS
// on that fold's eigendecompositions; for Nyström the λ path of the merge
// of the other folds' statistics), so that the method "choose, then
// fit" is the symmetric method the theorem asks for, and CV.Choices
// reports every fold's pair. Intervals from a λ chosen on all rows
// should be reported as such. On synthetic data with Gaussian noise
// (TestCoverage's problem, 1000 draws of 39 rows, 13 folds, level 0.8;
// the test runs 250) both cover within three standard errors of the
// rank's 0.8 — 0.791 ± 0.005 at the λ chosen on all rows, 0.808 ± 0.005
// with λ chosen in each fold — so
// the difference the choice makes is small there; only the second is
// guaranteed.
//
// # Streamed CV+
//
// For rows that never sit in memory together, FoldStats sums one
// regress.NystromStats per fold in one pass (row i's fold drawn from the
// seed and i alone, StreamFold, so that shards agree), FoldStats.Models
// or Choose makes each fold model from the merge of the other folds'
// statistics — exactly the Nyström fit without that fold, to rounding —
// and a second pass (FoldFits.Pass, CVPass) keeps each row's held-out
// residual, 8 bytes a row and output. Memory O(K·m² + n), checked before
// allocating; both passes shard and merge.
//
// # One fit and its intervals
//
// Spec.Build is the whole of it for a caller that fits one model: the
// method (DefaultMethod: jackknife+ for rows in memory, CV+ for streamed
// ones; CVPlusFold for the choice inside each fold), the level and K
// checked before anything is fitted (CheckLevel, Reach), then the model
// and its intervals from one factorization. The model it hands back
// (Fitted.Model) is the one to save, so nothing is fitted twice; label
// sets by jackknife+ or CV+ (ClassifyRLSCV, ClassifyNystromCV) come the
// same way.
//
// # The leave-one-out models
//
// Every fit here is a linear smoother, μ̂(x) = Σᵢ wᵢ(x)·yᵢ, from penalized
// least squares whose penalty does not depend on the rows: the model
// without row i keeps the penalty nλ of the full fit (in its own
// convention, λ·n/(n−1)), as package loo's exact residuals do. Then the
// fit without row i is the full fit with yᵢ replaced by μ̂₋ᵢ(xᵢ) (the
// minimiser of the n − 1 terms also minimises the n terms with that
// target, whose own term it makes zero), so that, with eᵢ = yᵢ − μ̂₋ᵢ(xᵢ),
//
//	μ̂₋ᵢ(x) = μ̂(x) − wᵢ(x)·eᵢ
//
// for every x. The same argument for a fold F of rows gives
// μ̂₋F(x) = μ̂(x) − Σ_{i∈F} wᵢ(x)·e_{F,i} with e_F = (I − H_FF)⁻¹(y_F − μ̂(X_F)),
// H_FF the block of the hat matrix on F. Each constructor states its
// weights w(x) for the three intercept modes of regress.Intercept.
//
// # Gaussian-process variance
//
// The fit is also the posterior mean of a Gaussian process with
// covariance k and noise variance nλ (the same w(x)): with G = K + nλI,
// its posterior variance at x is
//
//	k(x, x) − k(x)ᵀG⁻¹k(x) + (1 − uᵀk(x))²/s',   u = G⁻¹1, s = 1ᵀu,
//
// with no last term without an intercept, s' = s for a free intercept
// (a constant with a flat prior: Rasmussen and Williams, "Gaussian
// Processes for Machine Learning", 2006, §2.7) and s' = 1 + s for a
// penalized one (the kernel k + 1: a constant with a standard normal
// prior). Intervals.StdDev is its square root, the uncertainty of f(x),
// not of a new target (which adds nλ to the variance). For Nyström it is
// the variance of the subset-of-regressors approximation
// (Quiñonero-Candela and Rasmussen, "A unifying view of sparse
// approximate Gaussian process regression", 2005), which is small far
// from the centres. Unlike the intervals it assumes the model: its scale
// is that of k, so it means something as a width only when k(x, x) was
// chosen for the targets.
//
// # Conventions
//
// λ enters as K + nλI, n the number of training rows, as everywhere in
// rkhs; a level is 1 − α, strictly between 0 and 1 (0.9 for 90 %
// intervals). Results are bit-identical for any GOMAXPROCS: the test rows
// are split over goroutines statically, each computed alone.
//
// # Failure
//
// Errors about the arguments are *linalg.InputError values wrapping
// ErrInput that name the call and the argument (those the fit reports
// also wrap regress.ErrInput or loo.ErrInput); NaN or ±Inf also wrap
// linalg.ErrNotFinite. A level the rows cannot reach is not an error (see
// above). Work matrices beyond the memory limit are refused before they
// are allocated with a *linalg.MemoryError (linalg.ErrTooLarge). Nothing
// here panics on data or on a nil or malformed argument.
package interval
