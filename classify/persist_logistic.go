package classify

import "encoding/json"

type logisticJSON struct {
	expansionJSON
	Iterations int     `json:"iterations"`
	Converged  bool    `json:"converged"`
	GradNorm   float64 `json:"grad_norm"`
	Objective  float64 `json:"objective"`
	Lipschitz  float64 `json:"lipschitz"`
}

// MarshalJSON encodes the model in the format of persist.go: the
// expansion, Classes, Iterations, Converged, GradNorm, Objective and
// Lipschitz; History is not saved. Errors as PerceptronModel.MarshalJSON.
func (m *LogisticModel) MarshalJSON() ([]byte, error) {
	e, err := m.expansion().encode("LogisticModel.MarshalJSON", "LogisticModel", logisticFormat)
	if err != nil {
		return nil, err
	}
	return json.Marshal(logisticJSON{e, m.Iterations, m.Converged, m.GradNorm, m.Objective, m.Lipschitz})
}

// UnmarshalJSON decodes a model saved by MarshalJSON; checks and errors as
// PerceptronModel.UnmarshalJSON. History is nil in the loaded model.
func (m *LogisticModel) UnmarshalJSON(b []byte) error {
	const op = "LogisticModel.UnmarshalJSON"
	var mj logisticJSON
	e, err := decodeExpansion(op, logisticFormat, b, &mj, &mj.expansionJSON)
	if err != nil {
		return err
	}
	if err := checkCountField(op, "iterations", mj.Iterations); err != nil {
		return err
	}
	*m = LogisticModel{Kernel: e.kernel, Centers: e.centers, Coef: e.coef, Intercept: e.b, Classes: e.classes,
		FeatureNames: e.features, TargetName: e.target, Standardization: e.std,
		Iterations: mj.Iterations, Converged: mj.Converged, GradNorm: mj.GradNorm, Objective: mj.Objective, Lipschitz: mj.Lipschitz}
	return nil
}
