package kernels

import (
	"fmt"
	"math"

	"rkhs/internal/check"
	"rkhs/linalg"
)

// Standardization is the per-feature map
//
//	zⱼ = (xⱼ − Mean[j]) / Scale[j],
//
// one subtraction and one division per element, applied to a row before
// the kernel: a model fitted on standardized rows evaluates k(z, cᵢ) with
// centres cᵢ that are standardized rows themselves, and k(S(x), S(x′)) is
// positive definite whenever k is. Built from the training rows by
// StandardizationOf or Moments.Standardization, Mean is their mean and
// Scale their population standard deviation (divided by n), so every
// feature of the training rows gets mean 0 and standard deviation 1: one
// scale for every feature, which is what one σ of a Gaussian or Laplacian
// kernel, or one λ, assumes. Test rows are mapped with the training
// moments, never their own.
//
// A constant training feature (standard deviation at most ConstantTol
// times its mean, see Moments.Constant) is an error, not dropped: a model
// keeps the width of its data, and the error names the column.
//
// The fitted models of packages regress and classify carry one in their
// Standardization field (nil: none), apply it in Predict to raw rows and
// save it in their model files; to fit with it, standardize the rows, fit,
// and set the field (see the example). A nil *Standardization is the
// identity. A Standardization is only read, so it is safe for concurrent
// use.
type Standardization struct {
	Mean  []float64 `json:"mean"`
	Scale []float64 `json:"scale"`
	// Constant lists, in ascending order, the features that were constant
	// in the rows the standardization was built from (Moments.Constant),
	// each with the value Mean[j]: Moments.Standardization sets it, so that
	// a row that differs there, which the model never saw vary, can be
	// flagged (OffConstant). nil for none, or for a standardization saved
	// before the field existed.
	Constant []int `json:"constant,omitempty"`
	// TrainingScale is, for a standardization that composes the training
	// rows' standard deviations s_j with learnt length scales σ_j
	// (Scale[j] = s_j·σ_j, loo.ComposeScales), the s_j alone: the unit in
	// which Outlying and OffConstant count a row's distance from Mean, so
	// that the model file of a length-scale model reports a row in standard
	// deviations of the training rows, as the standardization it was
	// fitted with does. nil for a standardization that is the training
	// rows' own (Scale is then their standard deviations), and for one
	// saved before the field existed, whose rows are counted in units of
	// Scale. Apply never reads it.
	TrainingScale []float64 `json:"training_scale,omitempty"`
}

// training returns the standardization of the training rows that s
// holds: s itself, or for a composed one (TrainingScale set) Mean,
// TrainingScale and Constant. nil for a nil s.
func (s *Standardization) training() *Standardization {
	if s == nil || s.TrainingScale == nil {
		return s
	}
	return &Standardization{Mean: s.Mean, Scale: s.TrainingScale, Constant: s.Constant}
}

// StandardizationOf returns the standardization of the rows of x (n×d,
// n ≥ 1): their moments by Moments.Add, one pass over x, then
// Moments.Standardization. x is not modified.
//
// Errors: x nil, malformed, without rows or holding NaN or ±Inf (ErrData,
// and linalg.ErrNotFinite), or a constant column (ErrData, naming it by
// its index).
func StandardizationOf(x *linalg.Dense) (*Standardization, error) {
	const op = "StandardizationOf"
	if err := check.Data(ErrData, op, "x", x, 1); err != nil {
		return nil, err
	}
	var m Moments
	if err := m.Add(x); err != nil {
		return nil, err
	}
	s, err := m.Standardization()
	if err != nil {
		return nil, check.Wrap(ErrData, op, "x", err)
	}
	return s, nil
}

