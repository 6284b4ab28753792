package linalg

import "rkhs/internal/pool"

// Scratch storage of the divide-and-conquer merges. A merge of k values
// takes a few k×k and n×k temporary arrays (the roots' differences, the
// vectors of the merge, the columns regrouped for its products) and lets
// them go when it returns; an eigendecomposition or SVD of order n makes
// merges of every size up to n, and a caller that factors many matrices
// in turn (one per kernel width in a selection) would otherwise leave tens
// of megabytes a call to the garbage collector, which lets the heap grow
// to twice what is live before it runs. Every user overwrites each element
// before reading it, so reused storage changes no result.

// scratches holds the slices released by releaseFloats (internal/pool:
// one list for every goroutine, the smallest long enough handed out,
// freed by the garbage collector when unused).
var scratches = pool.Pool[[]float64]{Size: func(s *[]float64) int { return cap(*s) }}

// scratchFloats returns a slice of n float64s with arbitrary contents,
// the shortest pooled one long enough or a new one.
func scratchFloats(n int) []float64 {
	if p := scratches.Get(func(s *[]float64) bool { return cap(*s) >= n }); p != nil {
		return (*p)[:n]
	}
	return make([]float64, n)
}

// releaseFloats gives s back to the pool; the caller must not use it
// again.
func releaseFloats(s []float64) {
	if cap(s) > 0 {
		s = s[:0]
		scratches.Put(&s)
	}
}
