package rkhsbeam

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"rkhs/classify"
	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/model"
	"rkhs/regress"
	"rkhs/report"
)

// SelectOptions describe the choice of the kernel width σ and λ of a
// Nyström fit of the rows of Input over a σ × λ grid, by exact
// leave-one-out or GCV (loo.SelectNystrom, run as passes of a pipeline),
// and the fit at the pair chosen. No field has a default but Scratch.
type SelectOptions struct {
	Input Input
	// Kernel is the kernel's type, gaussian or laplacian, and its other
	// parameters; its Sigma is ignored (Sigmas).
	Kernel kernels.Spec
	// Sigmas and Lambdas are the grids: σ > 0, and λ > 0 in the K + nλI
	// convention, n the number of rows read. Or, instead of Sigmas,
	// MedianRatios: the σ grid is the median heuristic times each ratio
	// (rkhs's default: loo.DefaultSigmaRatios), the median distance between
	// rows as the kernel sees them (standardized, in its own norm) that
	// loo.MedianDistanceOf measures on the rows in memory, on the same
	// rows (loo.MedianRows with Seed).
	Sigmas, MedianRatios, Lambdas []float64
	Intercept                     regress.Intercept
	// Standardize, if set, scales every feature to mean 0 and standard
	// deviation 1 by the moments of the rows read before the kernel (as
	// FitOptions.Standardize); the model keeps the map.
	Standardize bool
	// Classes, if set, reads the labels as classes: coded ±1 for two
	// classes, one column per class (one-vs-all) beyond, as rkhs classify
	// codes them, and the model written is a classifier
	// (classify.RLSModel, what rkhs classify -method nystrom writes).
	// Labels that look like a continuous target are refused
	// (classify.CheckClasses with the limit MaxClasses; 0: its default,
	// max(20, n/10) for n rows).
	Classes    bool
	MaxClasses int
	// Criterion is loo.LOOMSE (the mean squared exact leave-one-out
	// residual: a second pass over the input), loo.LOOErrorRate (with
	// Classes: the share of rows whose leave-one-out class is wrong, ties
	// broken by the leave-one-out MSE; a second pass) or loo.GCV (from
	// the statistics alone).
	Criterion loo.Criterion
	// Centers is m, the number of centres shared by every σ, drawn with
	// Seed as regress.NystromCenters draws them from the rows in memory
	// (the first m distinct rows in the order regress.CenterOrder gives,
	// the rows as the kernel sees them), so that rkhs fit and classify
	// with the same -centers and -seed use the same centres; or
	// CentersFile, if not empty, is a file of centres in the input's
	// format, and Centers must be 0. Seed also draws the leave-one-out
	// subset (loo.DefaultSubset of the rows read, drawn as
	// loo.SelectNystrom.SubsetRows draws it), as rkhs does by default.
	Centers     int
	Seed        uint64
	CentersFile string
	// ARD, if set, learns one Gaussian length scale per feature, and λ,
	// after the grid (automatic relevance determination): the descent of
	// loo.SelectScales (loo.SelectScales.Descend) from the grid's choice
	// (σ₀, λ₀), with the same centres, standardization and criterion
	// (with Classes, the squared leave-one-out error of the ±1 codes, the
	// error rate reported beside it), each evaluation of the objective and
	// its gradient two or three pipelines (see select_scales.go); the
	// model written is the fit at the scales. Gaussian kernel only.
	// ARDIters is the descent's budget of iterations (0: loo's default,
	// 50); ARDProgress, if not nil, is called at the start and after every
	// iteration, as loo.SelectScales.Progress. ARDRows, if not nil, gives
	// the number of rows the descent fits on for the n rows read and the m
	// centres (loo.SelectScales.Rows: 0, or n or more, for every row), or
	// an error that refuses the run (a front end's words for the rule of
	// loo.MinDescentRows; loo's error otherwise): drawn with
	// Seed by their place among all the rows (the files in the order
	// Input.Files lists them), gathered by one pipeline, and the descent
	// runs on them in this process; the fit at the scales, and the
	// objective there, are on every row (see select_scales.go).
	ARD         bool
	ARDIters    int
	ARDProgress func(iter int, objective, projGrad, seconds float64)
	ARDRows     func(n, m int) (int, error)
	// Folds, if not 0, is K ≥ 2 of CV+ intervals (Barber, Candès, Ramdas
	// and Tibshirani, "Predictive inference with the jackknife+", 2021)
	// at the chosen pair, streamed as rkhs fit -interval-method cv+
	// streams them (see cv_plus.go): a row's fold is
	// interval.StreamFold(Seed, its place among all the rows, K); two
	// more pipelines; the model file then holds the interval.CV with the
	// model, as rkhs saves it, for rkhs predict -interval LEVEL. Not with
	// Classes or ARD. Memory here and on a worker: K + 2 statistics of
	// 2m² values and the residuals, 8 bytes a row.
	Folds int
	// Level, if not 0, is the level in (0, 1) the intervals of Folds are
	// meant for (the model file keeps them for any level): Select refuses,
	// before the CV+ pipelines, a level its rows cannot reach
	// (interval.Reach: n rows give finite intervals up to n/(n+1)), and
	// Folds above the rows, as rkhs fit -interval refuses both.
	Level float64
	// Model is the file the model at the chosen pair (with ARD, the
	// scales) is written to, in the JSON format of regress.Model
	// (classify.RLSModel with Classes).
	Model string
	// Scratch is a directory that the workers and this process share
	// (os.TempDir() if empty): each selection works in a directory of its
	// own there, removed at the end.
	Scratch string
}

