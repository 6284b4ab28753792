package parallel

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// The helper goroutines of For and Claim, and how a loop joins them.
//
// Starting a goroutine is cheap; waking an idle core to run it is not. The
// runtime parks the thread of an idle core in the kernel, and waking it
// costs tens of microseconds on a virtual machine: on a 2-core AMD EPYC
// (Zen 5 class, 2026-11-26), BenchmarkFor's two units of about 32 µs took
// 65 µs on one core and 71 µs on two with a new goroutine per loop, 45 µs
// with the helpers below. The bidiagonal and tridiagonal reductions run one
// loop per column, a few hundred microseconds each, and every block step of
// Gemm runs two, so that latency is paid thousands of times per
// factorization, once for each core a loop wakes.
//
// So a helper that has run its share does not exit at once: it waits up to
// helperSpin for the next loop, yielding its core (runtime.Gosched) every
// yieldEvery, and is handed the share directly when one comes; the calling
// goroutine likewise looks for the end of the helpers' shares for up to
// joinSpin before it sleeps. Loops that follow each other closely thus
// never wait for a core to wake; a program that stops running loops has no
// helper left after helperSpin. Which goroutine runs a share changes
// nothing in what it computes: the units of each w are fixed by For, and
// Claim's tasks may not depend on w.

const (
	// helperSpin is how long an idle helper waits for another share.
	helperSpin = 200 * time.Microsecond
	// joinSpin is how long the calling goroutine looks for the helpers to
	// finish before it sleeps until they do.
	joinSpin = 100 * time.Microsecond
	// yieldEvery is how long a waiting goroutine spins between two yields
	// of its core, so that other goroutines waiting for a core get one
	// within that time. runtime.Gosched takes the scheduler's global lock
	// (twice, with the search for work that follows), and the idle helpers
	// of a many-core machine all yield: on a 16-core Xeon, yielding after
	// every 64 looks (a fraction of a microsecond) had 15 idle helpers
	// spend 28% of the CPU of an EigenSym of order 4000 in Gosched, most of
	// it queueing on that lock, and the factorization took 6–10% longer
	// than with a new goroutine per loop. Once every 20 µs is a hundred
	// times fewer, and still short against the runtime's own time slice
	// (10 ms).
	yieldEvery = 20 * time.Microsecond
	// spinLooks is how many times a waiting goroutine reads the word it
	// waits on between two looks at the clock.
	spinLooks = 64
)

// spinner yields a waiting goroutine's core every yieldEvery; yielded is
// the time of the last yield since the wait began.
type spinner struct{ yielded time.Duration }

// tick yields the core if yieldEvery has passed since the last yield, and
// returns how long the goroutine has waited since t0.
func (s *spinner) tick(t0 time.Time) time.Duration {
	d := time.Since(t0)
	if d-s.yielded >= yieldEvery {
		runtime.Gosched()
		s.yielded = d
	}
	return d
}

// loop is one call of For or Claim on p ≥ 2 goroutines.
type loop struct {
	t        Task
	p, units int
	claim    bool
	next     atomic.Int64 // Claim: the next unit to hand out
	// state is the number of helpers' shares still running, plus sleeping
	// once the calling goroutine has given up looking and sleeps on done.
	state atomic.Int64
	done  chan struct{} // capacity 1: the last helper wakes a sleeping caller
}

// sleeping is the flag of loop.state set by a caller that sleeps on done.
const sleeping = 1 << 32

var loops = sync.Pool{New: func() any { return &loop{done: make(chan struct{}, 1)} }}

// finish is a helper's last touch of l, after its share: the helper that
// brings the count to zero under the sleeping flag wakes the caller.
func (l *loop) finish() {
	if l.state.Add(-1) == sleeping {
		l.done <- struct{}{}
	}
}

// join returns when every helper of l has finished its share.
func (l *loop) join() {
	if l.state.Load() == 0 {
		return
	}
	start, spin := time.Now(), spinner{}
	for spin.tick(start) < joinSpin {
		for range spinLooks {
			if l.state.Load() == 0 {
				return
			}
		}
	}
	if l.state.Add(sleeping) != sleeping {
		<-l.done
	}
}

// helper is a goroutine that runs shares of loops; while it waits for one,
// it is on the idle list and its next share arrives in l (w first).
type helper struct {
	w int
	l atomic.Pointer[loop]
}

// idle lists the helpers waiting for a share, the most recent last.
var idle struct {
	sync.Mutex
	list []*helper
}

// assign hands share w of l to an idle helper, or to a new one.
func assign(l *loop, w int) {
	idle.Lock()
	if n := len(idle.list); n > 0 {
		h := idle.list[n-1]
		idle.list[n-1] = nil
		idle.list = idle.list[:n-1]
		idle.Unlock()
		h.w = w
		h.l.Store(l)
		return
	}
	idle.Unlock()
	go (&helper{}).run(l, w)
}

// run runs share w of l and then every share it is handed, until it has
// waited helperSpin for one in vain.
func (h *helper) run(l *loop, w int) {
	for l != nil {
		l.share(w)
		l.finish()
		l = h.wait()
		w = h.w
	}
}

// wait puts h on the idle list and returns the next loop it is handed, or
// nil after helperSpin without one (h is then off the list).
func (h *helper) wait() *loop {
	idle.Lock()
	idle.list = append(idle.list, h)
	idle.Unlock()
	start, spin := time.Now(), spinner{}
	for {
		for range spinLooks {
			if h.l.Load() != nil {
				return h.l.Swap(nil) // only h empties its slot
			}
		}
		if spin.tick(start) >= helperSpin {
			idle.Lock()
			if i := slices.Index(idle.list, h); i >= 0 {
				idle.list = slices.Delete(idle.list, i, i+1)
				idle.Unlock()
				return nil
			}
			idle.Unlock()
			// Taken off the list by assign: its share is on the way.
			for {
				if l := h.l.Swap(nil); l != nil {
					return l
				}
				runtime.Gosched()
			}
		}
	}
}
