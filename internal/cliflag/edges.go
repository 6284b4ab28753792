package cliflag

import (
	"fmt"
	"io"
	"slices"

	"rkhs/loo"
)

// WarnEdges writes one warning line on w, starting with prefix (say
// "rkhs fit"), for each grid of the table whose smallest or largest value
// was chosen (loo.Table.Edges): the criterion may keep falling beyond the
// grid, which the user should widen on that side with the flag the line
// names (-sigmas, -lambdas). rkhs and rkhs-beam write the same lines.
func WarnEdges(w io.Writer, prefix string, t *loo.Table, chosen loo.Choice) {
	es, el := t.Edges(chosen)
	warn := func(name, flag string, v float64, grid []float64, e int) {
		side, where := "smallest", "below"
		if e > 0 {
			side, where = "largest", "above"
		}
		fmt.Fprintf(w, "%s: warning: the chosen %s = %.4g is the %s of its grid (%.4g to %.4g, %d values): the best %s may lie %s it; widen %s MIN:MAX:COUNT\n",
			prefix, name, v, side, slices.Min(grid), slices.Max(grid), len(grid), name, where, flag)
	}
	if es != 0 {
		warn("σ", "-sigmas", chosen.Sigma, t.Sigmas, es)
	}
	if el != 0 {
		warn("λ", "-lambdas", chosen.Lambda, t.Lambdas, el)
	}
}