// Selection is the result of Select: the pair chosen, the table of every
// pair and the model at the pair chosen.
type Selection struct {
	// Choice is the pair chosen and its score.
	loo.Choice
	Criterion loo.Criterion
	// Scores is the table of the criterion; LOO (nil with GCV), GCV and
	// DF hold the mean squared leave-one-out residual, the GCV score and
	// tr H of every pair, [σ][λ]. A pair at which the Nyström system is
	// numerically singular scores +Inf.
	Scores       *loo.Table
	LOO, GCV, DF [][]float64
	// LOOError holds the leave-one-out error rate of every pair with the
	// criterion loo.LOOErrorRate, nil otherwise.
	LOOError [][]float64
	// Rows is the number of rows read; LOORows the number of rows of the
	// leave-one-out pass (0 with GCV).
	Rows, LOORows int
	// Median is the median distance between rows when the σ grid is
	// MedianRatios times it, 0 otherwise.
	Median float64
	// Notes and Warnings are what the standardization tells the user
	// (report.StandardizeNotes), one line each; Warnings also says, with
	// Classes and ARDRows, which classes the descent's rows miss, as rkhs
	// warns.
	Notes, Warnings []string
	// Model is the fit at the chosen pair (with the standardization, if
	// any), also written to Model; Classifier, with Classes, is the
	// classifier written instead, whose Model is Model. With ARD, Model
	// is the fit at the scales (Scales.Fit.Model, unless GridKept) and
	// Grid the fit at the grid's pair, where the descent began: its
	// centres and standardization are the descent's.
	Model      *regress.Model
	Classifier *classify.RLSModel
	Grid       *regress.Model
	// Scales is, with ARD, the descent's result (loo.ScaleSelection: the
	// scales σ_j of the standardized features, λ, the objective, its
	// history, the constant features), nil otherwise. GridObjective is
	// the descent's objective at the grid's pair (its leave-one-out MSE,
	// or GCV), and GridKept says that the scales do worse on every row
	// (loo.ScaleSelection.Worse): the model (Model, Classifier, the file
	// written) is then the grid's, as rkhs keeps it.
	Scales        *loo.ScaleSelection
	GridObjective float64
	GridKept      bool
	// Intervals is, with Folds, the CV+ of Model (interval.CV with it as
	// its model), written to the model file; nil otherwise.
	Intervals *interval.CV
}

