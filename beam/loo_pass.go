package rkhsbeam

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// The leave-one-out pass of a selection, on the workers: every file is
// read by one worker, which rebuilds the λ path of a σ from the merged
// statistics in the scratch directory — bit for bit the driver's path —
// and adds the file's exact leave-one-out residuals to it; the residual
// sums of the files are merged by mergeFn, in their binary encoding
// (loo.NystromPath.MarshalBinary, Merge).

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

// newSums returns a new λ path of the statistics, with no rows.
func (f *pathFn) newSums(ctx context.Context) (*loo.NystromPath, error) {
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
	p, err := f.newSums(ctx)
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
	At   places // the rows of the pass (Rows nil: every row)

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
	add, err := f.At.in(file, f.prep.fileRows(file), func(_ []int, x, y *linalg.Dense) error { return p.Add(x, y) })
	if err != nil {
		return err
	}
	if err := f.prep.addFile(ctx, f.In, file, d, blockRows(2*d+2*m+q+(q+1)*nl), nil, add); err != nil {
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
	register.DoFn3x1[context.Context, string, func([]byte), error](&looFileFn{})
	register.Combiner3[[]byte, []byte, []byte](&mergeFn[*loo.NystromPath, *pathFn]{})
}
