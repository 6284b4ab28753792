package cli

import (
	"errors"
	"strconv"
	"strings"

	"rkhs/loo"
)

// MaxGridValues bounds the COUNT of a grid MIN:MAX:COUNT. A selection
// keeps several tables of COUNT values a width (scores, GCV, tr H,
// standard errors) and a path of m·COUNT values a width; ten thousand
// values already resolve λ to a few thousandths of a decade over twenty
// decades, and a larger COUNT is a typing error, not a wish.
const MaxGridValues = 10_000

// Grid reads MIN:MAX:COUNT, the value of the flag -name, into COUNT values
// spaced geometrically from MIN to MAX (loo.Geometric). It refuses, as
// bad input naming the flag: another shape, a part that is not a number,
// MIN ≤ 0, MAX < MIN, MAX above 1e300 (the kernel's 2σ² and nλ must stay
// finite), COUNT < 1 or above MaxGridValues, COUNT = 1 with MAX ≠ MIN
// (the grid would silently drop MAX) and COUNT > 1 with MAX = MIN (every
// value the same).
func Grid(name, s string) ([]float64, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return nil, BadInputf("-%s %q: want MIN:MAX:COUNT", name, s)
	}
	lo, err1 := strconv.ParseFloat(parts[0], 64)
	hi, err2 := strconv.ParseFloat(parts[1], 64)
	count64, err3 := strconv.ParseInt(parts[2], 10, 64) // 64 bits: a huge COUNT is refused as such on 32-bit platforms too
	count := int(min(count64, MaxGridValues+1))
	switch {
	case err1 != nil || err2 != nil || err3 != nil && !errors.Is(err3, strconv.ErrRange) || !(lo > 0) || !(hi >= lo) || hi > 1e300 || count < 1:
		return nil, BadInputf("-%s %q: want 0 < MIN ≤ MAX ≤ 1e300 and a whole COUNT ≥ 1", name, s)
	case count > MaxGridValues:
		return nil, BadInputf("-%s %q: COUNT %d is more than %d values", name, s, count64, MaxGridValues)
	case count == 1 && hi != lo:
		return nil, BadInputf("-%s %q: one value from %g to %g: give MIN:MIN:1 for one value, or a COUNT ≥ 2", name, s, lo, hi)
	case count > 1 && hi == lo:
		return nil, BadInputf("-%s %q: %d values all equal to %g: give %g:%g:1", name, s, count, lo, lo, lo)
	}
	return loo.Geometric(lo, hi, count), nil
}
