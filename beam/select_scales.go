package rkhsbeam

import (
	"fmt"
	"math"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"rkhs/classify"
	"rkhs/linalg"
	"rkhs/loo"
)

// The descent of one length scale per feature (SelectOptions.ARD), after
// the grid: loo.SelectScales.Descend from the grid's pair (σ₀, λ₀), on
// the centres and standardization of the first pass and the selection's
// criterion, S the rows of the grid's leave-one-out pass (every row up to
// loo.DefaultSubsetAbove, as rkhs). Each evaluation of the objective J and its
// gradient at θ = (log σ₁ … log σ_d, log λ) is two or three pipelines
// and the work of this process between them (the passes of
// loo.ScaleObjective, docs/notes/ard-gradient.md; scale_pass.go runs them
// on the workers):
//
//  1. pass 0, every file: loo.ScaleStats at θ, merged by a CombineFn,
//     written to the scratch directory;
//  2. here, the path of the merged statistics (loo.NewScalePath): a θ at
//     which it is numerically singular ends the evaluation (J = +Inf,
//     the line search backs off);
//  3. unless the criterion is GCV, pass A, every file: loo.ScaleLOO of
//     the path, which every worker rebuilds from the statistics, merged
//     and written;
//  4. pass B, every file: loo.ScaleAdjoint of the path and the merged
//     pass-A sums (every row of S), merged and written;
//  5. here, the merged pass-B sums decoded into the adjoint made the same
//     way: J and ∇J (loo.ScaleAdjoint.Result).
//
// An evaluation costs what loo.ScaleObjective.Evaluate costs on the rows
// in memory, spread over the workers, plus three reads of the input and
// the start of two or three jobs. Then the model: the path's fit at the θ
// the descent ends at (the last evaluation's path when it was there,
// else one more pass 0), with the first pass's standardization composed
// with the scales (loo.ComposeScales), so that it predicts raw rows and
// rkhs predict reads it.
//
// The descent evaluates on the first loo.SelectScales.DescentCenters(m)
// of the m centres (scaleFn.Centers tells the workers how many), as
// loo.SelectScales.Fit does, and the model is the fit on all m at the θ
// it ends at, with its objective on every row (one more pass 0 and A).
//
// With SelectOptions.ARDRows, the descent fits on some of the rows
// instead (loo.SelectScales.Rows), as loo.SelectScales.Fit does: one
// pipeline gathers them (scale_rows.go), the descent runs on them in this
// process (loo.ScaleObjective.Evaluate: no pipeline an evaluation), and
// the fit at the scales is on every row, pass 0 and, for its
// leave-one-out error, pass A.
//
// The result equals loo.SelectScales.Fit on the same rows (standardized
// by the first pass's map), centres and start, to the rounding of the
// merges: each evaluation's J and ∇J differ by the grouping of the sums
// only (about 10⁻¹⁴ relative), and the descent, which follows them,
// differs by what L-BFGS makes of that; a descent on gathered rows is
// Fit's, bit for bit, and only the fit on every row is merged.

// scaleFile is the scratch file of the merged sums of a pass.
func (r *selection) scaleFile(pass int) string { return fmt.Sprintf("%s/scale-%d.bin", r.dir, pass) }

// scaleRun is the descent of a selection: its objective, and the θ and
// path of the latest evaluation's pass 0.
type scaleRun struct {
	r   *selection
	obj loo.ScaleObjective
	// centers is the number of the first pass's centres the objective
	// holds (loo.SelectScales.DescentCenters while descending), 0 for
	// every one.
	centers int
	theta   []float64
	path    *loo.ScalePath
}

// newScaleRun returns the descent of the selection r, after its grid.
func newScaleRun(r *selection) *scaleRun {
	obj := loo.ScaleObjective{Centers: r.first.Centers, Intercept: r.o.Intercept, Criterion: r.o.Criterion, Seed: r.o.Seed}
	if obj.Criterion != loo.GCV {
		obj.Subset = loo.DefaultSubset(r.sel.Rows)
	}
	return &scaleRun{r: r, obj: obj}
}

