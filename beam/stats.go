package rkhsbeam

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/kernels"
	"rkhs/regress"
	"rkhs/report"
)

// statsFileFn summarises the rows of a file: it emits the binary encoding
// of their regress.NystromStats (statistics of no rows for a file without
// any) and, when DeadLetter is set, each malformed line as
// "file:line: reason<TAB>text" instead of failing. The rows are those the
// first pass prepared (prep.rows): standardized, labels coded.
type statsFileFn struct {
	In          Input
	Kernel      kernels.Spec
	CentersFile string // where the centres come from, if a file, for errors
	DeadLetter  bool

	prepBytes []byte                // the side input the statistics below were made for
	prep      *prep                 // decoded
	st        *regress.NystromStats // reused from file to file (Reset)
}

func (f *statsFileFn) ProcessElement(ctx context.Context, job fileJob, emit func([]byte), emitBad func(string)) error {
	file := job.File
	if len(job.Prep) == 0 { // no centres: every line of the input is malformed
		return readFile(ctx, f.In, file, f.In.Width, nil, func([]float64, float64) error { return nil }, func(e *LineError, text string) {
			linesSetAside.Inc(ctx, 1)
			emitBad(e.Error() + "\t" + text)
		})
	}
	if f.st == nil || string(f.prepBytes) != string(job.Prep) {
		p, err := decodePrep(job.Prep)
		if err != nil {
			return err
		}
		f.prep, f.prepBytes, f.st = p, job.Prep, nil
		if p.refusal() != nil {
			return nil // the driver reports it
		}
		k, err := f.Kernel.Kernel()
		if err != nil {
			return err
		}
		if f.st, err = regress.NewNystromStats(k, p.Centers); err != nil {
			return err
		}
	}
	st := f.st
	if st == nil {
		return nil // refused
	}
	st.Reset()
	c := st.Centers()
	var bad badFunc
	if f.DeadLetter {
		bad = func(e *LineError, text string) { emitBad(e.Error() + "\t" + text) }
	}
	err := f.prep.addFile(ctx, f.In, file, c.Cols, blockRows(2*c.Cols+c.Rows+f.prep.outputs()), bad, st.Add)
	if we := (*widthError)(nil); errors.As(err, &we) && f.CentersFile != "" {
		return fmt.Errorf("rkhsbeam: the centres file %s has %s, %s has %d", f.CentersFile, report.Count(we.Want, "feature"), we.File, we.Got)
	}
	if err != nil {
		return err
	}
	b, err := st.MarshalBinary()
	if err != nil {
		return err
	}
	emit(b)
	return nil
}

// newStats makes the zero regress.NystromStats, into which the
// statistics of any kernel and centres decode: the maker of the
// statistics' mergeFn.
type newStats struct{}

func (newStats) newSums(context.Context) (*regress.NystromStats, error) {
	return &regress.NystromStats{}, nil
}

// decodeStats decodes merged statistics; no bytes are the zero value,
// statistics of no files.
func decodeStats(b []byte) (*regress.NystromStats, error) {
	s := &regress.NystromStats{}
	if len(b) == 0 {
		return s, nil
	}
	return s, s.UnmarshalBinary(b)
}

func init() {
	register.DoFn4x1[context.Context, fileJob, func([]byte), func(string), error](&statsFileFn{})
	register.DoFn3x0[string, []byte, func(fileJob)](&withCentersFn{})
	register.Emitter1[fileJob]()
	register.Emitter1[[]byte]()
	register.Combiner3[[]byte, []byte, []byte](&mergeFn[*regress.NystromStats, newStats]{})
}

// fileJob is an input file with the first pass's prep (the centres, the
// standardization and the classes) to summarise it for.
type fileJob struct {
	File string
	Prep []byte
}

// withCentersFn pairs each file with the prep, read as a side input.
//
// The prep reaches the workers this way, with the files, rather than as
// a side input of statsFileFn itself, because Prism (v2.77) keeps its
// watermark loop busy on a core for as long as a bundle that reads a side
// input runs: pairing is quick, and a Reshuffle after it keeps the long
// summaries in a stage of their own.
type withCentersFn struct{}

func (withCentersFn) ProcessElement(file string, prep []byte, emit func(fileJob)) {
	emit(fileJob{File: file, Prep: prep})
}

// statistics summarises the rows of the files for the prep (one encoded
// prep) and returns the merged statistics (one encoded
// regress.NystromStats) and the malformed lines (empty unless
// deadLetter).
func statistics(s beam.Scope, in Input, k kernels.Spec, names, prep beam.PCollection, centersFile string, deadLetter bool) (stats, bad beam.PCollection) {
	s = s.Scope("statistics")
	jobs := beam.ParDo(s, &withCentersFn{}, names, beam.SideInput{Input: prep})
	jobs = beam.Reshuffle(s, jobs)
	per, bad := beam.ParDo2(s, &statsFileFn{In: in, Kernel: k, CentersFile: centersFile, DeadLetter: deadLetter}, jobs)
	return beam.Combine(s, &mergeFn[*regress.NystromStats, newStats]{}, per), bad
}
