package kernels

import (
	"math"

	"rkhs/internal/check"
	"rkhs/linalg"
)

// DefaultOutlyingLimit is the number of standard deviations beyond which
// Standardization.Outlying is meant to report a row for a warning: 10³.
// Standardized training rows lie within √n standard deviations of the mean
// (Samuelson's inequality, "How deviant can you be?", 1968), about 10³ for
// a million rows; and a Gaussian kernel whose σ is a few standard
// deviations, as the median heuristic on standardized rows gives, is
// exactly 0 at 10³ standard deviations from every centre (e^(−10⁶/(2σ²))
// underflows for σ below about 25): such a row is predicted as the
// intercept alone.
const DefaultOutlyingLimit = 1e3

// Outliers is what Standardization.Outlying reports about the rows of a
// matrix x: Rows, the number of rows with some feature more than the limit
// standard deviations from the training mean, |zᵢⱼ| > limit with
// zᵢⱼ = (xᵢⱼ − Mean[j])/Scale[j]; and the element of largest |zᵢⱼ| in
// all of x (within the limit or not), by its 0-based Row and Feature and
// its z-score Z (signed; ±Inf where the quotient overflows). Row and
// Feature are −1 and Z is 0 when x has no rows.
type Outliers struct {
	Rows         int
	Row, Feature int
	Z            float64
}

// Outlying reports the rows of x (n×d, n ≥ 0, d features) that lie more
// than limit standard deviations from the mean of the rows s was built
// from on some feature (see Outliers), in one pass over x: 2nd flops, no
// allocation, x not modified. It is the check for the rows a model is
// about to predict at: a training feature that is nearly constant (see
// Moments.NearlyConstant) gets a tiny Scale, and a test row a little off
// its training values then lies millions of standard deviations out,
// where the kernel is 0 and the prediction is the intercept alone, with
// no error. DefaultOutlyingLimit, 10³, is a limit for a warning.
//
// The standard deviations are the training rows' own: Scale, or
// TrainingScale where s composes them with length scales (the
// standardization of a length-scale model), so that the model file
// reports a row as the standardization it was fitted with does. A nil s
// (no standardization) has no training scale and reports no rows (Row
// and Feature −1, Z 0).
//
// Errors: s invalid (ErrParameter, see Validate); limit not positive and
// finite (ErrParameter, also linalg.ErrNotFinite for NaN or ±Inf); x nil,
// malformed or holding NaN or ±Inf (ErrData, and linalg.ErrNotFinite), or
// with another number of columns than s has features (ErrData).
func (s *Standardization) Outlying(x *linalg.Dense, limit float64) (Outliers, error) {
	const op = "Standardization.Outlying"
	none := Outliers{Row: -1, Feature: -1}
	if err := check.Field(ErrParameter, op, "s", s.Validate()); err != nil {
		return none, err
	}
	if err := check.Positive(ErrParameter, op, "limit", limit); err != nil {
		return none, err
	}
	if err := check.Data(ErrData, op, "x", x, 0); err != nil {
		return none, err
	}
	if s == nil {
		return none, nil
	}
	if x.Rows > 0 && x.Cols != len(s.Mean) {
		return none, check.Input(ErrData, op, "x", "%d columns, the standardization has %d features", x.Cols, len(s.Mean))
	}
	s = s.training()
	r := none
	worst := -1.0 // |Z|, below any |z| so that the first element sets it
	for i := 0; i < x.Rows; i++ {
		out := false
		for j, v := range x.Row(i) {
			z := (v - s.Mean[j]) / s.Scale[j]
			a := math.Abs(z)
			out = out || a > limit
			if a > worst {
				worst, r.Row, r.Feature, r.Z = a, i, j, z
			}
		}
		if out {
			r.Rows++
		}
	}
	return r, nil
}

// OffConstant reports the rows of x (n×d, n ≥ 0, d features) that differ,
// on some feature constant in the rows s was built from (s.Constant), from
// the value it held there (Mean[j], to ConstantTol relative), in the shape of Outlying's report:
// Rows, the number of such rows, and the element of largest |zᵢⱼ| among
// those that differ, zᵢⱼ = (xᵢⱼ − Mean[j])/Scale[j] (TrainingScale[j]
// where set, as in Outlying; Row and Feature −1,
// Z 0 when none differs). It is Outlying's sibling for a feature that
// never varied: a model fitted on such rows was never shown what the
// feature does, and a row that moves it moves its distances to every
// centre the same way, however few standard deviations that is. One pass
// over the constant features of x, no allocation, x not modified; a nil s,
// or one without constant features, reports no rows.
//
// Errors: as Outlying's, without the limit.
func (s *Standardization) OffConstant(x *linalg.Dense) (Outliers, error) {
	const op = "Standardization.OffConstant"
	none := Outliers{Row: -1, Feature: -1}
	if err := check.Field(ErrParameter, op, "s", s.Validate()); err != nil {
		return none, err
	}
	if err := check.Data(ErrData, op, "x", x, 0); err != nil {
		return none, err
	}
	if s == nil || len(s.Constant) == 0 {
		return none, nil
	}
	if x.Rows > 0 && x.Cols != len(s.Mean) {
		return none, check.Input(ErrData, op, "x", "%d columns, the standardization has %d features", x.Cols, len(s.Mean))
	}
	s = s.training()
	r := none
	worst := -1.0
	for i := 0; i < x.Rows; i++ {
		row, off := x.Row(i), false
		for _, j := range s.Constant {
			if math.Abs(row[j]-s.Mean[j]) <= ConstantTol*math.Abs(s.Mean[j]) {
				continue // the training value, to the rounding of its mean
			}
			off = true
			z := (row[j] - s.Mean[j]) / s.Scale[j]
			if a := math.Abs(z); a > worst {
				worst, r.Row, r.Feature, r.Z = a, i, j, z
			}
		}
		if off {
			r.Rows++
		}
	}
	return r, nil
}