func (o SelectOptions) check() error {
	const op = "SelectOptions"
	if err := o.Input.check(); err != nil {
		return err
	}
	if o.Kernel.Type != "gaussian" && o.Kernel.Type != "laplacian" {
		return check.Input(ErrOptions, op, "Kernel", "%q has no width σ to choose: want gaussian or laplacian", o.Kernel.Type)
	}
	grid := struct {
		name string
		v    []float64
	}{"Sigmas", o.Sigmas}
	switch {
	case len(o.Sigmas) > 0 && len(o.MedianRatios) > 0:
		return check.Input(ErrOptions, op, "MedianRatios", "with Sigmas: give one grid of σ or the other")
	case len(o.MedianRatios) > 0:
		grid.name, grid.v = "MedianRatios", o.MedianRatios
	}
	for _, g := range []struct {
		name string
		v    []float64
	}{grid, {"Lambdas", o.Lambdas}} {
		if len(g.v) == 0 {
			return check.Input(ErrOptions, op, g.name, "an empty grid")
		}
		for _, v := range g.v {
			if err := check.Positive(ErrOptions, op, g.name, v); err != nil {
				return err
			}
		}
	}
	k := o.Kernel
	k.Sigma = 1
	if len(o.Sigmas) > 0 {
		k.Sigma = o.Sigmas[0]
	}
	if _, err := k.Kernel(); err != nil {
		return check.Wrap(ErrOptions, op, "Kernel", err)
	}
	if err := check.Valid(ErrOptions, op, "Intercept", o.Intercept); err != nil {
		return err
	}
	switch {
	case o.Criterion == loo.LOOErrorRate && !o.Classes:
		return check.Input(ErrOptions, op, "Criterion", "loo_error counts wrong classes: set Classes")
	case o.Criterion != loo.LOOMSE && o.Criterion != loo.GCV && o.Criterion != loo.LOOErrorRate:
		return check.Input(ErrOptions, op, "Criterion", "%v: want loo_mse, loo_error or gcv", o.Criterion)
	}
	switch {
	case o.ARD && o.Kernel.Type != "gaussian":
		return check.Input(ErrOptions, op, "ARD", "with the %s kernel: one length scale per feature is the Gaussian kernel's", o.Kernel.Type)
	case o.ARDIters < 0:
		return check.Input(ErrOptions, op, "ARDIters", "%d: want ≥ 0 (0: the default budget)", o.ARDIters)
	case !o.ARD && (o.ARDIters != 0 || o.ARDProgress != nil || o.ARDRows != nil):
		return check.Input(ErrOptions, op, "ARDIters", "the descent's options without ARD")
	case o.Folds != 0 && o.Folds < 2:
		return check.Input(ErrOptions, op, "Folds", "%d: want K ≥ 2 (CV+ leaves out one of K folds), or 0 for no intervals", o.Folds)
	case o.Folds != 0 && (o.Classes || o.ARD):
		return check.Input(ErrOptions, op, "Folds", "CV+ intervals with Classes or ARD: a streamed CV+ is of a regression on the grid's kernel")
	}
	if err := checkJob(op, o.Input, o.Centers, o.CentersFile, o.Model); err != nil {
		return err
	}
	if o.MaxClasses < 0 {
		return check.Input(ErrOptions, op, "MaxClasses", "%d: want ≥ 0 (0: classify.MaxClasses)", o.MaxClasses)
	}
	if m, d := o.Centers, o.Input.Width; m > 0 {
		// This process holds a path of four m×m matrices per σ; a worker
		// the centres, the statistics and a path (about 8m² values).
		// With ARD, this process holds an evaluation's statistics, path
		// and sums, about twelve m×m matrices.
		nl, ns, more := len(o.Lambdas), len(o.Sigmas)+len(o.MedianRatios), 0
		if o.ARD {
			more = 12
		}
		if o.Folds > 0 {
			more = 2 * (o.Folds + 2) // CV+: K + 2 statistics of 2m² values (cv_plus.go)
		}
		if err := memlimit.Check("rkhs-beam select", memlimit.Sum(memlimit.Floats(2, m, d), memlimit.Floats(4*ns+4+more, m, m), memlimit.Floats(2*m*ns, nl, 2))); err != nil {
			return fmt.Errorf("%w: fewer -centers, or fewer σ", err)
		}
	}
	return nil
}

