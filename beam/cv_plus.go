package rkhsbeam

import (
	"context"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/internal/check"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/regress"
)

// CV+ intervals of a selection (SelectOptions.Folds), streamed as rkhs
// streams them (interval.Spec with Stream): after the choice, one
// pipeline sums on the workers each file's per-fold statistics
// (interval.FoldStats, a row's fold drawn by interval.StreamFold from
// the seed and the row's place among all the rows, the files in the
// order Input.Files lists them), merged by mergeFn; this process solves
// the K fold models (interval.FoldStats.Models at the chosen σ and λ); a
// second pipeline has every worker rebuild those fits from the merged
// statistics — bit for bit this process's — and collect its file's
// held-out residuals (interval.CVPass), merged by mergeFn. The CV+ with
// the selection's model (interval.CV.WithModel) is what the model file
// then holds, as rkhs fit -interval-method cv+ -model saves it.

// foldFileFn sums the rows of a file into the statistics of their folds
// and emits their encoding.
type foldFileFn struct {
	In      Input
	Kernel  kernels.Spec // with the chosen σ
	Prep    []byte       // the first pass's prep: centres, standardization
	Folds   int
	Seed    uint64
	Offsets map[string]int // the place of each file's first row

	prep *prep
}

func (f *foldFileFn) ProcessElement(ctx context.Context, file string, emit func([]byte)) error {
	if f.prep == nil {
		pr, err := decodePrep(f.Prep)
		if err != nil {
			return err
		}
		f.prep = pr
	}
	k, err := f.Kernel.Kernel()
	if err != nil {
		return err
	}
	first, ok := f.Offsets[file]
	if !ok {
		return fmt.Errorf("rkhsbeam: %s: a file the first pass did not read: did the input change?", file)
	}
	c := f.prep.Centers
	fs, err := interval.NewFoldStats([]kernels.Kernel{k}, c, f.Folds, f.Seed, first)
	if err != nil {
		return err
	}
	if err := f.prep.addFile(ctx, f.In, file, c.Cols, blockRows(2*c.Cols+c.Rows+f.prep.outputs()), nil, fs.Add); err != nil {
		return err
	}
	b, err := fs.MarshalBinary()
	if err != nil {
		return err
	}
	emit(b)
	return nil
}

// newFoldStats makes the zero interval.FoldStats, into which any
// encoding decodes: the maker of the fold statistics' mergeFn.
type newFoldStats struct{}

func (newFoldStats) newSums(context.Context) (*interval.FoldStats, error) {
	return &interval.FoldStats{}, nil
}

// foldFitsFn rebuilds, on a worker, the fold models of the merged fold
// statistics in the file Stats at λ — bit for bit those of the driver —
// once per instance.
type foldFitsFn struct {
	Stats     string
	Lambda    float64
	Intercept int

	fits *interval.FoldFits
}

// build makes the fits of f, once.
func (f *foldFitsFn) build(ctx context.Context) error {
	if f.fits != nil {
		return nil
	}
	b, err := readAllFile(ctx, f.Stats)
	if err != nil {
		return err
	}
	var fs interval.FoldStats
	if err := fs.UnmarshalBinary(b); err != nil {
		return err
	}
	f.fits, err = fs.Models(f.Lambda, regress.Intercept(f.Intercept))
	return err
}

// newSums returns a pass of the fits with no rows.
func (f *foldFitsFn) newSums(ctx context.Context) (*interval.CVPass, error) {
	if err := f.build(ctx); err != nil {
		return nil, err
	}
	return f.fits.Pass(0)
}

// cvPassFileFn collects the held-out residuals of the rows of a file and
// emits their encoding.
type cvPassFileFn struct {
	foldFitsFn
	In      Input
	Prep    []byte
	Offsets map[string]int

	prep *prep
}

func (f *cvPassFileFn) ProcessElement(ctx context.Context, file string, emit func([]byte)) error {
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
	first, ok := f.Offsets[file]
	if !ok {
		return fmt.Errorf("rkhsbeam: %s: a file the first pass did not read: did the input change?", file)
	}
	p, err := f.fits.Pass(first)
	if err != nil {
		return err
	}
	c := f.prep.Centers
	if err := f.prep.addFile(ctx, f.In, file, c.Cols, blockRows(2*c.Cols+c.Rows+2*f.prep.outputs()), nil, p.Add); err != nil {
		return err
	}
	b, err := p.MarshalBinary()
	if err != nil {
		return err
	}
	emit(b)
	return nil
}

