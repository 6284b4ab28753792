package classify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Saved is a saved model as a program loads and applies it without
// knowing its type: any model of packages regress and classify that has
// a file format (regress.FormatOf names it), as the commands rkhs and
// rkhs-beam and package rkhs/beam save, load and apply them. A regression
// model predicts Outputs values a row; a classifier (Labels) one label.
type Saved struct {
	// Model is the model as its file holds it: a *regress.Model, a
	// *regress.LinearModel or a classifier of this package.
	Model any
	// Labels says that the model is a classifier, whose predictions are
	// labels.
	Labels bool
	// Width is the number of features the model takes, Outputs the values
	// it predicts a row.
	Width, Outputs int
	// Standardization, FeatureNames and TargetName point to where Model
	// keeps the map of raw rows to the rows the kernel sees and the names
	// of the columns it was fitted on (nil and "" without a header), to
	// read, or to set before the model is saved.
	Standardization **kernels.Standardization
	FeatureNames    *[]string
	TargetName      *string
}

// SavedOf returns the Saved of m: *regress.Model, *regress.LinearModel,
// *RLSModel, *PerceptronModel, *KNNModel, *LogisticModel or *SVMModel. It
// panics on another type, a program's error, not the data's.
func SavedOf(m any) *Saved {
	mo := &Saved{Model: m, Outputs: 1}
	switch mm := m.(type) {
	case *regress.Model:
		mo.Width, mo.Outputs = mm.Centers.Cols, mm.Coef.Cols
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *regress.LinearModel:
		mo.Width, mo.Outputs = mm.Weights.Rows, mm.Weights.Cols
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *RLSModel:
		in := SavedOf(mm.Model)
		in.Model, in.Labels, in.Outputs = m, true, 1
		return in
	case *PerceptronModel:
		mo.Width, mo.Labels = mm.Centers.Cols, true
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *KNNModel:
		mo.Width, mo.Labels = mm.X.Cols, true
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *LogisticModel:
		mo.Width, mo.Labels = mm.Centers.Cols, true
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	case *SVMModel:
		mo.Width, mo.Labels = mm.Centers.Cols, true
		mo.Standardization, mo.FeatureNames, mo.TargetName = &mm.Standardization, &mm.FeatureNames, &mm.TargetName
	default:
		panic(fmt.Sprintf("classify: SavedOf a model of type %T", m))
	}
	return mo
}

// savedFormats maps the format of a model file to a new value of its type.
var savedFormats = map[string]func() json.Unmarshaler{
	"rkhs.regress.Model":            func() json.Unmarshaler { return &regress.Model{} },
	"rkhs.regress.LinearModel":      func() json.Unmarshaler { return &regress.LinearModel{} },
	"rkhs.classify.PerceptronModel": func() json.Unmarshaler { return &PerceptronModel{} },
	"rkhs.classify.KNNModel":        func() json.Unmarshaler { return &KNNModel{} },
	"rkhs.classify.RLSModel":        func() json.Unmarshaler { return &RLSModel{} },
	"rkhs.classify.LogisticModel":   func() json.Unmarshaler { return &LogisticModel{} },
	"rkhs.classify.SVMModel":        func() json.Unmarshaler { return &SVMModel{} },
}

// LoadSaved decodes a model file by its format field, strictly (the
// decoders of packages regress and classify). The errors are theirs, and
// an error wrapping ErrInput for a format neither package writes.
func LoadSaved(raw []byte) (*Saved, error) {
	format, err := regress.FormatOf(raw)
	if err != nil {
		return nil, err
	}
	newModel, ok := savedFormats[format]
	if !ok {
		return nil, inputError("LoadSaved", "model file", "unknown model format %q", format)
	}
	m := newModel()
	if err := m.UnmarshalJSON(raw); err != nil {
		return nil, err
	}
	return SavedOf(m), nil
}

// Predict returns the model's predictions of the rows of x: n×Outputs
// values, or for a classifier n×1 labels. The errors are the model's.
func (m *Saved) Predict(x *linalg.Dense) (*linalg.Dense, error) {
	if c, ok := m.Model.(interface {
		Predict(*linalg.Dense) ([]float64, error)
	}); ok && m.Labels {
		p, err := c.Predict(x)
		if err != nil {
			return nil, err
		}
		return linalg.NewDense(len(p), 1, p), nil
	}
	return m.Model.(interface {
		Predict(*linalg.Dense) (*linalg.Dense, error)
	}).Predict(x)
}

// AppendLine appends the line of one row's predictions p (a row of
// Predict's result; nil for a row that could not be read, which gets NaN
// for each output) and a newline: values as %.17g, tab-separated when
// there are several; a label in the shortest form that reads back
// exactly.
func (m *Saved) AppendLine(line []byte, p []float64) []byte {
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
func (m *Saved) Lines(p *linalg.Dense) []byte {
	var b bytes.Buffer
	var line []byte
	for i := range p.Rows {
		line = m.AppendLine(line[:0], p.Row(i))
		b.Write(line)
	}
	return b.Bytes()
}

// ModelFile returns the bytes of a model file: the model v as one line of
// JSON ending in a newline, so that a model written to standard output is
// a line of its own.
func ModelFile(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(b, '\n'), err
}
