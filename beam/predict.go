package rkhsbeam

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/internal/cli"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/model"
	"rkhs/report"
)

// PredictOptions describe a batch prediction: a saved model applied to
// the rows of Input.
type PredictOptions struct {
	// Input is the files of rows. A CSV file with a header, for a model
	// that stores the names of its features (regress.Model.FeatureNames:
	// fitted on a file with a header), is read by those names, as rkhs
	// predict reads it: its columns in any order, others (the label)
	// ignored, a missing one an error that names it. Any other file is
	// read by position, its width checked against the model's; a CSV file
	// without a label column has Input.CSV.NoLabel set (LIBSVM lines always
	// start with a label).
	Input Input
	// Model is the model file: any model rkhs fit, rkhs classify or Fit
	// saves (see model.Load).
	Model string
	// Output is a directory: the predictions for the input file F go to
	// Output/B.pred, B the last element of F without ".gz", one line per
	// row of F in order (blank lines and a header have none), its q
	// outputs separated by tabs. Two input files with the same B are
	// refused before the pipeline runs.
	Output string
	// DeadLetter, if not empty, receives the malformed lines as in
	// FitOptions, and each has a line of NaN in the predictions, so that
	// line i of the output stays the prediction for row i; otherwise the
	// first one fails the job.
	DeadLetter string
}

// PositionNotes returns, before anything runs, what both commands tell
// the user who predicts from CSV files without a header with a model
// whose columns have names (report.PositionNote): one note for each such
// input file, which is read by position as the model's features, then
// its label; or an error, as rkhs predict gives it, when such a file's
// width is not the model's (a file laid out as a training file read with
// -features a subset). LIBSVM input and a model without names give none.
func (o PredictOptions) PositionNotes(ctx context.Context) ([]string, error) {
	if o.Input.Format != "csv" {
		return nil, nil
	}
	b, err := readAllFile(ctx, o.Model)
	if err != nil {
		return nil, err
	}
	m, err := model.Load(b)
	if err != nil {
		return nil, fmt.Errorf("rkhsbeam: model %s: %w", o.Model, err)
	}
	if m.FeatureNames == nil || len(*m.FeatureNames) == 0 {
		return nil, nil
	}
	target := ""
	if m.TargetName != nil {
		target = *m.TargetName
	}
	files, err := o.Input.Files(ctx)
	if err != nil {
		return nil, err
	}
	in := o.Input
	in.CSV.HeaderFeatures = *m.FeatureNames
	var notes []string
	for _, f := range files {
		info, err := firstLayout(ctx, in, f)
		if err != nil {
			return nil, err
		}
		note := report.PositionNote(f, info, *m.FeatureNames, target, in.CSV.NoLabel)
		if note == "" {
			continue
		}
		if got := len(info.Features); got != m.Width {
			hint := ""
			if !in.CSV.NoLabel && got+1 == m.Width {
				hint = " (if the file has no label column, say so: -unlabelled)"
			}
			return nil, cli.BadInputf("%s has %s, the last column read as the label (it has no header to name them); the model %s has %d: the widths must agree%s", f, report.Count(got, "feature"), o.Model, m.Width, hint)
		}
		notes = append(notes, note)
	}
	return notes, nil
}

// PredictionFiles returns the output file of every input file of o, in
// the order of Input.Files, before anything runs; two input files whose
// outputs would have the same name are an error.
func (o PredictOptions) PredictionFiles(ctx context.Context) (inputs, outputs []string, err error) {
	list, err := o.Input.Files(ctx)
	if err != nil {
		return nil, nil, err
	}
	seen := map[string]string{}
	for _, f := range list {
		name := predictionFile(o.Output, f)
		if g, ok := seen[name]; ok {
			return nil, nil, fmt.Errorf("rkhsbeam: %s and %s would both write %s: give the input files distinct names", g, f, name)
		}
		seen[name] = f
		outputs = append(outputs, name)
	}
	return list, outputs, nil
}

// Predict adds to the pipeline of s the prediction that o describes: each
// input file is read by one worker, its rows predicted a block at a time
// and written, in order, to its own output file. It returns the
// PCollection of the output files written. Errors before the pipeline
// runs: o incomplete or invalid, an input pattern that matches no file,
// two input files whose outputs would have the same name. When it runs: an
// unreadable or invalid model, a file that cannot be read or written, rows
// of another width than the model's, a malformed line (unless
// o.DeadLetter is set).
func Predict(s beam.Scope, o PredictOptions) (beam.PCollection, error) {
	if err := o.Input.check(); err != nil {
		return beam.PCollection{}, err
	}
	if o.Model == "" || o.Output == "" {
		return beam.PCollection{}, errors.New("rkhsbeam: predict needs a model file and an output directory")
	}
	list, _, err := o.PredictionFiles(context.Background())
	if err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("rkhs predict")
	names := beam.Reshuffle(s, beam.CreateList(s, list))
	out, bad := beam.ParDo2(s, &predictFileFn{In: o.Input, Model: o.Model, Output: o.Output, DeadLetter: o.DeadLetter != ""}, names)
	if o.DeadLetter != "" {
		writeLines(s, o.DeadLetter, bad)
	}
	return out, nil
}

