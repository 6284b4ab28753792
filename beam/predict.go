package rkhsbeam

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/linalg"
	"rkhs/regress"
)

// PredictOptions describe a batch prediction: a saved regress.Model
// applied to the rows of Input.
type PredictOptions struct {
	Input Input
	// Model is the model file (the JSON of regress.Model, as Fit and
	// rkhs fit write it).
	Model string
	// Output is a directory: the predictions for the input file F go to
	// Output/B.pred, B the last element of F without ".gz", one line per
	// row of F in order (blank and malformed lines have none), its q
	// outputs separated by tabs. Input files must have distinct names.
	Output string
	// DeadLetter, if not empty, receives the malformed lines as in
	// FitOptions; otherwise the first one fails the job.
	DeadLetter string
}

// Predict adds to the pipeline of s the prediction that o describes: each
// input file is read by one worker, its rows predicted a block at a time
// (regress.Model.Predict) and written, in order, to its own output file.
// It returns the PCollection of the output files written. Errors before
// the pipeline runs: o incomplete or invalid. When it runs: an unreadable
// or invalid model, a file that cannot be read or written, rows of
// another width than the model's centres, a malformed line (unless
// o.DeadLetter is set).
func Predict(s beam.Scope, o PredictOptions) (beam.PCollection, error) {
	if err := o.Input.check(); err != nil {
		return beam.PCollection{}, err
	}
	if o.Model == "" || o.Output == "" {
		return beam.PCollection{}, errors.New("rkhsbeam: predict needs a model file and an output directory")
	}
	s = s.Scope("rkhs predict")
	names := files(s, o.Input)
	out, bad := beam.ParDo2(s, &predictFileFn{In: o.Input, Model: o.Model, Output: o.Output, DeadLetter: o.DeadLetter != ""}, names)
	if o.DeadLetter != "" {
		textio.Write(s, o.DeadLetter, bad)
	}
	return out, nil
}

// predictFileFn predicts the rows of a file and writes them to its output
// file; it emits the name of that file.
type predictFileFn struct {
	In         Input
	Model      string
	Output     string
	DeadLetter bool

	model *regress.Model
}

func (f *predictFileFn) ProcessElement(ctx context.Context, file string, emit func(string), emitBad func(string)) error {
	if f.model == nil {
		b, err := readAllFile(ctx, f.Model)
		if err != nil {
			return err
		}
		var m regress.Model
		if err := json.Unmarshal(b, &m); err != nil {
			return fmt.Errorf("rkhsbeam: model %s: %w", f.Model, err)
		}
		f.model = &m
	}
	d := f.model.Centers.Cols
	name := strings.TrimSuffix(f.Output, "/") + "/" + baseName(file) + ".pred"
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	wc, err := fs.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(wc)
	x := linalg.NewDense(statsBlockRows, d, nil)
	n := 0
	flush := func() error {
		if n == 0 {
			return nil
		}
		p, err := f.model.Predict(x.Slice(0, n, 0, d))
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		n = 0
		var line []byte
		for i := 0; i < p.Rows; i++ {
			line = line[:0]
			for k, v := range p.Row(i) {
				if k > 0 {
					line = append(line, '\t')
				}
				line = strconv.AppendFloat(line, v, 'g', -1, 64)
			}
			line = append(line, '\n')
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	}
	var bad badFunc
	if f.DeadLetter {
		bad = func(e *LineError, text string) { emitBad(e.Error() + "\t" + text) }
	}
	err = readFile(ctx, f.In, file, d, nil, func(row []float64, _ float64) error {
		copy(x.Row(n), row)
		n++
		if n == statsBlockRows {
			return flush()
		}
		return nil
	}, bad)
	if err == nil {
		err = flush()
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := wc.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	emit(name)
	return nil
}

// readAllFile reads a whole file from any filesystem Beam knows.
func readAllFile(ctx context.Context, name string) ([]byte, error) {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return nil, err
	}
	defer fs.Close()
	return filesystem.Read(ctx, fs, name)
}

func init() {
	register.DoFn4x1[context.Context, string, func(string), func(string), error](&predictFileFn{})
}
