package interval

import "math"

// ranks returns the order statistics of Barber et al. for n residuals at
// level 1 − α: hi = ⌈(1−α)(n+1)⌉, the rank of the upper end, and
// lo = n + 1 − hi = ⌊α(n+1)⌋, the rank of the lower end. lo = 0 means the
// lower end is −∞ and hi = n + 1 that the upper end is +∞; both happen
// together, when level > n/(n+1).
//
// level·(n+1) is snapped to the nearest integer when it lies within a
// relative 1e-9 of it, so that the rounding of a decimal level (0.9·20 is
// 17.999999999999996 in float64) does not move a rank: level 0.9 at
// n = 19 gives hi = 18, as it does in exact arithmetic.
func ranks(n int, level float64) (lo, hi int) {
	b := level * float64(n+1)
	if r := math.Round(b); math.Abs(b-r) <= 1e-9*b {
		b = r
	}
	hi = int(math.Ceil(b))
	return n + 1 - hi, hi
}

// MaxLevel returns n/(n+1), the largest level whose intervals from n
// residuals are finite: above it the jackknife+ and CV+ intervals are the
// whole line (Intervals.Unbounded) and a label set holds every label
// (LabelSets.Unbounded). n = 20 rows reach 0.95 (20/21 = 0.952…) but not
// 0.99. It returns 0 for n < 1.
func MaxLevel(n int) float64 {
	if n < 1 {
		return 0
	}
	return float64(n) / float64(n+1)
}
