package linalg

import (
	"sync"
	"sync/atomic"

	"rkhs/internal/pool"
)

// workspace holds the packing buffers of one blocked product: a band of
// packed A and a block of packed B, both shared by the product's
// goroutines, with an edge-tile buffer per goroutine and the state of the
// product. Workspaces are pooled (internal/pool: one list for every
// goroutine, the smallest that fits handed out, let go by the garbage
// collector when unused), so a steady stream of products allocates no new
// buffers, and the workspaces that exist at once are those of the products
// running at once.
type workspace struct {
	a, b   []float64
	tmp    [][maxTile]float64 // one edge-tile buffer per goroutine
	weight []int64            // the weights of productJob, one more than the block rows
	job    productJob

	// The slots of the band of A (productJob.enter): for each block row
	// of the band its slot (−1 for none), the pieces that hold it, and
	// the units of its block claimed for packing and packed; the free
	// slots, the last freed on top.
	mu         sync.Mutex
	slot       []int32
	holders    []int32
	next, done []atomic.Int32
	free       []int32
}

var workspaces = pool.Pool[workspace]{Size: func(ws *workspace) int { return cap(ws.a) + cap(ws.b) }}

// getWorkspace returns a workspace for p goroutines, nb values of packed B,
// na of packed A and C of blockRows block rows: the smallest pooled one
// whose buffers are large enough, else the smallest whose B is (its A
// grown), else a new one.
func getWorkspace(p, nb, na, blockRows int) *workspace {
	ws := workspaces.Get(func(ws *workspace) bool { return cap(ws.b) >= nb && cap(ws.a) >= na })
	if ws == nil {
		ws = workspaces.Get(func(ws *workspace) bool { return cap(ws.b) >= nb })
	}
	if ws == nil {
		ws = &workspace{b: make([]float64, nb)}
	}
	if cap(ws.a) < na {
		ws.a = make([]float64, na)
	}
	ws.a, ws.b = ws.a[:cap(ws.a)], ws.b[:cap(ws.b)]
	if cap(ws.weight) < blockRows+1 {
		ws.weight = make([]int64, blockRows+1)
	}
	ws.weight = ws.weight[:cap(ws.weight)]
	if len(ws.slot) < blockRows {
		ws.slot, ws.holders = make([]int32, blockRows), make([]int32, blockRows)
		ws.next, ws.done = make([]atomic.Int32, blockRows), make([]atomic.Int32, blockRows)
		ws.free = make([]int32, 0, blockRows)
	}
	for len(ws.tmp) < p {
		ws.tmp = append(ws.tmp, [maxTile]float64{})
	}
	return ws
}

func putWorkspace(ws *workspace) { workspaces.Put(ws) }