// scales runs the descent from the grid's pair and makes the fit at the
// scales the selection's model; the grid's becomes its Grid.
func (r *selection) scales() error {
	o := r.o
	sr := newScaleRun(r)
	ss := loo.SelectScales{Objective: sr.obj, Sigma: r.sel.Sigma, Lambda: r.sel.Lambda, MaxIter: o.ARDIters,
		Standardization: r.first.Scale, Progress: o.ARDProgress}
	if o.ARDRows != nil {
		var err error
		if ss.Rows, err = o.ARDRows(r.sel.Rows, r.first.Centers.Rows); err != nil {
			return err
		}
	}
	all, m := sr.obj, r.first.Centers.Rows
	if mc := ss.DescentCenters(m); mc < m { // the descent on the first mc centres, as loo.SelectScales.Fit's
		sr.centers, sr.obj.Centers = mc, r.first.Centers.Slice(0, mc, 0, r.first.Centers.Cols).Clone()
	}
	evaluate, fitRows := sr.evaluate, r.sel.Rows
	idx, err := ss.DescentRows(r.sel.Rows)
	if err != nil {
		return err
	}
	if idx != nil {
		x, y, err := r.gatherRows("length scales, the descent's rows", idx)
		if err == nil {
			err = ss.CheckDescentRows(y, r.sel.Rows, o.Classes) // ±1 codes of two classes or more
		}
		if err != nil {
			return err
		}
		if o.Classes {
			r.warnMissing("-ard-rows", y, r.sel.Rows)
		}
		evaluate = func(theta []float64) (*loo.ScaleEval, error) { return sr.obj.Evaluate(x, y, theta) }
		fitRows = len(idx)
	}
	sel, theta, err := ss.Descend(r.first.Centers.Cols, r.first.Constant, evaluate)
	if err != nil {
		return fmt.Errorf("rkhsbeam: the length scales from σ = %g, λ = %g: %w", r.sel.Sigma, r.sel.Lambda, err)
	}
	fewer := sr.centers > 0
	if fewer { // the fit at the scales on every centre
		sr.obj, sr.centers, sr.theta = all, 0, nil
	}
	if !slices.Equal(sr.theta, theta) {
		if _, err := sr.statistics(theta); err != nil {
			return err
		}
	}
	if fitRows < r.sel.Rows || fewer {
		if err := sr.value(sel); err != nil {
			return err
		}
	}
	fit, err := sr.path.Fit()
	if err != nil {
		return err
	}
	if fit.Model.Standardization, err = loo.ComposeScales(r.first.Scale, sel.Sigmas); err != nil {
		return err
	}
	fit.Model.FeatureNames, fit.Model.TargetName = r.first.Features, r.first.Target
	sel.Fit, sel.FitRows = fit, fitRows
	a, j, _ := r.sel.Scores.BestAt()
	start := r.sel.Score // the descent's objective at the grid's pair: GCV, or the leave-one-out MSE
	if o.Criterion != loo.GCV {
		start = r.sel.LOO[a][j]
	}
	r.sel.Grid, r.sel.Scales, r.sel.GridObjective = r.sel.Model, sel, start
	if r.sel.GridKept = sel.Worse(start); !r.sel.GridKept {
		r.setModel(fit.Model, sel.Lambda)
	}
	return nil
}

// evaluate returns J and its gradient at θ, from the passes over the
// input (see above).
func (sr *scaleRun) evaluate(theta []float64) (*loo.ScaleEval, error) {
	r := sr.r
	theta = slices.Clone(theta)
	path, err := sr.statistics(theta)
	if err != nil {
		return nil, err
	}
	var a *loo.ScaleLOO
	if r.o.Criterion != loo.GCV {
		if err := sr.pass(theta, scalePassA); err != nil {
			return nil, err
		}
		if a, err = path.NewLOO(); err == nil {
			err = readSums(r.ctx, a, r.scaleFile(scalePassA))
		}
		if err != nil {
			return nil, err
		}
		if a.Rows() != r.sel.LOORows {
			return nil, fmt.Errorf("rkhsbeam: the leave-one-out pass read %d rows, the grid %d: did the input change?", a.Rows(), r.sel.LOORows)
		}
	}
	ad, err := path.NewAdjoint(a)
	if err != nil {
		return nil, err
	}
	if err := sr.pass(theta, scalePassB); err != nil {
		return nil, err
	}
	if err := readSums(r.ctx, ad, r.scaleFile(scalePassB)); err != nil {
		return nil, err
	}
	return ad.Result()
}

