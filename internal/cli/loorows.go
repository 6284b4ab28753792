package cli

import "rkhs/loo"

// LOORows is loo.SelectNystrom.Subset (and loo.ScaleObjective.Subset) for
// n training rows under -loo-rows v (checked: auto, or a whole number
// ≥ 0): auto is loo.DefaultSubset(n), a number that many rows, 0 every
// row.
func LOORows(v AutoValue, n int) int {
	if v.Auto {
		return loo.DefaultSubset(n)
	}
	return int(v.V)
}
