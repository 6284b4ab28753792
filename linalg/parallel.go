package linalg

import (
	"runtime"
	"sync"
)

// minParallelFlops is the amount of work (in floating-point operations)
// below which an operation runs on the calling goroutine: starting and
// joining goroutines costs a few microseconds, the time of about 2¹⁷ flops
// at the serial GEMM rate. Measured with BenchmarkGemm at n=32…128, where
// the parallel and serial paths cross over on the 2-core machine of
// BENCHMARKS.md.
const minParallelFlops = 1 << 18

// teamSize returns how many goroutines to use for units independent pieces
// of work totalling flops floating-point operations: 1 for small work,
// otherwise min(GOMAXPROCS, units).
func teamSize(units int, flops float64) int {
	if units < 2 || flops < minParallelFlops {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), units)
}

// forEach calls body(w, u) once for every unit u in [0, units), using p
// goroutines: goroutine w ∈ [0, p) takes the units w, w+p, w+2p, … in
// increasing order (a static, cyclic partition, so that units of unequal cost
// — the block rows of a triangle — balance out). Worker 0 is the calling
// goroutine. forEach returns when every call has returned.
//
// This is the only place in linalg that starts goroutines. Callers partition
// only the output among units, so that no unit's result depends on p; that
// is what makes every routine's result independent of GOMAXPROCS.
func forEach(p, units int, body func(w, u int)) {
	if p <= 1 || units <= 1 {
		for u := 0; u < units; u++ {
			body(0, u)
		}
		return
	}
	p = min(p, units)
	var wg sync.WaitGroup
	wg.Add(p - 1)
	for w := 1; w < p; w++ {
		go func() {
			defer wg.Done()
			for u := w; u < units; u += p {
				body(w, u)
			}
		}()
	}
	for u := 0; u < units; u += p {
		body(0, u)
	}
	wg.Wait()
}

// rowChunks splits n rows into at most p contiguous chunks whose boundaries
// are multiples of align, and returns the start of chunk c as bound(c).
// It is used by loops whose units are contiguous row ranges.
type rowChunks struct{ n, size int }

func newRowChunks(n, p, align int) rowChunks {
	size := (n + p - 1) / p
	size = (size + align - 1) / align * align
	return rowChunks{n: n, size: max(size, align)}
}

func (rc rowChunks) count() int { return (rc.n + rc.size - 1) / rc.size }

func (rc rowChunks) bounds(c int) (lo, hi int) {
	lo = c * rc.size
	return lo, min(lo+rc.size, rc.n)
}
