package main

import (
	"fmt"
	"io"
	"math"

	"rkhs/dataset"
	"rkhs/internal/cli"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/report"
)

// registerStandardize adds -standardize (cli.Standardize: auto, yes or
// no; alone, yes) to fs; model says whether the verb saves a model, which
// keeps the map.
func registerStandardize(fs *flagSet, s *cli.Standardize, model bool) {
	keeps := "The test file is scaled with the training rows' values, never its own, and the model saved by -model keeps them, so that rkhs predict takes raw features. "
	if !model {
		keeps = ""
	}
	fs.Var(s, "standardize", "scale every feature to mean 0 and standard deviation 1 before the kernel, by the mean and the population standard deviation (divided by n) of the training rows. "+keeps+
		"Given alone, -standardize is yes; as -standardize `auto|yes|no`, auto, the default, is on exactly when σ is chosen from the data (-sigma auto, or -sigmas, which implies it; rkhs-beam select follows the same rule), since one σ assumes one scale for every feature. "+
		"A constant feature (standard deviation at most 1e-12 of its mean) is kept at its value, with a note naming it")
}

// standardizeTrain returns the standardization of the rows of train
// (kernels.Moments, one pass), or nil when on is false. A constant feature
// is kept at its value (kernels.Moments.Standardization) with a note on w;
// a nearly constant one (NearlyConstant(NearlyConstantTol)) draws a
// warning, since a row a little off its training values then lies far
// out. Features are named by their column name, or their position.
func standardizeTrain(on bool, train *dataset.Data, names columnNames, verb string, w io.Writer) (*kernels.Standardization, error) {
	if !on {
		return nil, nil
	}
	var m kernels.Moments
	if err := m.Add(&train.X); err != nil {
		return nil, err
	}
	s, err := m.Standardization()
	if err != nil {
		return nil, err
	}
	notes, warnings := report.StandardizeNotes(&m, s, names.features, train.X.Rows)
	for _, n := range notes {
		fmt.Fprintf(w, "rkhs: note: %s\n", n)
	}
	for _, n := range warnings {
		fmt.Fprintf(w, "rkhs %s: warning: %s\n", verb, n)
	}
	return s, nil
}

// checkFar reports the rows of x, the file of flag, that lie far outside
// the training scale of s (kernels.FarRows; none without
// s): rows beyond kernels.DefaultOutlyingLimit standard deviations on some
// feature draw one warning on w, which counts them and names the worst by
// its 1-based row; a row beyond the float64 range in standard deviations,
// where no kernel value can be computed, is refused. Rows that differ from
// a feature constant in training draw a warning of their own
// (report.OffConstantLine).
func checkFar(w io.Writer, verb, flag string, s *kernels.Standardization, x *linalg.Dense, names []string) error {
	if s == nil {
		return nil
	}
	var f kernels.FarRows
	if err := f.Add(s, x); err != nil {
		return err
	}
	if f.Off.Rows > 0 {
		fmt.Fprintf(w, "rkhs %s: warning: %s\n", verb, report.OffConstantLine(flag, s, f.Off, x.Rows, f.OffValue, names))
	}
	if f.Far.Rows == 0 {
		return nil
	}
	if math.IsInf(f.Far.Z, 0) {
		return cli.BadInputf("%s: %s: the row lies beyond the float64 range in standard deviations of the training rows, where no kernel value can be computed: leave it out, or give -standardize=no", flag, report.OutlyingWorst(f.Far, names))
	}
	fmt.Fprintf(w, "rkhs %s: warning: %s\n", verb, report.OutlyingLine(flag, f.Far, x.Rows, names))
	return nil
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
func splitTraining(val float64, seed uint64, on bool, train *dataset.Data, names columnNames, verb string, stderr io.Writer) (s trainingSets, err error) {
	s.train = train
	if val > 0 {
		s.train, s.val = train.Split(1-val, seed)
		if s.train.X.Rows == 0 || s.val.X.Rows == 0 {
			return s, cli.BadInputf("-val %v leaves %s to fit and %d to validate: want both ≥ 1", val, report.Count(s.train.X.Rows, "row"), s.val.X.Rows)
		}
	}
	s.fitTrain, s.fitVal = s.train, s.val
	if s.scale, err = standardizeTrain(on, s.train, names, verb, stderr); err != nil || s.scale == nil {
		return s, err
	}
	if s.fitTrain, err = standardized(s.scale, s.train); err != nil {
		return s, err
	}
	if s.fitVal, err = standardized(s.scale, s.val); err != nil {
		return s, err
	}
	fmt.Fprintf(stderr, "rkhs: features standardized by the mean and standard deviation of the %s\n", report.Count(s.train.X.Rows, "training row"))
	return s, nil
}
