package center

import "math"

// PlainLo and PlainHi bound the magnitudes whose squares, and sums of a
// huge count of them, are formed in the data's own units (Unit returns 1):
// within them a difference of two values is at most 2^401, its square at
// most 2^802, and 2⁶³·2^802 is still finite; a difference whose square
// underflows (below 2^-511) is then at most 2^-111 of the largest value,
// a rounding of the others.
const (
	PlainLo = 0x1p-400
	PlainHi = 0x1p400
)

// Unit returns the unit in which to sum squares (or absolute values) of
// values whose largest magnitude is mx, so that neither overflows nor
// loses digits to underflow: 1 for 0 and for magnitudes in [PlainLo,
// PlainHi], the data of every ordinary problem, whose sums then stay the
// plain ones bit for bit; otherwise the power of two just above mx, kept
// within [2^-1022, 2^1023] so that it and its inverse are finite. Values
// divided by the unit are below 2 in magnitude, their differences below 4.
// Dividing by a power of two is exact (but for results below the normal
// range), so a sum formed in the unit and multiplied back is the plain sum
// wherever that one neither overflows nor underflows.
func Unit(mx float64) float64 {
	if mx == 0 || (mx >= PlainLo && mx <= PlainHi) {
		return 1
	}
	_, e := math.Frexp(mx) // mx = f·2^e, 0.5 ≤ f < 1
	return math.Ldexp(1, min(max(e, -1022), 1023))
}
