package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"rkhs/classify"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Model is a model as the commands save, load and apply it: any model rkhs
// fit, rkhs classify, rkhs-beam fit and rkhs-beam select write, known by
// the "format" field of its file (regress.FormatOf). A regression model
// predicts Outputs values a row; a classifier (Labels) one label.
type Model struct {
	// Saved is the model as its file holds it: a *regress.Model, a
	// *regress.LinearModel or a classifier of package classify.
	Saved any
	// Labels says that the model is a classifier, whose predictions are
	// labels.
	Labels bool
	// Width is the number of features the model takes, Outputs the values
	// it predicts a row.
	Width, Outputs int
	// Standardization, FeatureNames and TargetName are where Saved keeps
	// the map of raw rows to the rows the kernel sees and the names of
	// the columns it was fitted on (nil and "" without a header), for a
	// command to read, or to set before it saves the model.
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

// ModelOf returns the Model of m, a model a command fits: *regress.Model,
// *regress.LinearModel, *classify.RLSModel, *classify.PerceptronModel,
// *classify.KNNModel, *classify.LogisticModel, *classify.SVMModel or
// *interval.CV with its model. It
// panics on another type: a command fits only these.
func ModelOf(m any) *Model {
	mo := &Model{Saved: m, Outputs: 1}
	switch mm := m.(type) {
	case *regress.Model:
		mo.Width, mo.Outputs = mm.Centers.Cols, mm.Coef.Cols
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *regress.LinearModel:
		mo.Width, mo.Outputs = mm.Weights.Rows, mm.Weights.Cols
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *interval.CV:
		in := ModelOf(mm.Model())
		in.Intervals = mm
		return in
	case *classify.RLSModel:
		in := ModelOf(mm.Model)
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
		panic(fmt.Sprintf("cli: a model of type %T", m))
	}
	return mo
}

// modelFormats maps the format of a model file to a new value of its
// type: every model a command can save.
var modelFormats = map[string]func() json.Unmarshaler{
	"rkhs.regress.Model":            func() json.Unmarshaler { return &regress.Model{} },
	"rkhs.regress.LinearModel":      func() json.Unmarshaler { return &regress.LinearModel{} },
	"rkhs.classify.PerceptronModel": func() json.Unmarshaler { return &classify.PerceptronModel{} },
	"rkhs.classify.KNNModel":        func() json.Unmarshaler { return &classify.KNNModel{} },
	"rkhs.classify.RLSModel":        func() json.Unmarshaler { return &classify.RLSModel{} },
	"rkhs.classify.LogisticModel":   func() json.Unmarshaler { return &classify.LogisticModel{} },
	"rkhs.classify.SVMModel":        func() json.Unmarshaler { return &classify.SVMModel{} },
	"rkhs.interval.CV":              func() json.Unmarshaler { return &interval.CV{} },
}

// LoadModel decodes a model file by its format field, strictly (the
// decoders of packages regress and classify). The errors are theirs, and
// BadInput for a format no command saves.
func LoadModel(raw []byte) (*Model, error) {
	format, err := regress.FormatOf(raw)
	if err != nil {
		return nil, err
	}
	newModel, ok := modelFormats[format]
	if !ok {
		return nil, BadInputf("unknown model format %q", format)
	}
	m := newModel()
	if err := m.UnmarshalJSON(raw); err != nil {
		return nil, err
	}
	if cv, ok := m.(*interval.CV); ok && cv.Model() == nil {
		return nil, BadInputf("a CV+ file without its model: rkhs fit -interval-method cv+ -model saves one")
	}
	return ModelOf(m), nil
}

// Predict returns the model's predictions of the rows of x: n×Outputs
// values, or for a classifier n×1 labels.
func (m *Model) Predict(x *linalg.Dense) (*linalg.Dense, error) {
	if c, ok := m.Saved.(labeler); ok && m.Labels {
		p, err := c.Predict(x)
		if err != nil {
			return nil, err
		}
		return linalg.NewDense(len(p), 1, p), nil
	}
	return m.Saved.(interface {
		Predict(*linalg.Dense) (*linalg.Dense, error)
	}).Predict(x)
}

// AppendLine appends the line of one row's predictions p (a row of
// Predict's result; nil for a row that could not be read, which gets NaN
// for each output) and a newline, as every command writes predictions:
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

// ModelJSON returns the bytes of a model file, as both commands write it:
// the model v as one line of JSON, ending in a newline, so that a model
// written to standard output (-model -) is a line of its own.
func ModelJSON(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(b, '\n'), err
}