// Check reports, before any pipeline, options that cannot run (as Select
// reports them).
func (o SelectOptions) Check(ctx context.Context) error {
	if err := o.check(); err != nil {
		return err
	}
	if _, err := o.Input.Files(ctx); err != nil {
		return err
	}
	return checkBesideLayout(ctx, o.Input, o.CentersFile)
}

// Select chooses σ and λ as o describes and writes the model at the pair
// chosen to o.Model. run runs a pipeline (on the runner of the caller's
// choice). The passes over the input are:
//
//  1. one pipeline (selection.first): the first pass (see prepare.go): as
//     asked, the features' moments (o.Standardize), the labels (their
//     number, their largest magnitude, with o.Classes the classes) and the
//     rows of each file; labels the selection cannot use are refused here,
//     with the kind of the library's error (classify.CheckClasses, loo's
//     bound on labels whose squares overflow);
//  2. one pipeline (selection.draw, scale_rows.go) gathers the rows rkhs
//     draws its centres and its median from: the first o.Centers places
//     of regress.CenterOrder (more, in further pipelines, while fewer of
//     them are distinct), and loo.MedianRows; here, the centres
//     (regress.FirstDistinct) and the median (loo.MedianDistance), so the
//     σ grid;
//  3. one pipeline (selection.statistics): for each σ the statistics pass
//     of Fit (regress.NystromStats per file, merged by a CombineFn) on
//     the rows as the first pass prepared them, written to the scratch
//     directory;
//  4. in this process, for each σ, loo.UsableNystromPath on the merged
//     statistics: tr H and GCV for every λ (selection.lambdaPaths);
//  5. unless the criterion is GCV, one more pipeline
//     (selection.leaveOneOut): for each σ every file is read by one
//     worker, which rebuilds the λ path from the statistics in the
//     scratch directory (bit for bit the path of this process) and adds
//     the file's rows of the leave-one-out subset (NystromPath.Add:
//     every row up to loo.DefaultSubsetAbove); the workers' residual sums cross
//     the process boundary in their binary encoding
//     (NystromPath.MarshalBinary) and are merged by a CombineFn
//     (NystromPath.Merge);
//  6. in this process (selection.choose), the pair loo.Table.Best
//     chooses, the rule of loo.SelectNystrom (the smallest score, ties of
//     the error rate to the smaller leave-one-out MSE, then the first pair
//     in grid order; a pair at which the system is numerically singular
//     scores +Inf and is never chosen), and the fit there read from its λ
//     path (loo.NystromPath.Fit: the model whose residuals were scored),
//     with the standardization and the column names, written as a
//     regress.Model or, with o.Classes, a classify.RLSModel;
//  7. with o.ARD, the descent of one length scale per feature from that
//     pair (selection.scales, see select_scales.go): two or three
//     pipelines for each evaluation of the objective and its gradient,
//     the model written the fit at the scales.
//
// Every path a worker reads or writes (the input, the centres file, the
// scratch directory) must be one the workers reach: a relative path only
// with workers in this process (Prism in-process), an absolute one for
// workers on this machine (Prism as a job server), a shared filesystem or
// an object store on a cluster; the scratch directory is made absolute
// here.
//
// The scores equal loo.SelectNystrom's on the same rows (standardized by
// the model's map, labels coded as the classes say), with the centres,
// median and subset rkhs draws from them with the same seed, to the
// rounding of the merges (the moments of the standardization, the sums). A λ that
// loo.UsableNystromPath finds the system singular at is left out of that
// σ's pass; a leave-one-out residual that is not finite on a worker fails
// the job (loo.SelectNystrom scores that λ alone instead).
//
// Errors, before anything runs: invalid or incomplete options (a
// *linalg.InputError of kind ErrOptions), centres and paths that would not
// fit in memory (linalg.ErrTooLarge), an input pattern that matches no
// file. After the first pipeline: labels that are not classes or whose
// squares overflow (an InputError of kind classify.ErrInput or
// loo.ErrInput). Then the errors of the jobs (as Fit's), of the λ path,
// and no finite score on the grid (ErrOptions). With ARD, the errors of
// the descent (loo.SelectScales.Descend's: the grid's pair singular, no
// error to reduce) and of its jobs.
func Select(ctx context.Context, o SelectOptions, run func(context.Context, *beam.Pipeline) error) (*Selection, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	dir, cleanup, err := scratchDir(o.Scratch, "select")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	r := &selection{o: o, ctx: ctx, run: run, dir: dir, ns: len(o.Sigmas) + len(o.MedianRatios)}
	defer r.removeFiles()
	if err := r.firstPass(); err != nil {
		return nil, err
	}
	if err := r.draw(); err != nil {
		return nil, err
	}
	if err := r.statistics(); err != nil {
		return nil, err
	}
	if err := r.lambdaPaths(); err != nil {
		return nil, err
	}
	if o.Criterion != loo.GCV {
		if err := r.leaveOneOut(); err != nil {
			return nil, err
		}
	}
	if err := r.choose(); err != nil {
		return nil, err
	}
	if o.ARD {
		if err := r.scales(); err != nil {
			return nil, err
		}
	}
	if o.Folds != 0 {
		if err := r.cvPlus(); err != nil {
			return nil, err
		}
	}
	return r.sel, r.write()
}

