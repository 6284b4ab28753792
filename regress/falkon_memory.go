package regress

import (
	"math"
	"math/bits"
	"runtime/debug"

	"rkhs/internal/check"
)

// falkonBytes returns the memory a Falkon fit holds at its peak besides X,
// in bytes (math.MaxUint64 if the count overflows): the two m×m matrices of
// the preconditioner, the centres, the copy of [Y 1] and the hash table of
// the distinct rows (n×(q+1)·8 + 48n, n = 0 for FitOperator), six m×q
// vectors of the iteration, and the streamed products' partial results
// (64 MiB) and blocks (1 MiB and b×(d+q) per goroutine, counted for 8).
func falkonBytes(n, m, d, q int) uint64 {
	var total uint64
	add := func(count uint64, ok bool) {
		if !ok {
			total = math.MaxUint64
			return
		}
		s, carry := bits.Add64(total, count, 0)
		if carry != 0 {
			total = math.MaxUint64
			return
		}
		total = s
	}
	mul := func(a, b uint64) (uint64, bool) {
		hi, lo := bits.Mul64(a, b)
		return lo, hi == 0
	}
	um, un := uint64(m), uint64(n)
	mm, ok := mul(um, um)
	if ok {
		mm, ok = mul(mm, 16)
	}
	add(mm, ok)
	add(mul(um, 8*uint64(d+6*q)))
	add(mul(un, 8*uint64(q+1)+48))
	add(64<<20+8*(1<<20+8*uint64(d+q)), true)
	return total
}

// checkFalkonMemory refuses, before anything of size m×m is allocated, a
// fit whose memory (falkonBytes) exceeds what the program may use: the Go
// memory limit (runtime/debug.SetMemoryLimit or GOMEMLIMIT) or, for the
// m×m matrices, what the target can address (2 GiB on 32-bit platforms). The error wraps ErrInput and names arg.
//
// TODO(merge): use the memory check that every n×n method shares once it
// is in linalg (it also knows the cgroup limit and physical memory).
func checkFalkonMemory(op, arg string, n, m, d, q int) error {
	need := falkonBytes(n, m, d, q)
	limit, source := uint64(debug.SetMemoryLimit(-1)), "Go memory limit"
	if uint64(math.MaxInt) < limit {
		limit, source = uint64(math.MaxInt), "address space"
	}
	if need > limit {
		return check.Input(ErrInput, op, arg, "%d centres need %.3g GiB, more than the %.3g GiB of the %s", m, float64(need)/(1<<30), float64(limit)/(1<<30), source)
	}
	return nil
}
