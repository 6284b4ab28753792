package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	cls "rkhs/classify"
	"rkhs/dataset"
	"rkhs/linalg"
	"rkhs/regress"
)

func runPredict(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("predict", "predict with a model saved by rkhs fit -model or rkhs classify -model", stderr)
	modelPath := fs.String("model", "", "model `file` written by rkhs fit -model or rkhs classify -model")
	dataPath := fs.String("data", "", "data `file` to predict (LIBSVM, or CSV if it ends in .csv, see -format): with a label column, read and not used, unless -unlabelled says there is none")
	out := fs.String("predictions", "", "write the predictions to this `file`, one per line: a regression model's as %.17g, a classifier's labels in the shortest form that reads back exactly, as rkhs classify -predictions writes them (default: standard output)")
	var df dataFlags
	df.register(fs, true)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *modelPath == "" || *dataPath == "" {
		return badInputf("-model and -data are required")
	}
	if err := df.check(); err != nil {
		return err
	}
	if err := checkOutputs([]string{"model", *modelPath, "data", *dataPath}, "predictions", *out); err != nil {
		return err
	}
	raw, err := os.ReadFile(*modelPath)
	if err != nil {
		return err
	}
	model, err := loadModel(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", *modelPath, err)
	}
	d, isCSV, err := df.readData(*dataPath)
	if err != nil {
		return err
	}
	switch w := modelWidth(model); {
	case d.X.Cols == w:
	case d.X.Cols < w && !isCSV:
		// A LIBSVM file does not show trailing all-zero features.
		sameWidth(d, &dataset.Data{X: linalg.Dense{Cols: w}})
	case isCSV && !df.unlabelled && d.X.Cols+1 == w:
		return badInputf("%s: %d columns, one of them read as the label, for a model of %d features: if the file has no label column, give -unlabelled", *dataPath, d.X.Cols+1, w)
	default:
		return badInputf("%s: %d features, the model has %d", *dataPath, d.X.Cols, w)
	}
	p, err := model.Predict(&d.X)
	if err != nil {
		return err
	}
	lines := predictionLines(p)
	if _, ok := model.(labelModel); ok {
		lines = labelLines(p.Data) // as rkhs classify -predictions writes them
	}
	if *out == "" {
		_, err = stdout.Write(lines)
		return err
	}
	return writeAll([]pendingFile{{*out, lines}})
}

// modelWidth returns the number of features a model expects.
func modelWidth(m predictor) int {
	switch mm := m.(type) {
	case *regress.Model:
		return mm.Centers.Cols
	case *regress.LinearModel:
		return mm.Weights.Rows
	case labelModel:
		switch c := mm.labelPredictor.(type) {
		case *cls.PerceptronModel:
			return c.Centers.Cols
		case *cls.KNNModel:
			return c.X.Cols
		case *cls.RLSModel:
			return c.Model.Centers.Cols
		case *cls.LogisticModel:
			return c.Centers.Cols
		case *cls.SVMModel:
			return c.Centers.Cols
		}
	}
	return 0
}

// modelTypes maps the format of a model file to a new value of its type:
// every model rkhs fit or rkhs classify can save.
var modelTypes = map[string]func() json.Unmarshaler{
	"rkhs.regress.Model":            func() json.Unmarshaler { return &regress.Model{} },
	"rkhs.regress.LinearModel":      func() json.Unmarshaler { return &regress.LinearModel{} },
	"rkhs.classify.PerceptronModel": func() json.Unmarshaler { return &cls.PerceptronModel{} },
	"rkhs.classify.KNNModel":        func() json.Unmarshaler { return &cls.KNNModel{} },
	"rkhs.classify.RLSModel":        func() json.Unmarshaler { return &cls.RLSModel{} },
	"rkhs.classify.LogisticModel":   func() json.Unmarshaler { return &cls.LogisticModel{} },
	"rkhs.classify.SVMModel":        func() json.Unmarshaler { return &cls.SVMModel{} },
}

// labelModel presents a classifier as a predictor: its predicted labels
// as an n×1 matrix.
type labelModel struct{ labelPredictor }

func (m labelModel) Predict(x *linalg.Dense) (*linalg.Dense, error) {
	p, err := m.labelPredictor.Predict(x)
	if err != nil {
		return nil, err
	}
	return linalg.NewDense(len(p), 1, p), nil
}

// loadModel decodes any model rkhs fit or rkhs classify can save, by its
// format field; a classifier predicts its labels.
func loadModel(raw []byte) (predictor, error) {
	format, err := regress.FormatOf(raw)
	if err != nil {
		return nil, err
	}
	newModel, ok := modelTypes[format]
	if !ok {
		return nil, badInputf("unknown model format %q", format)
	}
	m := newModel()
	if err := m.UnmarshalJSON(raw); err != nil {
		return nil, err
	}
	if c, ok := m.(labelPredictor); ok {
		return labelModel{c}, nil
	}
	return m.(predictor), nil
}