// selection is one run of Select: its options, its scratch directory, and
// what its passes found so far.
type selection struct {
	o   SelectOptions
	ctx context.Context
	run func(context.Context, *beam.Pipeline) error
	dir string
	ns  int // the number of σ
	// deadLetter skips malformed lines (DrawCenters for a fit that sets
	// them aside); a selection fails on the first.
	deadLetter bool

	prepBytes []byte // the first pass's prep with the centres, encoded
	first     *prep  // and decoded
	loo       places // the rows of the leave-one-out passes
	median    float64
	sigmas    []float64
	paths     []*loo.NystromPath // the λ path of each σ, nil where no λ is usable
	usable    [][]int            // the λ of each path, indices into o.Lambdas
	sel       *Selection
}

// The files of the scratch directory: the prep, and the statistics and
// the leave-one-out sums of each σ.
func (r *selection) prepFile() string       { return r.dir + "/prep.json" }
func (r *selection) statsFile(a int) string { return fmt.Sprintf("%s/stats-%d.bin", r.dir, a) }
func (r *selection) sumsFile(a int) string  { return fmt.Sprintf("%s/loo-%d.bin", r.dir, a) }

// removeFiles removes what the scratch directory's cleanup cannot: files
// in an object store.
func (r *selection) removeFiles() {
	removeFile(r.ctx, r.prepFile())
	for a := range r.ns {
		removeFile(r.ctx, r.statsFile(a))
		removeFile(r.ctx, r.sumsFile(a))
	}
	for p := range scalePasses {
		removeFile(r.ctx, r.scaleFile(p))
	}
	removeFile(r.ctx, r.rowsFile())
	removeFile(r.ctx, r.foldsFile())
	removeFile(r.ctx, r.cvFile())
}

// firstPass runs the first pipeline, the first pass, and reads its prep:
// labels refused.
func (r *selection) firstPass() error {
	o := r.o
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope("rkhs nystrom select")
	names, err := files(s, o.Input)
	if err != nil {
		return err
	}
	pr := prepare(s, o.Input, names, firstPass{Seed: o.Seed, CentersFile: o.CentersFile, Standardize: o.Standardize,
		Classes: o.Classes, MaxClasses: o.MaxClasses, Squares: true, Scales: o.ARD, Places: true, DeadLetter: r.deadLetter})
	beam.ParDo0(s, &writeBytesFn{Name: r.prepFile()}, pr)
	if err := r.run(r.ctx, p); err != nil {
		return err
	}
	if r.prepBytes, err = readAllFile(r.ctx, r.prepFile()); err != nil {
		return err
	}
	if r.first, err = decodePrep(r.prepBytes); err != nil {
		return err
	}
	return r.first.refusal()
}

