package rkhsbeam

import (
	"fmt"
	"strconv"

	"rkhs/classify"
	"rkhs/linalg"
	"rkhs/regress"
)

// A model file is any model rkhs fit, rkhs classify or rkhs-beam fit
// saves, recognised by its "format" field (regress.FormatOf): a regression
// model predicts q values per row, written as rkhs predict writes them
// (%.17g, tab-separated when q > 1); a classifier predicts a label,
// written in the shortest form that reads back exactly.

// savedModel is a decoded model file.
type savedModel struct {
	// Width is the number of features the model expects.
	Width int
	// Outputs is the number of values predicted per row.
	Outputs int
	// Predict returns the predictions for the rows of x, n×Outputs.
	Predict func(x *linalg.Dense) (*linalg.Dense, error)
	// Labels: a classifier, whose predictions are labels.
	Labels bool
	// FeatureNames are the names of the columns the model was fitted on,
	// nil when its data had no header (regress.Model.FeatureNames).
	FeatureNames []string
}

// classifier is what the classifiers of package classify share.
type classifier interface {
	Predict(x *linalg.Dense) ([]float64, error)
	UnmarshalJSON([]byte) error
}

// loadModel decodes a model file by its format.
func loadModel(b []byte) (*savedModel, error) {
	format, err := regress.FormatOf(b)
	if err != nil {
		return nil, err
	}
	switch format {
	case "rkhs.regress.Model":
		var m regress.Model
		if err := m.UnmarshalJSON(b); err != nil {
			return nil, err
		}
		return &savedModel{Width: m.Centers.Cols, Outputs: m.Coef.Cols, Predict: m.Predict, FeatureNames: m.FeatureNames}, nil
	case "rkhs.regress.LinearModel":
		var m regress.LinearModel
		if err := m.UnmarshalJSON(b); err != nil {
			return nil, err
		}
		return &savedModel{Width: m.Weights.Rows, Outputs: m.Weights.Cols, Predict: m.Predict, FeatureNames: m.FeatureNames}, nil
	}
	var c classifier
	var width func() int
	var names func() []string
	switch format {
	case "rkhs.classify.PerceptronModel":
		m := &classify.PerceptronModel{}
		c, width, names = m, func() int { return m.Centers.Cols }, func() []string { return m.FeatureNames }
	case "rkhs.classify.KNNModel":
		m := &classify.KNNModel{}
		c, width, names = m, func() int { return m.X.Cols }, func() []string { return m.FeatureNames }
	case "rkhs.classify.RLSModel":
		m := &classify.RLSModel{}
		c, width, names = m, func() int { return m.Model.Centers.Cols }, func() []string { return m.Model.FeatureNames }
	case "rkhs.classify.LogisticModel":
		m := &classify.LogisticModel{}
		c, width, names = m, func() int { return m.Centers.Cols }, func() []string { return m.FeatureNames }
	case "rkhs.classify.SVMModel":
		m := &classify.SVMModel{}
		c, width, names = m, func() int { return m.Centers.Cols }, func() []string { return m.FeatureNames }
	default:
		return nil, fmt.Errorf("unknown model format %q", format)
	}
	if err := c.UnmarshalJSON(b); err != nil {
		return nil, err
	}
	return &savedModel{Width: width(), Outputs: 1, Labels: true, FeatureNames: names(), Predict: func(x *linalg.Dense) (*linalg.Dense, error) {
		p, err := c.Predict(x)
		if err != nil {
			return nil, err
		}
		return linalg.NewDense(len(p), 1, p), nil
	}}, nil
}

// appendPrediction appends one line of predictions p (a row of the
// result of Predict, or nil for a row that could not be read: NaN for
// each output) and a newline.
func (m *savedModel) appendPrediction(line []byte, p []float64) []byte {
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
