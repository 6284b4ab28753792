package kernels

import (
	"errors"
	"fmt"
	"math"

	"rkhs/internal/check"
	"rkhs/linalg"
)

// ErrDegenerate: a kernel matrix that is numerically the identity or
// numerically all ones on the given points (see CheckDegenerate), so that
// a fit with it learns nothing of the data's shape.
var ErrDegenerate = errors.New("kernels: degenerate kernel matrix")

// Degeneracy is the way a kernel matrix is degenerate.
type Degeneracy int

const (
	// NearIdentity: every point is unrelated to every other, as with a
	// Gaussian or Laplacian σ far below the distances between the points.
	// A fit interpolates its training rows and predicts the intercept
	// everywhere else.
	NearIdentity Degeneracy = iota + 1
	// NearOnes: every point is the same as every other, as with a σ far
	// above the distances. The kernel matrix has numerical rank of a few,
	// and a fit is close to a constant or a low-degree polynomial.
	NearOnes
)

// String returns "near identity" or "near all ones".
func (d Degeneracy) String() string {
	switch d {
	case NearIdentity:
		return "near identity"
	case NearOnes:
		return "near all ones"
	}
	return fmt.Sprintf("Degeneracy(%d)", int(d))
}

// Thresholds of CheckDegenerate, on the normalized off-diagonal entries
// cᵢⱼ = K[i][j]/√(K[i][i]·K[j][j]).
const (
	// DegenerateIdentityBelow: the matrix is near the identity when every
	// |cᵢⱼ| is below it. For the Gaussian kernel, cᵢⱼ < 10⁻⁶ is a distance
	// above √(2·ln 10⁶)·σ ≈ 5.26σ between even the closest two points:
	// K + nλI then differs from (1 + nλ)I by less than the rounding of
	// a typical λ path, and the Nyström features of a new point are all
	// below 10⁻⁶ unless it lies on a centre.
	DegenerateIdentityBelow = 1e-6
	// DegenerateOnesAbove: the matrix is near all ones when every cᵢⱼ is
	// above it. For the Gaussian kernel, cᵢⱼ > 1 − 10⁻⁶ is a distance
	// below √2·10⁻³·σ between even the farthest two points: the
	// eigenvalues of K fall by about 10⁻⁶ from one to the next (K's
	// Taylor terms in (‖x − z‖/σ)²), so that in float64 K has rank three
	// or so whatever the number of points.
	DegenerateOnesAbove = 1 - 1e-6
)

// DegenerateError reports a kernel matrix that CheckDegenerate found
// numerically degenerate. It wraps ErrDegenerate.
type DegenerateError struct {
	Op   string     // the call, "CheckDegenerate"
	Kind Degeneracy // NearIdentity or NearOnes
	// Points is the number of points, Pairs the pairs of distinct points
	// compared, and Min and Max the smallest and largest normalized
	// off-diagonal entry cᵢⱼ among them (for NearIdentity, Max is the
	// largest |cᵢⱼ|).
	Points, Pairs int
	Min, Max      float64
}

// Error says which degeneracy and the extreme entry that decides it.
func (e *DegenerateError) Error() string {
	if e.Kind == NearIdentity {
		return fmt.Sprintf("%v: %s: the kernel matrix of %d points is numerically the identity: every off-diagonal entry is below %g (the largest is %.3g)",
			ErrDegenerate, e.Op, e.Points, DegenerateIdentityBelow, e.Max)
	}
	return fmt.Sprintf("%v: %s: the kernel matrix of %d points is numerically all ones: every off-diagonal entry is above 1 − %g (the smallest is 1 − %.3g)",
		ErrDegenerate, e.Op, e.Points, 1-DegenerateOnesAbove, 1-e.Min)
}

// Unwrap returns ErrDegenerate.
func (e *DegenerateError) Unwrap() error { return ErrDegenerate }

// CheckDegenerate reports whether the kernel matrix K of the rows of
// points (m×d; the centres of a Nyström fit, or a sample of the training
// rows) is numerically degenerate, the mark of a kernel width far from the
// scale of the data. With the normalized entries
// cᵢⱼ = K[i][j]/√(K[i][i]·K[j][j]) (K[i][j] itself for the Gaussian and
// Laplacian kernels, whose diagonal is 1), over the pairs i < j of
// points that are not equal:
//
//   - every |cᵢⱼ| < DegenerateIdentityBelow (10⁻⁶): NearIdentity;
//   - every cᵢⱼ > DegenerateOnesAbove (1 − 10⁻⁶): NearOnes.
//
// Both thresholds ask for every pair, so a verdict is never a matter of
// a few outlying points; a σ that passes may still be a poor one, which
// leave-one-out (package loo) measures. Pairs of equal rows are left
// out, since their kernel value does not depend on the kernel's width, and
// so are pairs with a point whose K[i][i] is not positive (a linear kernel
// at the zero vector). For kernels without a width (Linear, Polynomial)
// the test still has its meaning — the points look orthogonal or
// parallel to the kernel — but orthogonal rows (one-hot data) may be the
// data's own shape rather than a bad parameter.
//
// It returns nil when K is not degenerate, and a *DegenerateError
// (wrapping ErrDegenerate) when it is; errors.Is(err, ErrDegenerate)
// tests for the verdict and errors.As gives its details. The cost is that
// of Gram (m²d flops, one m×m matrix) and m²d/2 comparisons; points is not
// modified. It is safe for concurrent use.
//
// Errors (*linalg.InputError values) as Gram's: ErrParameter for a nil
// kernel or invalid parameters, ErrData for points nil, malformed or not
// finite (also linalg.ErrNotFinite) or whose kernel values overflow; and
// ErrData for fewer than two distinct points, on which no width can be
// judged; a *linalg.MemoryError (linalg.ErrTooLarge) before allocating K.
func CheckDegenerate(k Kernel, points *linalg.Dense) error {
	const op = "CheckDegenerate"
	if err := check.Data(ErrData, op, "points", points, 0); err != nil {
		return err
	}
	g, err := gramTo(op, nil, k, points, linalg.Lower)
	if err != nil {
		return err
	}
	m := points.Rows
	e := DegenerateError{Op: op, Points: m, Min: math.Inf(1), Max: math.Inf(-1)}
	maxAbs := 0.0
	for i := 0; i < m; i++ {
		gi, xi := g.Row(i), points.Row(i)
		for j := 0; j < i; j++ {
			kii, kjj := gi[i], g.At(j, j)
			if !(kii > 0 && kjj > 0) || equalRows(xi, points.Row(j)) {
				continue
			}
			c := gi[j]
			if kii != 1 || kjj != 1 {
				c /= math.Sqrt(kii) * math.Sqrt(kjj)
			}
			e.Pairs++
			e.Min, e.Max = min(e.Min, c), max(e.Max, c)
			maxAbs = max(maxAbs, math.Abs(c))
		}
	}
	switch {
	case e.Pairs == 0:
		return check.Input(ErrData, op, "points", "fewer than two distinct points with k(x, x) > 0 among %d: no width can be judged", m)
	case maxAbs < DegenerateIdentityBelow:
		e.Kind, e.Max = NearIdentity, maxAbs
		return &e
	case e.Min > DegenerateOnesAbove:
		e.Kind = NearOnes
		return &e
	}
	return nil
}

// equalRows reports whether a and b hold equal values (−0 equals +0).
func equalRows(a, b []float64) bool {
	for k, v := range a {
		if v != b[k] {
			return false
		}
	}
	return true
}
