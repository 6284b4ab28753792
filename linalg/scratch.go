package linalg

import "sync"

// Scratch storage of the divide-and-conquer merges. A merge of k values
// takes a few k×k and n×k temporary arrays (the roots' differences, the
// vectors of the merge, the columns regrouped for its products) and lets
// them go when it returns; an eigendecomposition or SVD of order n makes
// merges of every size up to n, and a caller that factors many matrices
// in turn (one per kernel width in a selection) would otherwise leave tens
// of megabytes a call to the garbage collector, which lets the heap grow
// to twice what is live before it runs. Every user overwrites each element
// before reading it, so reused storage changes no result.

// scratchPool holds *[]float64 released by releaseFloats.
var scratchPool sync.Pool

// scratchFloats returns a slice of n float64s with arbitrary contents,
// taken from the pool when the slice there is long enough.
func scratchFloats(n int) []float64 {
	if p, _ := scratchPool.Get().(*[]float64); p != nil && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]float64, n)
}

// releaseFloats gives s back to the pool; the caller must not use it
// again.
func releaseFloats(s []float64) {
	if cap(s) > 0 {
		s = s[:0]
		scratchPool.Put(&s)
	}
}
