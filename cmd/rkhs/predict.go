package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"rkhs/internal/cli"
	"rkhs/interval"
	"rkhs/linalg"
	"rkhs/model"
	"rkhs/report"
)

// setupPredict registers the flags of rkhs predict and returns its run.
func setupPredict(fs *flagSet) func(stdout, stderr io.Writer) error {
	var modelPath, dataPath, out string
	fs.file(&modelPath, inputFlag, "model", "", "model `file` written by rkhs fit -model or rkhs classify -model")
	fs.file(&dataPath, besideFlag, "data", "", "data `file` to predict (LIBSVM, or CSV if it ends in .csv, see -format): with a label column, read and not used, unless -unlabelled says there is none; a CSV file with a header, for a model fitted on one, is read by the model's column names, in any order, its label column not read")
	fs.file(&out, outputFlag, "predictions", "", "write the predictions to this `file`, one per line: a regression model's as %.17g, a classifier's labels in the shortest form that reads back exactly, as rkhs classify -predictions writes them; with -drop-missing, NaN for a row dropped, so that line i is row i (default: standard output)")
	var level float64
	fs.Float64Var(&level, "interval", 0, "write CV+ intervals at this level in (0, 1) as a CSV file of prediction,lower,upper, from a model saved by rkhs fit -interval-method cv+ -model")
	var df dataFlags
	df.register(fs, true)
	return func(stdout, stderr io.Writer) error {
		if modelPath == "" || dataPath == "" {
			return cli.BadInputf("-model and -data are required")
		}
		if err := df.check(); err != nil {
			return err
		}
		if err := cli.CheckOutputs([]cli.Input{{Flag: "model", Value: modelPath}, {Flag: "data", Value: dataPath}}, []cli.Output{{Flag: "predictions", Path: out}}); err != nil {
			return err
		}
		raw, err := os.ReadFile(modelPath)
		if err != nil {
			return err
		}
		saved, err := model.Load(raw)
		if err != nil {
			return modelFileError(modelPath, err)
		}
		if fs.set["interval"] {
			if err := checkIntervals(saved, modelPath, level); err != nil {
				return err
			}
		}
		if err := df.matchNames(columnNames{features: *saved.FeatureNames, target: *saved.TargetName}); err != nil {
			return err
		}
		df.stderr = stderr
		d, info, err := df.readData(dataPath)
		if err != nil {
			return err
		}
		switch w := saved.Width; {
		case d.X.Cols == w:
		case d.X.Cols < w && info == nil:
			d.Widen(w) // a LIBSVM file does not show trailing all-zero features
		case info != nil && !df.unlabelled && d.X.Cols+1 == w:
			return cli.BadInputf("%s: %d columns, the last read as the label, leave %d features for a model of %d: if the file has no label column, its %d columns are the features (give -unlabelled); if it has one, it lacks a feature",
				dataPath, w, d.X.Cols, w, w)
		default:
			return cli.BadInputf("%s: %s, the model has %d", dataPath, report.Count(d.X.Cols, "feature"), w)
		}
		if note := report.PositionNote(dataPath, info, *saved.FeatureNames, *saved.TargetName, df.unlabelled); note != "" {
			fmt.Fprintf(stderr, "rkhs predict: note: %s\n", note)
		}
		if err := checkFar(stderr, "predict", "-data", *saved.Standardization, &d.X, *saved.FeatureNames); err != nil {
			return err
		}
		p, err := saved.Predict(&d.X)
		if err != nil {
			return err
		}
		var iv *interval.Intervals
		if fs.set["interval"] {
			if iv, err = saved.Intervals.Predict(&d.X, level); err != nil {
				return err
			}
		}
		if info != nil && len(info.DroppedRecords) > 0 {
			p = withDropped(p, info.DroppedRecords)
			if iv != nil {
				iv.Lower, iv.Upper = withDropped(iv.Lower, info.DroppedRecords), withDropped(iv.Upper, info.DroppedRecords)
			}
		}
		lines := saved.Lines(p)
		if iv != nil {
			lines = intervalLines(p, iv, nil)
		}
		return writeAll([]pendingFile{{cmp.Or(out, "-"), lines}}, stdout)
	}
}

// checkIntervals refuses -interval for a model file without a CV+, with
// the reason, and a level outside (0, 1) or beyond its rows' reach.
func checkIntervals(saved *model.Model, path string, level float64) error {
	switch {
	case interval.CheckLevel(level) != nil:
		return levelError(level, interval.CheckLevel(level))
	case saved.Labels:
		return cli.BadInputf("-interval: %s is a classifier, whose label sets need its training rows (rkhs classify -interval gives them for -test)", path)
	case saved.Intervals == nil:
		return cli.BadInputf("-interval: %s holds no interval data: jackknife+ needs the factorization of the training rows, which no model file keeps; fit with -interval LEVEL -interval-method cv+ -model to save the fold models and residuals of CV+", path)
	}
	return levelError(level, interval.Reach(level, saved.Intervals.Rows()))
}

// withDropped returns the predictions p of the rows read with a row of
// NaN inserted for each record dropped (dropped: their indices among the
// records, ascending), so that line i is record i.
func withDropped(p *linalg.Dense, dropped []int) *linalg.Dense {
	all := linalg.NewDense(p.Rows+len(dropped), p.Cols, nil)
	for i, k := 0, 0; i < all.Rows; i++ {
		if len(dropped) > 0 && dropped[0] == i {
			for j := range all.Row(i) {
				all.Row(i)[j] = math.NaN()
			}
			dropped = dropped[1:]
			continue
		}
		copy(all.Row(i), p.Row(k))
		k++
	}
	return all
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
			return cli.BadInputf("-target %s: the model's target was %s, and it needs no label to predict: leave -target out", df.target, cmp.Or(n.target, "not named"))
		}
		df.target = ""
	}
	df.byName = n.features
	return nil
}
