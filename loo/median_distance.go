package loo

import (
	"fmt"
	"math"
	"slices"

	"rkhs/internal/center"
	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
)

// DefaultMedianRows is the number of rows MedianDistance samples when
// maxPoints is 0: 1000 rows give 499,500 distances, about 1000²·d/2 flops
// and a sort of 4 MB, a few tens of milliseconds, whatever n is.
const DefaultMedianRows = 1000

// Norm is the distance between rows whose median MedianDistance takes:
// the distance a radial kernel applies its width σ to.
type Norm int

const (
	// L2 is the Euclidean distance ‖x − z‖₂ = √Σₖ(xₖ − zₖ)², the distance
	// of the Gaussian kernel exp(−‖x − z‖₂²/(2σ²)).
	L2 Norm = iota
	// L1 is the 1-norm distance ‖x − z‖₁ = Σₖ|xₖ − zₖ|, the distance of
	// the Laplacian kernel exp(−‖x − z‖₁/σ). On d features it is between
	// 1 and √d times the Euclidean one (√d when the rows differ equally
	// in every feature), so the Euclidean median is no width for it.
	L1
)

// String returns "L2" or "L1".
func (n Norm) String() string {
	switch n {
	case L2:
		return "L2"
	case L1:
		return "L1"
	}
	return fmt.Sprintf("Norm(%d)", int(n))
}

// NormOf returns the distance the kernel k applies its width to: L2 for
// kernels.Gaussian, L1 for kernels.Laplacian, whatever their σ (the zero
// value will do). Other kernels have no width: an ErrInput InputError.
func NormOf(k kernels.Kernel) (Norm, error) {
	switch k.(type) {
	case kernels.Gaussian:
		return L2, nil
	case kernels.Laplacian:
		return L1, nil
	}
	return 0, inputError("NormOf", "k", "%T has no width σ to take a median distance for (want kernels.Gaussian or kernels.Laplacian)", k)
}

// medianMargin is the factor around the median within which every width
// must suit the Gaussian kernel (see MedianDistance): wide enough for the
// grids of widths a median heuristic starts (rkhs uses the median × 1/4
// to 4), so that a grid built from a median that passes does not fail
// later.
const medianMargin = 16

// MedianDistance returns the median heuristic for the width σ of the
// radial kernel whose distance is norm (see NormOf): the median of the
// distances between distinct rows of x. It is the middle of the sorted
// distances (the upper middle for an even count, no interpolation), zero
// distances (equal rows) left out; with L2 it is DistanceQuantiles's quantile 0.5.
//
// With more than maxPoints rows the distances are those of a uniform
// sample of maxPoints rows without replacement, drawn with seed (the draw
// of DistanceQuantiles and MedianRows: the same x, maxPoints and seed give the same σ); maxPoints
// = 0 means DefaultMedianRows. The cost is p²d/2 flops and a sort of
// p²/2 distances for p = min(n, maxPoints) rows, and as much memory for
// the distances. x is not modified.
//
// The distances are formed on the sampled rows divided by a power of two
// near their largest magnitude when that lies outside 2^±400 (about
// 1e±120), so the median is right whenever it is a float64: it neither
// overflows for features of 1e200 nor underflows to "all rows equal" for
// features of 1e-200; for ordinary data the distances are the plain sums,
// bit for bit.
//
// x should be the features as the kernel sees them: after any scaling
// that the model applies (standardization), since the heuristic is only
// as good as the distances are meaningful, and a feature measured in
// large units dominates them.
//
// The Gaussian kernel cannot use every median: kernels.Gaussian.Validate
// refuses a σ whose 2σ² overflows (above about 9.5e153) or whose
// 1/(2σ²) does (below about 5.3e-155). With L2, a median m for which a
// width between m/16 and 16m would be refused — m above about 5.9e152 or
// below about 8.4e-154, from features of magnitude about 1e152 and more
// or 1e-153 and less — is an error that says so, rather than a median
// whose grid of widths fails later: such features must be standardized
// (kernels.Standardization) before the kernel. L1's median is returned
// whatever its size (the Laplacian kernel accepts every positive finite
// σ), but for one beyond the float64 range (features near ±MaxFloat64),
// an error for either norm.
//
// Errors (InputErrors wrapping ErrInput): maxPoints negative or 1, a norm
// other than L2 and L1, x nil, malformed or with fewer than 2 rows, x with
// a NaN or ±Inf element (also linalg.ErrNotFinite), all sampled rows
// equal, a median that overflows float64, a median the Gaussian kernel
// cannot use (L2, see above).
func MedianDistance(x *linalg.Dense, norm Norm, maxPoints int, seed uint64) (float64, error) {
	return medianDistance("MedianDistance", x, norm, maxPoints, seed)
}

