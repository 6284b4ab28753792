package cli

// -loo-rows auto, the default: the leave-one-out pass of a Nyström
// selection runs on every row of a training set of up to AutoLOOAbove
// rows, and on AutoLOORows rows drawn at random above that. Every residual
// is exact either way; a subset's mean is an unbiased estimate of every
// row's, printed with its standard error. The pass on every row costs as
// much as the statistics pass (2nm² flops a σ each), so the subset halves
// the selection's time at large n; at 20,000 rows the standard error is a
// few percent of the leave-one-out MSE, and the λ of a σ are compared on
// the same rows, so their differences are known better than that.
const (
	AutoLOOAbove = 100_000
	AutoLOORows  = 20_000
)

// LOORows is loo.SelectNystrom.Subset (and loo.ScaleObjective.Subset) for
// n training rows under -loo-rows v (checked: auto, or a whole number
// ≥ 0): 0 (every row) or the rows of the leave-one-out pass.
func LOORows(v AutoValue, n int) int {
	if v.Auto {
		if n > AutoLOOAbove {
			return AutoLOORows
		}
		return 0
	}
	return int(v.V)
}
