package interval

import (
	"math/bits"
	"slices"
)

// nthSmallest returns the k-th smallest element of a (1 ≤ k ≤ len(a)),
// counting repeats, and leaves a permuted. It is Hoare's selection
// (FIND, 1961) with the median of three as pivot: expected O(len(a))
// comparisons, not the O(n log n) of a sort. After 2·log₂n partitions
// that have not finished it sorts what is left (the introspective
// selection of Musser, 1997), so the worst case is O(n log n). The
// elements must not be NaN. Which permutation a is left in does not
// matter to the result, the value of rank k, which is unique.
func nthSmallest(a []float64, k int) float64 {
	lo, hi := 0, len(a)-1 // the answer is a[k-1] once a[lo:hi+1] is in place
	t := k - 1
	for depth := 2 * bits.Len(uint(len(a))); lo < hi; depth-- {
		if depth == 0 {
			slices.Sort(a[lo : hi+1])
			return a[t]
		}
		// Median of three to a[mid]; a[lo] ≤ a[mid] ≤ a[hi] then.
		mid := lo + (hi-lo)/2
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		p := a[mid]
		// Invariant: a[lo:i] ≤ p and a[j+1:hi+1] ≥ p.
		i, j := lo, hi
		for i <= j {
			for a[i] < p {
				i++
			}
			for a[j] > p {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		// Now a[lo:j+1] ≤ p ≤ a[i:hi+1], and a[j+1:i] = p.
		switch {
		case t <= j:
			hi = j
		case t >= i:
			lo = i
		default:
			return a[t]
		}
	}
	return a[t]
}
