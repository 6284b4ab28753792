package interval

import (
	"fmt"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// CV+ with the choice inside each fold.
//
// The guarantee of CV+ (package documentation) needs a fitting method
// that treats its rows symmetrically. Choosing σ and λ by leave-one-out
// on all n rows and then building the fold models at that pair is not
// such a method: every fold model depends on its held-out fold through
// the choice. Repeating the choice inside each fold restores it: the
// method is then "choose σ and λ by rule R on the rows given, then fit",
// a symmetric function of its rows, and fold k's model is that method
// applied to the rows outside fold k, its choice made without seeing
// fold k. Barber et al.'s theorem then covers the intervals as stated
// (1 − 2α − the term of K), for the model that the method fits on all
// rows — the choice on all n rows and its fit, whose prediction
// Intervals.Prediction reports. The grids themselves must not be chosen
// from the rows (a grid from the median distance of all rows is a
// dependence the theorem does not cover, although a weak one).

// RLSCVChosen is RLSCV with σ and λ chosen inside each fold: the fit on
// all rows takes the pair loo.SelectRLS chooses on all rows (the exact
// leave-one-out MSE over the grids, from one eigendecomposition per σ),
// and fold k's model the pair loo.SelectRLS chooses on the rows outside
// fold k alone, fitted there (regress.RLS.Fit, in that fit's own
// convention K + (n − nₖ)λI). CV.Choices returns the pairs.
//
// Cost: K + 1 selections, each one eigendecomposition per σ of the rows
// it sees (about 9(n − nₖ)³ flops) and a Cholesky fit; memory that of
// the largest, two n×n matrices, checked first.
//
// Errors: those of loo.SelectRLS and regress.RLS.Fit (wrapped as input
// errors of this call where they are), and ErrInput for folds that are
// not a partition of the rows into 2 ≤ K ≤ n non-empty folds.
func RLSCVChosen(kernel func(sigma float64) kernels.Kernel, sigmas, lambdas []float64, ic regress.Intercept, x, y *linalg.Dense, folds [][]int) (*CV, error) {
	const op = "RLSCVChosen"
	if kernel == nil {
		return nil, inputError(op, "kernel", "nil kernel function")
	}
	if err := check.XY(ErrInput, op, x, y, 2); err != nil {
		return nil, err
	}
	if err := checkFolds(op, folds, x.Rows); err != nil {
		return nil, err
	}
	n := x.Rows
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(3, n, n), memlimit.Floats(len(folds)+3, n, max(y.Cols, x.Cols)))); err != nil {
		return nil, err
	}
	fit := func(arg string, xs, ys *linalg.Dense) (*regress.Model, loo.Choice, error) {
		c, _, err := loo.SelectRLS(kernel, xs, ys, sigmas, lambdas, ic)
		if err != nil {
			return nil, c, fitError(op, arg, err)
		}
		m, err := regress.RLS{Kernel: kernel(c.Sigma), Lambda: c.Lambda, Intercept: ic}.Fit(xs, ys)
		if err != nil {
			return nil, c, fitError(op, arg, err)
		}
		return m, c, nil
	}
	full, chosen, err := fit("X", x, y)
	if err != nil {
		return nil, err
	}
	models := make([]*regress.Model, len(folds))
	choices := make([]loo.Choice, len(folds))
	xs := make([]*linalg.Dense, len(folds))
	for k, f := range folds {
		rest := loo.Complement(n, f)
		xs[k] = rowsOfDense(x, f)
		if models[k], choices[k], err = fit(fmt.Sprintf("folds[%d]", k), rowsOfDense(x, rest), rowsOfDense(y, rest)); err != nil {
			return nil, err
		}
	}
	return assembleCV(op, models, xs, y, folds, full, &chosen, choices)
}

