package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"rkhs/dataset"
	"rkhs/linalg"
	"rkhs/regress"
)

func runPredict(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("predict", "predict with a model saved by rkhs fit -model", stderr)
	modelPath := fs.String("model", "", "model `file` written by rkhs fit -model")
	dataPath := fs.String("data", "", "data `file` to predict (LIBSVM or .csv; labels are read but not used)")
	out := fs.String("predictions", "", "write the predictions to this `file`, one per line (default: standard output)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *modelPath == "" || *dataPath == "" {
		return errors.New("-model and -data are required")
	}
	raw, err := os.ReadFile(*modelPath)
	if err != nil {
		return err
	}
	model, err := loadModel(raw)
	if err != nil {
		return fmt.Errorf("%s: %w", *modelPath, err)
	}
	d, err := readData(*dataPath)
	if err != nil {
		return err
	}
	if w := modelWidth(model); d.X.Cols < w {
		// A LIBSVM file does not show trailing all-zero features.
		sameWidth(d, &dataset.Data{X: linalg.Dense{Cols: w}})
	}
	p, err := model.Predict(&d.X)
	if err != nil {
		return err
	}
	lines := predictionLines(p)
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
	}
	return 0
}

// loadModel decodes any model rkhs fit can save, by its format field.
func loadModel(raw []byte) (predictor, error) {
	format, err := regress.FormatOf(raw)
	if err != nil {
		return nil, err
	}
	var m interface {
		predictor
		json.Unmarshaler
	}
	switch format {
	case "rkhs.regress.Model":
		m = &regress.Model{}
	case "rkhs.regress.LinearModel":
		m = &regress.LinearModel{}
	default:
		return nil, fmt.Errorf("unknown model format %q", format)
	}
	if err := m.UnmarshalJSON(raw); err != nil {
		return nil, err
	}
	return m, nil
}
