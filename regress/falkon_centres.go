package regress

import (
	"math"

	"rkhs/linalg"
)

// drawDistinctCenters returns m indices of distinct rows of x, in
// increasing order, drawn uniformly without replacement from the distinct
// rows (each represented by its first occurrence) with the generator of
// drawCenters: when the rows of x are all distinct these are the indices
// Nystrom draws with the same seed. The rows are told apart by a 64-bit
// hash of their bits (−0 counted as +0, as the kernels do), rows with the
// same hash compared element by element: O(nd) time and a table of about
// 40 bytes per distinct row. The result depends on x, m and the seed only.
// It returns an ErrInput error naming Centers when x has fewer than m
// distinct rows.
func drawDistinctCenters(op string, x *linalg.Dense, m int, seed uint64) ([]int, error) {
	distinct := distinctRows(x)
	if m > len(distinct) {
		return nil, inputError(op, "Centers", "%d, but X has only %d distinct rows (repeated centres make K_mm singular)", m, len(distinct))
	}
	idx := drawCenters(len(distinct), m, seed)
	for j, i := range idx {
		idx[j] = distinct[i]
	}
	return idx, nil
}

// distinctRows returns the index of the first occurrence of every distinct
// row of x, in increasing order.
func distinctRows(x *linalg.Dense) []int {
	n := x.Rows
	head := make(map[uint64]int, n) // hash → last distinct row with it
	next := make([]int, n)          // next[i]: previous distinct row with the hash of row i, or −1
	out := make([]int, 0, n)
	for i := range n {
		row := x.Row(i)
		h := rowHash(row)
		j, ok := head[h]
		if !ok {
			j = -1
		}
		dup := false
		for k := j; k >= 0; k = next[k] {
			if sameRow(row, x.Row(k)) {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		next[i] = j
		head[h] = i
		out = append(out, i)
	}
	return out
}

// rowHash is a 64-bit FNV-1a style hash of the bits of a row, one word per
// element, with −0 hashed as +0 and a final avalanche (the finalizer of
// MurmurHash3).
func rowHash(row []float64) uint64 {
	h := uint64(14695981039346656037)
	for _, v := range row {
		if v == 0 {
			v = 0 // −0 → +0
		}
		h ^= math.Float64bits(v)
		h *= 1099511628211
	}
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// sameRow reports whether two rows hold equal values (−0 = +0).
func sameRow(a, b []float64) bool {
	b = b[:len(a)]
	for j, v := range a {
		if v != b[j] {
			return false
		}
	}
	return true
}