// DistanceQuantiles returns the given quantiles (in [0, 1]) of the Euclidean
// distances between pairs of rows of x — candidate widths for a Gaussian
// kernel at the data's own scale (for a Laplacian kernel, whose distance
// is the 1-norm, see MedianDistance). With more than maxPoints rows, a
// uniform sample of maxPoints rows (seeded) is used; the quantiles of the
// m(m−1)/2 pairwise distances are then taken by sorting. Zero distances
// (duplicate rows) are left out. The distances are formed on the rows
// divided by a power of two near their largest magnitude when that lies
// outside 2^±400, so the widths are right whenever they are float64
// values: finite for features of 1e300, not zero for features of 1e-300
// (see MedianDistance, which also refuses a median the Gaussian kernel
// cannot use; DistanceQuantiles does not).
//
// Errors (InputErrors wrapping ErrInput): x nil, malformed or with fewer
// than 2 rows, x with a NaN or ±Inf element or a NaN quantile (also
// linalg.ErrNotFinite), a quantile outside [0, 1], all rows equal.
func DistanceQuantiles(x *linalg.Dense, quantiles []float64, maxPoints int, seed uint64) ([]float64, error) {
	return distanceQuantiles("DistanceQuantiles", x, L2, quantiles, maxPoints, seed)
}

// medianDistance is MedianDistance under the name op.
func medianDistance(op string, x *linalg.Dense, norm Norm, maxPoints int, seed uint64) (float64, error) {
	switch {
	case maxPoints == 0:
		maxPoints = DefaultMedianRows
	case maxPoints < 2:
		return 0, inputError(op, "maxPoints", "%d, want 0 (the default, %d) or at least 2", maxPoints, DefaultMedianRows)
	}
	s, err := distanceQuantiles(op, x, norm, []float64{0.5}, maxPoints, seed)
	if err != nil {
		return 0, err
	}
	m := s[0]
	if math.IsInf(m, 1) {
		return 0, inputError(op, "X", "the median distance between rows overflows float64: standardize the features (theirs come near ±%.3g)", math.MaxFloat64)
	}
	if norm == L2 {
		// Gaussian.Validate refuses σ ≥ 1 only for 2σ² overflowing, and
		// σ < 1 only for 1/(2σ²) overflowing.
		switch {
		case m >= 1 && (kernels.Gaussian{Sigma: m * medianMargin}).Validate() != nil:
			return 0, inputError(op, "X", "the median distance between rows, %.3g, is too large for the width of a Gaussian kernel: 2σ² overflows for σ up to %d times it: standardize the features (theirs are of magnitude 1e152 or more)", m, medianMargin)
		case m < 1 && (kernels.Gaussian{Sigma: m / medianMargin}).Validate() != nil:
			return 0, inputError(op, "X", "the median distance between rows, %.3g, is too small for the width of a Gaussian kernel: 1/(2σ²) overflows for σ down to 1/%d of it: standardize the features (theirs are of magnitude 1e-153 or less)", m, medianMargin)
		}
	}
	return m, nil
}

// distanceQuantiles returns the given quantiles (each checked to lie in
// [0, 1]) of the distances of norm between pairs of rows of x, or of a
// seeded sample of maxPoints of them (maxPoints ≥ 2 and fewer rows than
// x has), zero distances left out, as DistanceQuantiles documents; op names the
// caller in errors. The sampled rows are divided by center.Unit of their
// largest magnitude when it is not 1.
func distanceQuantiles(op string, x *linalg.Dense, norm Norm, quantiles []float64, maxPoints int, seed uint64) ([]float64, error) {
	if norm != L2 && norm != L1 {
		return nil, inputError(op, "norm", "%v, want L2 or L1", norm)
	}
	if err := check.Data(ErrInput, op, "X", x, 2); err != nil {
		return nil, err
	}
	n := x.Rows
	if err := check.Vector(ErrInput, op, "quantiles", quantiles); err != nil {
		return nil, err
	}
	for j, q := range quantiles {
		if !(q >= 0 && q <= 1) {
			return nil, inputError(op, fmt.Sprintf("quantiles[%d]", j), "%v, outside [0, 1]", q)
		}
	}
	rows := sampleIndex(n, maxPoints, seed)
	var mx float64
	for _, i := range rows {
		for _, v := range x.Row(i) {
			mx = max(mx, math.Abs(v))
		}
	}
	pts := x
	u := center.Unit(mx)
	if u != 1 {
		// The sampled rows in units of u, in the sample's order.
		pts = linalg.NewDense(len(rows), x.Cols, nil)
		for a, i := range rows {
			for k, v := range x.Row(i) {
				pts.Set(a, k, v/u)
			}
			rows[a] = a
		}
	}
	var d []float64
	for a := 0; a < len(rows); a++ {
		xa := pts.Row(rows[a])
		for b := a + 1; b < len(rows); b++ {
			var s float64
			xb := pts.Row(rows[b])
			xb = xb[:len(xa)]
			if norm == L1 {
				for k, v := range xb {
					s += math.Abs(v - xa[k])
				}
			} else {
				for k, v := range xb {
					t := v - xa[k]
					s += t * t
				}
			}
			if s > 0 {
				d = append(d, s)
			}
		}
	}
	if len(d) == 0 {
		return nil, inputError(op, "X", "all rows are equal")
	}
	slices.Sort(d)
	out := make([]float64, len(quantiles))
	for j, q := range quantiles {
		s := d[int(math.Round(q*float64(len(d)-1)))]
		if norm == L2 {
			s = math.Sqrt(s)
		}
		out[j] = s * u
	}
	return out, nil
}