// NystromCVChosen is NystromCV with σ and λ chosen inside each fold by
// the selection sn (its grids, intercept mode and criterion; sn.Centers
// are the centres of every fit, and Sigmas is required): one
// regress.NystromStats per σ and fold from one pass over the rows, then
// for each fold k the merge of the other folds' statistics of every σ,
// from which loo.SelectNystrom.FitStats chooses fold k's pair and fits it
// — by GCV from the statistics alone, or by the exact leave-one-out of
// the rows outside fold k (one more pass over them per σ). The fit on all
// rows is the same choice from the merge of every fold. Each fold model
// is what sn.Fit chooses and fits on the rows outside its fold, to the
// rounding of the merges. CV.Choices returns the pairs.
//
// Cost: the pass (S·(2md + 2m²) flops a row), (K + 1)·S λ paths (9m³
// each) and K·S merges per fold, and with a leave-one-out criterion
// K + 1 passes over about n rows per σ; memory (K + 1)·S sets of
// statistics (2m² values each) and one λ path, checked first.
//
// Errors: those of loo.SelectNystrom.FitStats and regress.NewNystromStats
// (wrapped as input errors of this call where they are), and ErrInput for
// folds that are not a partition.
func NystromCVChosen(sn loo.SelectNystrom, x, y *linalg.Dense, folds [][]int) (*CV, error) {
	const op = "NystromCVChosen"
	if sn.Kernel == nil {
		return nil, inputError(op, "sn.Kernel", "nil kernel function")
	}
	if len(sn.Sigmas) == 0 {
		return nil, inputError(op, "sn.Sigmas", "no σ: give the grid (a grid drawn from all rows would be a choice outside the folds)")
	}
	if err := check.XY(ErrInput, op, x, y, 2); err != nil {
		return nil, err
	}
	if err := checkFolds(op, folds, x.Rows); err != nil {
		return nil, err
	}
	if err := check.Data(ErrInput, op, "sn.Centers", sn.Centers, 1); err != nil {
		return nil, err
	}
	m, ns, kk := sn.Centers.Rows, len(sn.Sigmas), len(folds)
	if err := memlimit.Check(op, memlimit.Floats((kk+2)*ns+4, m, m+y.Cols+x.Cols+3)); err != nil {
		return nil, err
	}
	n := x.Rows
	stats := make([][]*regress.NystromStats, ns) // [σ][fold]
	xs := make([]*linalg.Dense, kk)
	ys := make([]*linalg.Dense, kk)
	for k, f := range folds {
		xs[k], ys[k] = rowsOfDense(x, f), rowsOfDense(y, f)
	}
	for s, sg := range sn.Sigmas {
		stats[s] = make([]*regress.NystromStats, kk)
		for k := range folds {
			st, err := regress.NewNystromStats(sn.Kernel(sg), sn.Centers)
			if err == nil {
				err = st.Add(xs[k], ys[k])
			}
			if err != nil {
				return nil, fitError(op, fmt.Sprintf("sn.Kernel(%g)", sg), err)
			}
			stats[s][k] = st
		}
	}
	rows := func(k int) (*linalg.Dense, *linalg.Dense) {
		if sn.Criterion == loo.GCV {
			return nil, nil
		}
		if k < 0 {
			return x, y
		}
		rest := loo.Complement(n, folds[k])
		return rowsOfDense(x, rest), rowsOfDense(y, rest)
	}
	fits, err := chooseFolds(op, sn, stats, rows)
	if err != nil {
		return nil, err
	}
	return assembleCV(op, fits.Models, xs, y, folds, fits.Full, &fits.Chosen, fits.Choices)
}

// chooseFolds runs sn.FitStats on the merge of every fold's statistics but
// fold k's (stats[σ][fold]), for each fold k, with the rows rows(k) (nil
// for GCV), and on the merge of all with rows(−1).
func chooseFolds(op string, sn loo.SelectNystrom, stats [][]*regress.NystromStats, rows func(k int) (*linalg.Dense, *linalg.Dense)) (*FoldFits, error) {
	kk := len(stats[0])
	out := &FoldFits{Models: make([]*regress.Model, kk), Choices: make([]loo.Choice, kk)}
	merged := make([]*regress.NystromStats, len(stats))
	for s := range stats {
		var err error
		if merged[s], err = regress.NewNystromStats(stats[s][0].Kernel(), stats[s][0].Centers()); err != nil {
			return nil, fitError(op, "stats", err)
		}
	}
	for k := -1; k < kk; k++ {
		for s := range stats {
			merged[s].Reset()
			for j, st := range stats[s] {
				if j == k {
					continue
				}
				if err := merged[s].Merge(st); err != nil {
					return nil, fitError(op, fmt.Sprintf("stats[%d][%d]", s, j), err)
				}
			}
		}
		rx, ry := rows(k)
		sel, err := sn.FitStats(merged, rx, ry)
		if err != nil {
			arg := "all folds"
			if k >= 0 {
				arg = fmt.Sprintf("the rows outside fold %d", k)
			}
			return nil, fitError(op, arg, err)
		}
		if k < 0 {
			out.Full, out.Chosen = sel.Fit.Model, sel.Choice
		} else {
			out.Models[k], out.Choices[k] = sel.Fit.Model, sel.Choice
		}
	}
	return out, nil
}

// assembleCV computes the held-out residuals of each fold (xs[k] the rows
// of folds[k], y all targets) from its model and builds the CV, with the
// full fit and the choices when there are.
func assembleCV(op string, models []*regress.Model, xs []*linalg.Dense, y *linalg.Dense, folds [][]int, full *regress.Model, chosen *loo.Choice, choices []loo.Choice) (*CV, error) {
	residuals := make([]*linalg.Dense, len(folds))
	for k, f := range folds {
		p, err := models[k].Predict(xs[k])
		if err != nil {
			return nil, fitError(op, "X", err)
		}
		for r, i := range f {
			for out := 0; out < p.Cols; out++ {
				p.Set(r, out, y.At(i, out)-p.At(r, out))
			}
		}
		residuals[k] = p
	}
	c, err := NewCV(models, residuals)
	if err != nil {
		return nil, err
	}
	c.full, c.chosen, c.choices = full, chosen, choices
	return c, nil
}