// Validate reports a Standardization that cannot be applied, as a
// *linalg.InputError wrapping ErrParameter whose Arg is the field: Mean
// and Scale empty or of different lengths, a value that is NaN or ±Inf
// (also linalg.ErrNotFinite), a scale that is not positive, a scale below
// the smallest normal float64, 2.2e-308 (a subnormal scale has lost
// digits, and dividing by it overflows for most values), or a feature
// whose scale is at most ConstantTol times the magnitude of its mean,
// Scale[j] ≤ ConstantTol·|Mean[j]|: the rule by which Moments.Constant
// calls a feature constant, so that every standardization built from
// data passes, and a mean of 1e308 with scale 1, which sends every
// ordinary value about 1e308 standard deviations out (to −Inf with a
// scale below 0.5), does not. TrainingScale, when set, must have one
// value per feature and pass the same tests on the scale. A nil
// *Standardization (none) is valid.
//
// The model decoders of packages regress and classify call Validate on
// the standardization a model file holds, so a file with an impossible
// one is refused when it is loaded, naming the field, rather than when
// it predicts.
func (s *Standardization) Validate() error {
	const op = "Standardization.Validate"
	if s == nil {
		return nil
	}
	if len(s.Mean) == 0 || len(s.Mean) != len(s.Scale) {
		return check.Input(ErrParameter, op, "Scale", "%d values for %d means (want one per feature, at least one)", len(s.Scale), len(s.Mean))
	}
	if err := check.Vector(ErrParameter, op, "Mean", s.Mean); err != nil {
		return err
	}
	if err := check.Vector(ErrParameter, op, "Scale", s.Scale); err != nil {
		return err
	}
	for k, j := range s.Constant {
		if j < 0 || j >= len(s.Mean) || k > 0 && j <= s.Constant[k-1] {
			return check.Input(ErrParameter, op, fmt.Sprintf("Constant[%d]", k), "%d: want ascending features from 0 to %d", j, len(s.Mean)-1)
		}
	}
	if err := s.scales(op, "Scale"); err != nil || s.TrainingScale == nil {
		return err
	}
	if len(s.TrainingScale) != len(s.Mean) {
		return check.Input(ErrParameter, op, "TrainingScale", "%d values for %d means (want one per feature, or none)", len(s.TrainingScale), len(s.Mean))
	}
	if err := check.Vector(ErrParameter, op, "TrainingScale", s.TrainingScale); err != nil {
		return err
	}
	return (&Standardization{Mean: s.Mean, Scale: s.TrainingScale}).scales(op, "TrainingScale")
}

// scales reports the first entry of s.Scale, the field named field, that
// is not positive, is subnormal, or is at most ConstantTol of its mean.
func (s *Standardization) scales(op, field string) error {
	for j, v := range s.Scale {
		switch {
		case !(v > 0):
			return check.Input(ErrParameter, op, fmt.Sprintf("%s[%d]", field, j), "%g, must be positive", v)
		case v < minNormal:
			return check.Input(ErrParameter, op, fmt.Sprintf("%s[%d]", field, j), "%g is subnormal: a scale must be at least the smallest normal float64, %g", v, minNormal)
		case v <= ConstantTol*math.Abs(s.Mean[j]):
			return check.Input(ErrParameter, op, fmt.Sprintf("Mean[%d]", j), "%g with scale %g: a feature whose scale is at most %g of its mean is constant, and cannot be standardized", s.Mean[j], v, ConstantTol)
		}
	}
	return nil
}

// Apply returns the standardized rows of x (n×d, n ≥ 0) in a new compact
// matrix; x is not modified. A nil s returns x itself.
//
// Cost: 2nd flops and an n×d matrix of memory.
//
// Errors: s invalid (ErrParameter, see Validate); x nil, malformed or
// holding NaN or ±Inf (ErrData, and linalg.ErrNotFinite) or with another
// number of columns than s has features (ErrData); a standardized value
// that overflows to ±Inf (ErrData: a row far outside the training rows,
// by more than the float64 range times the scale).
func (s *Standardization) Apply(x *linalg.Dense) (*linalg.Dense, error) {
	const op = "Standardization.Apply"
	if s == nil {
		return x, nil
	}
	if err := check.Field(ErrParameter, op, "s", s.Validate()); err != nil {
		return nil, err
	}
	if err := check.Data(ErrData, op, "x", x, 0); err != nil {
		return nil, err
	}
	if x.Rows > 0 && x.Cols != len(s.Mean) {
		return nil, check.Input(ErrData, op, "x", "%d columns, the standardization has %d features", x.Cols, len(s.Mean))
	}
	z := linalg.NewDense(x.Rows, len(s.Mean), nil)
	for i := 0; i < x.Rows; i++ {
		zi := z.Row(i)
		for j, v := range x.Row(i) {
			zi[j] = (v - s.Mean[j]) / s.Scale[j]
			if math.IsInf(zi[j], 0) {
				return nil, check.Input(ErrData, op, "x", "row %d, feature %d: %g standardizes to %g (mean %g, scale %g): the row lies beyond the float64 range in standard deviations of the training rows", i+1, j+1, v, zi[j], s.Mean[j], s.Scale[j])
			}
		}
	}
	return z, nil
}
