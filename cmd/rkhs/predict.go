package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"rkhs/internal/cli"
	"slices"
	"strings"

	cls "rkhs/classify"
	"rkhs/dataset"
	"rkhs/linalg"
	"rkhs/regress"
)

func runPredict(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("predict", "predict with a model saved by rkhs fit -model or rkhs classify -model", stderr)
	modelPath := fs.String("model", "", "model `file` written by rkhs fit -model or rkhs classify -model")
	dataPath := fs.String("data", "", "data `file` to predict (LIBSVM, or CSV if it ends in .csv, see -format): with a label column, read and not used, unless -unlabelled says there is none; a CSV file with a header, for a model fitted on one, is read by the model's column names, in any order, its label column not read")
	out := fs.String("predictions", "", "write the predictions to this `file`, one per line: a regression model's as %.17g, a classifier's labels in the shortest form that reads back exactly, as rkhs classify -predictions writes them (default: standard output)")
	var df dataFlags
	df.register(fs, true)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *modelPath == "" || *dataPath == "" {
		return cli.BadInputf("-model and -data are required")
	}
	if err := df.check(); err != nil {
		return err
	}
	if err := cli.CheckOutputs([]cli.Input{{Flag: "model", Value: *modelPath}, {Flag: "data", Value: *dataPath}}, []cli.Output{{Flag: "predictions", Path: *out}}); err != nil {
		return err
	}
	raw, err := os.ReadFile(*modelPath)
	if err != nil {
		return err
	}
	model, err := loadModel(raw)
	if err != nil {
		return modelFileError(*modelPath, err)
	}
	if err := df.matchNames(namesOf(model)); err != nil {
		return err
	}
	d, info, err := df.readData(*dataPath)
	if err != nil {
		return err
	}
	isCSV := info != nil
	switch w := modelWidth(model); {
	case d.X.Cols == w:
	case d.X.Cols < w && !isCSV:
		// A LIBSVM file does not show trailing all-zero features.
		sameWidth(d, &dataset.Data{X: linalg.Dense{Cols: w}})
	case isCSV && !df.unlabelled && d.X.Cols+1 == w:
		return cli.BadInputf("%s: %d columns, one of them read as the label, for a model of %d features: if the file has no label column, give -unlabelled", *dataPath, d.X.Cols+1, w)
	default:
		return cli.BadInputf("%s: %d features, the model has %d", *dataPath, d.X.Cols, w)
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
	return writeAll([]pendingFile{{*out, lines}}, stdout)
}

// modelFileError says what is wrong in a model file in the file's words:
// the field, as "kernel.sigma", and the reason, without the library's
// names of types and methods; the error stays reachable (cli.Status).
func modelFileError(path string, err error) error {
	var ie *linalg.InputError
	if !errors.As(err, &ie) {
		return fmt.Errorf("%s: %w", path, err)
	}
	if ie.Arg == "" || ie.Arg == "model file" {
		return cli.Explained{Msg: path + ": " + ie.Reason, Err: err}
	}
	return cli.Explained{Msg: path + ": " + ie.Arg + ": " + ie.Reason, Err: err}
}

// columnNames are the names of the columns a model was fitted on (see
// regress.Model.FeatureNames): nil and "" when the training data had no
// header.
type columnNames struct {
	features []string
	target   string
}

// set gives the names to a model rkhs fit or rkhs classify is about to
// save.
func (n columnNames) set(m any) {
	if f, t := columnsOf(m); f != nil {
		*f, *t = n.features, n.target
	}
}

// namesOf returns the names a loaded model stores.
func namesOf(m any) columnNames {
	if f, t := columnsOf(m); f != nil {
		return columnNames{*f, *t}
	}
	return columnNames{}
}

// columnsOf returns where a model keeps the names of its columns: nil for
// a type that has none.
func columnsOf(m any) (features *[]string, target *string) {
	switch mm := m.(type) {
	case *regress.Model:
		return &mm.FeatureNames, &mm.TargetName
	case *regress.LinearModel:
		return &mm.FeatureNames, &mm.TargetName
	case labelModel:
		return columnsOf(mm.labelPredictor)
	case *cls.PerceptronModel:
		return &mm.FeatureNames, &mm.TargetName
	case *cls.KNNModel:
		return &mm.FeatureNames, &mm.TargetName
	case *cls.RLSModel:
		return columnsOf(mm.Model)
	case *cls.FalkonFit:
		return columnsOf(mm.RLSModel)
	case *cls.LogisticModel:
		return &mm.FeatureNames, &mm.TargetName
	case *cls.SVMModel:
		return &mm.FeatureNames, &mm.TargetName
	}
	return nil, nil
}

// matchNames prepares the reading of the data for a model that stores the
// names of its columns: in a CSV file with a header the features are
// found by these names, wherever they are, and the label is not read;
// -features and -target, which would name other columns, must agree with
// them. A file without a header (LIBSVM, or -header no) is read by
// position, as for a model without names.
func (df *dataFlags) matchNames(n columnNames) error {
	if n.features == nil {
		return nil
	}
	if df.features != "" {
		if given := strings.Split(df.features, ","); !slices.Equal(given, n.features) {
			return cli.BadInputf("-features %s: the model was fitted on %s, in that order, and finds them by name in a file with a header: leave -features out", df.features, strings.Join(n.features, ","))
		}
		df.features = ""
	}
	if df.target != "" {
		if df.target != n.target {
			return cli.BadInputf("-target %s: the model's target was %s, and it needs no label to predict: leave -target out", df.target, quoteName(n.target))
		}
		df.target = ""
	}
	df.byName = n.features
	return nil
}

// quoteName returns a name for a message, or says there is none.
func quoteName(name string) string {
	if name == "" {
		return "not named"
	}
	return name
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
		return nil, cli.BadInputf("unknown model format %q", format)
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
