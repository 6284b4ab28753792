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
	"rkhs/internal/cli"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
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
	// MedianRatios: the σ grid is the median heuristic (the median
	// distance between the centres as the kernel sees them, see
	// prepare.go) times each ratio (rkhs's default: 1/4, 1/2, 1, 2, 4).
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
	// Centers is m, the number of centres drawn in a first pass (see
	// sample.go) with Seed and shared by every σ; or CentersFile, if not
	// empty, is a file of centres in the input's format, and Centers must
	// be 0.
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
	// the number of rows the descent fits on for the n rows read
	// (loo.SelectScales.Rows: 0, or n or more, for every row): drawn with
	// Seed by their place among all the rows (the files in the order
	// Input.Files lists them), gathered by one pipeline, and the descent
	// runs on them in this process; the fit at the scales, and the
	// objective there, are on every row (see select_scales.go).
	ARD         bool
	ARDIters    int
	ARDProgress func(iter int, objective, projGrad, seconds float64)
	ARDRows     func(n int) int
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
	// Rows is the number of rows read.
	Rows int
	// Median is the median distance between the centres when the σ grid
	// is MedianRatios times it, 0 otherwise.
	Median float64
	// Notes and Warnings are what the standardization tells the user
	// (cli.StandardizeNotes), one line each.
	Notes, Warnings []string
	// Model is the fit at the chosen pair (with the standardization, if
	// any), also written to Model; Classifier, with Classes, is the
	// classifier written instead, whose Model is Model. With ARD, Model
	// is the fit at the scales (Scales.Fit.Model) and Grid the fit at the
	// grid's pair, where the descent began (not written): its centres and
	// standardization are the descent's.
	Model      *regress.Model
	Classifier *classify.RLSModel
	Grid       *regress.Model
	// Scales is, with ARD, the descent's result (loo.ScaleSelection: the
	// scales σ_j of the standardized features, λ, the objective, its
	// history, the constant features), nil otherwise.
	Scales *loo.ScaleSelection
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
	}
	if err := checkJob(op, o.Input, o.Centers, o.CentersFile, o.Model); err != nil {
		return err
	}
	if o.MaxClasses < 0 {
		return check.Input(ErrOptions, op, "MaxClasses", "%d: want ≥ 0 (0: classify.MaxClasses)", o.MaxClasses)
	}
	if len(o.MedianRatios) > 0 && o.Centers == 1 {
		return check.Input(ErrOptions, op, "Centers", "1 with MedianRatios: the median distance between the centres needs at least 2 of them")
	}
	if m, d := o.Centers, o.Input.Width; m > 0 {
		// This process holds a path of four m×m matrices per σ; a worker
		// the centres, the statistics and a path (about 8m² values).
		// With ARD, this process holds an evaluation's statistics, path
		// and sums, about twelve m×m matrices.
		nl, ns, ard := len(o.Lambdas), len(o.Sigmas)+len(o.MedianRatios), 0
		if o.ARD {
			ard = 12
		}
		if err := memlimit.Check("rkhs-beam select", memlimit.Sum(memlimit.Floats(2, m, d), memlimit.Floats(4*ns+4+ard, m, m), memlimit.Floats(2*m*ns, nl, 2))); err != nil {
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
//  1. one pipeline (selection.statistics): the first pass of Fit (see
//     prepare.go): unless o.CentersFile is given, the draw of the
//     centres, shared by every σ, and in the same read, as asked, the
//     features' moments (o.Standardize), the labels (their number, their
//     largest magnitude, with o.Classes the classes) and the median
//     distance between the centres (o.MedianRatios); then for each σ the
//     statistics pass of Fit (regress.NystromStats per file, merged by a
//     CombineFn) on the rows as the first pass prepared them; the prep
//     and the statistics are written to the scratch directory, and labels
//     the selection cannot use are refused here, with the kind of the
//     library's error (classify.CheckClasses, loo's bound on labels whose
//     squares overflow);
//  2. in this process, for each σ, loo.UsableNystromPath on the merged
//     statistics: tr H and GCV for every λ (selection.lambdaPaths);
//  3. unless the criterion is GCV, one more pipeline
//     (selection.leaveOneOut): for each σ every file is read by one
//     worker, which rebuilds the λ path from the statistics in the
//     scratch directory (bit for bit the path of this process) and adds
//     the file's rows (NystromPath.Add); the workers' residual sums cross
//     the process boundary in their binary encoding
//     (NystromPath.MarshalBinary) and are merged by a CombineFn
//     (NystromPath.Merge);
//  4. in this process (selection.choose), the pair loo.Table.Best
//     chooses, the rule of loo.SelectNystrom (the smallest score, ties of
//     the error rate to the smaller leave-one-out MSE, then the first pair
//     in grid order; a pair at which the system is numerically singular
//     scores +Inf and is never chosen), and the fit there read from its λ
//     path (loo.NystromPath.Fit: the model whose residuals were scored),
//     with the standardization and the column names, written as a
//     regress.Model or, with o.Classes, a classify.RLSModel;
//  5. with o.ARD, the descent of one length scale per feature from that
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
// the model's map, labels coded as the classes say) and centres, with the
// σ grid of the same median, to the rounding of the merges. A λ that
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

	prepBytes []byte // the first pass's prep, encoded
	first     *prep  // and decoded
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
}

// statistics runs the first pipeline — the first pass, then the
// statistics of every σ — and reads its prep: the σ grid, and labels
// refused.
func (r *selection) statistics() error {
	o := r.o
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope("rkhs nystrom select")
	names, err := files(s, o.Input)
	if err != nil {
		return err
	}
	pr := prepare(s, o.Input, names, firstPass{Centers: o.Centers, Seed: o.Seed, CentersFile: o.CentersFile, Standardize: o.Standardize,
		Classes: o.Classes, MaxClasses: o.MaxClasses, Squares: true, Median: len(o.MedianRatios) > 0, L1: o.Kernel.Type == "laplacian", Scales: o.ARD})
	beam.ParDo0(s, &writeBytesFn{Name: r.prepFile()}, pr)
	for a := range r.ns {
		k, ratio := o.Kernel, 0.0
		if a < len(o.Sigmas) {
			k.Sigma = o.Sigmas[a]
		} else {
			ratio = o.MedianRatios[a]
		}
		stats, _ := statistics(s, o.Input, k, ratio, names, pr, o.CentersFile, false)
		beam.ParDo0(s, &writeBytesFn{Name: r.statsFile(a)}, stats)
	}
	if err := r.run(r.ctx, p); err != nil {
		return err
	}
	if r.prepBytes, err = readAllFile(r.ctx, r.prepFile()); err != nil {
		return err
	}
	if r.first, err = decodePrep(r.prepBytes); err != nil {
		return err
	}
	if err := r.first.refusal(); err != nil {
		return err
	}
	r.sigmas = o.Sigmas
	if len(o.MedianRatios) > 0 {
		r.sigmas = make([]float64, r.ns)
		for a, ratio := range o.MedianRatios {
			r.sigmas[a] = sigmaAt(r.first, 0, ratio)
		}
	}
	return nil
}

// lambdaPaths forms, in this process, the λ path of every σ from its
// merged statistics (loo.UsableNystromPath): tr H and GCV for every λ.
func (r *selection) lambdaPaths() error {
	o, nl := r.o, len(r.o.Lambdas)
	r.sel = &Selection{
		Criterion: o.Criterion,
		Scores:    &loo.Table{Criterion: o.Criterion, Sigmas: slices.Clone(r.sigmas), Lambdas: slices.Clone(o.Lambdas)},
		Median:    r.first.Median,
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
	return nil
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
		per := beam.ParDo(s, &looFileFn{pathFn: fn, In: o.Input, Prep: r.prepBytes}, names)
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
	if path.Rows() != r.sel.Rows {
		return nil, nil, fmt.Errorf("rkhsbeam: the leave-one-out pass at σ = %g read %d rows, the statistics %d: did the input change?", r.sigmas[a], path.Rows(), r.sel.Rows)
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
	js, err := cli.ModelJSON(saved)
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
