// Package decomp is the seam between packages regress and loo: the
// decompositions regress builds (the eigendecomposition behind
// regress.Spectral, the thin SVD behind regress.LinearPath, the Nyström
// feature map) and loo reads to compute leave-one-out residuals for whole
// paths. Package regress sets the functions below when it is initialized;
// loo, which imports regress, calls them. Users of rkhs see none of it, and
// the matrices are shared, never copied: callers must not modify them.
package decomp

import (
	"rkhs/kernels"
	"rkhs/linalg"
)

// Spectral is the state of a regress.Spectral: K = Q·diag(Sigma)·Qᵀ for
// the Gram matrix of the training points X, with the targets Y and their
// projections QᵀY and Qᵀ1.
type Spectral struct {
	Kernel kernels.Kernel
	X, Y   *linalg.Dense // n×d and n×q
	Sigma  []float64     // eigenvalues of K, ascending
	Q      *linalg.Dense // n×n, column i the eigenvector of Sigma[i]
	QtY    *linalg.Dense // QᵀY, n×q
	Qt1    []float64     // Qᵀ1
}

// LinearPath is the state of a regress.LinearPath: the thin SVD
// U·diag(S)·Vᵀ of X (centred, for a free intercept; with a column of ones
// appended, for a penalized one) and the projection of Y.
type LinearPath struct {
	Free  bool          // the intercept is free: X and Y were centred
	U     *linalg.Dense // n×r left singular vectors
	S     []float64     // r singular values, descending
	UtY   *linalg.Dense // UᵀY (r×q), of the centred Y for a free intercept
	Y     *linalg.Dense // the Y factored: centred for a free intercept (n×q)
	YMean []float64     // column means of Y, free intercept only
}

// NystromFeatures is the feature map of a Nyström fit: with L the Cholesky
// factor of K_mm (+ δI), the features B = K_nm·L⁻ᵀ (n×m), held as Bᵀ, turn
// the fit into ridge regression (K_nm·c = B·a with a = Lᵀc). For a
// penalized intercept both kernel matrices use the kernel k + 1.
type NystromFeatures struct {
	Bt      *linalg.Dense // Bᵀ = L⁻¹·K_nmᵀ, m×n (owned by the caller)
	L       *linalg.Dense // m×m, lower triangular
	Centers *linalg.Dense // the m centres (a copy)
	Indices []int         // rows of X used as centres (nil when given)
	Jitter  float64       // δ
}

// Set by package regress at initialization.
var (
	// SpectralOf returns the state of s, a *regress.Spectral, or nil for
	// a nil or zero Spectral.
	SpectralOf func(s any) *Spectral
	// LinearPathOf returns the state of lp, a *regress.LinearPath, or nil
	// for a nil or zero LinearPath.
	LinearPathOf func(lp any) *LinearPath
	// Features validates the configuration cfg, a regress.Nystrom, and
	// builds the feature map of the training points x (already checked:
	// valid, non-empty, finite) for the call op. λ is not used; errors are
	// those of regress.Nystrom.Fit.
	Features func(cfg any, op string, x *linalg.Dense) (*NystromFeatures, error)
)

// NystromStats is the state of a regress.NystromStats (see its
// documentation for the notation): the kernel and the m centres, L with
// L·Lᵀ = K_mm (+ δI), and the centred moments of the features
// bᵢ = L⁻¹k(xᵢ, C) of the n rows summarised.
type NystromStats struct {
	Kernel  kernels.Kernel
	Centers *linalg.Dense // m×d
	L       *linalg.Dense // m×m, lower triangular
	Jitter  float64       // δ
	N, Q    int           // rows summarised, outputs
	Mu      []float64     // μ, the mean feature (m)
	YBar    []float64     // ȳ (q)
	M       *linalg.Dense // Σ(bᵢ − μ)(bᵢ − μ)ᵀ, m×m, lower triangle
	C       *linalg.Dense // Σ(bᵢ − μ)(yᵢ − ȳ)ᵀ, m×q
	Syy     []float64     // Σ(yᵢ − ȳ)² (q)
}

// NystromStatsOf returns the state of s, a *regress.NystromStats, for the
// call op, factoring K_mm first if the statistics were decoded; its
// errors are those of NystromStats.Solve for the zero value, statistics of
// no rows, or a K_mm that cannot be factored. Set by package regress.
var NystromStatsOf func(s any, op string) (*NystromStats, error)

// NystromRows returns the functions that fold rows of K(X, C) into s, a
// *regress.NystromStats made by regress.NewNystromStats with no rows yet,
// for q outputs: add(kb, yb) takes the kernel rows kb (b×m, the values
// kernels.Rows gives for s's kernel and centres) and their outputs yb
// (b×q), done() ends the pass. Adding the rows of X in order, in blocks of
// any sizes, gives the statistics NystromStats.Add(X, Y) gives, bit for
// bit. The caller checks the shapes and the data. Set by package regress.
//
// work, if not nil, is the workspace the rows are folded in (m×NystromWork)
// instead of one of s's own, so that the statistics of several kernels
// filled block by block in turn can share one: every block but the last
// must then hold a multiple of NystromBatch rows, so that no rows are left
// in it between blocks; add folds the last, shorter one at once, and
// panics if rows follow it.
var NystromRows func(s any, q int, work *linalg.Dense) (add func(kb, yb *linalg.Dense), done func())

// NystromBatch is the number of rows NystromRows folds at a time, and
// NystromWork the columns of its workspace. Set by package regress.
var NystromBatch, NystromWork int
