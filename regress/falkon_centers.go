package regress

import (
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
// are told apart by rowSet (−0 counted as +0, as the kernels do): O(nd)
// expected time, a permutation of the n rows and a table of the rows
// visited, about 48 bytes a row together (as FalkonMemory counts). The result depends on x, m and the seed only. It
// returns an ErrInput error naming Centers when x has fewer than m
// distinct rows.
func drawDistinctCenters(op string, x *linalg.Dense, m int, seed uint64) ([]int, error) {
	n := x.Rows
	seen := newRowSet(x, m)
	out := make([]int, 0, m)
	for _, i := range centerOrder(n, seed) {
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
