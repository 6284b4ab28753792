package classify

import "encoding/json"

type svmJSON struct {
	expansionJSON
	Objective float64 `json:"objective"`
	BestIter  int     `json:"best_iter"`
}

// MarshalJSON encodes the model in the format of persist.go: the
// expansion, Classes, Objective and BestIter; History is not saved.
// Errors as PerceptronModel.MarshalJSON.
func (m *SVMModel) MarshalJSON() ([]byte, error) {
	e, err := m.expansion().encode("SVMModel.MarshalJSON", "SVMModel", svmFormat)
	if err != nil {
		return nil, err
	}
	return json.Marshal(svmJSON{e, m.Objective, m.BestIter})
}

// UnmarshalJSON decodes a model saved by MarshalJSON; checks and errors as
// PerceptronModel.UnmarshalJSON. History is nil in the loaded model.
func (m *SVMModel) UnmarshalJSON(b []byte) error {
	const op = "SVMModel.UnmarshalJSON"
	var mj svmJSON
	e, err := decodeExpansion(op, svmFormat, b, &mj, &mj.expansionJSON)
	if err != nil {
		return err
	}
	if err := checkCountField(op, "best_iter", mj.BestIter); err != nil {
		return err
	}
	*m = SVMModel{Kernel: e.kernel, Centers: e.centers, Coef: e.coef, Intercept: e.b, Classes: e.classes,
		FeatureNames: e.features, TargetName: e.target, Standardization: e.std,
		Objective: mj.Objective, BestIter: mj.BestIter}
	return nil
}
