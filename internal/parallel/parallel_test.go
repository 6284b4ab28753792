package parallel

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestFor: every unit runs exactly once, on the goroutine the cyclic
// partition assigns it to.
func TestFor(t *testing.T) {
	for _, tc := range []struct{ p, units int }{{1, 0}, {1, 5}, {2, 1}, {2, 7}, {3, 10}, {8, 3}} {
		counts := make([]atomic.Int32, tc.units)
		worker := make([]int, tc.units)
		For(tc.p, tc.units, Func(func(w, u int) {
			counts[u].Add(1)
			worker[u] = w
		}))
		p := min(tc.p, tc.units)
		for u := range counts {
			if c := counts[u].Load(); c != 1 {
				t.Errorf("p=%d units=%d: unit %d ran %d times", tc.p, tc.units, u, c)
			}
			if want := u % max(p, 1); tc.p > 1 && worker[u] != want {
				t.Errorf("p=%d units=%d: unit %d ran on goroutine %d, want %d", tc.p, tc.units, u, worker[u], want)
			}
		}
	}
}

// TestClaim: every unit runs exactly once, on one of the p goroutines, and
// Claim returns only when all are done.
func TestClaim(t *testing.T) {
	for _, tc := range []struct{ p, units int }{{1, 0}, {1, 5}, {2, 0}, {2, 1}, {2, 7}, {3, 10}, {8, 3}, {16, 1000}} {
		counts := make([]atomic.Int32, tc.units)
		var bad atomic.Int32
		Claim(tc.p, tc.units, Func(func(w, u int) {
			counts[u].Add(1)
			if w < 0 || w >= max(tc.p, 1) {
				bad.Add(1)
			}
		}))
		for u := range counts {
			if c := counts[u].Load(); c != 1 {
				t.Errorf("p=%d units=%d: unit %d ran %d times", tc.p, tc.units, u, c)
			}
		}
		if bad.Load() != 0 {
			t.Errorf("p=%d units=%d: %d units ran on a goroutine outside [0, p)", tc.p, tc.units, bad.Load())
		}
	}
}

func TestTeam(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, tc := range []struct {
		units       int
		work, limit float64
		want        int
	}{
		{1, 1e9, 1, 1},
		{100, 10, 100, 1},
		{100, 1e9, 1, min(procs, 100)},
		{2, 1e9, 1, min(procs, 2)},
	} {
		if got := Team(tc.units, tc.work, tc.limit); got != tc.want {
			t.Errorf("Team(%d, %g, %g) = %d, want %d", tc.units, tc.work, tc.limit, got, tc.want)
		}
	}
}

func TestChunks(t *testing.T) {
	for _, tc := range []struct{ n, p, align int }{{10, 3, 1}, {10, 3, 4}, {1, 4, 8}, {100, 2, 8}, {0, 2, 1}} {
		c := NewChunks(tc.n, tc.p, tc.align)
		next := 0
		for i := 0; i < c.Count(); i++ {
			lo, hi := c.Bounds(i)
			if lo != next || hi <= lo || (hi != tc.n && hi%tc.align != 0) {
				t.Fatalf("%+v: chunk %d is [%d,%d)", tc, i, lo, hi)
			}
			next = hi
		}
		if next != tc.n || c.Count() > max(tc.p, 1) {
			t.Errorf("%+v: %d chunks cover [0,%d)", tc, c.Count(), next)
		}
	}
}

// TestSplits: a loop run on several goroutines is counted, a serial one
// is not.
func TestSplits(t *testing.T) {
	before := Splits()
	For(1, 10, Func(func(_, _ int) {}))
	if Splits() != before {
		t.Errorf("a serial loop was counted as split")
	}
	For(2, 10, Func(func(_, _ int) {}))
	if Splits() != before+1 {
		t.Errorf("Splits = %d after one split loop, want %d", Splits(), before+1)
	}
	Claim(2, 10, Func(func(_, _ int) {}))
	if Splits() != before+2 {
		t.Errorf("Splits = %d after two split loops, want %d", Splits(), before+2)
	}
}

// BenchmarkFor measures a loop of two units of a given number of additions
// each: beside the units' own time, what starting and joining the second
// goroutine costs (set GOMAXPROCS in the environment, one process per value).
func BenchmarkFor(b *testing.B) {
	for _, adds := range []int{0, 1000, 10000, 100000} {
		x := make([]float64, 2*1024)
		b.Run(fmt.Sprintf("adds=%d", adds), func(b *testing.B) {
			for b.Loop() {
				For(2, 2, Func(func(_, u int) {
					s := x[u*1024 : (u+1)*1024]
					for r := 0; r < adds; r += len(s) {
						for i := range s[:min(len(s), adds-r)] {
							s[i] += 1e-9
						}
					}
				}))
			}
		})
	}
}

// TestHelpers: loops that follow each other reuse the waiting helpers, a
// caller that sleeps is woken when a long share ends, loops nest, and no
// helper is left once none has had a share for helperSpin.
func TestHelpers(t *testing.T) {
	for i := range 200 {
		counts := make([]atomic.Int32, 8)
		Claim(4, len(counts), Func(func(_, u int) { counts[u].Add(1) }))
		For(3, len(counts), Func(func(_, u int) { counts[u].Add(1) }))
		for u := range counts {
			if c := counts[u].Load(); c != 2 {
				t.Fatalf("round %d: unit %d ran %d times, want 2", i, u, c)
			}
		}
	}

	// Unit 1 runs on a helper and outlasts joinSpin, so the caller sleeps.
	var done atomic.Bool
	For(2, 2, Func(func(_, u int) {
		if u == 1 {
			time.Sleep(5 * joinSpin)
			done.Store(true)
		}
	}))
	if !done.Load() {
		t.Errorf("For returned before the helper's unit ended")
	}

	var inner atomic.Int32
	For(3, 6, Func(func(_, _ int) {
		Claim(2, 10, Func(func(_, _ int) { inner.Add(1) }))
	}))
	if got := inner.Load(); got != 60 {
		t.Errorf("nested loops ran %d inner units, want 60", got)
	}

	deadline := time.Now().Add(100 * helperSpin)
	for {
		idle.Lock()
		n := len(idle.list)
		idle.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d helpers still waiting after %v", n, 100*helperSpin)
		}
		time.Sleep(helperSpin)
	}
}
