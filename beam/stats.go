package rkhsbeam

import (
	"context"
	"fmt"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// statsBlockRows is how many rows a worker parses before it adds them to
// its statistics: 8192 rows of d features, a few MiB.
const statsBlockRows = 8192

// statsFileFn summarises the rows of a file: it emits the binary encoding
// of their regress.NystromStats (statistics of no rows for a file without
// any) and, when DeadLetter is set, each malformed line as
// "file:line: reason<TAB>text" instead of failing.
type statsFileFn struct {
	In         Input
	Kernel     kernels.Spec
	DeadLetter bool

	centres []byte                // the side input the statistics below were made for
	st      *regress.NystromStats // reused from file to file (Reset)
}

func (f *statsFileFn) ProcessElement(ctx context.Context, job fileJob, emit func([]byte), emitBad func(string)) error {
	file, centres := job.File, job.Centres
	if f.st == nil || string(f.centres) != string(centres) {
		c, err := decodeMatrix(centres)
		if err != nil {
			return err
		}
		k, err := f.Kernel.Kernel()
		if err != nil {
			return err
		}
		if f.st, err = regress.NewNystromStats(k, c); err != nil {
			return err
		}
		f.centres = centres
	}
	st := f.st
	st.Reset()
	d := st.Centers().Cols
	x := linalg.NewDense(statsBlockRows, d, nil)
	y := linalg.NewDense(statsBlockRows, 1, nil)
	n := 0
	flush := func() error {
		if n == 0 {
			return nil
		}
		err := st.Add(x.Slice(0, n, 0, d), y.Slice(0, n, 0, 1))
		n = 0
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		return nil
	}
	var bad badFunc
	if f.DeadLetter {
		bad = func(e *LineError, text string) { emitBad(e.Error() + "\t" + text) }
	}
	err := readFile(ctx, f.In, file, d, nil, func(row []float64, label float64) error {
		copy(x.Row(n), row)
		y.Set(n, 0, label)
		n++
		if n == statsBlockRows {
			return flush()
		}
		return nil
	}, bad)
	if err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	b, err := st.MarshalBinary()
	if err != nil {
		return err
	}
	emit(b)
	return nil
}

// mergeStatsFn merges the statistics of the files, in whatever order the
// runner combines them: the sum is the same to rounding (see
// regress.NystromStats). The accumulator is a *regress.NystromStats,
// shipped between workers in its binary encoding; the zero value stands
// for no statistics yet.
type mergeStatsFn struct{}

func (mergeStatsFn) CreateAccumulator() *regress.NystromStats { return &regress.NystromStats{} }

func (mergeStatsFn) AddInput(a *regress.NystromStats, b []byte) (*regress.NystromStats, error) {
	if a.Kernel() == nil {
		err := a.UnmarshalBinary(b)
		return a, err
	}
	var t regress.NystromStats
	if err := t.UnmarshalBinary(b); err != nil {
		return nil, err
	}
	return a, a.Merge(&t)
}

func (mergeStatsFn) MergeAccumulators(a, b *regress.NystromStats) (*regress.NystromStats, error) {
	switch {
	case a.Kernel() == nil:
		return b, nil
	case b.Kernel() == nil:
		return a, nil
	}
	return a, a.Merge(b)
}

func (mergeStatsFn) ExtractOutput(a *regress.NystromStats) ([]byte, error) {
	if a.Kernel() == nil {
		return nil, fmt.Errorf("rkhsbeam: no input files were summarised")
	}
	return a.MarshalBinary()
}

// encodeStats and decodeStats are the coder of the accumulator.
func encodeStats(s *regress.NystromStats) ([]byte, error) {
	if s.Kernel() == nil {
		return []byte{}, nil
	}
	return s.MarshalBinary()
}

func decodeStats(b []byte) (*regress.NystromStats, error) {
	s := &regress.NystromStats{}
	if len(b) == 0 {
		return s, nil
	}
	return s, s.UnmarshalBinary(b)
}

func init() {
	beam.RegisterCoder(reflect.TypeOf((*regress.NystromStats)(nil)), encodeStats, decodeStats)
	register.DoFn4x1[context.Context, fileJob, func([]byte), func(string), error](&statsFileFn{})
	register.DoFn3x0[string, []byte, func(fileJob)](&withCentresFn{})
	register.Emitter1[fileJob]()
	register.Emitter1[[]byte]()
	register.Combiner3[*regress.NystromStats, []byte, []byte](&mergeStatsFn{})
}

// fileJob is an input file with the centres to summarise it for.
type fileJob struct {
	File    string
	Centres []byte
}

// withCentresFn pairs each file with the centres, read as a side input.
//
// The centres reach the workers this way, with the files, rather than as
// a side input of statsFileFn itself, because Prism (v2.77) keeps its
// watermark loop busy on a core for as long as a bundle that reads a side
// input runs: pairing is quick, and a Reshuffle after it keeps the long
// summaries in a stage of their own.
type withCentresFn struct{}

func (withCentresFn) ProcessElement(file string, centres []byte, emit func(fileJob)) {
	emit(fileJob{File: file, Centres: centres})
}

// statistics summarises the rows of the files for the centres (one
// encoded matrix) and returns the merged statistics (one encoded
// regress.NystromStats) and the malformed lines (empty unless
// deadLetter).
func statistics(s beam.Scope, in Input, k kernels.Spec, names, centres beam.PCollection, deadLetter bool) (stats, bad beam.PCollection) {
	s = s.Scope("statistics")
	jobs := beam.ParDo(s, &withCentresFn{}, names, beam.SideInput{Input: centres})
	jobs = beam.Reshuffle(s, jobs)
	per, bad := beam.ParDo2(s, &statsFileFn{In: in, Kernel: k, DeadLetter: deadLetter}, jobs)
	return beam.Combine(s, &mergeStatsFn{}, per), bad
}
