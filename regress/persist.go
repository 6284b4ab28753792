package regress

import (
	"encoding/json"

	"rkhs/internal/codec"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Models are saved as JSON objects, versioned by their "format" and
// "version" fields (rkhs/internal/codec, shared with package classify):
//
//	{"format": "rkhs.regress.Model", "version": 1,
//	 "feature_names": ["x0", "x1", …], "target_name": "y",
//	 "standardization": {"mean": [… d numbers …], "scale": [… d numbers …]},
//	 "kernel": {"type": "gaussian", "sigma": 1},
//	 "centers": {"rows": m, "cols": d, "data": [… m·d numbers, row-major …]},
//	 "coef": {"rows": m, "cols": q, "data": […]},
//	 "intercept": [… q numbers …]}
//
//	{"format": "rkhs.regress.LinearModel", "version": 1,
//	 "feature_names": […], "target_name": "y", "standardization": {…},
//	 "weights": {"rows": d, "cols": q, "data": […]}, "intercept": […]}
//
// feature_names and target_name, the names of the training data's columns
// (Model.FeatureNames and TargetName), are present only when the model has
// them: files without them, those of older writers included, load. So is
// standardization (Model.Standardization, kernels.Standardization: the
// mean and the scale of each feature, and two optional lists: "constant",
// the features constant in the training rows, and "training_scale", for a
// model of learnt length scales whose scale composes the training rows'
// standard deviations s_j with σ_j, the s_j, in which rkhs predict counts
// an outlying row as rkhs fit does), present only when the model
// standardizes its features: a model without one writes the file it wrote
// before the key existed, and files without the optional lists load. A kernel gives "type" and the parameters of
// that type only.
//
// Files are read strictly (rkhs/internal/codec): keys exactly as written
// here, each once, no others, and values of the types shown.
// Numbers are written as the shortest decimals that read back as the same
// float64 (encoding/json's rule), so a loaded model predicts bit-identically.
// Only the kernels of package kernels can be saved.

const (
	modelFormat       = "rkhs.regress.Model"
	linearModelFormat = "rkhs.regress.LinearModel"
	formatVersion     = 1
)

var readVersions = []int{formatVersion}

type modelJSON struct {
	codec.Header
	codec.Columns
	Standardization *kernels.Standardization `json:"standardization,omitempty"`
	Kernel          kernels.Spec             `json:"kernel"`
	Centers         codec.Matrix             `json:"centers"`
	Coef            codec.Matrix             `json:"coef"`
	Intercept       []float64                `json:"intercept"`
}

// MarshalJSON encodes the model in the format above. It fails with an
// InputError wrapping ErrInput if m is nil or its fields do not form a
// model (see Predict), or if the kernel is not one of package kernels'
// (then also kernels.ErrParameter).
func (m *Model) MarshalJSON() ([]byte, error) {
	const op = "Model.MarshalJSON"
	if err := m.check(op); err != nil {
		return nil, err
	}
	spec, err := kernels.SpecOf(m.Kernel)
	if err != nil {
		return nil, &linalg.InputError{Op: op, Arg: "Model.Kernel", Reason: "cannot be saved: " + err.Error(), Kind: ErrInput, Err: err}
	}
	cols, err := codec.EncodeColumns(ErrInput, op, "Model", m.FeatureNames, m.TargetName, m.Centers.Cols)
	if err != nil {
		return nil, err
	}
	centers, _ := codec.EncodeMatrix(ErrInput, op, "Model.Centers", m.Centers) // checked above
	coef, _ := codec.EncodeMatrix(ErrInput, op, "Model.Coef", m.Coef)
	return json.Marshal(modelJSON{
		Header: codec.Header{Format: modelFormat, Version: formatVersion}, Columns: cols, Standardization: m.Standardization, Kernel: spec,
		Centers: centers, Coef: coef, Intercept: m.Intercept,
	})
}

// UnmarshalJSON decodes a model saved by MarshalJSON, checking the format,
// the version, the kernel, that the shapes agree and that every value is
// finite; errors are InputErrors wrapping ErrInput, and m is unchanged on
// error.
func (m *Model) UnmarshalJSON(b []byte) error {
	const op = "Model.UnmarshalJSON"
	var mj modelJSON
	if _, err := codec.Decode(ErrInput, op, modelFormat, readVersions, b, &mj); err != nil {
		return err
	}
	k, err := codec.Kernel(ErrInput, op, mj.Kernel)
	if err != nil {
		return err
	}
	centers, err := mj.Centers.Decode(ErrInput, op, "centers", 1)
	if err != nil {
		return err
	}
	coef, err := mj.Coef.Decode(ErrInput, op, "coef", 1)
	if err != nil {
		return err
	}
	if coef.Rows != centers.Rows {
		return inputError(op, "coef", "%d rows for %d centres", coef.Rows, centers.Rows)
	}
	if err := codec.Vector(ErrInput, op, "intercept", mj.Intercept, coef.Cols); err != nil {
		return err
	}
	features, target, err := mj.Columns.Decode(ErrInput, op, centers.Cols)
	if err != nil {
		return err
	}
	if err := codec.DecodeStandardization(ErrInput, op, mj.Standardization, centers.Cols); err != nil {
		return err
	}
	*m = Model{Kernel: k, Centers: centers, Coef: coef, Intercept: mj.Intercept, FeatureNames: features, TargetName: target, Standardization: mj.Standardization}
	return nil
}

type linearModelJSON struct {
	codec.Header
	codec.Columns
	Standardization *kernels.Standardization `json:"standardization,omitempty"`
	Weights         codec.Matrix             `json:"weights"`
	Intercept       []float64                `json:"intercept"`
}

// MarshalJSON encodes the model in the format above. It fails with an
// InputError wrapping ErrInput if m is nil or its fields do not form a
// model (see Predict).
func (m *LinearModel) MarshalJSON() ([]byte, error) {
	const op = "LinearModel.MarshalJSON"
	if err := m.check(op); err != nil {
		return nil, err
	}
	cols, err := codec.EncodeColumns(ErrInput, op, "LinearModel", m.FeatureNames, m.TargetName, m.Weights.Rows)
	if err != nil {
		return nil, err
	}
	w, _ := codec.EncodeMatrix(ErrInput, op, "LinearModel.Weights", m.Weights) // checked above
	return json.Marshal(linearModelJSON{Header: codec.Header{Format: linearModelFormat, Version: formatVersion}, Columns: cols, Standardization: m.Standardization, Weights: w, Intercept: m.Intercept})
}

// UnmarshalJSON decodes a model saved by MarshalJSON; checks and errors as
// Model.UnmarshalJSON.
func (m *LinearModel) UnmarshalJSON(b []byte) error {
	const op = "LinearModel.UnmarshalJSON"
	var mj linearModelJSON
	if _, err := codec.Decode(ErrInput, op, linearModelFormat, readVersions, b, &mj); err != nil {
		return err
	}
	w, err := mj.Weights.Decode(ErrInput, op, "weights", 1)
	if err != nil {
		return err
	}
	if err := codec.Vector(ErrInput, op, "intercept", mj.Intercept, w.Cols); err != nil {
		return err
	}
	features, target, err := mj.Columns.Decode(ErrInput, op, w.Rows)
	if err != nil {
		return err
	}
	if err := codec.DecodeStandardization(ErrInput, op, mj.Standardization, w.Rows); err != nil {
		return err
	}
	*m = LinearModel{Weights: w, Intercept: mj.Intercept, FeatureNames: features, TargetName: target, Standardization: mj.Standardization}
	return nil
}

// FormatOf returns the "format" field of a saved model of package regress
// or classify, to choose the type to decode it into. Errors wrap ErrInput.
func FormatOf(b []byte) (string, error) { return codec.FormatOf(ErrInput, "FormatOf", b) }