// predictionFile is the output file of the input file f.
func predictionFile(dir, f string) string {
	return strings.TrimSuffix(dir, "/") + "/" + baseName(f) + ".pred"
}

// predictFileFn predicts the rows of a file and writes them to its output
// file; it emits the name of that file.
type predictFileFn struct {
	In         Input
	Model      string
	Output     string
	DeadLetter bool

	model *model.Model
}

func (f *predictFileFn) ProcessElement(ctx context.Context, file string, emit func(string), emitBad func(string)) error {
	if f.model == nil {
		b, err := readAllFile(ctx, f.Model)
		if err != nil {
			return err
		}
		m, err := model.Load(b)
		if err != nil {
			return fmt.Errorf("rkhsbeam: model %s: %w", f.Model, err)
		}
		f.model = m
	}
	m := f.model
	in := f.In
	in.CSV.HeaderFeatures = *m.FeatureNames
	name := predictionFile(f.Output, file)
	out, err := createFile(ctx, name)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(out)
	var bad badFunc
	if f.DeadLetter {
		bad = func(e *LineError, text string) { emitBad(e.Error() + "\t" + text) }
	}
	var line []byte
	var off offConstant
	if m.Standardization != nil && m.FeatureNames != nil {
		off.s, off.names = *m.Standardization, *m.FeatureNames
	}
	err = readBlocks(ctx, in, file, m.Width, blockRows(m.Width+m.Outputs), bad, func(b *block) error {
		var p *linalg.Dense
		if len(b.Y) > 0 {
			var err error
			if err = off.add(b.X); err == nil {
				p, err = m.Predict(b.X)
			}
			if err != nil {
				return fmt.Errorf("%s: %w", file, err)
			}
		}
		line = line[:0]
		k := 0
		for i := 0; i <= len(b.Y); i++ {
			for ; k < len(b.Bad) && b.Bad[k] == i; k++ {
				line = m.AppendLine(line, nil)
			}
			if i < len(b.Y) {
				line = m.AppendLine(line, p.Row(i))
			}
		}
		_, err := w.Write(line)
		return err
	})
	if we := (*widthError)(nil); errors.As(err, &we) {
		err = fmt.Errorf("rkhsbeam: %s has %s, the model %s has %d", file, report.Count(we.Got, "feature"), f.Model, we.Want)
		if !in.CSV.NoLabel && we.Got+1 == we.Want {
			err = fmt.Errorf("%w (if the file has no label column, say so: -unlabelled)", err)
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		out.Abort()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	for _, w := range off.warnings(file) {
		beam.NewCounter(warningSpace, w).Inc(ctx, 1)
	}
	emit(name)
	return nil
}

// offConstant is the checks of a file's rows against the model's
// standardization (kernels.FarRows), as rkhs predict makes them on the
// whole file, with the names of the features for its warnings.
type offConstant struct {
	s     *kernels.Standardization
	names []string
	kernels.FarRows
}

func (c *offConstant) add(x *linalg.Dense) error { return c.FarRows.Add(c.s, x) }

// warnings returns rkhs predict's warnings for the file
// (report.OffConstantLine, report.OutlyingLine), none when no row differs or
// lies far out.
func (c *offConstant) warnings(file string) []string {
	var w []string
	if c.Off.Rows > 0 {
		w = append(w, report.OffConstantLine(file, c.s, c.Off, c.Rows, c.OffValue, c.names))
	}
	if c.Far.Rows > 0 {
		w = append(w, report.OutlyingLine(file, c.Far, c.Rows, c.names))
	}
	return w
}

// warningSpace is the namespace of the counters that carry a warning of
// the workers to the driver, the warning their name (Warnings).
const warningSpace = "rkhs-beam warnings"

// Warnings returns the warnings of the workers of a job that Predict
// built, from its metrics, sorted: for each input file with rows that
// differ from a feature constant in the model's training rows, or that
// lie far outside their scale, rkhs predict's warnings for it. A runner
// that reports no metrics gives none.
func Warnings(r beam.PipelineResult) []string {
	var w []string
	if r == nil {
		return nil
	}
	for _, c := range r.Metrics().AllMetrics().Counters() {
		if c.Namespace() == warningSpace && c.Result() > 0 {
			w = append(w, c.Name())
		}
	}
	slices.Sort(w)
	return slices.Compact(w)
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
