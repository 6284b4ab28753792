package main

import (
	"fmt"
	"io"
	"strings"

	"rkhs/dataset"
	"rkhs/internal/cli"
	"rkhs/kernels"
)

// registerStandardize adds -standardize (cli.Standardize: auto, yes or
// no; alone, yes) to fs; model says whether the verb saves a model, which
// keeps the map.
func registerStandardize(fs *flagSet, s *cli.Standardize, model bool) {
	keeps := "the test file is scaled with the training rows' values, never its own, and the model saved by -model keeps them, so that rkhs predict takes raw features. "
	if !model {
		keeps = ""
	}
	fs.Var(s, "standardize", "scale every feature to mean 0 and standard deviation 1 before the kernel, by the mean and the population standard deviation (divided by n) of the training rows; "+keeps+
		"Given alone, -standardize is yes; as -standardize `auto|yes|no`, auto, the default, is on exactly when σ is chosen from the data (-sigma auto), since one σ assumes one scale for every feature. "+
		"A constant feature (standard deviation at most 1e-12 of its mean) is an error that names it")
}

// standardizeTrain returns the standardization of the rows of train
// (kernels.Moments, one pass), or nil when on is false. A constant
// feature is an error that names every constant feature, by its column
// name when the file has a header (and then advises leaving it out of
// -features), by its position otherwise.
func standardizeTrain(on bool, train *dataset.Data, names columnNames) (*kernels.Standardization, error) {
	if !on {
		return nil, nil
	}
	var m kernels.Moments
	if err := m.Add(&train.X); err != nil {
		return nil, err
	}
	cols := m.Constant()
	if len(cols) == 0 {
		return m.Standardization()
	}
	parts := make([]string, len(cols))
	for i, j := range cols {
		name := fmt.Sprint(j + 1)
		if names.features != nil {
			name = names.features[j]
		}
		parts[i] = fmt.Sprintf("feature %s (every value %.6g)", name, m.Mean[j])
	}
	verb, advice := "is", "give -standardize=no (a constant feature carries no information, and the file has no header to leave it out by name)"
	if len(cols) > 1 {
		verb = "are"
	}
	if names.features != nil {
		advice = "leave it out of -features (it carries no information), or give -standardize=no"
	}
	return nil, cli.BadInputf("-standardize: %s %s constant in the %s, and cannot be scaled to standard deviation 1: %s",
		strings.Join(parts, ", "), verb, cli.Count(train.X.Rows, "training row"), advice)
}

// standardized returns d with its rows standardized by s (a new matrix,
// the labels shared): the rows a fit reads. A nil s or d returns d.
func standardized(s *kernels.Standardization, d *dataset.Data) (*dataset.Data, error) {
	if s == nil || d == nil {
		return d, nil
	}
	z, err := s.Apply(&d.X)
	if err != nil {
		return nil, err
	}
	return &dataset.Data{X: *z, Y: d.Y}, nil
}

// trainingSets are the rows of a fit: train, the rows of -train that fit,
// and val, those -val holds out (nil without it), raw, on which the model
// is scored once it carries the standardization; fitTrain and fitVal, the
// same as the fit reads them: standardized copies with -standardize (by
// scale, the fitted rows'), the same sets without (scale nil).
type trainingSets struct {
	train, val       *dataset.Data
	fitTrain, fitVal *dataset.Data
	scale            *kernels.Standardization
}

// splitTraining holds the -val fraction of train out (at random, seed)
// and, when on, standardizes both parts by the rows that fit, saying so
// in one line on stderr.
func splitTraining(val float64, seed uint64, on bool, train *dataset.Data, names columnNames, stderr io.Writer) (s trainingSets, err error) {
	s.train = train
	if val > 0 {
		s.train, s.val = train.Split(1-val, seed)
		if s.train.X.Rows == 0 || s.val.X.Rows == 0 {
			return s, cli.BadInputf("-val %v leaves %s to fit and %d to validate: want both ≥ 1", val, cli.Count(s.train.X.Rows, "row"), s.val.X.Rows)
		}
	}
	s.fitTrain, s.fitVal = s.train, s.val
	if s.scale, err = standardizeTrain(on, s.train, names); err != nil || s.scale == nil {
		return s, err
	}
	if s.fitTrain, err = standardized(s.scale, s.train); err != nil {
		return s, err
	}
	if s.fitVal, err = standardized(s.scale, s.val); err != nil {
		return s, err
	}
	fmt.Fprintf(stderr, "rkhs: features standardized by the mean and standard deviation of the %s\n", cli.Count(s.train.X.Rows, "training row"))
	return s, nil
}