// value sets the objective of sel from the path at its scales, on every
// row: GCV from the statistics, or the leave-one-out error of pass A, as
// loo.SelectScales.Fit finds it after a descent on some of the rows.
func (sr *scaleRun) value(sel *loo.ScaleSelection) error {
	r, path := sr.r, sr.path
	if r.o.Criterion == loo.GCV {
		sel.Objective, sel.StdErr, sel.LOORows = path.GCV, 0, 0
		sel.ErrorRate, sel.ErrorRateStdErr = math.NaN(), math.NaN()
		return nil
	}
	if err := sr.pass(sr.theta, scalePassA); err != nil {
		return err
	}
	a, err := path.NewLOO()
	if err == nil {
		err = readSums(r.ctx, a, r.scaleFile(scalePassA))
	}
	if err != nil {
		return err
	}
	ev, err := a.Result()
	if err != nil {
		return err
	}
	sel.Objective, sel.StdErr, sel.LOORows = ev.Value, ev.StdErr, ev.LOORows
	sel.ErrorRate, sel.ErrorRateStdErr = ev.ErrorRate, ev.ErrorRateStdErr
	return nil
}

// statistics runs pass 0 at θ and returns the path of the merged
// statistics, which it keeps with θ.
func (sr *scaleRun) statistics(theta []float64) (*loo.ScalePath, error) {
	r := sr.r
	sr.theta, sr.path = nil, nil
	st, err := sr.obj.NewStats(theta)
	if err != nil {
		return nil, err
	}
	if err := sr.pass(theta, scalePass0); err != nil {
		return nil, err
	}
	if err := readSums(r.ctx, st, r.scaleFile(scalePass0)); err != nil {
		return nil, err
	}
	if st.Rows() != r.sel.Rows {
		return nil, fmt.Errorf("rkhsbeam: the statistics at the length scales have %d rows, the grid %d: did the input change?", st.Rows(), r.sel.Rows)
	}
	path, err := loo.NewScalePath(st)
	if err != nil {
		return nil, err
	}
	sr.theta, sr.path = theta, path
	return path, nil
}

// pass runs one pass of the evaluation at θ over every file (see
// scale_pass.go) and writes the merged sums to its scratch file.
func (sr *scaleRun) pass(theta []float64, pass int) error {
	r, o := sr.r, sr.r.o
	fn := scaleFn{Prep: r.prepBytes, Theta: theta, Intercept: int(o.Intercept), Criterion: int(o.Criterion), Pass: pass,
		Subset: sr.obj.Subset, Seed: sr.obj.Seed, Centers: sr.centers, At: r.loo, Stats: r.scaleFile(scalePass0), LOO: r.scaleFile(scalePassA)}
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope(fmt.Sprintf("rkhs length scales, pass %c", "0AB"[pass]))
	names, err := files(s, o.Input)
	if err != nil {
		return err
	}
	beam.ParDo0(s, &writeBytesFn{Name: r.scaleFile(pass)}, mergedSums(s, fn, o.Input, names))
	return r.run(r.ctx, p)
}

// warnMissing adds to the selection's warnings, as rkhs warns, the
// classes of the first pass that none of the rows drawn for flag holds,
// from their coded labels y (classify.DescribeMissingOf), of n rows.
func (r *selection) warnMissing(flag string, y *linalg.Dense, n int) {
	classes := r.first.Classes
	labels, drawn := make([]float64, y.Rows, y.Rows+len(classes)), make([]int, y.Rows)
	for i := range y.Rows {
		c := slices.Index(y.Row(i), 1) // one-vs-all: +1 in the column of its class
		if y.Cols == 1 {
			c = (int(y.At(i, 0)) + 1) / 2 // two classes: −1, +1
		}
		labels[i], drawn[i] = classes[c], i
	}
	w := classify.DescribeMissingOf(classify.MissingClasses(append(labels, classes...), drawn), y.Rows, n)
	if w != "" {
		r.sel.Warnings = append(r.sel.Warnings, fmt.Sprintf("%s %d: %s; raise %s (or 0 for every row)", flag, y.Rows, w, flag))
	}
}