// draw draws the centres (unless a file gave them) and measures the
// median of the σ grid (with MedianRatios) on the rows rkhs draws them
// from — gathered by one pipeline, more while the centres' candidates
// repeat rows — and sets the σ grid and the prep of the later passes.
func (r *selection) draw() error {
	o, n := r.o, r.first.Rows
	var order, med []int
	if o.CentersFile == "" {
		if o.Centers > n {
			return fmt.Errorf("rkhsbeam: the input has %s, fewer than the %d centres asked", report.Count(n, "row"), o.Centers)
		}
		order = regress.CenterOrder(n, o.Seed)
	}
	if len(o.MedianRatios) > 0 {
		med = loo.MedianRows(n, o.Seed)
	}
	got := order[:min(len(order), o.Centers)] // the candidates gathered, in the order
	idx := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(got), med...))))
	var x *linalg.Dense
	if len(idx) > 0 {
		var err error
		if x, _, err = r.gatherRows("nystrom select, the rows of the centres and the median", idx); err != nil {
			return err
		}
	}
	r.sigmas = o.Sigmas
	if len(med) > 0 {
		k := o.Kernel
		k.Sigma = 1 // its type, not its σ, chooses the distance
		kern, err := k.Kernel()
		if err != nil {
			return err
		}
		norm, err := loo.NormOf(kern)
		if err == nil {
			r.median, err = loo.MedianDistance(rowsAt(x, idx, med), norm, 0, o.Seed)
		}
		if err != nil {
			return fmt.Errorf("rkhsbeam: the median distance between rows: %w", err)
		}
		r.sigmas = make([]float64, r.ns)
		for a, ratio := range o.MedianRatios {
			r.sigmas[a] = ratio * r.median
		}
	}
	if order != nil {
		cand := rowsAt(x, idx, got)
		keep := regress.FirstDistinct(cand, o.Centers)
		for len(keep) < o.Centers && len(got) < n {
			more := order[len(got):min(n, len(got)+2*(o.Centers-len(keep))+16)]
			sorted := slices.Sorted(slices.Values(more))
			mx, _, err := r.gatherRows("nystrom select, more rows for the centres", sorted)
			if err != nil {
				return err
			}
			all := linalg.NewDense(cand.Rows+len(more), cand.Cols, nil)
			copy(all.Data, cand.Data)
			copy(all.Data[len(cand.Data):], rowsAt(mx, sorted, more).Data)
			cand, got = all, order[:len(got)+len(more)]
			keep = regress.FirstDistinct(cand, o.Centers)
		}
		if len(keep) < o.Centers {
			return fmt.Errorf("rkhsbeam: the input has %s, fewer than the %d centres asked", report.Count(len(keep), "distinct row"), o.Centers)
		}
		at := make([]int, len(keep)) // the centres' places, ascending, as NystromCenters returns them
		for i, k := range keep {
			at[i] = got[k]
		}
		slices.Sort(at)
		r.first.Centers = rowsAt(cand, got, at)
	}
	r.prepBytes = encodePrep(r.first)
	return nil
}

// rowsAt returns the rows of x, whose rows are at the places idx, that
// are at the places want (each among idx), in the order of want.
func rowsAt(x *linalg.Dense, idx, want []int) *linalg.Dense {
	pos := make(map[int]int, len(idx))
	for i, pl := range idx {
		pos[pl] = i
	}
	out := linalg.NewDense(len(want), x.Cols, nil)
	for i, pl := range want {
		copy(out.Row(i), x.Row(pos[pl]))
	}
	return out
}

// statistics runs the pipeline of the statistics of every σ, on the
// centres and standardization of the prep.
func (r *selection) statistics() error {
	o := r.o
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope("rkhs nystrom select")
	names, err := files(s, o.Input)
	if err != nil {
		return err
	}
	pr := beam.Create(s, r.prepBytes)
	for a, sigma := range r.sigmas {
		k := o.Kernel
		k.Sigma = sigma
		stats, _ := statistics(s, o.Input, k, names, pr, o.CentersFile, false)
		beam.ParDo0(s, &writeBytesFn{Name: r.statsFile(a)}, stats)
	}
	return r.run(r.ctx, p)
}

