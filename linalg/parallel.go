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

// A task is a loop body that forEach spreads over goroutines: run(w, u)
// does unit u on goroutine w. Hot callers keep their task in pooled memory
// so that starting the loop allocates nothing but the goroutines.
type task interface{ run(w, u int) }

// taskFunc adapts a function to task.
type taskFunc func(w, u int)

func (f taskFunc) run(w, u int) { f(w, u) }

var waitGroups = sync.Pool{New: func() any { return new(sync.WaitGroup) }}

// forEach calls t.run(w, u) once for every unit u in [0, units), using p
// goroutines: goroutine w ∈ [0, p) takes the units w, w+p, w+2p, … in
// increasing order (a static, cyclic partition, so that units of unequal cost
// — the block rows of a triangle — balance out). Worker 0 is the calling
// goroutine. forEach returns when every call has returned; no goroutine
// outlives it.
//
// This is the only place in linalg that starts goroutines. Callers partition
// only the output among units, so that no unit's result depends on p; that
// is what makes every routine's result independent of GOMAXPROCS.
func forEach(p, units int, t task) {
	if p <= 1 || units <= 1 {
		for u := 0; u < units; u++ {
			t.run(0, u)
		}
		return
	}
	p = min(p, units)
	wg := waitGroups.Get().(*sync.WaitGroup)
	wg.Add(p - 1)
	for w := 1; w < p; w++ {
		go runShare(t, w, p, units, wg)
	}
	runShare(t, 0, p, units, nil)
	wg.Wait()
	waitGroups.Put(wg)
}

// runShare runs the units of goroutine w and signals wg (if any) at the end.
func runShare(t task, w, p, units int, wg *sync.WaitGroup) {
	if wg != nil {
		defer wg.Done()
	}
	for u := w; u < units; u += p {
		t.run(w, u)
	}
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
