package classify

import (
	"encoding/json"

	"rkhs/internal/codec"
	"rkhs/kernels"
)

type knnJSON struct {
	codec.Header
	codec.Columns
	Standardization *kernels.Standardization `json:"standardization,omitempty"`
	Kernel          kernels.Spec             `json:"kernel"`
	K               int                      `json:"k"`
	Classes         []float64                `json:"classes"`
	X               codec.Matrix             `json:"x"`
	Labels          []float64                `json:"labels"`
}

// MarshalJSON encodes the model in the format of persist.go: Kernel, K,
// Classes, the training points X and their Labels. It fails with a
// *linalg.InputError wrapping ErrInput if m is nil or its fields do not
// form a model (as for Predict), or if the kernel is not one of package
// kernels' (then also kernels.ErrParameter).
func (m *KNNModel) MarshalJSON() ([]byte, error) {
	const op = "KNNModel.MarshalJSON"
	if err := m.checkModel(op); err != nil {
		return nil, err
	}
	spec, err := specOf(op, "KNNModel.Kernel", m.Kernel)
	if err != nil {
		return nil, err
	}
	x, err := codec.EncodeMatrix(ErrInput, op, "KNNModel.X", m.X)
	if err != nil {
		return nil, err
	}
	cols, err := codec.EncodeColumns(ErrInput, op, "KNNModel", m.FeatureNames, m.TargetName, m.X.Cols)
	if err != nil {
		return nil, err
	}
	return json.Marshal(knnJSON{codec.Header{Format: knnFormat, Version: formatVersion}, cols, m.Standardization, spec, m.K, m.Classes, x, m.Labels})
}

// UnmarshalJSON decodes a model saved by MarshalJSON, checking the format,
// the version, the kernel, that there is one finite label per training
// point, that the classes are the distinct labels in ascending order and
// that 1 ≤ K < n; it then recomputes k(xⱼ, xⱼ) for every training point
// (n kernel evaluations, as Fit does). Errors are *linalg.InputError
// values wrapping ErrInput, and m is unchanged on error.
func (m *KNNModel) UnmarshalJSON(b []byte) error {
	const op = "KNNModel.UnmarshalJSON"
	var mj knnJSON
	if _, err := codec.Decode(ErrInput, op, knnFormat, readVersions, b, &mj); err != nil {
		return err
	}
	k, err := kernelOf(op, mj.Kernel)
	if err != nil {
		return err
	}
	x, err := mj.X.Decode(ErrInput, op, "x", 1)
	if err != nil {
		return err
	}
	if err := codec.Vector(ErrInput, op, "labels", mj.Labels, x.Rows); err != nil {
		return err
	}
	if err := checkClasses(op, mj.Classes, 0); err != nil {
		return err
	}
	want := classesOf(mj.Labels)
	if len(want) != len(mj.Classes) {
		return inputError(op, "classes", "%s, the labels have %s", listClasses(mj.Classes), listClasses(want))
	}
	for i, c := range want {
		if c != mj.Classes[i] {
			return inputError(op, "classes", "%s, the labels have %s", listClasses(mj.Classes), listClasses(want))
		}
	}
	if mj.K < 1 || mj.K >= x.Rows {
		return inputError(op, "k", "%d, must satisfy 1 ≤ k < n = %d", mj.K, x.Rows)
	}
	features, target, err := mj.Columns.Decode(ErrInput, op, x.Cols)
	if err != nil {
		return err
	}
	if err := codec.DecodeStandardization(ErrInput, op, mj.Standardization, x.Cols); err != nil {
		return err
	}
	*m = KNNModel{Kernel: k, K: mj.K, X: x, Labels: mj.Labels, Classes: mj.Classes, FeatureNames: features, TargetName: target, Standardization: mj.Standardization,
		class: classIndex(mj.Labels, mj.Classes), self: selfKernel(k, x)}
	return nil
}
