package rkhsbeam

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// The conjugate-gradient variant, for m too large for the m×m statistics
// (a worker holds M, and the shuffle carries one M per worker, 4m² bytes
// each: 10 GB at m = 5·10⁴). A conjugate-gradient Nyström solver needs
// from the data only a summary (n, K_nmᵀY, K_nmᵀ1, 1ᵀY; one pass) and, at
// every iteration, the product K_nmᵀ(K_nm·V) for an m×q matrix V (one
// pass each). PassOperator computes each as a pipeline over the input
// files — the driver's loop runs outside the pipelines, one job per pass —
// and the solver (regress.Falkon, through regress.NystromOperator, which
// PassOperator implements) runs in this process.

var _ regress.NystromOperator = (*PassOperator)(nil)

// PassOperator computes the sums a conjugate-gradient Nyström solver needs
// with one Beam pipeline per call, each a pass over every input file: a
// worker per file evaluates the rows of K_nm a block at a time
// (kernels.Rows) and sums its products; the files' sums are added by a
// CombineFn, in the runner's order (so that passes agree to rounding, not
// bit for bit). Memory per worker: a block of rows of K_nm and m×q sums;
// shuffle per pass: m×q numbers per file.
//
// Its methods are not safe for concurrent use.
type PassOperator struct {
	Ctx     context.Context
	Input   Input
	Kernel  kernels.Spec
	Centers *linalg.Dense
	// Scratch is a directory on a filesystem that the workers and this
	// process share (local for Prism; gs://, s3:// or a shared mount on a
	// cluster): each pass writes its result there.
	Scratch string
	// Run runs a pipeline (beamx.Run in rkhs-beam, the -runner flag).
	Run func(context.Context, *beam.Pipeline) error

	passes atomic.Int64
}

// Passes returns the number of passes over the data run so far.
func (o *PassOperator) Passes() int { return int(o.passes.Load()) }

// Summary returns n, K_nmᵀY (m×1), K_nmᵀ1 and 1ᵀY over the rows of the
// input (one pass). Errors are those of the pipeline (see Fit).
func (o *PassOperator) Summary() (n int, kty *linalg.Dense, kt1, sumY []float64, err error) {
	m := o.Centers.Rows
	sums, err := o.pass(nil)
	if err != nil {
		return 0, nil, nil, nil, err
	}
	// Layout: [n, Σy, Kᵀy (m), Kᵀ1 (m)].
	if sums[0] < 1 {
		return 0, nil, nil, nil, errors.New("rkhsbeam: the input files hold no rows")
	}
	return int(sums[0]), linalg.NewDense(m, 1, sums[2:2+m]), sums[2+m : 2+2*m], sums[1:2], nil
}

// NormalMul sets dst = K_nmᵀ(K_nm·V) (one pass). V and dst are m×q.
func (o *PassOperator) NormalMul(dst, v *linalg.Dense) error {
	m := o.Centers.Rows
	if v.Rows != m || dst.Rows != m || dst.Cols != v.Cols {
		return fmt.Errorf("rkhsbeam: NormalMul of a %d×%d V into %d×%d, want %d rows", v.Rows, v.Cols, dst.Rows, dst.Cols, m)
	}
	sums, err := o.pass(v)
	if err != nil {
		return err
	}
	for i := 0; i < m; i++ {
		copy(dst.Row(i), sums[i*v.Cols:(i+1)*v.Cols])
	}
	return nil
}

