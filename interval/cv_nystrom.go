package interval

import (
	"fmt"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/linalg"
	"rkhs/regress"
)

// FoldModels returns the K fold models of CV+ for a Nyström fit from the
// statistics of each fold (stats[k] summarises the rows of fold k, all
// for the same kernel and centres): model k solves the merge of the other
// folds' statistics (regress.NystromStats.Merge, in fold order) with the
// penalty nλ of the fit on all n rows (regress.NystromStats.Solve with
// λ·n/(n − nₖ)), so it is the Nyström refit without fold k on the same
// centres, to the rounding of the merges. The statistics are not
// modified.
//
// This is CV+ for rows that never sit in memory together: each fold's
// statistics are summed a block of rows at a time (NystromStats.Add or
// AddKernelRows) on any machine and merged as the selection's are, in
// O(K·m²) memory; a second pass over the rows gives each row's held-out
// residual from its fold's model (regress.Model.Predict), and NewCV
// assembles the two in O(K·m + n).
//
// Cost: K² merges (2m² flops each) and K solves (m³/3 each); memory one
// more set of statistics, m(2m + q + d + 3) values, checked first.
//
// Errors: fewer than 2 folds, a nil fold, statistics of different kernels
// or centres or without rows (ErrInput, wrapping regress.ErrInput where
// regress said so), λ not positive and finite, an unknown intercept mode;
// those of NystromStats.Solve.
func FoldModels(stats []*regress.NystromStats, lambda float64, ic regress.Intercept) ([]*regress.Model, error) {
	const op = "FoldModels"
	if len(stats) < 2 {
		return nil, inputError(op, "stats", "%d folds, CV+ needs at least 2", len(stats))
	}
	if err := check.Positive(ErrInput, op, "lambda", lambda); err != nil {
		return nil, err
	}
	if err := check.Valid(ErrInput, op, "ic", ic); err != nil {
		return nil, err
	}
	n := 0
	for k, s := range stats {
		if s == nil || s.Kernel() == nil {
			return nil, inputError(op, fmt.Sprintf("stats[%d]", k), "nil or zero statistics")
		}
		if s.Rows() == 0 {
			return nil, inputError(op, fmt.Sprintf("stats[%d]", k), "a fold of no rows")
		}
		n += s.Rows()
	}
	c := stats[0].Centers()
	if err := memlimit.Check(op, memlimit.Floats(c.Rows, 2*c.Rows+stats[0].Outputs()+c.Cols+3)); err != nil {
		return nil, err
	}
	rest, err := regress.NewNystromStats(stats[0].Kernel(), c)
	if err != nil {
		return nil, fitError(op, "stats[0]", err)
	}
	models := make([]*regress.Model, len(stats))
	for k := range stats {
		rest.Reset()
		for j, s := range stats {
			if j == k {
				continue
			}
			if err := rest.Merge(s); err != nil {
				return nil, fitError(op, fmt.Sprintf("stats[%d]", j), err)
			}
		}
		fit, err := rest.Solve(lambda*float64(n)/float64(rest.Rows()), ic)
		if err != nil {
			return nil, fitError(op, "lambda", err)
		}
		models[k] = fit.Model
	}
	return models, nil
}

// NystromCV builds the CV+ of the Nyström fit cfg on the rows x, y in
// memory with the folds (a partition of the n rows into 2 ≤ K ≤ n
// non-empty folds, as Folds draws): the centres that cfg draws
// (regress.NystromCenters) or is given, one regress.NystromStats per fold,
// the fold models of FoldModels, and the held-out residuals of each fold
// from its model. Each fold model is the Nyström refit without its fold
// with the same centres and the penalty nλ of the full fit. The full fit
// (the merge of all folds) gives Prediction.
//
// Cost: one pass of NystromStats.Add over the rows (2md + 2m² flops a
// row), FoldModels, and the predictions of the fold rows (2md + 2m a
// row); memory K+1 sets of statistics (O(K·m²)), the fold rows' copies
// (n·d) and O(nq), checked by the calls that allocate them.
//
// Errors: those of regress.NystromCenters, NewNystromStats, Add and
// FoldModels, wrapped as InputErrors of this call that wrap ErrInput too;
// ErrInput for folds that are not a partition.
func NystromCV(cfg regress.Nystrom, x, y *linalg.Dense, folds [][]int) (*CV, error) {
	const op = "NystromCV"
	if err := check.XY(ErrInput, op, x, y, 2); err != nil {
		return nil, err
	}
	if err := checkFolds(op, folds, x.Rows); err != nil {
		return nil, err
	}
	if err := check.Positive(ErrInput, op, "cfg.Lambda", cfg.Lambda); err != nil {
		return nil, err
	}
	centers := cfg.Given
	if centers == nil {
		var err error
		if centers, err = regress.NystromCenters(x, cfg.Centers, cfg.Seed); err != nil {
			return nil, fitError(op, "cfg.Centers", err)
		}
	}
	stats := make([]*regress.NystromStats, len(folds))
	xs := make([]*linalg.Dense, len(folds))
	all, err := regress.NewNystromStats(cfg.Kernel, centers)
	if err != nil {
		return nil, fitError(op, "cfg", err)
	}
	for k, f := range folds {
		if stats[k], err = regress.NewNystromStats(cfg.Kernel, centers); err != nil {
			return nil, fitError(op, "cfg", err)
		}
		xs[k] = rowsOfDense(x, f)
		if err := stats[k].Add(xs[k], rowsOfDense(y, f)); err != nil {
			return nil, fitError(op, "X", err)
		}
		if err := all.Merge(stats[k]); err != nil {
			return nil, fitError(op, "X", err)
		}
	}
	models, err := FoldModels(stats, cfg.Lambda, cfg.Intercept)
	if err != nil {
		return nil, err
	}
	full, err := all.Solve(cfg.Lambda, cfg.Intercept)
	if err != nil {
		return nil, fitError(op, "cfg.Lambda", err)
	}
	return assembleCV(op, models, xs, y, folds, full.Model, nil, nil)
}
