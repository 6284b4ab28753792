package center

// Merge folds the per-column moments of a second set of rows into those of
// a first, by the pairwise update of Chan, Golub and LeVeque ("Updating
// formulae and a pairwise algorithm for computing sample variances",
// 1979): with nₐ and n_b rows, means μₐ and μ_b and sums of squared
// deviations from them sₐ and s_b, δ = μ_b − μₐ and n = nₐ + n_b,
//
//	μ = μₐ + (n_b/n)·δ,  s = sₐ + s_b + (nₐn_b/n)·δ².
//
// mu and ss hold μₐ and sₐ on entry and μ and s on return; muB and ssB are
// only read. Both counts must be positive (merging no rows changes
// nothing, and into no rows copies: the caller handles both). The update
// never subtracts two large sums, so it keeps the accuracy of the centred
// sums it merges. Cost: 6 flops per column.
func Merge(na int, mu, ss []float64, nb int, muB, ssB []float64) {
	fa, fb := float64(na), float64(nb)
	nt := fa + fb
	f := fa * fb / nt
	for k := range mu {
		d := muB[k] - mu[k]
		ss[k] += ssB[k] + f*d*d
		mu[k] += fb / nt * d
	}
}
