package linalg

import (
	"errors"
	"fmt"
	"math"
	"strconv"
)

// ErrTooLarge: a computation would need more memory than the program may
// use. It is returned before anything large is allocated, wrapped in a
// [*MemoryError] that says how much was needed and how much there is.
var ErrTooLarge = errors.New("linalg: problem too large for memory")

// MemoryError reports a computation refused before it allocated because
// its peak memory, Need bytes, exceeds Limit bytes. Limit is the smallest
// of the limits that apply, and Source says which one it is: "Go memory
// limit" (set by the program with runtime/debug.SetMemoryLimit or by the
// GOMEMLIMIT environment variable), "cgroup memory limit", "physical
// memory" (Linux /proc/meminfo) or "address space" (what one Go slice can
// hold on the target: 2 GiB on 32-bit platforms, 4 GiB on WebAssembly).
// Need is math.MaxUint64 when the count of bytes itself overflows 64 bits.
// It wraps ErrTooLarge.
type MemoryError struct {
	Op     string // the call or the method, for example "RLS.Fit"
	Need   uint64 // bytes the computation would hold at its peak
	Limit  uint64 // bytes available
	Source string // which limit Limit is
}

func (e *MemoryError) Error() string {
	return fmt.Sprintf("linalg: %s needs %s of memory, more than the %s of %s", e.Op, FormatBytes(e.Need), FormatBytes(e.Limit), e.Source)
}

// Unwrap returns ErrTooLarge.
func (e *MemoryError) Unwrap() error { return ErrTooLarge }

// FormatBytes writes a count of bytes with a binary prefix and three
// significant digits (four from 1000 to 1023.4): "512 B", "7.45 GiB",
// "26.8 GiB". math.MaxUint64, which a MemoryError uses for a count that
// overflows, is "more than 16 EiB".
func FormatBytes(b uint64) string {
	if b == math.MaxUint64 {
		return "more than 16 EiB"
	}
	const units = "KMGTPE"
	if b < 1024 {
		return strconv.FormatUint(b, 10) + " B"
	}
	v, i := float64(b)/1024, 0
	for v >= 1023.5 && i < len(units)-1 { // 1023.5 would print as 1024
		v /= 1024
		i++
	}
	prec := 0 // three significant digits below 1000
	switch {
	case v < 10:
		prec = 2
	case v < 100:
		prec = 1
	}
	return strconv.FormatFloat(v, 'f', prec, 64) + " " + units[i:i+1] + "iB"
}