func init() {
	register.DoFn3x1[context.Context, string, func([]byte), error](&foldFileFn{})
	register.DoFn3x1[context.Context, string, func([]byte), error](&cvPassFileFn{})
	register.Combiner3[[]byte, []byte, []byte](&mergeFn[*interval.FoldStats, newFoldStats]{})
	register.Combiner3[[]byte, []byte, []byte](&mergeFn[*interval.CVPass, *foldFitsFn]{})
}

// The scratch files of the CV+: the merged fold statistics and residuals.
func (r *selection) foldsFile() string { return r.dir + "/folds.bin" }
func (r *selection) cvFile() string    { return r.dir + "/cv.bin" }

// cvPlus computes the CV+ of the selection's model (o.Folds folds drawn
// with o.Seed) in two pipelines and sets r.sel.Intervals.
func (r *selection) cvPlus() error {
	const op = "Select"
	o := r.o
	if err := interval.CheckFolds(o.Folds, r.sel.Rows); err != nil {
		return check.Wrap(ErrOptions, op, "Folds", err)
	}
	if o.Level != 0 {
		if err := interval.Reach(o.Level, r.sel.Rows); err != nil {
			return check.Wrap(ErrOptions, op, "Level", err)
		}
	}
	pl, err := r.placesOf(nil)
	if err != nil {
		return err
	}
	k := o.Kernel
	k.Sigma = r.sel.Sigma
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope("rkhs nystrom cv+ folds")
	names, err := files(s, o.Input)
	if err != nil {
		return err
	}
	per := beam.ParDo(s, &foldFileFn{In: o.Input, Kernel: k, Prep: r.prepBytes, Folds: o.Folds, Seed: o.Seed, Offsets: pl.Offsets}, names)
	beam.ParDo0(s, &writeBytesFn{Name: r.foldsFile()}, beam.Combine(s, &mergeFn[*interval.FoldStats, newFoldStats]{}, per))
	if err := r.run(r.ctx, p); err != nil {
		return err
	}
	fn := foldFitsFn{Stats: r.foldsFile(), Lambda: r.sel.Lambda, Intercept: int(o.Intercept)}
	if err := fn.build(r.ctx); err != nil {
		return err
	}
	p, s = beam.NewPipelineWithRoot()
	s = s.Scope("rkhs nystrom cv+ residuals")
	if names, err = files(s, o.Input); err != nil {
		return err
	}
	per = beam.ParDo(s, &cvPassFileFn{foldFitsFn: foldFitsFn{Stats: fn.Stats, Lambda: fn.Lambda, Intercept: fn.Intercept}, In: o.Input, Prep: r.prepBytes, Offsets: pl.Offsets}, names)
	beam.ParDo0(s, &writeBytesFn{Name: r.cvFile()}, beam.Combine(s, &mergeFn[*interval.CVPass, *foldFitsFn]{Make: &foldFitsFn{Stats: fn.Stats, Lambda: fn.Lambda, Intercept: fn.Intercept}}, per))
	if err := r.run(r.ctx, p); err != nil {
		return err
	}
	b, err := readAllFile(r.ctx, r.cvFile())
	if err != nil {
		return err
	}
	pass, err := fn.newSums(r.ctx)
	if err == nil {
		err = pass.UnmarshalBinary(b)
	}
	if err != nil {
		return fmt.Errorf("rkhsbeam: the CV+ residuals: %w", err)
	}
	cv, err := pass.CV()
	if err != nil {
		return err
	}
	r.sel.Intervals, err = cv.WithModel(r.sel.Model)
	return err
}

// SetInterval sets o's CV+ from the flags of rkhs-beam select: level, in
// (0, 1), is checked and asks for intervals (0: none, and folds is not
// read); method must be "cv+", the one interval of a streamed selection;
// folds is K ≥ 2. It sets o.Folds. Errors (ErrOptions): a level outside
// (0, 1) (interval.CheckLevel's reason), another method, K < 2.
func (o *SelectOptions) SetInterval(level float64, method string, folds int) error {
	const op = "SelectOptions.SetInterval"
	if level == 0 {
		o.Folds, o.Level = 0, 0
		return nil
	}
	if err := interval.CheckLevel(level); err != nil {
		return check.Wrap(ErrOptions, op, "interval", err)
	}
	if method != string(interval.CVPlus) {
		return check.Input(ErrOptions, op, "interval-method", "%q: a streamed selection offers cv+ alone (jackknife+ needs the n×n factorization of rows held in memory, cv+fold a leave-one-out choice per fold, one more pass over the rows each)", method)
	}
	if folds < 2 {
		return check.Input(ErrOptions, op, "folds", "%d: want K ≥ 2 (CV+ leaves out one of K folds)", folds)
	}
	o.Folds, o.Level = folds, level
	return nil
}