// pass runs one pipeline: the products with v, or the summary for nil.
func (o *PassOperator) pass(v *linalg.Dense) ([]float64, error) {
	if err := o.Input.check(); err != nil {
		return nil, err
	}
	k := o.passes.Add(1)
	out := fmt.Sprintf("%s/pass-%d.bin", o.Scratch, k)
	fn := &passFileFn{In: o.Input, Kernel: o.Kernel, Centers: encodeMatrix(o.Centers)}
	if v != nil {
		fn.V = encodeMatrix(v)
	}
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope(fmt.Sprintf("rkhs pass %d", k))
	names, err := files(s, o.Input)
	if err != nil {
		return nil, err
	}
	per := beam.ParDo(s, fn, names)
	sum := beam.Combine(s, &sumFn{}, per)
	beam.ParDo0(s, &writeSumsFn{Name: out}, sum)
	if o.Run == nil {
		return nil, errors.New("rkhsbeam: PassOperator.Run is nil")
	}
	if err := o.Run(o.Ctx, p); err != nil {
		return nil, err
	}
	b, err := readAllFile(o.Ctx, out)
	if err != nil {
		return nil, err
	}
	if err := removeFile(o.Ctx, out); err != nil {
		return nil, err
	}
	return floatsOf(b), nil
}

// passFileFn sums the products of one file's rows: K_bᵀ(K_b·V) over its
// blocks, or (V empty) the row count, Σy, K_bᵀy and K_bᵀ1.
type passFileFn struct {
	In      Input
	Kernel  kernels.Spec
	Centers []byte
	V       []byte

	k       kernels.Kernel
	c, v    *linalg.Dense
	decoded bool
}

func (f *passFileFn) ProcessElement(ctx context.Context, file string) ([]float64, error) {
	if !f.decoded {
		var err error
		if f.k, err = f.Kernel.Kernel(); err != nil {
			return nil, err
		}
		if f.c, err = decodeMatrix(f.Centers); err != nil {
			return nil, err
		}
		if len(f.V) > 0 {
			if f.v, err = decodeMatrix(f.V); err != nil {
				return nil, err
			}
		}
		f.decoded = true
	}
	m, d := f.c.Rows, f.c.Cols
	var sums []float64
	var part *linalg.Dense
	q := 2 // the summary's [y 1]
	if f.v != nil {
		q = f.v.Cols
		sums = make([]float64, m*q)
	} else {
		sums = make([]float64, 2+2*m)
	}
	part = linalg.NewDense(m, q, nil)
	var y1 []float64
	err := readBlocks(ctx, f.In, file, d, blockRows(d+m+q), nil, func(b *block) error {
		n := len(b.Y)
		rows, err := kernels.NewRows(f.k, b.X, f.c)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if f.v != nil {
			rows.NormalMulTo(part, f.v)
			for i := 0; i < m; i++ {
				for c, p := range part.Row(i) {
					sums[i*q+c] += p
				}
			}
			return nil
		}
		y1 = y1[:0]
		for _, y := range b.Y {
			y1 = append(y1, y, 1)
		}
		rows.MulTransTo(part, linalg.NewDense(n, 2, y1)) // [Kᵀy, Kᵀ1]
		sums[0] += float64(n)
		for _, y := range b.Y {
			sums[1] += y
		}
		for j := 0; j < m; j++ {
			sums[2+j] += part.At(j, 0)
			sums[2+m+j] += part.At(j, 1)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sums, nil
}

// sumFn adds the files' sums element by element.
type sumFn struct{}

func (sumFn) MergeAccumulators(a, b []float64) ([]float64, error) {
	switch {
	case a == nil:
		return b, nil
	case b == nil:
		return a, nil
	case len(a) != len(b):
		return nil, fmt.Errorf("rkhsbeam: sums of %d and %d values", len(a), len(b))
	}
	for i, v := range b {
		a[i] += v
	}
	return a, nil
}

// writeSumsFn writes the final sums for the driver to read.
type writeSumsFn struct{ Name string }

func (f *writeSumsFn) ProcessElement(ctx context.Context, sums []float64) error {
	return writeFile(ctx, f.Name, bytesOf(sums))
}

func bytesOf(v []float64) []byte {
	b := make([]byte, 0, 8*len(v))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

func floatsOf(b []byte) []float64 {
	v := make([]float64, len(b)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v
}

func init() {
	register.DoFn2x2[context.Context, string, []float64, error](&passFileFn{})
	register.Combiner1[[]float64](&sumFn{})
	register.DoFn2x1[context.Context, []float64, error](&writeSumsFn{})
}
