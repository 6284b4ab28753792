package regress

import (
	"math"
	"slices"

	"rkhs/linalg"
)

// drawDistinctCenters returns the indices of m distinct rows of x, in
// increasing order: the first m rows with values not seen before in a
// uniformly random order of all n rows (centerOrder, as drawCenters, so
// that when the rows of x are distinct these are the indices Nystrom
// draws with the same seed). The centres are thus drawn without
// replacement from the rows, skipping repeats: they follow the
// distribution of the data, which Falkon's preconditioner assumes (n/m
// K_mm² ≈ K_nmᵀK_nm), whereas a uniform draw from the distinct values
// would over-represent rare points on data with many repeated rows. Rows
// are told apart by a 64-bit hash of their bits (−0 counted as +0, as the
// kernels do), rows with the same hash compared element by element: O(nd)
// time at worst, a permutation of the n rows and a table of the rows
// visited, about 48 bytes a row together (as falkonBytes counts). The result depends on x, m and the seed only. It
// returns an ErrInput error naming Centers when x has fewer than m
// distinct rows.
func drawDistinctCenters(op string, x *linalg.Dense, m int, seed uint64) ([]int, error) {
	n := x.Rows
	seen := newRowSet(x, m)
	out := make([]int, 0, m)
	for _, i := range centerOrder(n, seed) {
		if seen.add(i) {
			out = append(out, i)
			if len(out) == m {
				slices.Sort(out)
				return out, nil
			}
		}
	}
	return nil, inputError(op, "Centers", "%d, but X has only %d distinct rows (repeated centres make K_mm singular)", m, len(out))
}

// rowSet is a set of rows of x, by value.
type rowSet struct {
	x    *linalg.Dense
	head map[uint64]int // hash → the last row added with it
	next map[int]int    // row → the previous row added with its hash
}

func newRowSet(x *linalg.Dense, size int) *rowSet {
	return &rowSet{x: x, head: make(map[uint64]int, size), next: make(map[int]int)}
}

// add adds row i and reports whether no equal row was in the set.
func (s *rowSet) add(i int) bool {
	row := s.x.Row(i)
	h := rowHash(row)
	j, ok := s.head[h]
	for k := j; ok; k, ok = s.next[k] {
		if sameRow(row, s.x.Row(k)) {
			return false
		}
	}
	if _, had := s.head[h]; had {
		s.next[i] = j
	}
	s.head[h] = i
	return true
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
