package classify

import "encoding/json"

type perceptronJSON struct {
	expansionJSON
	Passes    int  `json:"passes"`
	Mistakes  int  `json:"mistakes"`
	Converged bool `json:"converged"`
}

// MarshalJSON encodes the model in the format of persist.go: the
// expansion, Classes, Passes, Mistakes and Converged; Alpha is not saved.
// It fails with a *linalg.InputError wrapping ErrInput if m is nil or its
// fields do not form a model (as for Scores), or if the kernel is not one
// of package kernels' (then also kernels.ErrParameter).
func (m *PerceptronModel) MarshalJSON() ([]byte, error) {
	e, err := m.expansion().encode("PerceptronModel.MarshalJSON", "PerceptronModel", perceptronFormat)
	if err != nil {
		return nil, err
	}
	return json.Marshal(perceptronJSON{e, m.Passes, m.Mistakes, m.Converged})
}

// UnmarshalJSON decodes a model saved by MarshalJSON (either version of
// the format), checking the format, the version, the kernel, the classes,
// the shapes and finiteness; errors are *linalg.InputError values wrapping
// ErrInput, and m is unchanged on error. Alpha is nil in the loaded model.
func (m *PerceptronModel) UnmarshalJSON(b []byte) error {
	const op = "PerceptronModel.UnmarshalJSON"
	var mj perceptronJSON
	e, err := decodeExpansion(op, perceptronFormat, b, &mj, &mj.expansionJSON)
	if err != nil {
		return err
	}
	if err := checkCountField(op, "passes", mj.Passes); err != nil {
		return err
	}
	if err := checkCountField(op, "mistakes", mj.Mistakes); err != nil {
		return err
	}
	*m = PerceptronModel{Kernel: e.kernel, Centers: e.centers, Coef: e.coef, Intercept: e.b, Classes: e.classes,
		FeatureNames: e.features, TargetName: e.target, Standardization: e.std,
		Passes: mj.Passes, Mistakes: mj.Mistakes, Converged: mj.Converged}
	return nil
}
