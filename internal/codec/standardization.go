package codec

import (
	"rkhs/internal/check"
	"rkhs/kernels"
)

// A model that standardizes its features (kernels.Standardization) keeps
// the map in its file under the optional key "standardization", after the
// names of the columns:
//
//	"standardization": {"mean": [… d numbers …], "scale": [… d numbers …]}
//
// with two optional lists after them, "constant" (the features constant
// in the training rows) and "training_scale" (for a model of learnt
// length scales, the training rows' standard deviations that "scale"
// composes with them: see kernels.Standardization.TrainingScale).
// A model without one writes no key, so its file is what it was before
// the key existed, and files without it load as models without one. A
// model file's struct has the field
//
//	Standardization *kernels.Standardization `json:"standardization,omitempty"`
//
// after its Columns.

// CheckStandardization reports the standardization s of a model in memory
// (nil: none) that the model of d features cannot apply: an invalid one
// (kernels.Standardization.Validate), reported on the field, as
// "Model.Standardization.Scale[2]" for model "Model", or one of another
// width than d.
func CheckStandardization(kind error, op, model string, s *kernels.Standardization, d int) error {
	field := model + ".Standardization"
	if err := check.Field(kind, op, field, s.Validate()); err != nil {
		return err
	}
	return checkWidth(kind, op, field, s, d)
}

// DecodeStandardization checks the standardization a model file of d
// features holds (nil when it has none) as CheckStandardization does,
// reporting a bad value on the file's key, as "standardization.scale[2]";
// a missing "mean" or "scale" is a list of no values.
func DecodeStandardization(kind error, op string, s *kernels.Standardization, d int) error {
	const field = "standardization"
	if err := s.Validate(); err != nil {
		return fileField(kind, op, field, err)
	}
	return checkWidth(kind, op, field, s, d)
}

// checkWidth requires a valid s (or nil) to have d features.
func checkWidth(kind error, op, field string, s *kernels.Standardization, d int) error {
	if s != nil && len(s.Mean) != d {
		return check.Input(kind, op, field, "%d features, the model has %d", len(s.Mean), d)
	}
	return nil
}
