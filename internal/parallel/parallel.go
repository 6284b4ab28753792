// Package parallel is the one place in rkhs where goroutines are started:
// a loop over independent units of work, split over a bounded number of
// goroutines (statically, For, or by claiming units in turn, Claim), that
// returns when every unit is done.
//
// Callers split only their output among units, so that no unit's result
// depends on how many goroutines ran; that is what makes every result in
// rkhs bit-identical for any GOMAXPROCS.
package parallel

import (
	"runtime"
	"sync/atomic"

	"rkhs/internal/avx"
)

// Task is a loop body: Run(w, u) does unit u on goroutine w. Hot callers
// keep their task in pooled memory, so that starting a loop allocates
// nothing but the goroutines.
type Task interface{ Run(w, u int) }

// Func adapts a function to Task.
type Func func(w, u int)

// Run calls f(w, u).
func (f Func) Run(w, u int) { f(w, u) }

// Team returns how many goroutines to use for units independent pieces of
// work totalling work operations: 1 when work < minWork (starting and
// joining goroutines costs microseconds) or there is a single unit,
// otherwise min(GOMAXPROCS, units).
func Team(units int, work, minWork float64) int {
	if units < 2 || work < minWork {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), units)
}

// For calls t.Run(w, u) once for every unit u in [0, units), using p
// goroutines: goroutine w ∈ [0, p) takes the units w, w+p, w+2p, … in
// increasing order (a static, cyclic partition, so that units of unequal
// cost — the block rows of a triangle — balance out). Worker 0 is the
// calling goroutine. For returns when every call has returned. The other
// shares run on helper goroutines that wait a moment for the next loop
// before they exit (see pool.go); no call of t outlives For.
//
// Every unit starts with the upper halves of the vector registers cleared
// (avx.ClearUpper: a no-op except in GOEXPERIMENT=simd builds, where an
// asynchronous preemption can leave them dirty and legacy SSE code slow).
func For(p, units int, t Task) {
	if p <= 1 || units <= 1 {
		for u := 0; u < units; u++ {
			avx.ClearUpper()
			t.Run(0, u)
		}
		return
	}
	run(min(p, units), units, t, false)
}

// Claim calls t.Run(w, u) once for every unit u in [0, units), using p
// goroutines that take the units in increasing order from a shared counter,
// each claiming the next unit when it finishes its last: units of unequal
// cost, or cores that run at unequal speed, balance out at the grain of one
// unit. Worker 0 is the calling goroutine; Claim returns when every call has
// returned.
//
// Which goroutine runs a unit changes from call to call, so t may use w only
// to pick scratch space; the result of a unit must not depend on it. Where
// that holds, Claim is as deterministic as For.
func Claim(p, units int, t Task) {
	if p <= 1 || units <= 1 {
		For(1, units, t)
		return
	}
	run(min(p, units), units, t, true)
}

// run is For (claim false) or Claim (claim true) on p ≥ 2 goroutines: the
// calling goroutine takes share 0, pooled helpers the others.
func run(p, units int, t Task, claim bool) {
	splits.Add(1)
	l := loops.Get().(*loop)
	l.t, l.p, l.units, l.claim = t, p, units, claim
	l.next.Store(0)
	l.state.Store(int64(p - 1))
	for w := 1; w < p; w++ {
		assign(l, w)
	}
	l.share(0)
	l.join()
	l.t = nil // drop the caller's task
	loops.Put(l)
}

// share runs the units of goroutine w: its cyclic share for For, units
// claimed from the shared counter until none is left for Claim.
func (l *loop) share(w int) {
	if l.claim {
		for {
			u := int(l.next.Add(1) - 1)
			if u >= l.units {
				return
			}
			avx.ClearUpper()
			l.t.Run(w, u)
		}
	}
	for u := w; u < l.units; u += l.p {
		avx.ClearUpper()
		l.t.Run(w, u)
	}
}

// splits counts the loops For and Claim have run on more than one goroutine.
var splits atomic.Int64

// Splits returns how many loops For or Claim has run on more than one goroutine
// since the program started: tests of bit-identity across GOMAXPROCS read
// it to check that the work they compare was in fact split.
func Splits() int64 { return splits.Load() }

// Chunks splits n items into at most p contiguous chunks whose boundaries
// are multiples of align (except the last end, n).
type Chunks struct{ n, size int }

// NewChunks returns the split of n items into at most p chunks aligned to
// align.
func NewChunks(n, p, align int) Chunks {
	size := (n + p - 1) / p
	size = (size + align - 1) / align * align
	return Chunks{n: n, size: max(size, align)}
}

// Count returns the number of chunks.
func (c Chunks) Count() int { return (c.n + c.size - 1) / c.size }

// Bounds returns the items [lo, hi) of chunk i.
func (c Chunks) Bounds(i int) (lo, hi int) {
	lo = i * c.size
	return lo, min(lo+c.size, c.n)
}
