package loo

import (
	"errors"

	"rkhs/linalg"
)

// DefaultMedianRows is the number of rows MedianSigma samples when
// maxPoints is 0: 1000 rows give 499,500 distances, about 1000²·d/2 flops
// and a sort of 4 MB, a few tens of milliseconds, whatever n is.
const DefaultMedianRows = 1000

// MedianSigma returns the median heuristic for the width σ of a Gaussian
// (or Laplacian) kernel: the median of the Euclidean distances ‖xᵢ − xⱼ‖
// between distinct rows of x (Schölkopf and Smola, "Learning with
// Kernels", 2002; the default of many kernel two-sample and kernel-ridge
// pipelines). It is SigmaGrid with the quantile 0.5: the middle of the
// sorted distances (the upper middle for an even count, no interpolation),
// zero distances (equal rows) left out.
//
// With more than maxPoints rows the distances are those of a uniform
// sample of maxPoints rows without replacement, drawn with seed (the draw
// of SigmaGrid: the same x, maxPoints and seed give the same σ); maxPoints
// = 0 means DefaultMedianRows. The cost is p²d/2 flops and a sort of
// p²/2 distances for p = min(n, maxPoints) rows, and as much memory for
// the distances. x is not modified.
//
// x should be the features as the kernel sees them: after any scaling
// that the model applies (standardization), since the heuristic is only
// as good as the distances are meaningful, and a feature measured in
// large units dominates them.
//
// Errors (InputErrors wrapping ErrInput): maxPoints negative or 1, x nil,
// malformed or with fewer than 2 rows, x with a NaN or ±Inf element (also
// linalg.ErrNotFinite), all sampled rows equal.
func MedianSigma(x *linalg.Dense, maxPoints int, seed uint64) (float64, error) {
	const op = "MedianSigma"
	switch {
	case maxPoints == 0:
		maxPoints = DefaultMedianRows
	case maxPoints < 2:
		return 0, inputError(op, "maxPoints", "%d, want 0 (the default, %d) or at least 2", maxPoints, DefaultMedianRows)
	}
	s, err := SigmaGrid(x, []float64{0.5}, maxPoints, seed)
	if err != nil {
		var ie *linalg.InputError
		if errors.As(err, &ie) { // SigmaGrid's errors, under this name
			c := *ie
			c.Op = op
			return 0, &c
		}
		return 0, err
	}
	return s[0], nil
}
