package main

import (
	"fmt"
	"io"
	"strings"

	cls "rkhs/classify"
	"rkhs/dataset"
	"rkhs/internal/cli"
	"rkhs/kernels"
	"rkhs/regress"
)

// standardizeFlag is -standardize of rkhs fit, classify and loo, the value
// rkhs-beam shares (cli.Standardize: auto, yes or no; alone, yes).
type standardizeFlag struct{ cli.Standardize }

func (s *standardizeFlag) register(fs commandFlags) {
	fs.Var(s, "standardize", "scale every feature to mean 0 and standard deviation 1 before the kernel, by the mean and the population standard deviation (divided by n) of the training rows; "+
		"the test file is scaled with the training rows' values, never its own, and the model saved by -model keeps them, so that rkhs predict takes raw features. "+
		"Given alone, -standardize is yes; as -standardize`=auto|yes|no`, auto, the default, is on exactly when σ is chosen from the data (-sigma auto, or -sigmas, which implies it; rkhs-beam select follows the same rule), since one σ assumes one scale for every feature. "+
		"A constant feature (standard deviation at most 1e-12 of its mean) is an error that names it: leave it out of -features")
}

// sigmaIsAuto reports whether σ is chosen from the data (-sigma auto, or
// -sigmas, which implies it), for -standardize auto.
func sigmaIsAuto(kf *kernelFlags) bool { return kf.sigma.Auto }

// standardizeTrain returns the standardization of the rows of train
// (kernels.Moments, one pass), or nil when on is false. A constant
// feature is an error that names every constant feature by its column
// name (features, the training file's names, may be nil: then by its
// position).
func standardizeTrain(on bool, train *dataset.Data, features []string) (*kernels.Standardization, error) {
	if !on {
		return nil, nil
	}
	var m kernels.Moments
	if err := m.Add(&train.X); err != nil {
		return nil, err
	}
	if cols := m.Constant(); len(cols) > 0 {
		parts := make([]string, len(cols))
		for i, j := range cols {
			parts[i] = fmt.Sprintf("%s (every value %.6g)", featureName(features, j), m.Mean[j])
		}
		verb := "is"
		if len(cols) > 1 {
			verb = "are"
		}
		return nil, cli.BadInputf("-standardize: %s %s constant in the %s, so it cannot be scaled to standard deviation 1: leave it out of -features (it carries no information), or give -standardize=no",
			strings.Join(parts, ", "), verb, cli.Count(train.X.Rows, "training row"))
	}
	return m.Standardization()
}

// featureName names feature j for a message: by its column name, or by
// its position (1-based) when the data has no names.
func featureName(features []string, j int) string {
	if j < len(features) {
		return "feature " + features[j]
	}
	return fmt.Sprintf("feature %d", j+1)
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

// trainingSets are the rows of a fit of rkhs fit or classify: train, the
// rows of -train that fit, and val, those -val holds out (nil without it),
// raw, on which the fitted model is scored once attachStandardization has
// given it the standardization; fitTrain and fitVal, the same as the fit
// and its progress lines read them: standardized copies with
// -standardize (by scale, the rows that fit's), the same sets without
// (scale nil).
type trainingSets struct {
	train, val       *dataset.Data
	fitTrain, fitVal *dataset.Data
	scale            *kernels.Standardization
}

// splitTraining holds the -val rows out of train (falkonFlags.holdOut)
// and, when on, standardizes both by the rows that fit, saying so in one
// line on stderr.
func splitTraining(ff *falkonFlags, on bool, train *dataset.Data, features []string, stderr io.Writer) (trainingSets, error) {
	var s trainingSets
	var err error
	if s.train, s.val, err = ff.holdOut(train); err != nil {
		return s, err
	}
	s.fitTrain, s.fitVal = s.train, s.val
	if s.scale, err = standardizeTrain(on, s.train, features); err != nil || s.scale == nil {
		return s, err
	}
	if s.fitTrain, err = standardized(s.scale, s.train); err != nil {
		return s, err
	}
	if s.fitVal, err = standardized(s.scale, s.val); err != nil {
		return s, err
	}
	announceStandardized(stderr, s.train.X.Rows)
	return s, nil
}

// standardizeAll is the -standardize step of rkhs loo, which has no model
// to carry the map: the rows of d standardized by their own moments when
// on, d itself when not.
func standardizeAll(on bool, d *dataset.Data, features []string, stderr io.Writer) (*dataset.Data, error) {
	s, err := standardizeTrain(on, d, features)
	if err != nil || s == nil {
		return d, err
	}
	announceStandardized(stderr, d.X.Rows)
	return standardized(s, d)
}

// announceStandardized says on stderr that the features were standardized
// by the moments of n training rows.
func announceStandardized(stderr io.Writer, n int) {
	fmt.Fprintf(stderr, "rkhs: features standardized by the mean and standard deviation of the %s\n", cli.Count(n, "training row"))
}

// attachStandardization gives s (nil: none) to a model fit or classify
// fitted on standardized rows, so that its Predict, and the model file,
// take raw features.
func attachStandardization(m any, s *kernels.Standardization) {
	if s == nil {
		return
	}
	switch mm := m.(type) {
	case *regress.Model:
		mm.Standardization = s
	case *regress.LinearModel:
		mm.Standardization = s
	case *cls.RLSModel:
		mm.Model.Standardization = s
	case *cls.FalkonFit:
		mm.Model.Standardization = s
	case *cls.PerceptronModel:
		mm.Standardization = s
	case *cls.KNNModel:
		mm.Standardization = s
	case *cls.LogisticModel:
		mm.Standardization = s
	case *cls.SVMModel:
		mm.Standardization = s
	default:
		panic(fmt.Sprintf("rkhs: no standardization for a model of type %T", m))
	}
}
