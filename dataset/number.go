package dataset

import (
	"math"
	"strconv"
)

// parseFinite parses s as a finite decimal floating-point literal (see the
// package documentation for the grammar). On success it returns the value
// and an empty problem; otherwise problem completes a sentence about s, such
// as "is not a decimal number" or "is not finite".
//
// strconv.ParseFloat alone is too lenient for data files: it accepts
// hexadecimal floats ("0x1p3"), digit separators ("1_000"), "Inf",
// "infinity" and "NaN". The grammar is checked first, so that only what a C
// printf %g could have written gets to ParseFloat.
func parseFinite(s string) (v float64, problem string) {
	if !isDecimal(s) {
		if v, err := strconv.ParseFloat(s, 64); err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			return 0, "is not finite"
		}
		return 0, "is not a decimal number"
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		// The grammar leaves only strconv.ErrRange: the magnitude overflows
		// float64 and ParseFloat returned ±Inf. (Underflow rounds to a
		// subnormal or zero without an error.)
		return 0, "overflows float64 (values must be finite)"
	}
	return v, ""
}

// isDecimal reports whether s matches
//
//	[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?
//
// with ASCII digits only.
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	mant := 0 // mantissa digits on either side of the point
	for i < len(s) && isDigit(s[i]) {
		i++
		mant++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			i++
			mant++
		}
	}
	if mant == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// isInteger reports whether s is an optional '-' followed by one or more
// ASCII digits: the form of a LIBSVM index, negative ones included so that
// they can be reported as "not positive" rather than as garbage.
func isInteger(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isFinite reports whether v is neither NaN nor ±Inf.
func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
