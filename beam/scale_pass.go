package rkhsbeam

import (
	"context"
	"encoding"
	"errors"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// The passes of one evaluation of the length scales' objective, on the
// workers: every file is read by one worker, which adds the file's rows
// to the sums of the pass at θ — pass 0, loo.ScaleStats; pass A,
// loo.ScaleLOO; pass B, loo.ScaleAdjoint — and emits their binary
// encoding; mergeFn merges the files' encodings (Merge). The workers
// of passes A and B rebuild the path from the merged statistics in the
// scratch directory (loo.NewScalePath: bit for bit the driver's path),
// and those of pass B the adjoint's matrices from the merged pass-A sums
// there too, so that only sums cross the process boundary, tied to the
// path by the fingerprints the encodings carry.
//
// A θ at which the fit interpolates a row to rounding (an error that
// wraps linalg.ErrNotPositiveDefinite) is not a failure of the job: the
// worker emits singularSums instead of its sums, the merge keeps it, and
// the driver reports the objective +Inf there, as loo.SelectScales.Fit
// does in memory.

// The passes of an evaluation, the values of scaleFn.Pass.
const (
	scalePass0 = iota
	scalePassA
	scalePassB
	scalePasses
)

// singularSums is what a pass emits at a θ where the fit is numerically
// singular: no encoding of sums begins with it.
var singularSums = []byte("rkhsbeam: singular")

// isSingular reports whether merged sums are singularSums.
func isSingular(b []byte) bool { return string(b) == string(singularSums) }

// scaleFn is the pass of an evaluation at θ that a worker runs, and what
// it rebuilds its sums from, once per instance: the first pass's prep
// (the centres, the standardization, the classes), the objective's
// intercept mode, criterion, subset S (Subset and Seed, as the driver's
// objective; At, its rows: pass A adds them alone, pass B marks them) and
// the scratch files of the merged statistics (passes A and B) and pass-A
// sums (pass B, leave-one-out criteria).
type scaleFn struct {
	Prep      []byte
	Theta     []float64
	Intercept int
	Criterion int
	Pass      int
	Subset    int
	Seed      uint64
	Centers   int // the first Centers of the prep's centres carry the pass (0: every one)
	At        places
	Stats     string
	LOO       string

	prep *prep
}

// objective returns the objective of the pass: the prep's centres (the
// first Centers of them when it is positive) with its intercept mode and
// criterion.
func (f *scaleFn) objective() loo.ScaleObjective {
	c := f.prep.Centers
	if f.Centers > 0 && f.Centers < c.Rows {
		c = c.Slice(0, f.Centers, 0, c.Cols)
	}
	return loo.ScaleObjective{Centers: c, Intercept: regress.Intercept(f.Intercept), Criterion: loo.Criterion(f.Criterion), Subset: f.Subset, Seed: f.Seed}
}

// passSums makes the sums of a pass, of type T: *loo.ScaleStats for pass
// 0, *loo.ScaleLOO for pass A, *loo.ScaleAdjoint for pass B.
type passSums[T sums[T]] struct{ scaleFn }

// newSums returns new empty sums of the pass: for passes A and B of the
// path rebuilt from the merged statistics, and for pass B of the merged
// pass-A sums.
func (f *passSums[T]) newSums(ctx context.Context) (T, error) {
	var none T
	if f.prep == nil {
		pr, err := decodePrep(f.Prep)
		if err != nil {
			return none, err
		}
		f.prep = pr
	}
	s, err := f.emptySums(ctx)
	if err != nil {
		return none, err
	}
	t, ok := s.(T)
	if !ok {
		return none, fmt.Errorf("rkhsbeam: pass %c makes sums of type %T, not %T", "0AB"[f.Pass], s, none)
	}
	return t, nil
}

// emptySums returns new empty sums of the pass, of the type passSums says.
func (f *scaleFn) emptySums(ctx context.Context) (any, error) {
	st, err := f.objective().NewStats(f.Theta)
	if err != nil || f.Pass == scalePass0 {
		return st, err
	}
	path, err := readScalePath(ctx, st, f.Stats)
	if err != nil {
		return nil, err
	}
	var a *loo.ScaleLOO
	if f.Pass == scalePassA || loo.Criterion(f.Criterion) != loo.GCV {
		if a, err = path.NewLOO(); err != nil {
			return nil, err
		}
	}
	if f.Pass == scalePassA {
		return a, nil
	}
	if a != nil {
		if err := readSums(ctx, a, f.LOO); err != nil {
			return nil, err
		}
	}
	return path.NewAdjoint(a)
}

// readScalePath decodes the merged statistics in the file name into st
// (empty statistics of the objective at θ) and returns their path.
func readScalePath(ctx context.Context, st *loo.ScaleStats, name string) (*loo.ScalePath, error) {
	if err := readSums(ctx, st, name); err != nil {
		return nil, err
	}
	return loo.NewScalePath(st)
}

// readSums decodes the merged sums in the file name into s; singularSums
// are an error that wraps linalg.ErrNotPositiveDefinite.
func readSums(ctx context.Context, s encoding.BinaryUnmarshaler, name string) error {
	b, err := readAllFile(ctx, name)
	switch {
	case err != nil:
		return err
	case isSingular(b):
		return fmt.Errorf("rkhsbeam: a leave-one-out residual is not finite: the fit interpolates a row to rounding: %w", linalg.ErrNotPositiveDefinite)
	}
	return s.UnmarshalBinary(b)
}

// scaleFileFn adds the rows of a file to the sums of the pass and emits
// their encoding (singularSums at a singular θ).
type scaleFileFn[T sums[T]] struct {
	passSums[T]
	In Input

	sums  T
	fresh []byte // the encoding of empty sums: decoding it resets them
}

func (f *scaleFileFn[T]) ProcessElement(ctx context.Context, file string, emit func([]byte)) error {
	var err error
	if f.fresh == nil {
		if f.sums, err = f.newSums(ctx); err == nil {
			f.fresh, err = f.sums.MarshalBinary()
		}
	}
	if err == nil {
		err = f.sums.UnmarshalBinary(f.fresh)
	}
	var add func(x, y *linalg.Dense) error
	if err == nil {
		add, err = f.adder(file)
	}
	if err == nil {
		c := f.prep.Centers
		err = f.prep.addFile(ctx, f.In, file, c.Cols, blockRows(2*c.Cols+f.prep.outputs()), nil, add)
	}
	var b []byte
	if err == nil {
		b, err = f.sums.MarshalBinary()
	}
	switch {
	case errors.Is(err, linalg.ErrNotPositiveDefinite):
		b = singularSums
	case err != nil:
		return err
	}
	emit(b)
	return nil
}

// adder returns what adds the rows of a file to the sums of the pass:
// pass 0 every row, pass A the rows of S, pass B every row with those of
// S marked (with GCV, none is).
func (f *scaleFileFn[T]) adder(file string) (func(x, y *linalg.Dense) error, error) {
	n := f.prep.fileRows(file)
	switch s := any(f.sums).(type) {
	case *loo.ScaleStats:
		return s.Add, nil
	case *loo.ScaleLOO:
		return f.At.in(file, n, func(_ []int, x, y *linalg.Dense) error { return s.Add(x, y) })
	case *loo.ScaleAdjoint:
		if loo.Criterion(f.Criterion) == loo.GCV {
			return func(x, y *linalg.Dense) error { return s.Add(x, y, nil) }, nil
		}
		return f.At.marked(file, n, s.Add)
	}
	return nil, fmt.Errorf("rkhsbeam: sums of type %T", f.sums)
}

// mergedSums adds the pass of fn over the files names to the pipeline s,
// and returns the merged sums.
func mergedSums(s beam.Scope, fn scaleFn, in Input, names beam.PCollection) beam.PCollection {
	switch fn.Pass {
	case scalePass0:
		return mergedPass[*loo.ScaleStats](s, fn, in, names)
	case scalePassA:
		return mergedPass[*loo.ScaleLOO](s, fn, in, names)
	}
	return mergedPass[*loo.ScaleAdjoint](s, fn, in, names)
}

// mergedPass is mergedSums for the sums of type T.
func mergedPass[T sums[T]](s beam.Scope, fn scaleFn, in Input, names beam.PCollection) beam.PCollection {
	per := beam.ParDo(s, &scaleFileFn[T]{passSums: passSums[T]{fn}, In: in}, names)
	return beam.Combine(s, &mergeFn[T, *passSums[T]]{Make: &passSums[T]{fn}}, per)
}

// registerPass registers the DoFn and the CombineFn of a pass.
func registerPass[T sums[T]]() {
	register.DoFn3x1[context.Context, string, func([]byte), error](&scaleFileFn[T]{})
	register.Combiner3[[]byte, []byte, []byte](&mergeFn[T, *passSums[T]]{})
}

func init() {
	registerPass[*loo.ScaleStats]()
	registerPass[*loo.ScaleLOO]()
	registerPass[*loo.ScaleAdjoint]()
}
