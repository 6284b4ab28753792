package classify

import (
	"encoding/json"

	"rkhs/internal/check"
	"rkhs/internal/codec"
	"rkhs/regress"
)

type rlsJSON struct {
	codec.Header
	Classes    []float64       `json:"classes"`
	OneVsAll   bool            `json:"one_vs_all"`
	Lambda     float64         `json:"lambda"`
	Model      json.RawMessage `json:"model"`
	LOOLambdas []float64       `json:"loo_lambdas,omitempty"`
	LOOErrors  []float64       `json:"loo_errors,omitempty"`
	LOOMSE     []float64       `json:"loo_mse,omitempty"`
}

// MarshalJSON encodes the model in the format of persist.go: Classes,
// OneVsAll, Lambda, the regress.Model in regress's format and, when λ was
// chosen by leave-one-out, LOOLambdas, LOOErrors and LOOMSE. It fails with a
// *linalg.InputError wrapping ErrInput if m is nil or its fields do not
// form a model (then also regress.ErrInput for the inner model), or if its
// kernel is not one of package kernels' (then also kernels.ErrParameter).
func (m *RLSModel) MarshalJSON() ([]byte, error) {
	const op = "RLSModel.MarshalJSON"
	if err := m.check(op); err != nil {
		return nil, err
	}
	inner, err := m.Model.MarshalJSON()
	if err != nil {
		return nil, check.Wrap(ErrInput, op, "RLSModel.Model", err)
	}
	return json.Marshal(rlsJSON{codec.Header{Format: rlsFormat, Version: formatVersion}, m.Classes, m.OneVsAll, m.Lambda, inner, m.LOOLambdas, m.LOOErrors, m.LOOMSE})
}

// UnmarshalJSON decodes a model saved by MarshalJSON, checking the format,
// the version, the classes, λ, the wrapped regress.Model (by its own
// UnmarshalJSON) and that its columns match the coding: one for a binary
// model, one per class for one-vs-all. Errors are *linalg.InputError values
// wrapping ErrInput (and regress.ErrInput for a bad inner model), and m is
// unchanged on error.
func (m *RLSModel) UnmarshalJSON(b []byte) error {
	const op = "RLSModel.UnmarshalJSON"
	var mj rlsJSON
	if _, err := codec.Decode(ErrInput, op, rlsFormat, readVersions, b, &mj); err != nil {
		return err
	}
	want := 0
	if !mj.OneVsAll {
		want = 2
	}
	if err := checkClasses(op, mj.Classes, want); err != nil {
		return err
	}
	if err := check.Positive(ErrInput, op, "lambda", mj.Lambda); err != nil {
		return err
	}
	if len(mj.Model) == 0 {
		return inputError(op, "model", "missing")
	}
	var inner regress.Model
	if err := inner.UnmarshalJSON(mj.Model); err != nil {
		return codec.Nested(ErrInput, op, "model", err)
	}
	q := 1
	if mj.OneVsAll {
		q = len(mj.Classes)
	}
	if inner.Coef.Cols != q {
		return inputError(op, "model.coef", "%d columns for %d classes (one-vs-all %v), want %d", inner.Coef.Cols, len(mj.Classes), mj.OneVsAll, q)
	}
	if err := codec.Vector(ErrInput, op, "loo_errors", mj.LOOErrors, len(mj.LOOLambdas)); err != nil {
		return err
	}
	if err := codec.Vector(ErrInput, op, "loo_lambdas", mj.LOOLambdas, -1); err != nil {
		return err
	}
	if mj.LOOMSE != nil { // absent from files written before it was kept
		if err := codec.Vector(ErrInput, op, "loo_mse", mj.LOOMSE, len(mj.LOOLambdas)); err != nil {
			return err
		}
	}
	*m = RLSModel{Classes: mj.Classes, OneVsAll: mj.OneVsAll, Lambda: mj.Lambda, Model: &inner, LOOLambdas: mj.LOOLambdas, LOOErrors: mj.LOOErrors, LOOMSE: mj.LOOMSE}
	return nil
}
