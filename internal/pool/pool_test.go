package pool

import (
	"runtime"
	"testing"
	"time"
)

func newPool() *Pool[[]float64] {
	return &Pool[[]float64]{Size: func(s *[]float64) int { return cap(*s) }}
}

func floats(n int) *[]float64 {
	s := make([]float64, n)
	return &s
}

func all(*[]float64) bool { return true }

// TestGetSmallestFit: Get returns the smallest entry that fits, removes it,
// and returns nil when none fits.
func TestGetSmallestFit(t *testing.T) {
	p := newPool()
	a, b, c := floats(100), floats(10), floats(50)
	for _, v := range []*[]float64{a, b, c} {
		p.Put(v)
	}
	atLeast := func(n int) func(*[]float64) bool { return func(s *[]float64) bool { return cap(*s) >= n } }
	for _, tc := range []struct {
		need int
		want *[]float64
	}{{20, c}, {20, a}, {20, nil}, {5, b}, {5, nil}} {
		if got := p.Get(atLeast(tc.need)); got != tc.want {
			t.Errorf("Get(≥ %d) = %p (cap %d), want %p", tc.need, got, capOf(got), tc.want)
		}
	}
}

func capOf(s *[]float64) int {
	if s == nil {
		return -1
	}
	return cap(*s)
}

// TestFull: a full Pool keeps the larger of a new entry and its smallest.
func TestFull(t *testing.T) {
	p := newPool()
	for i := range maxFree {
		p.Put(floats(10 + i))
	}
	p.Put(floats(1))    // smaller than every entry: dropped
	p.Put(floats(1000)) // replaces the entry of 10
	var caps []int
	for v := p.Get(all); v != nil; v = p.Get(all) {
		caps = append(caps, cap(*v))
	}
	if len(caps) != maxFree || caps[0] != 11 || caps[len(caps)-1] != 1000 {
		t.Errorf("got %d entries, smallest %d, largest %d; want %d, 11, 1000", len(caps), caps[0], caps[len(caps)-1], maxFree)
	}
}

// TestCollections: an entry survives one garbage collection, and is freed
// by the next unless it was taken in between; one taken and given back
// after each collection stays.
func TestCollections(t *testing.T) {
	unused, used := newPool(), newPool()
	unused.Put(floats(1 << 12))
	used.Put(floats(1 << 12))
	for range 3 {
		collect(t)
		v := used.Get(all)
		if v == nil {
			t.Fatal("an entry taken after every collection was freed")
		}
		used.Put(v)
	}
	if v := unused.Get(all); v != nil {
		t.Errorf("Get after three collections = an entry of %d values, want nil", cap(*v))
	}
	if n := len(unused.free); n != 0 {
		t.Errorf("%d entries left in the list, want 0", n)
	}
}

// collect runs a garbage collection and waits for the Pools to hear of it.
func collect(t *testing.T) {
	t.Helper()
	pools.Lock()
	before := len(pools.list)
	pools.Unlock()
	if before == 0 {
		t.Fatal("no Pool is watched")
	}
	probe := newPool()
	probe.Put(floats(1))
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for {
		probe.mu.Lock()
		released := probe.free[0].strong == nil
		probe.mu.Unlock()
		if released {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the Pools were not told of a collection within 5 s")
		}
		time.Sleep(time.Millisecond)
	}
}
