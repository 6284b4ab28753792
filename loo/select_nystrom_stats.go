package loo

import (
	"errors"
	"fmt"

	"rkhs/linalg"
	"rkhs/regress"
)

// FitStats is Fit from statistics already summed: stats[s] summarises the
// rows for the kernel of Sigmas[s] (Kernel(Sigmas[s]) on the same
// centres; the statistics' own kernel and centres are used, Kernel and
// Centers are not read), for instance the merge of the statistics of
// several shards or folds. With the GCV criterion the choice needs no
// rows at all (x and y may be nil): this is how a fold of CV+ chooses its
// own σ and λ from the merged statistics of the other folds. With a
// leave-one-out criterion x and y are the rows the statistics summarise
// (or a part of them: the means are over the rows given, and Subset
// draws from them as Fit does), passed once per σ.
//
// The choice is Fit's on the same rows to the rounding of the merges: the
// same λ paths (NewNystromPath), the same scores and the same rule
// (Table.Best). Sigmas is required (it names the statistics); nil Lambdas
// gives DefaultLambdas. The statistics are not modified.
//
// Cost per σ: the λ path (about 9m³ flops) and, with a leave-one-out
// criterion, one pass over x (2nm² + 2nmL(q + 1) flops). Memory: one σ's
// path at a time (four m×m matrices) besides the statistics.
//
// Errors: as Fit, and ErrInput for a number of statistics other than of
// Sigmas, a nil statistics or one of no rows, or, with a leave-one-out
// criterion, rows that are missing or of another shape.
func (sn SelectNystrom) FitStats(stats []*regress.NystromStats, x, y *linalg.Dense) (*NystromSelection, error) {
	const op = "SelectNystrom.FitStats"
	if len(stats) != len(sn.Sigmas) || len(stats) == 0 {
		return nil, inputError(op, "stats", "%d statistics for %d σ (Sigmas names the statistics: give both)", len(stats), len(sn.Sigmas))
	}
	if err := sn.checkGrids(op); err != nil {
		return nil, err
	}
	for s, st := range stats {
		if st == nil || st.Kernel() == nil || st.Rows() == 0 {
			return nil, inputError(op, fmt.Sprintf("stats[%d]", s), "nil, zero or of no rows")
		}
	}
	lx, ly := x, y
	if sn.Criterion != GCV {
		if err := checkXY(op, x, y); err != nil {
			return nil, err
		}
		if x.Cols != stats[0].Centers().Cols {
			return nil, inputError(op, "X", "%d columns, the centres have %d", x.Cols, stats[0].Centers().Cols)
		}
		if y.Cols != stats[0].Outputs() {
			return nil, inputError(op, "Y", "%d columns, the statistics have %d outputs", y.Cols, stats[0].Outputs())
		}
		if idx := sn.SubsetRows(x.Rows); idx != nil {
			lx, ly = pickRows(x, y, idx)
		}
		if sn.Criterion == LOOErrorRate {
			if err := checkCodes(op, y); err != nil {
				return nil, err
			}
		}
	}
	sel := &NystromSelection{
		Criterion: sn.Criterion,
		Scores:    &Table{Criterion: sn.Criterion, Sigmas: append([]float64(nil), sn.Sigmas...), Lambdas: append([]float64(nil), sn.Lambdas...)},
	}
	if sn.Criterion != GCV {
		sel.LOORows = lx.Rows
	}
	var best bestPath
	var es linalg.EigenSym
	for s, st := range stats {
		path, idx, err := newNystromPath(st, sn.Intercept, sn.Lambdas, &es, false)
		if err != nil {
			if !errors.Is(err, linalg.ErrNotPositiveDefinite) {
				return nil, err
			}
			path, idx = nil, nil // every λ of this σ scores +Inf
		}
		if sn.Criterion != GCV && path != nil {
			if a, err := path.pass(op, lx, ly); err == nil {
				a.keep(lx.Rows)
			}
		}
		sn.record(sel, &best, s, path, idx)
	}
	c, ok := sel.Scores.Best()
	if !ok {
		return nil, inputError(op, "Lambdas", "no finite score on the grid")
	}
	sel.Choice, sel.Fit = c, best.path.Fit(best.at)
	return sel, nil
}
