// Package memlimit says, before a computation allocates, whether its peak
// memory fits in what the program may use, so that rkhs returns an error
// instead of crashing when a problem is too large. It is the one place
// that knows the limit:
//
//   - the Go memory limit, when the program set one (runtime/debug's
//     SetMemoryLimit, or the GOMEMLIMIT environment variable);
//   - otherwise, on Linux, the smaller of the cgroup memory limit (cgroup
//     v2 memory.max or v1 memory.limit_in_bytes) and the physical memory
//     (MemTotal in /proc/meminfo), read once;
//   - always, the address space: what one Go slice can hold, math.MaxInt
//     bytes (2 GiB on 32-bit platforms) or 4 GiB on WebAssembly.
//
// Elsewhere, or when the files cannot be read, only the address space
// applies. The limit is on the computation's own peak, not on what the
// process already holds.
package memlimit

import (
	"math"
	"runtime"
	"runtime/debug"
	"sync"

	"rkhs/linalg"
)

// Floats returns the bytes of dims[0]×dims[1]×… float64 values, saturated at
// math.MaxUint64 when the product overflows. A negative dimension counts
// as zero.
func Floats(dims ...int) uint64 {
	b := uint64(8)
	for _, d := range dims {
		if d <= 0 {
			return 0
		}
		if b > math.MaxUint64/uint64(d) {
			return math.MaxUint64
		}
		b *= uint64(d)
	}
	return b
}

// Sum returns the sum of byte counts, saturated at math.MaxUint64.
func Sum(counts ...uint64) uint64 {
	var s uint64
	for _, c := range counts {
		if s > math.MaxUint64-c {
			return math.MaxUint64
		}
		s += c
	}
	return s
}

// Limit returns the number of bytes a computation may use and which limit
// that is ("Go memory limit", "cgroup memory limit", "physical memory" or
// "address space"). The Go memory limit is read at every call, since a
// program may change it; the operating system's limits once.
func Limit() (uint64, string) {
	limit, source := addressSpace(), "address space"
	if goLimit := debug.SetMemoryLimit(-1); goLimit != math.MaxInt64 {
		if goLimit >= 0 && uint64(goLimit) < limit {
			limit, source = uint64(goLimit), "Go memory limit"
		}
		return limit, source
	}
	osOnce.Do(func() { osLimit, osSource = systemLimit() })
	if osLimit > 0 && osLimit < limit {
		limit, source = osLimit, osSource
	}
	return limit, source
}

var (
	osOnce   sync.Once
	osLimit  uint64 // 0 when unknown
	osSource string
)

// addressSpace is the most one allocation can hold on the target.
func addressSpace() uint64 {
	if runtime.GOARCH == "wasm" {
		return 1 << 32 // 32-bit linear memory
	}
	return math.MaxInt
}

// Check returns a *linalg.MemoryError, which wraps linalg.ErrTooLarge, when
// need bytes exceed the limit (see Limit); op names the computation.
func Check(op string, need uint64) error {
	limit, source := Limit()
	if need > limit {
		return &linalg.MemoryError{Op: op, Need: need, Limit: limit, Source: source}
	}
	return nil
}
