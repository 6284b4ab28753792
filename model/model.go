// Package model is the model file that rkhs and rkhs-beam write: save,
// load and predict with any fitted model of packages regress, classify and
// interval, known by the "format" field of its file (regress.FormatOf).
//
// A regression model predicts Outputs values a row; a classifier (Labels)
// one label. Marshal writes a file as both commands do, one line of JSON;
// Load reads one back strictly, by the decoders of the model's own
// package; Lines formats predictions as both commands write them.
package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"rkhs/classify"
	"rkhs/internal/check"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// ErrInput is wrapped by the errors of Load about its file that are not
// its model package's own: a format no command saves, a CV+ file without
// its model. They are *linalg.InputError values; a file that does not
// decode returns the error of its package (regress.ErrInput,
// classify.ErrInput, interval.ErrInput), an InputError too.
var ErrInput = errors.New("model: invalid input")

// Model is a fitted model as a model file holds it.
type Model struct {
	// Saved is the model: a *regress.Model, a *regress.LinearModel or a
	// classifier of package classify.
	Saved any
	// Labels says that the model is a classifier, whose predictions are
	// labels.
	Labels bool
	// Width is the number of features the model takes, Outputs the values
	// it predicts a row.
	Width, Outputs int
	// Standardization, FeatureNames and TargetName are where Saved keeps
	// the map of raw rows to the rows the kernel sees and the names of
	// the columns it was fitted on (nil and "" without a header), to read,
	// or to set before the model is saved.
	Standardization **kernels.Standardization
	FeatureNames    *[]string
	TargetName      *string
	// Intervals is the CV+ of a file that holds one (Saved is then its
	// model); nil otherwise.
	Intervals *interval.CV
}

// labeler is what every classifier of package classify offers.
type labeler interface {
	Predict(x *linalg.Dense) ([]float64, error)
}

// Of returns the Model of m, a fitted model: *regress.Model,
// *regress.LinearModel, *classify.RLSModel, *classify.PerceptronModel,
// *classify.KNNModel, *classify.LogisticModel, *classify.SVMModel or
// *interval.CV with its model. Another type is a programming error and
// panics, as the type assertion it is.
func Of(m any) *Model {
	mo := &Model{Saved: m, Outputs: 1}
	switch mm := m.(type) {
	case *regress.Model:
		mo.Width, mo.Outputs = mm.Centers.Cols, mm.Coef.Cols
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *regress.LinearModel:
		mo.Width, mo.Outputs = mm.Weights.Rows, mm.Weights.Cols
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *interval.CV:
		in := Of(mm.Model())
		in.Intervals = mm
		return in
	case *classify.RLSModel:
		in := Of(mm.Model)
		in.Saved, in.Labels, in.Outputs = m, true, 1
		return in
	case *classify.PerceptronModel:
		mo.Width, mo.Labels = mm.Centers.Cols, true
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *classify.KNNModel:
		mo.Width, mo.Labels = mm.X.Cols, true
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *classify.LogisticModel:
		mo.Width, mo.Labels = mm.Centers.Cols, true
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *classify.SVMModel:
		mo.Width, mo.Labels = mm.Centers.Cols, true
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	default:
		panic(fmt.Sprintf("model.Of: a model of type %T", m))
	}
	return mo
}

// formats maps the format of a model file to a new value of its type.
var formats = map[string]func() json.Unmarshaler{
	"rkhs.regress.Model":            func() json.Unmarshaler { return &regress.Model{} },
	"rkhs.regress.LinearModel":      func() json.Unmarshaler { return &regress.LinearModel{} },
	"rkhs.classify.PerceptronModel": func() json.Unmarshaler { return &classify.PerceptronModel{} },
	"rkhs.classify.KNNModel":        func() json.Unmarshaler { return &classify.KNNModel{} },
	"rkhs.classify.RLSModel":        func() json.Unmarshaler { return &classify.RLSModel{} },
	"rkhs.classify.LogisticModel":   func() json.Unmarshaler { return &classify.LogisticModel{} },
	"rkhs.classify.SVMModel":        func() json.Unmarshaler { return &classify.SVMModel{} },
	"rkhs.interval.CV":              func() json.Unmarshaler { return &interval.CV{} },
}

// Load decodes a model file by its format field, strictly (the decoders
// of packages regress, classify and interval, whose errors it returns),
// and errors wrapping ErrInput for a format no command saves and for a
// CV+ file without its model. raw is not modified.
func Load(raw []byte) (*Model, error) {
	format, err := regress.FormatOf(raw)
	if err != nil {
		return nil, err
	}
	newModel, ok := formats[format]
	if !ok {
		return nil, check.Input(ErrInput, "Load", "model file", "unknown model format %q", format)
	}
	m := newModel()
	if err := m.UnmarshalJSON(raw); err != nil {
		return nil, err
	}
	if cv, ok := m.(*interval.CV); ok && cv.Model() == nil {
		return nil, check.Input(ErrInput, "Load", "model file", "a CV+ file without its model: rkhs fit -interval-method cv+ -model saves one")
	}
	return Of(m), nil
}

// Predict returns the model's predictions of the rows of x: n×Outputs
// values, or for a classifier n×1 labels. The errors are those of the
// model's own Predict, and one wrapping ErrInput for a Model that holds
// none (a nil or zero Model).
func (m *Model) Predict(x *linalg.Dense) (*linalg.Dense, error) {
	if c, ok := m.saved().(labeler); ok && m.Labels {
		p, err := c.Predict(x)
		if err != nil {
			return nil, err
		}
		return linalg.NewDense(len(p), 1, p), nil
	}
	r, ok := m.saved().(interface {
		Predict(*linalg.Dense) (*linalg.Dense, error)
	})
	if !ok {
		return nil, check.Input(ErrInput, "Model.Predict", "m", "no model of regress or classify (%T): use Of or Load", m.saved())
	}
	return r.Predict(x)
}

// saved is m.Saved, nil for a nil m.
func (m *Model) saved() any {
	if m == nil {
		return nil
	}
	return m.Saved
}

// AppendLine appends the line of one row's predictions p (a row of
// Predict's result; nil for a row that could not be read, which gets NaN
// for each output) and a newline, as both commands write predictions:
// values as %.17g, tab-separated when there are several; a label in the
// shortest form that reads back exactly.
func (m *Model) AppendLine(line []byte, p []float64) []byte {
	for k := 0; k < m.Outputs; k++ {
		if k > 0 {
			line = append(line, '\t')
		}
		switch {
		case p == nil:
			line = append(line, "NaN"...)
		case m.Labels:
			line = strconv.AppendFloat(line, p[k], 'g', -1, 64)
		default:
			line = fmt.Appendf(line, "%.17g", p[k])
		}
	}
	return append(line, '\n')
}

// Lines returns the lines of the predictions p (Predict's result), one a
// row (AppendLine).
func (m *Model) Lines(p *linalg.Dense) []byte {
	var b bytes.Buffer
	var line []byte
	for i := range p.Rows {
		line = m.AppendLine(line[:0], p.Row(i))
		b.Write(line)
	}
	return b.Bytes()
}

// Marshal returns the bytes of a model file, as both commands write it:
// the model v (its MarshalJSON) as one line of JSON ending in a newline,
// so that a model written to standard output is a line of its own.
func Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(b, '\n'), err
}
