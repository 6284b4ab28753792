package rkhsbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/classify"
	"rkhs/internal/check"
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
	Classes bool
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
	// Model is the file the model at the chosen pair is written to, in
	// the JSON format of regress.Model (classify.RLSModel with Classes).
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
	// Model is the fit at the chosen pair (with the standardization, if
	// any), also written to Model; Classifier, with Classes, is the
	// classifier written instead, whose Model is Model.
	Model      *regress.Model
	Classifier *classify.RLSModel
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
	if err := checkJob(op, o.Input, o.Centers, o.CentersFile, o.Model); err != nil {
		return err
	}
	if m, d := o.Centers, o.Input.Features; m > 0 {
		// This process holds a path of four m×m matrices per σ; a worker
		// the centres, the statistics and a path (about 8m² values).
		nl, ns := len(o.Lambdas), len(o.Sigmas)+len(o.MedianRatios)
		if err := memlimit.Check("rkhs-beam select", memlimit.Sum(memlimit.Floats(2, m, d), memlimit.Floats(4*ns+4, m, m), memlimit.Floats(2*m*ns, nl, 2))); err != nil {
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
	_, err := listFiles(ctx, o.Input)
	return err
}

// Select chooses σ and λ as o describes and writes the model at the pair
// chosen to o.Model. run runs a pipeline (on the runner of the caller's
// choice). The passes over the input are:
//
//  1. one pipeline: the first pass of Fit (see prepare.go): unless
//     o.CentersFile is given, the draw of the centres, shared by every σ,
//     and in the same read, as asked, the features' moments
//     (o.Standardize), the classes (o.Classes) and the median distance
//     between the centres (o.MedianRatios); then for each σ the
//     statistics pass of Fit (regress.NystromStats per file, merged by a
//     CombineFn) on the rows as the first pass prepared them; the prep
//     and the statistics are written to the scratch directory;
//  2. in this process, for each σ, loo.NewNystromPath on the merged
//     statistics: tr H and GCV for every λ;
//  3. unless the criterion is GCV, one more pipeline: for each σ every
//     file is read by one worker, which rebuilds the λ path from the
//     statistics in the scratch directory (bit for bit the path of this
//     process) and adds the file's rows (NystromPath.Add); the
//     workers' residual sums cross the process boundary in their binary
//     encoding (NystromPath.MarshalBinary) and are merged by a CombineFn
//     (NystromPath.Merge);
//  4. in this process, the pair loo.Table.Best chooses, the rule of
//     loo.SelectNystrom (the smallest score, ties of the error rate to the
//     smaller leave-one-out MSE, then the first pair in grid order; a pair
//     at which the system is numerically singular scores +Inf and is never
//     chosen), and the fit there read from its λ path
//     (loo.NystromPath.Fit: the model whose residuals were scored), with
//     the standardization, written as a regress.Model or, with o.Classes,
//     a classify.RLSModel.
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
// σ grid of the same median, to the rounding of the merges. A λ that loo.UsableNystromPath finds the
// system singular at is left out of that σ's pass; a leave-one-out residual
// that is not finite on a worker fails the job (loo.SelectNystrom scores
// that λ alone instead).
//
// Errors, before anything runs: invalid or incomplete options (a
// *linalg.InputError of kind ErrOptions), centres and paths that would not
// fit in memory (linalg.ErrTooLarge), an input pattern that matches no
// file. Then the errors of the jobs (as Fit's), of the λ path, and no
// finite score on the grid (ErrOptions).
func Select(ctx context.Context, o SelectOptions, run func(context.Context, *beam.Pipeline) error) (*Selection, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	dir, cleanup, err := scratchDir(o.Scratch, "select")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	ns := len(o.Sigmas) + len(o.MedianRatios)
	prepFile := dir + "/prep.json"
	statsFile := func(a int) string { return fmt.Sprintf("%s/stats-%d.bin", dir, a) }
	sumsFile := func(a int) string { return fmt.Sprintf("%s/loo-%d.bin", dir, a) }
	defer func() { // what cleanup cannot remove: files in an object store
		removeFile(ctx, prepFile)
		for a := range ns {
			removeFile(ctx, statsFile(a))
			removeFile(ctx, sumsFile(a))
		}
	}()

	// Pass 1: the first pass (centres, moments, classes, median), then the
	// statistics of every σ.
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope("rkhs nystrom select")
	names, err := files(s, o.Input)
	if err != nil {
		return nil, err
	}
	pr := prepare(s, o.Input, names, firstPass{Centers: o.Centers, Seed: o.Seed, CentersFile: o.CentersFile,
		Standardize: o.Standardize, Classes: o.Classes, Median: len(o.MedianRatios) > 0})
	beam.ParDo0(s, &writeBytesFn{Name: prepFile}, pr)
	for a := range ns {
		k, ratio := o.Kernel, 0.0
		if a < len(o.Sigmas) {
			k.Sigma = o.Sigmas[a]
		} else {
			ratio = o.MedianRatios[a]
		}
		stats, _ := statistics(s, o.Input, k, ratio, names, pr, o.CentersFile, false)
		beam.ParDo0(s, &writeBytesFn{Name: statsFile(a)}, stats)
	}
	if err := run(ctx, p); err != nil {
		return nil, err
	}
	prepBytes, err := readAllFile(ctx, prepFile)
	if err != nil {
		return nil, err
	}
	first, err := decodePrep(prepBytes)
	if err != nil {
		return nil, err
	}
	sigmas := o.Sigmas
	if len(o.MedianRatios) > 0 {
		sigmas = make([]float64, ns)
		for a, r := range o.MedianRatios {
			sigmas[a] = sigmaAt(first, 0, r)
		}
	}

	// The λ path of every σ.
	sel := &Selection{
		Criterion: o.Criterion,
		Scores:    &loo.Table{Criterion: o.Criterion, Sigmas: append([]float64(nil), sigmas...), Lambdas: append([]float64(nil), o.Lambdas...)},
		Median:    first.Median,
	}
	paths := make([]*loo.NystromPath, ns)
	idx := make([][]int, ns) // the λ of each path, indices into o.Lambdas
	for a := range ns {
		st, err := readStats(ctx, statsFile(a))
		if err != nil {
			return nil, err
		}
		sel.Rows = st.Rows()
		paths[a], idx[a], err = loo.UsableNystromPath(st, o.Intercept, o.Lambdas)
		if errors.Is(err, linalg.ErrNotPositiveDefinite) {
			paths[a], idx[a], err = nil, nil, nil // no λ usable: every λ scores +Inf
		}
		if err != nil {
			return nil, err
		}
		gcv, df := infs(len(o.Lambdas)), infs(len(o.Lambdas))
		if paths[a] != nil {
			for b, j := range idx[a] {
				gcv[j], df[j] = paths[a].GCV[b], paths[a].DF[b]
			}
		}
		sel.GCV, sel.DF = append(sel.GCV, gcv), append(sel.DF, df)
	}

	// Pass 2: the leave-one-out residuals of every σ.
	if o.Criterion != loo.GCV {
		p, s := beam.NewPipelineWithRoot()
		s = s.Scope("rkhs nystrom leave-one-out")
		names, err := files(s, o.Input)
		if err != nil {
			return nil, err
		}
		for a := range ns {
			if paths[a] == nil {
				continue
			}
			fn := pathFn{Stats: statsFile(a), Lambdas: paths[a].Lambdas, Intercept: int(o.Intercept)}
			per := beam.ParDo(s, &looFileFn{pathFn: fn, In: o.Input, Prep: prepBytes}, names)
			sums := beam.Combine(s, &mergeLOOFn{pathFn: fn}, per)
			beam.ParDo0(s, &writeBytesFn{Name: sumsFile(a)}, sums)
		}
		if err := run(ctx, p); err != nil {
			return nil, err
		}
		for a := range ns {
			mse, rate := infs(len(o.Lambdas)), infs(len(o.Lambdas))
			if paths[a] != nil {
				b, err := readAllFile(ctx, sumsFile(a))
				if err == nil {
					err = paths[a].UnmarshalBinary(b)
				}
				if err != nil {
					return nil, fmt.Errorf("rkhsbeam: the leave-one-out sums at σ = %g: %w", sigmas[a], err)
				}
				if paths[a].Rows() != sel.Rows {
					return nil, fmt.Errorf("rkhsbeam: the leave-one-out pass at σ = %g read %d rows, the statistics %d: did the input change?", sigmas[a], paths[a].Rows(), sel.Rows)
				}
				v, err := paths[a].MSE()
				if err != nil {
					return nil, err
				}
				e, err := paths[a].ErrorRate()
				if err != nil && o.Criterion == loo.LOOErrorRate {
					return nil, err
				}
				for b, j := range idx[a] {
					mse[j] = v[b]
					if e != nil {
						rate[j] = e[b]
					}
				}
			}
			sel.LOO = append(sel.LOO, mse)
			if o.Criterion == loo.LOOErrorRate {
				sel.LOOError = append(sel.LOOError, rate)
			}
		}
	}

	// The choice, by the table's rule (loo.Table.Best, as loo.SelectNystrom
	// makes it), and the fit there.
	for a := range sigmas {
		switch o.Criterion {
		case loo.GCV:
			sel.Scores.Scores = append(sel.Scores.Scores, sel.GCV[a])
		case loo.LOOMSE:
			sel.Scores.Scores = append(sel.Scores.Scores, sel.LOO[a])
		case loo.LOOErrorRate:
			sel.Scores.Scores, sel.Scores.Ties = append(sel.Scores.Scores, sel.LOOError[a]), append(sel.Scores.Ties, sel.LOO[a])
		}
	}
	best, j, ok := sel.Scores.BestAt()
	if !ok {
		return nil, check.Input(ErrOptions, "Select", "Lambdas", "no finite score on the grid")
	}
	sel.Choice, _ = sel.Scores.Best()
	// The fit is read from the chosen σ's path (loo.NystromPath.Fit), as
	// loo.SelectNystrom reads it: the model whose residuals were scored.
	fit := paths[best].Fit(slices.Index(idx[best], j))
	fit.Model.Standardization = first.Scale
	sel.Model = fit.Model
	var saved any = fit.Model
	if o.Classes {
		sel.Classifier = &classify.RLSModel{Classes: first.Classes, OneVsAll: len(first.Classes) > 2, Lambda: sel.Lambda, Model: fit.Model}
		saved = sel.Classifier
	}
	js, err := json.Marshal(saved)
	if err != nil {
		return nil, err
	}
	return sel, writeFile(ctx, o.Model, js)
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

// infs returns n values +Inf, the score of a pair that has none.
func infs(n int) []float64 {
	v := make([]float64, n)
	for j := range v {
		v[j] = math.Inf(1)
	}
	return v
}

// pathFn rebuilds, on a worker, the λ path of the statistics in the file
// Stats — bit for bit the path of the driver — once per instance.
type pathFn struct {
	Stats     string
	Lambdas   []float64
	Intercept int

	st    *regress.NystromStats
	path  *loo.NystromPath
	fresh []byte // the encoding of the path with no rows: decoding it resets the path
}

// newPath returns a new λ path of the statistics.
func (f *pathFn) newPath(ctx context.Context) (*loo.NystromPath, error) {
	if f.st == nil {
		st, err := readStats(ctx, f.Stats)
		if err != nil {
			return nil, err
		}
		f.st = st
	}
	return loo.NewNystromPath(f.st, regress.Intercept(f.Intercept), f.Lambdas)
}

// build makes the path of f, once.
func (f *pathFn) build(ctx context.Context) error {
	if f.path != nil {
		return nil
	}
	p, err := f.newPath(ctx)
	if err != nil {
		return err
	}
	if f.fresh, err = p.MarshalBinary(); err != nil {
		return err
	}
	f.path = p
	return nil
}

// looFileFn adds the rows of a file to the λ path and emits the encoded
// residual sums.
type looFileFn struct {
	pathFn
	In   Input
	Prep []byte // the first pass's prep: the standardization and classes

	prep *prep
}

func (f *looFileFn) ProcessElement(ctx context.Context, file string, emit func([]byte)) error {
	if err := f.build(ctx); err != nil {
		return err
	}
	if f.prep == nil {
		pr, err := decodePrep(f.Prep)
		if err != nil {
			return err
		}
		f.prep = pr
	}
	p := f.path
	if err := p.UnmarshalBinary(f.fresh); err != nil {
		return err
	}
	c := f.st.Centers()
	d, m, nl, q := c.Cols, c.Rows, len(f.Lambdas), f.prep.outputs()
	// A row of a block costs its features (twice when standardized), its
	// kernel values, its row of the path's features, its outputs and its
	// hat diagonal and fits at every λ.
	err := readBlocks(ctx, f.In, file, d, blockRows(2*d+2*m+q+(q+1)*nl), nil, func(b *block) error {
		if len(b.Y) == 0 {
			return nil
		}
		x, y, err := f.prep.rows(b.X, b.Y)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if err := p.Add(x, y); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	b, err := p.MarshalBinary()
	if err != nil {
		return err
	}
	emit(b)
	return nil
}

// mergeLOOFn merges the encoded residual sums of the files: both decoded
// into paths rebuilt from the statistics, then NystromPath.Merge. The
// empty accumulator stands for no sums yet.
type mergeLOOFn struct {
	pathFn
	other *loo.NystromPath
}

func (f *mergeLOOFn) merge(ctx context.Context, a, b []byte) ([]byte, error) {
	switch {
	case len(a) == 0:
		return b, nil
	case len(b) == 0:
		return a, nil
	}
	if err := f.build(ctx); err != nil {
		return nil, err
	}
	if f.other == nil {
		o, err := f.newPath(ctx)
		if err != nil {
			return nil, err
		}
		f.other = o
	}
	if err := f.path.UnmarshalBinary(a); err != nil {
		return nil, err
	}
	if err := f.other.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	if err := f.path.Merge(f.other); err != nil {
		return nil, err
	}
	return f.path.MarshalBinary()
}

func (f *mergeLOOFn) CreateAccumulator() []byte { return []byte{} }

// The statistics are read with a background context: a CombineFn's
// methods take none.
func (f *mergeLOOFn) AddInput(a, b []byte) ([]byte, error) {
	return f.merge(context.Background(), a, b)
}

func (f *mergeLOOFn) MergeAccumulators(a, b []byte) ([]byte, error) {
	return f.merge(context.Background(), a, b)
}

func (f *mergeLOOFn) ExtractOutput(a []byte) []byte { return a }

func init() {
	register.DoFn3x1[context.Context, string, func([]byte), error](&looFileFn{})
	register.Combiner3[[]byte, []byte, []byte](&mergeLOOFn{})
}
