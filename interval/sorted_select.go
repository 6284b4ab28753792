package interval

import (
	"cmp"
	"slices"
	"sort"
)

// shiftedLists are K sorted lists of residuals, each seen shifted by its
// own constant: list k holds the values shift[k] + r for r in res[k]
// (upper ends, sign +1) or shift[k] − r (lower ends, sign −1), res[k]
// ascending. CV+ has one list per fold: the fold model's prediction at the
// test row, shifted by the sorted residuals of the fold's rows.
type shiftedLists struct {
	res   [][]float64 // ascending, non-negative
	shift []float64
	sign  float64  // +1 or −1
	mids  []middle // weightedMedian's workspace, capacity K
}

// middle is the middle element of a list's values in play and their number.
type middle struct {
	v float64
	w int
}

// value returns element idx (0-based, ascending order of values) of list k.
func (l *shiftedLists) value(k, idx int) float64 {
	r := l.res[k]
	if l.sign > 0 {
		return l.shift[k] + r[idx]
	}
	return l.shift[k] - r[len(r)-1-idx]
}

// countBelow returns how many values of list k in [lo, hi) are < v
// (strict) or ≤ v (not strict), by binary search.
func (l *shiftedLists) countBelow(k, lo, hi int, v float64, strict bool) int {
	return sort.Search(hi-lo, func(j int) bool {
		x := l.value(k, lo+j)
		if strict {
			return x >= v
		}
		return x > v
	})
}

// selectShifted returns the rank-th smallest (1-based) of all the values of
// the lists without forming them: each round takes the weighted median of
// the lists' middle elements as pivot, counts the values below it in each
// list by binary search, and keeps only the side the answer is on (the
// selection in sorted matrices of Frederickson and Johnson, 1982, in its
// simple weighted-median form). Each round drops at least a quarter of the
// values still in play, so it costs O(K log n) comparisons a round and
// O(K log² n) in all for K lists of n values; when at most 16K values are
// left they are gathered into buf and finished by nthSmallest. buf must
// hold at least 16K values.
func selectShifted(l *shiftedLists, rank int, lo, hi []int, buf []float64) float64 {
	kk := len(l.res)
	for k := range l.res {
		lo[k], hi[k] = 0, len(l.res[k])
	}
	need := rank // rank among the values still in play
	for {
		total := 0
		for k := 0; k < kk; k++ {
			total += hi[k] - lo[k]
		}
		if total <= 16*kk {
			b := buf[:0]
			for k := 0; k < kk; k++ {
				for idx := lo[k]; idx < hi[k]; idx++ {
					b = append(b, l.value(k, idx))
				}
			}
			return nthSmallest(b, need)
		}
		pivot := weightedMedian(l, lo, hi, total)
		var below, upTo int
		for k := 0; k < kk; k++ {
			if lo[k] < hi[k] {
				below += l.countBelow(k, lo[k], hi[k], pivot, true)
				upTo += l.countBelow(k, lo[k], hi[k], pivot, false)
			}
		}
		switch {
		case below >= need: // the answer is < pivot
			for k := 0; k < kk; k++ {
				if lo[k] < hi[k] {
					hi[k] = lo[k] + l.countBelow(k, lo[k], hi[k], pivot, true)
				}
			}
		case upTo >= need: // the answer is the pivot
			return pivot
		default: // the answer is > pivot
			for k := 0; k < kk; k++ {
				if lo[k] < hi[k] {
					lo[k] += l.countBelow(k, lo[k], hi[k], pivot, false)
				}
			}
			need -= upTo
		}
	}
}

// weightedMedian returns the middle element of the list, among those
// with values in play, at which the weights hi − lo of the lists whose
// middle elements are smaller first reach half the total.
func weightedMedian(l *shiftedLists, lo, hi []int, total int) float64 {
	ms := l.mids[:0]
	for k := range l.res {
		if lo[k] < hi[k] {
			ms = append(ms, middle{l.value(k, lo[k]+(hi[k]-lo[k])/2), hi[k] - lo[k]})
		}
	}
	slices.SortFunc(ms, func(a, b middle) int { return cmp.Compare(a.v, b.v) })
	l.mids = ms
	acc := 0
	for _, m := range ms {
		acc += m.w
		if 2*acc >= total {
			return m.v
		}
	}
	return ms[len(ms)-1].v
}
