// Package pool keeps workspaces for reuse: the packing buffers of a
// matrix product, the temporaries of an eigensolver's merges, the job of a
// streamed pass. A computation takes one at its start and gives it back at
// its end, so that a stream of calls of the same size allocates nothing in
// the steady state.
//
// A Pool differs from sync.Pool where that matters for memory. sync.Pool
// keeps a private entry for each P (the runtime's processors, GOMAXPROCS
// of them) that no other P can take: a goroutine that moves from P to P —
// as one does that sleeps while its helpers work — finds nothing on its
// new P and allocates another workspace, so that up to GOMAXPROCS copies
// of every workspace gather, each of them as large as the largest call
// that used it. A Pool is one list shared by every goroutine, and Get
// hands out the smallest entry that fits, so that a small call does not
// take a large workspace that a large call then allocates again. The
// workspaces that exist at once are then those of the calls that run at
// once, whatever GOMAXPROCS is.
//
// Like sync.Pool, a Pool lets go of what is not used: an entry that no
// call has taken since the last garbage collection is held only weakly
// (package weak) from then on, and the next collection frees it. An entry
// that is used between every two collections stays, so that a long pass
// that calls a product per block keeps its workspace however often the
// collector runs.
package pool

import (
	"runtime"
	"sync"
	"weak"
)

// maxFree bounds the entries a Pool keeps: more than the calls of one
// kind that run at once on any machine rkhs has run on (one per goroutine
// of a split loop), few enough that a scan of the list costs nothing
// beside the computations that use it.
const maxFree = 64

// Pool is a list of workspaces of type T for reuse, safe for concurrent
// use. The zero value is not usable: Size must be set.
type Pool[T any] struct {
	// Size returns the size of an entry, by which Get chooses among the
	// entries that fit; usually the values it holds.
	Size func(*T) int

	once sync.Once
	mu   sync.Mutex
	free []entry[T]
}

// entry is a workspace in the list: held by strong until a collection
// passes, by weak always.
type entry[T any] struct {
	strong *T
	weak   weak.Pointer[T]
}

// value returns the workspace of e, or nil if the collector has freed it.
func (e entry[T]) value() *T {
	if e.strong != nil {
		return e.strong
	}
	return e.weak.Value()
}

// Get removes and returns the smallest entry (by Size) for which fits
// returns true, or nil when none does. fits is called with the Pool
// locked, on entries no one else holds; it must not call the Pool.
func (p *Pool[T]) Get(fits func(*T) bool) *T {
	p.mu.Lock()
	defer p.mu.Unlock()
	var best *T
	at, size := -1, 0
	live := p.free[:0]
	for _, e := range p.free {
		v := e.value()
		if v == nil {
			continue // freed by the collector
		}
		if fits(v) {
			if s := p.Size(v); best == nil || s < size {
				best, at, size = v, len(live), s
			}
		}
		live = append(live, e)
	}
	clear(p.free[len(live):])
	p.free = live
	if best != nil {
		n := len(p.free)
		copy(p.free[at:], p.free[at+1:])
		p.free[n-1] = entry[T]{}
		p.free = p.free[:n-1]
	}
	return best
}

// Put gives v back for reuse; the caller must not use it again. When the
// Pool is full it keeps the larger of v and its smallest entry.
func (p *Pool[T]) Put(v *T) {
	if v == nil {
		return
	}
	p.once.Do(func() { watch(p) })
	e := entry[T]{strong: v, weak: weak.Make(v)}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.free) < maxFree {
		p.free = append(p.free, e)
		return
	}
	small, size := -1, p.Size(v)
	for i, x := range p.free {
		if w := x.value(); w == nil {
			small = i
			break
		} else if s := p.Size(w); s < size {
			small, size = i, s
		}
	}
	if small >= 0 {
		p.free[small] = e
	}
}

// release drops the strong references of p's entries: those not taken
// again before the next collection are freed by it.
func (p *Pool[T]) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for i := range p.free {
		p.free[i].strong = nil
	}
}

// pools are the Pools that have held an entry, told of every collection.
var pools struct {
	sync.Mutex
	list []interface{ release() }
}

// watch adds p to pools, and starts telling them of collections when p is
// the first.
func watch(p interface{ release() }) {
	pools.Lock()
	defer pools.Unlock()
	pools.list = append(pools.list, p)
	if len(pools.list) == 1 {
		arm()
	}
}

// sentinel is an object whose only use is to be collected: its cleanup
// runs after each garbage collection (large enough not to share an
// allocation with other small objects, which would delay it).
type sentinel struct{ _ [64]byte }

// arm allocates a sentinel whose cleanup, after the next collection,
// releases the entries of every Pool and arms the next.
func arm() {
	runtime.AddCleanup(new(sentinel), func(int) { collected() }, 0)
}

// collected runs after a collection. It arms the next sentinel before it
// releases anything: a sentinel allocated while a collection marks is
// marked live and outlives that collection, so one armed after the
// releases could miss the collection that a caller, seeing its entries
// released, starts at once.
func collected() {
	arm()
	pools.Lock()
	list := pools.list
	pools.Unlock()
	for _, p := range list {
		p.release()
	}
}
