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

// Spectral is the state of a regress.Spectral: K = Q·diag(Eigenvalues)·Qᵀ for
// the Gram matrix of the training points X, with the targets Y and their
// projections QᵀY and Qᵀ1.
type Spectral struct {
	Kernel      kernels.Kernel
	X, Y        *linalg.Dense // n×d and n×q
	Eigenvalues []float64     // eigenvalues of K, ascending
	Q           *linalg.Dense // n×n, column i the eigenvector of Eigenvalues[i]
	QtY         *linalg.Dense // QᵀY, n×q
	Qt1         []float64     // Qᵀ1
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