// lambdaPaths forms, in this process, the λ path of every σ from its
// merged statistics (loo.UsableNystromPath): tr H and GCV for every λ.
func (r *selection) lambdaPaths() error {
	o, nl := r.o, len(r.o.Lambdas)
	r.sel = &Selection{
		Criterion: o.Criterion,
		Scores:    &loo.Table{Criterion: o.Criterion, Sigmas: slices.Clone(r.sigmas), Lambdas: slices.Clone(o.Lambdas)},
		Median:    r.median,
		Notes:     r.first.Notes,
		Warnings:  r.first.Warnings,
	}
	r.paths, r.usable = make([]*loo.NystromPath, r.ns), make([][]int, r.ns)
	for a := range r.ns {
		st, err := readStats(r.ctx, r.statsFile(a))
		if err != nil {
			return err
		}
		r.sel.Rows = st.Rows()
		path, usable, err := loo.UsableNystromPath(st, o.Intercept, o.Lambdas)
		switch {
		case errors.Is(err, linalg.ErrNotPositiveDefinite):
			// No λ usable: every λ scores +Inf.
		case err != nil:
			return err
		default:
			r.paths[a], r.usable[a] = path, usable
		}
		var gcv, df []float64
		if path != nil && err == nil {
			gcv, df = path.GCV, path.DF
		}
		r.sel.GCV = append(r.sel.GCV, spread(gcv, r.usable[a], nl))
		r.sel.DF = append(r.sel.DF, spread(df, r.usable[a], nl))
	}
	return r.looRows()
}

// spread returns the values v of the usable λ (their indices in a grid
// of n) as a row of the grid, +Inf, the score of a pair that has none, at
// the λ left out.
func spread(v []float64, usable []int, n int) []float64 {
	row := slices.Repeat([]float64{math.Inf(1)}, n)
	for b, j := range usable {
		row[j] = v[b]
	}
	return row
}

// leaveOneOut runs the second pipeline — every file's exact leave-one-out
// residuals at every σ, summed by the workers — and reads the sums: the
// leave-one-out MSE (and error rate) of every pair.
func (r *selection) leaveOneOut() error {
	o, nl := r.o, len(r.o.Lambdas)
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope("rkhs nystrom leave-one-out")
	names, err := files(s, o.Input)
	if err != nil {
		return err
	}
	for a, path := range r.paths {
		if path == nil {
			continue
		}
		fn := pathFn{Stats: r.statsFile(a), Lambdas: path.Lambdas, Intercept: int(o.Intercept)}
		per := beam.ParDo(s, &looFileFn{pathFn: fn, In: o.Input, Prep: r.prepBytes, At: r.loo}, names)
		sums := beam.Combine(s, &mergeFn[*loo.NystromPath, *pathFn]{Make: &fn}, per)
		beam.ParDo0(s, &writeBytesFn{Name: r.sumsFile(a)}, sums)
	}
	if err := r.run(r.ctx, p); err != nil {
		return err
	}
	for a, path := range r.paths {
		var mse, rate []float64
		if path != nil {
			if mse, rate, err = r.readSums(a); err != nil {
				return err
			}
		}
		r.sel.LOO = append(r.sel.LOO, spread(mse, r.usable[a], nl))
		if o.Criterion == loo.LOOErrorRate {
			r.sel.LOOError = append(r.sel.LOOError, spread(rate, r.usable[a], nl))
		}
	}
	return nil
}

