package interval

import (
	"encoding/json"
	"fmt"
	"math"

	"rkhs/internal/check"
	"rkhs/internal/codec"
	"rkhs/linalg"
	"rkhs/regress"
)

// A CV is saved as a JSON object in the model files of rkhs (see
// regress's format; rkhs/internal/codec reads it strictly):
//
//	{"format": "rkhs.interval.CV", "version": 1,
//	 "model": {… a regress.Model: the predictions …},
//	 "models": [{… fold model 1 …}, …, {… fold model K …}],
//	 "residuals": [[[… the |residuals| of fold 1, ascending …], …], …]}
//
// with residuals[out][k] the held-out residuals of fold k for output
// out, as CV keeps them: O(K·m + n) numbers for fold models of m centres,
// all that CV.Predict needs. "model" is absent for a CV of NewCV, whose
// predictions are the fold models' weighted mean. A jackknife+ fit
// (Jackknife, Path) is not saved: its leave-one-out models need the n×n
// factorization of the training rows.

const cvFormat = "rkhs.interval.CV"

var cvVersions = []int{1}

type cvJSON struct {
	codec.Header
	Model     json.RawMessage   `json:"model,omitempty"`
	Models    []json.RawMessage `json:"models"`
	Residuals [][][]float64     `json:"residuals"`
}

// WithModel returns the CV+ of c whose predictions are those of m, a
// model of the same width and outputs (the model a caller saves and
// applies, fitted otherwise on the same rows: Falkon's, for one), and
// whose fold models take rows as m does: each is a copy that shares its
// matrices, given m's Standardization (m maps raw rows to the rows the
// folds were fitted on). c is not modified. Errors (ErrInput): a nil c,
// a nil or invalid m, or one of another width or number of outputs.
func (c *CV) WithModel(m *regress.Model) (*CV, error) {
	const op = "CV.WithModel"
	if c == nil || len(c.models) == 0 {
		return nil, inputError(op, "CV", "nil or zero CV: build one with NewCV, RLSCV or NystromCV")
	}
	if _, err := m.Predict(linalg.NewDense(0, 0, nil)); err != nil {
		return nil, check.Wrap(ErrInput, op, "m", err)
	}
	if d, q := c.models[0].Centers.Cols, len(c.sorted); m.Centers.Cols != d || m.Coef.Cols != q {
		return nil, inputError(op, "m", "width %d and %d outputs, the fold models have %d and %d", m.Centers.Cols, m.Coef.Cols, d, q)
	}
	out := &CV{models: make([]*regress.Model, len(c.models)), sorted: c.sorted, n: c.n, full: m}
	for k, f := range c.models {
		g := *f
		g.Standardization = m.Standardization
		out.models[k] = &g
	}
	return out, nil
}

// MarshalJSON encodes c in the format above. Errors (ErrInput, and
// regress.ErrInput for a model that cannot be saved): a nil c, a model
// whose kernel is not one of package kernels'.
func (c *CV) MarshalJSON() ([]byte, error) {
	const op = "CV.MarshalJSON"
	if c == nil || len(c.models) == 0 {
		return nil, inputError(op, "CV", "nil or zero CV: build one with NewCV, RLSCV or NystromCV")
	}
	cj := cvJSON{Header: codec.Header{Format: cvFormat, Version: cvVersions[len(cvVersions)-1]}, Residuals: c.sorted}
	var err error
	if c.full != nil {
		if cj.Model, err = c.full.MarshalJSON(); err != nil {
			return nil, check.Wrap(ErrInput, op, "model", err)
		}
	}
	cj.Models = make([]json.RawMessage, len(c.models))
	for k, m := range c.models {
		if cj.Models[k], err = m.MarshalJSON(); err != nil {
			return nil, check.Wrap(ErrInput, op, fmt.Sprintf("models[%d]", k), err)
		}
	}
	return json.Marshal(cj)
}

// UnmarshalJSON decodes a CV saved by MarshalJSON, checking the format,
// the version, every model (by regress.Model.UnmarshalJSON), that they
// share a width and outputs, and that the residuals are K non-empty lists
// per output, fold k of the same length for every output, of finite
// values ≥ 0 in ascending order. Errors are
// *linalg.InputError values wrapping ErrInput (and regress.ErrInput for a
// bad model), and c is unchanged on error.
func (c *CV) UnmarshalJSON(b []byte) error {
	const op = "CV.UnmarshalJSON"
	var cj cvJSON
	if _, err := codec.Decode(ErrInput, op, cvFormat, cvVersions, b, &cj); err != nil {
		return err
	}
	if len(cj.Models) < 2 {
		return inputError(op, "models", "%d fold models, CV+ needs at least 2", len(cj.Models))
	}
	out := &CV{models: make([]*regress.Model, len(cj.Models)), sorted: cj.Residuals}
	for k, raw := range cj.Models {
		name := fmt.Sprintf("models[%d]", k)
		m := new(regress.Model)
		if err := m.UnmarshalJSON(raw); err != nil {
			return codec.Nested(ErrInput, op, name, err)
		}
		if k > 0 && (m.Centers.Cols != out.models[0].Centers.Cols || m.Coef.Cols != out.models[0].Coef.Cols) {
			return inputError(op, name, "width %d and %d outputs, models[0] has %d and %d", m.Centers.Cols, m.Coef.Cols, out.models[0].Centers.Cols, out.models[0].Coef.Cols)
		}
		out.models[k] = m
	}
	d, q := out.models[0].Centers.Cols, out.models[0].Coef.Cols
	if len(cj.Model) > 0 {
		out.full = new(regress.Model)
		if err := out.full.UnmarshalJSON(cj.Model); err != nil {
			return codec.Nested(ErrInput, op, "model", err)
		}
		if out.full.Centers.Cols != d || out.full.Coef.Cols != q {
			return inputError(op, "model", "width %d and %d outputs, the fold models have %d and %d", out.full.Centers.Cols, out.full.Coef.Cols, d, q)
		}
	}
	if len(cj.Residuals) != q {
		return inputError(op, "residuals", "%d outputs, the models have %d", len(cj.Residuals), q)
	}
	for o, folds := range cj.Residuals {
		if len(folds) != len(out.models) {
			return inputError(op, fmt.Sprintf("residuals[%d]", o), "%d folds for %d fold models", len(folds), len(out.models))
		}
		for k, r := range folds {
			name := fmt.Sprintf("residuals[%d][%d]", o, k)
			if len(r) == 0 || len(r) != len(cj.Residuals[0][k]) {
				return inputError(op, name, "%d rows, residuals[0][%d] has %d (and a fold needs rows)", len(r), k, len(cj.Residuals[0][k]))
			}
			for i, v := range r {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || i > 0 && v < r[i-1] {
					return inputError(op, name, "value %d is %v: want finite values ≥ 0 in ascending order", i, v)
				}
			}
			if o == 0 {
				out.n += len(r)
			}
		}
	}
	*c = *out
	return nil
}
