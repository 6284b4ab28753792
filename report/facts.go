package report

import (
	"fmt"
	"io"
	"slices"

	"rkhs/loo"
)

// WarnFacts writes one warning line on w, starting with prefix (say
// "rkhs fit"), for each fact about the choice that the user should act on
// (loo.Table.Facts): a grid whose smallest or largest value was chosen —
// the criterion may keep falling beyond it, and the line names the flag
// that widens it (-sigmas, -lambdas) — and a flat table, whose choice is
// only the first pair — and then no edge warning, since a flat table's
// choice is the first pair for want of a difference, not a minimum found
// at an edge, and widening a grid it cannot tell apart would not help.
// rkhs and rkhs-beam write the same lines; a nil t writes none.
func WarnFacts(w io.Writer, prefix string, t *loo.Table, chosen loo.Choice) {
	warnFacts(w, prefix, t, chosen, true)
}

// warnFacts is WarnFacts, the edges warned about only with edges.
func warnFacts(w io.Writer, prefix string, t *loo.Table, chosen loo.Choice, edges bool) {
	if t == nil {
		return
	}
	f := t.Facts(chosen)
	if !edges || f.Flat {
		f.SigmaEdge, f.LambdaEdge = 0, 0
	}
	warn := func(name, flag string, v float64, grid []float64, e int) {
		side, where := "smallest", "below"
		if e > 0 {
			side, where = "largest", "above"
		}
		fmt.Fprintf(w, "%s: warning: the chosen %s = %.4g is the %s of its grid (%.4g to %.4g, %d values): the best %s may lie %s it; widen %s MIN:MAX:COUNT\n",
			prefix, name, v, side, slices.Min(grid), slices.Max(grid), len(grid), name, where, flag)
	}
	if f.Flat {
		fmt.Fprintf(w, "%s: warning: every score of the table is the same to six digits (%s %.6g): the data do not tell σ and λ apart, and the choice is only the first pair; too few rows, a σ at which the kernel matrix is the identity or all ones, or labels that barely vary\n",
			prefix, t.Criterion, chosen.Score)
	}
	if f.SigmaEdge != 0 {
		warn("σ", "-sigmas", chosen.Sigma, t.Sigmas, f.SigmaEdge)
	}
	if f.LambdaEdge != 0 {
		warn("λ", "-lambdas", chosen.Lambda, t.Lambdas, f.LambdaEdge)
	}
}
