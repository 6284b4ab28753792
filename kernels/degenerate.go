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
	// DegenerateIdentityBelow: point i sees no other point when every
	// |cᵢⱼ| of its row is below it. For the Gaussian kernel, cᵢⱼ < 10⁻⁶ is
	// a distance above √(2·ln 10⁶)·σ ≈ 5.26σ to even its nearest
	// neighbour: the Nyström features of a new point near it are all
	// below 10⁻⁶ unless it lies on a centre.
	DegenerateIdentityBelow = 1e-6
	// DegenerateOnesAbove: point i is one with the others when more than
	// half of the cᵢⱼ of its row are above it. For the Gaussian kernel,
	// cᵢⱼ > 1 − 10⁻⁶ is a distance below √2·10⁻³·σ: the eigenvalues of
	// such a block fall by about 10⁻⁶ from one to the next (K's Taylor
	// terms in (‖x − z‖/σ)²), so that in float64 it has rank three or so.
	DegenerateOnesAbove = 1 - 1e-6
	// DegenerateShare: the matrix is degenerate when at least this share
	// of the points sees no other point (NearIdentity) or is one with the
	// others (NearOnes). A share, not every point, so that a few close
	// pairs among far-apart points (or a few outliers among points a σ
	// sees as one) do not hide what the kernel does to most of the data.
	DegenerateShare = 0.5
)

// DegenerateError reports a kernel matrix that CheckDegenerate found
// numerically degenerate. It wraps ErrDegenerate.
type DegenerateError struct {
	Op   string     // the call, "CheckDegenerate"
	Kind Degeneracy // NearIdentity or NearOnes
	// Points is the number of points judged (those with K[i][i] > 0 and
	// another point not equal to them), Alike how many of them are
	// isolated (NearIdentity) or one with the others (NearOnes), Pairs the
	// pairs of distinct points compared, and Min and Max the smallest and
	// largest normalized off-diagonal entry cᵢⱼ among them (for
	// NearIdentity, Max is the largest |cᵢⱼ|).
	Points, Alike, Pairs int
	Min, Max             float64
}

// Error says which degeneracy, how many points show it, and the extreme
// entry.
func (e *DegenerateError) Error() string {
	if e.Kind == NearIdentity {
		return fmt.Sprintf("%v: %s: the kernel matrix of %d points is numerically the identity: %d of them have every off-diagonal entry below %g (the largest entry is %.3g)",
			ErrDegenerate, e.Op, e.Points, e.Alike, DegenerateIdentityBelow, e.Max)
	}
	return fmt.Sprintf("%v: %s: the kernel matrix of %d points is numerically all ones: %d of them have most off-diagonal entries above 1 − %g (the smallest entry is 1 − %.3g)",
		ErrDegenerate, e.Op, e.Points, e.Alike, 1-DegenerateOnesAbove, 1-e.Min)
}

// Unwrap returns ErrDegenerate.
func (e *DegenerateError) Unwrap() error { return ErrDegenerate }

// CheckDegenerate reports whether the kernel matrix K of the rows of
// points (m×d; the centres of a Nyström fit, or a sample of the training
// rows) is numerically degenerate, the mark of a kernel width far from the
// scale of the data. With the normalized entries
// cᵢⱼ = K[i][j]/√(K[i][i]·K[j][j]) (K[i][j] itself for the Gaussian and
// Laplacian kernels, whose diagonal is 1), over the pairs of points that
// are not equal:
//
//   - at least DegenerateShare (half) of the points have every |cᵢⱼ| of
//     their row below DegenerateIdentityBelow (10⁻⁶): NearIdentity;
//   - at least half of the points have more than half of their cᵢⱼ above
//     DegenerateOnesAbove (1 − 10⁻⁶): NearOnes.
//
// A verdict is about most of the points, never a few outlying ones; a σ
// that passes may still be a poor one, which leave-one-out (package loo)
// measures. Pairs of equal rows are left
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
// of Gram (m²d flops, one m×m matrix) and m²d comparisons; points is not
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
	e := DegenerateError{Op: op, Min: math.Inf(1), Max: math.Inf(-1)}
	maxAbs := 0.0
	isolated, merged := 0, 0
	for i := 0; i < m; i++ {
		kii, xi := g.At(i, i), points.Row(i)
		if !(kii > 0) {
			continue
		}
		rowMax, near, seen := 0.0, 0, 0
		for j := 0; j < m; j++ {
			// The lower triangle holds K: entry (i, j) for j < i, (j, i) after.
			kjj := g.At(j, j)
			if j == i || !(kjj > 0) || equalRows(xi, points.Row(j)) {
				continue
			}
			c := g.At(max(i, j), min(i, j))
			if kii != 1 || kjj != 1 {
				c /= math.Sqrt(kii) * math.Sqrt(kjj)
			}
			seen++
			rowMax = max(rowMax, math.Abs(c))
			if c > DegenerateOnesAbove {
				near++
			}
			if j < i {
				e.Pairs++
				e.Min, e.Max = min(e.Min, c), max(e.Max, c)
				maxAbs = max(maxAbs, math.Abs(c))
			}
		}
		if seen == 0 {
			continue
		}
		e.Points++
		if rowMax < DegenerateIdentityBelow {
			isolated++
		}
		if 2*near > seen {
			merged++
		}
	}
	share := func(k int) bool { return float64(k) >= DegenerateShare*float64(e.Points) }
	switch {
	case e.Pairs == 0:
		return check.Input(ErrData, op, "points", "fewer than two distinct points with k(x, x) > 0 among %d: no width can be judged", m)
	case share(isolated):
		e.Kind, e.Max, e.Alike = NearIdentity, maxAbs, isolated
		return &e
	case share(merged):
		e.Kind, e.Alike = NearOnes, merged
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
