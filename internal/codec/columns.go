package codec

import (
	"slices"

	"rkhs/internal/check"
)

// Columns are the names of the columns of the data a model was fitted on,
// as the header of its CSV file gave them: one per feature, in the order of
// the model's features, and the target's. Both are optional and omitted
// when empty (data without a header, models saved by older writers); a
// model file's struct embeds Columns after its Header.
type Columns struct {
	FeatureNames []string `json:"feature_names,omitempty"`
	TargetName   string   `json:"target_name,omitempty"`
}

// EncodeColumns returns the names of a model with d features for saving,
// refusing names no header could have given (see checkColumns); model
// names the model's type in the error, as "Model" for the fields
// Model.FeatureNames and Model.TargetName.
func EncodeColumns(kind error, op, model string, features []string, target string, d int) (Columns, error) {
	if err := checkColumns(kind, op, model+".FeatureNames", model+".TargetName", features, target, d); err != nil {
		return Columns{}, err
	}
	return Columns{FeatureNames: slices.Clone(features), TargetName: target}, nil
}

// Decode returns the names of a model file for a model of d features,
// checked as EncodeColumns does; features is nil when the file has none.
func (c Columns) Decode(kind error, op string, d int) (features []string, target string, err error) {
	if err := checkColumns(kind, op, "feature_names", "target_name", c.FeatureNames, c.TargetName, d); err != nil {
		return nil, "", err
	}
	if len(c.FeatureNames) == 0 {
		return nil, c.TargetName, nil
	}
	return c.FeatureNames, c.TargetName, nil
}

// checkColumns requires no feature names or one per feature (d), each name
// once, and a target name that is not a feature's: the names of distinct
// columns of one header, which is what lets rkhs predict find them again.
func checkColumns(kind error, op, featuresArg, targetArg string, features []string, target string, d int) error {
	if len(features) != 0 && len(features) != d {
		return check.Input(kind, op, featuresArg, "%d names for %d features", len(features), d)
	}
	for i, name := range features {
		if slices.Contains(features[:i], name) {
			return check.Input(kind, op, featuresArg, "%q is given twice: the names must tell the columns apart", name)
		}
	}
	if target != "" && slices.Contains(features, target) {
		return check.Input(kind, op, targetArg, "%q is also the name of a feature", target)
	}
	return nil
}
