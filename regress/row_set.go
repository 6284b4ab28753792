package regress

import (
	"math"

	"rkhs/linalg"
)

// rowSet is a set of rows of x by value, the one test of repeated rows in
// this package (the distinct centres of Falkon, the centres of
// NystromStats): rows are told apart by a 64-bit hash of their bits (−0
// hashed as +0), rows with the same hash compared element by element, so
// that two rows are equal when their values are (−0 = +0; the data are
// finite). Adding a row costs O(d) expected time; memory is two map
// entries a row.
type rowSet struct {
	x    *linalg.Dense
	head map[uint64]int // hash → the last row added with it
	next map[int]int    // row → the previous row added with its hash
}

func newRowSet(x *linalg.Dense, size int) *rowSet {
	return &rowSet{x: x, head: make(map[uint64]int, size), next: make(map[int]int)}
}

// add adds row i unless a row with the same values is in the set already,
// and returns that row and true, or i and false.
func (s *rowSet) add(i int) (int, bool) {
	row := s.x.Row(i)
	h := rowHash(row)
	j, ok := s.head[h]
	for k := j; ok; k, ok = s.next[k] {
		if sameRow(row, s.x.Row(k)) {
			return k, true
		}
	}
	if _, had := s.head[h]; had {
		s.next[i] = j
	}
	s.head[h] = i
	return i, false
}

// duplicateRow returns the first pair of rows i < j of a with the same
// values, if any: j the first row equal to an earlier one, i that row.
func duplicateRow(a *linalg.Dense) (int, int, bool) {
	s := newRowSet(a, a.Rows)
	for j := range a.Rows {
		if i, dup := s.add(j); dup {
			return i, j, true
		}
	}
	return 0, 0, false
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