// looRows sets the rows of the leave-one-out passes: rkhs's default
// subset of the rows read, drawn with the seed (loo.DefaultSubset,
// loo.SelectNystrom.SubsetRows), every row up to loo.DefaultSubsetAbove.
func (r *selection) looRows() error {
	n := r.first.Rows
	if r.o.Criterion == loo.GCV {
		return nil
	}
	idx := loo.SelectNystrom{Subset: loo.DefaultSubset(n), Seed: r.o.Seed}.SubsetRows(n)
	r.sel.LOORows = n
	if idx == nil {
		r.loo = places{}
		return nil
	}
	var err error
	r.loo, err = r.placesOf(idx)
	r.sel.LOORows = len(idx)
	return err
}

// readSums reads the merged leave-one-out sums of the σ of index a into
// its path and returns the leave-one-out MSE and error rate of its λ (the
// rate nil unless the criterion needs it and it exists).
func (r *selection) readSums(a int) (mse, rate []float64, err error) {
	path := r.paths[a]
	b, err := readAllFile(r.ctx, r.sumsFile(a))
	if err == nil {
		err = path.UnmarshalBinary(b)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("rkhsbeam: the leave-one-out sums at σ = %g: %w", r.sigmas[a], err)
	}
	if path.Rows() != r.sel.LOORows {
		return nil, nil, fmt.Errorf("rkhsbeam: the leave-one-out pass at σ = %g read %d rows, want %d: did the input change?", r.sigmas[a], path.Rows(), r.sel.LOORows)
	}
	if mse, err = path.MSE(); err != nil {
		return nil, nil, err
	}
	if r.o.Criterion == loo.LOOErrorRate {
		if rate, err = path.ErrorRate(); err != nil {
			return nil, nil, err
		}
	}
	return mse, rate, nil
}

// choose fills the table of the criterion, takes the pair the table's
// rule chooses (loo.Table.Best, as loo.SelectNystrom makes it) and reads
// the fit there from its λ path (loo.NystromPath.Fit, as
// loo.SelectNystrom reads it: the model whose residuals were scored).
func (r *selection) choose() error {
	sel, t := r.sel, r.sel.Scores
	for a := range r.sigmas {
		switch r.o.Criterion {
		case loo.GCV:
			t.Scores = append(t.Scores, sel.GCV[a])
		case loo.LOOMSE:
			t.Scores = append(t.Scores, sel.LOO[a])
		case loo.LOOErrorRate:
			t.Scores, t.Ties = append(t.Scores, sel.LOOError[a]), append(t.Ties, sel.LOO[a])
		}
	}
	best, j, ok := t.BestAt()
	if !ok {
		return check.Input(ErrOptions, "Select", "Lambdas", "no finite score on the grid")
	}
	sel.Choice, _ = t.Best()
	fit := r.paths[best].Fit(slices.Index(r.usable[best], j))
	r.first.keep(fit.Model)
	r.setModel(fit.Model, sel.Lambda)
	return nil
}

// setModel makes m, fitted at λ, the model of the selection: with
// o.Classes, the classifier's.
func (r *selection) setModel(m *regress.Model, lambda float64) {
	r.sel.Model, r.sel.Classifier = m, nil
	if r.o.Classes {
		r.sel.Classifier = &classify.RLSModel{Classes: r.first.Classes, OneVsAll: len(r.first.Classes) > 2, Lambda: lambda, Model: m}
	}
}

// write writes the model of the selection (the classifier with
// o.Classes) to o.Model.
func (r *selection) write() error {
	var saved any = r.sel.Model
	if r.sel.Classifier != nil {
		saved = r.sel.Classifier
	}
	if r.sel.Intervals != nil {
		saved = r.sel.Intervals
	}
	js, err := model.Marshal(saved)
	if err != nil {
		return err
	}
	return writeFile(r.ctx, r.o.Model, js)
}

// readStats reads the merged statistics of a pass; statistics of no rows
// are an error.
func readStats(ctx context.Context, name string) (*regress.NystromStats, error) {
	b, err := readAllFile(ctx, name)
	if err != nil {
		return nil, err
	}
	st, err := decodeStats(b)
	if err != nil {
		return nil, err
	}
	if st.Kernel() == nil || st.Rows() == 0 {
		return nil, errors.New("rkhsbeam: the input files hold no rows")
	}
	return st, nil
}
