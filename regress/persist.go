package regress

import (
	"encoding/json"
	"math"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Models are saved as JSON objects, versioned by their "format" and
// "version" fields:
//
//	{"format": "rkhs.regress.Model", "version": 1,
//	 "kernel": {"type": "gaussian", "sigma": 1},
//	 "centers": {"rows": m, "cols": d, "data": [… m·d numbers, row-major …]},
//	 "coef": {"rows": m, "cols": q, "data": […]},
//	 "intercept": [… q numbers …]}
//
//	{"format": "rkhs.regress.LinearModel", "version": 1,
//	 "weights": {"rows": d, "cols": q, "data": […]}, "intercept": […]}
//
// Numbers are written as the shortest decimals that read back as the same
// float64 (encoding/json's rule), so a loaded model predicts bit-identically.
// Only the kernels of package kernels can be saved.

const (
	modelFormat       = "rkhs.regress.Model"
	linearModelFormat = "rkhs.regress.LinearModel"
	formatVersion     = 1
)

// matrixJSON is a row-major matrix in a model file.
type matrixJSON struct {
	Rows int       `json:"rows"`
	Cols int       `json:"cols"`
	Data []float64 `json:"data"`
}

func toMatrixJSON(m *linalg.Dense) matrixJSON {
	c := m.Clone()
	return matrixJSON{Rows: c.Rows, Cols: c.Cols, Data: c.Data}
}

func (mj matrixJSON) dense(op, name string) (*linalg.Dense, error) {
	if mj.Rows < 0 || mj.Cols < 0 || (mj.Cols > 0 && mj.Rows > math.MaxInt/mj.Cols) || len(mj.Data) != mj.Rows*mj.Cols {
		return nil, inputError(op, name, "%d×%d with %d values", mj.Rows, mj.Cols, len(mj.Data))
	}
	if err := check.Vector(ErrInput, op, name+".data", mj.Data); err != nil {
		return nil, err
	}
	return linalg.NewDense(mj.Rows, mj.Cols, mj.Data), nil
}

type modelJSON struct {
	Format    string       `json:"format"`
	Version   int          `json:"version"`
	Kernel    kernels.Spec `json:"kernel"`
	Centers   matrixJSON   `json:"centers"`
	Coef      matrixJSON   `json:"coef"`
	Intercept []float64    `json:"intercept"`
}

// MarshalJSON encodes the model in the format above. It fails if the
// kernel is not one of package kernels'.
func (m *Model) MarshalJSON() ([]byte, error) {
	spec, err := kernels.SpecOf(m.Kernel)
	if err != nil {
		return nil, err
	}
	return json.Marshal(modelJSON{
		Format: modelFormat, Version: formatVersion, Kernel: spec,
		Centers: toMatrixJSON(m.Centers), Coef: toMatrixJSON(m.Coef), Intercept: m.Intercept,
	})
}

// UnmarshalJSON decodes a model saved by MarshalJSON, checking the format,
// the version, the kernel and that the shapes agree; errors wrap ErrInput.
func (m *Model) UnmarshalJSON(b []byte) error {
	const op = "Model.UnmarshalJSON"
	var mj modelJSON
	if err := json.Unmarshal(b, &mj); err != nil {
		return check.Wrap(ErrInput, op, "model file", err)
	}
	if err := checkFormat(op, mj.Format, mj.Version, modelFormat); err != nil {
		return err
	}
	k, err := mj.Kernel.Kernel()
	if err != nil {
		return check.Wrap(ErrInput, op, "kernel", err)
	}
	centers, err := mj.Centers.dense(op, "centers")
	if err != nil {
		return err
	}
	coef, err := mj.Coef.dense(op, "coef")
	if err != nil {
		return err
	}
	if coef.Rows != centers.Rows || len(mj.Intercept) != coef.Cols {
		return inputError(op, "coef", "%d centres, %d×%d coefficients and %d intercepts do not agree", centers.Rows, coef.Rows, coef.Cols, len(mj.Intercept))
	}
	if err := check.Vector(ErrInput, op, "intercept", mj.Intercept); err != nil {
		return err
	}
	*m = Model{Kernel: k, Centers: centers, Coef: coef, Intercept: mj.Intercept}
	return nil
}

type linearModelJSON struct {
	Format    string     `json:"format"`
	Version   int        `json:"version"`
	Weights   matrixJSON `json:"weights"`
	Intercept []float64  `json:"intercept"`
}

// MarshalJSON encodes the model in the format above.
func (m *LinearModel) MarshalJSON() ([]byte, error) {
	return json.Marshal(linearModelJSON{Format: linearModelFormat, Version: formatVersion, Weights: toMatrixJSON(m.Weights), Intercept: m.Intercept})
}

// UnmarshalJSON decodes a model saved by MarshalJSON; errors wrap ErrInput.
func (m *LinearModel) UnmarshalJSON(b []byte) error {
	const op = "LinearModel.UnmarshalJSON"
	var mj linearModelJSON
	if err := json.Unmarshal(b, &mj); err != nil {
		return check.Wrap(ErrInput, op, "model file", err)
	}
	if err := checkFormat(op, mj.Format, mj.Version, linearModelFormat); err != nil {
		return err
	}
	w, err := mj.Weights.dense(op, "weights")
	if err != nil {
		return err
	}
	if len(mj.Intercept) != w.Cols {
		return inputError(op, "intercept", "%d×%d weights and %d intercepts do not agree", w.Rows, w.Cols, len(mj.Intercept))
	}
	if err := check.Vector(ErrInput, op, "intercept", mj.Intercept); err != nil {
		return err
	}
	*m = LinearModel{Weights: w, Intercept: mj.Intercept}
	return nil
}

func checkFormat(op, format string, version int, want string) error {
	if format != want {
		return inputError(op, "format", "%q, want %q", format, want)
	}
	if version != formatVersion {
		return inputError(op, "version", "%s version %d, this build reads version %d", format, version, formatVersion)
	}
	return nil
}

// FormatOf returns the "format" field of a saved model, to choose the type
// to decode it into.
func FormatOf(b []byte) (string, error) {
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return "", check.Wrap(ErrInput, "FormatOf", "model file", err)
	}
	if head.Format == "" {
		return "", inputError("FormatOf", "format", "model file has no format field")
	}
	return head.Format, nil
}
