package regress

import (
	"math/rand/v2"
	"slices"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/linalg"
)

// drawDistinctCenters returns the indices of m distinct rows of x, in
// increasing order: the first m rows with values not seen before in a
// uniformly random order of all n rows (CenterOrder, so that when the
// rows of x are distinct these are the indices Nystrom draws with the
// same seed). The centres are thus drawn without
// replacement from the rows, skipping repeats: they follow the
// distribution of the data, which Falkon's preconditioner assumes (n/m
// K_mm² ≈ K_nmᵀK_nm), whereas a uniform draw from the distinct values
// would over-represent rare points on data with many repeated rows. Rows
// are told apart by rowSet (−0 counted as +0, as the kernels do): O(nd)
// expected time, a permutation of the n rows and a table of the rows
// visited, about 48 bytes a row together (as FalkonMemory counts). The result depends on x, m and the seed only. It
// returns an ErrInput error naming Centers when x has fewer than m
// distinct rows.
func drawDistinctCenters(op string, x *linalg.Dense, m int, seed uint64) ([]int, error) {
	n := x.Rows
	seen := newRowSet(x, m)
	out := make([]int, 0, m)
	for _, i := range CenterOrder(n, seed) {
		if _, dup := seen.add(i); !dup {
			out = append(out, i)
			if len(out) == m {
				slices.Sort(out)
				return out, nil
			}
		}
	}
	return nil, inputError(op, "Centers", "%d, but X has only %d distinct rows (repeated centres make K_mm singular)", m, len(out))
}

// NystromCenters returns the m centres (m×d, a copy of rows of x) that
// Nystrom and Falkon draw from x with the given seed when they are not
// given theirs (Nystrom.Centers, Falkon.Centers): distinct rows taken in
// a seeded uniformly random order of all rows, repeats skipped, returned
// in increasing row order. A caller that runs several fits or a selection
// over σ and λ (loo.SelectNystrom takes the centres) draws them once with
// it and gets the centres each of those fits would draw. x is not
// modified.
//
// Cost: O(nd) expected time; memory a permutation of the n rows and a
// table of the rows visited, about 48 bytes a row, and the m×d result, a
// *linalg.MemoryError (linalg.ErrTooLarge) before allocating when it does
// not fit.
//
// Errors wrap ErrInput and name the argument: x nil, empty, malformed or
// not finite (also linalg.ErrNotFinite), m not between 1 and the rows of
// x, or fewer than m distinct rows.
func NystromCenters(x *linalg.Dense, m int, seed uint64) (*linalg.Dense, error) {
	const op = "NystromCenters"
	if err := check.Data(ErrInput, op, "X", x, 1); err != nil {
		return nil, err
	}
	if m < 1 || m > x.Rows {
		return nil, inputError(op, "Centers", "%d, must be between 1 and the %d rows of X", m, x.Rows)
	}
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(x.Rows, 6), memlimit.Floats(m, x.Cols))); err != nil {
		return nil, err
	}
	c, _, err := chooseCenters(op, x, nil, m, nil, func(m int) ([]int, error) {
		return drawDistinctCenters(op, x, m, seed)
	})
	return c, err
}

// CenterOrder returns the order in which Nystrom, Falkon and
// NystromCenters take centres from n rows with the seed when they are not
// given theirs: a uniformly random permutation of 0 … n−1 (a PCG generator
// seeded by seed). The centres are the first m distinct rows in this
// order (FirstDistinct), in increasing row order. A caller whose rows are
// elsewhere (a pipeline over files) gathers the rows at the first places
// of this order, keeps the distinct ones with FirstDistinct, gathers more
// while fewer than m are distinct, and so holds the centres NystromCenters
// draws from the same rows. n < 0 counts as 0.
//
// Cost: O(n) time and memory (the permutation, 8 bytes a row).
func CenterOrder(n int, seed uint64) []int {
	rnd := rand.New(rand.NewPCG(seed, 0x6e797374726f6d)) // second word: "nystrom"
	return rnd.Perm(max(n, 0))
}

// FirstDistinct returns the indices, ascending, of the first m rows of x
// that hold values no earlier row holds (−0 counted as +0, as the kernels
// do), or of every distinct row when x has fewer than m: the test of
// repeated centres of NystromCenters, for rows gathered in the order
// CenterOrder gives. x is not modified.
//
// Cost: O(md) expected time over the rows it reads; memory two map
// entries a row read.
func FirstDistinct(x *linalg.Dense, m int) []int {
	if x == nil {
		return nil
	}
	seen := newRowSet(x, m)
	var out []int
	for i := 0; i < x.Rows && len(out) < m; i++ {
		if _, dup := seen.add(i); !dup {
			out = append(out, i)
		}
	}
	return out
}
