package regress

import (
	"fmt"

	"rkhs/internal/check"
	"rkhs/internal/codec"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Intercept says how the offset b of f(x) = Σ cᵢ k(x, xᵢ) + b is fitted.
type Intercept int

const (
	// NoIntercept: b = 0, (K + nλI)c = y.
	NoIntercept Intercept = iota
	// FreeIntercept: b is not penalized, the saddle-point system
	// [K + nλI, 1; 1ᵀ, 0]·[c; b] = [y; 0] (Prato and Zanni 2012, eq. (7)). It is
	// solved through the positive definite G = K + nλI alone:
	// b = 1ᵀG⁻¹y / 1ᵀG⁻¹1 and c = G⁻¹(y − b·1), so that 1ᵀc = 0.
	FreeIntercept
	// PenalizedIntercept: b is penalized like the rest of f, which is RLS
	// with the kernel k + 1: (K + 11ᵀ + nλI)c = y and b = 1ᵀc (their eq. (8)).
	PenalizedIntercept
)

// String returns "none", "free" or "penalized".
func (ic Intercept) String() string {
	switch ic {
	case NoIntercept:
		return "none"
	case FreeIntercept:
		return "free"
	case PenalizedIntercept:
		return "penalized"
	}
	return fmt.Sprintf("Intercept(%d)", int(ic))
}

// Validate reports a mode other than NoIntercept, FreeIntercept and
// PenalizedIntercept: a *linalg.InputError (Op "Intercept.Validate", Arg
// "Intercept") wrapping ErrInput. The methods of every package that take
// an Intercept check it with Validate and report its reason on their own
// call and argument, wrapping their own sentinel as well.
func (ic Intercept) Validate() error {
	if ic < NoIntercept || ic > PenalizedIntercept {
		return inputError("Intercept.Validate", "Intercept", "unknown mode %d", int(ic))
	}
	return nil
}

// check reports an invalid ic as the field Intercept of the call op.
func (ic Intercept) check(op string) error {
	return check.Valid(ErrInput, op, "Intercept", ic)
}

// Model is a fitted kernel expansion with q outputs,
//
//	f_k(x) = Σᵢ Coef[i][k]·k(x, Centers[i]) + Intercept[k],
//
// where the centres are the training points (or, for Nyström, the chosen
// subset). A Model owns its matrices (fitting copies what it needs), and
// Predict only reads them, so a Model is safe for concurrent Predict calls.
type Model struct {
	Kernel    kernels.Kernel
	Centers   *linalg.Dense // m×d
	Coef      *linalg.Dense // m×q
	Intercept []float64     // length q; zeros for NoIntercept

	// FeatureNames and TargetName name the columns of the training data,
	// as its header gave them: one name per feature (column of Centers)
	// and the target's; nil and "" when the data had no names, as fitting
	// leaves them. They are saved with the model so that rkhs predict can
	// find the columns again by name; Predict does not read them.
	FeatureNames []string
	TargetName   string

	// Standardization, if not nil, maps the features to the scale the
	// model was fitted on: Predict applies it to the rows of x before the
	// kernel, so that the model takes raw features, and the Centers are
	// standardized rows. Fitting leaves it nil; to fit on standardized
	// features, standardize X (kernels.StandardizationOf, Apply), fit, and
	// set it (see the example). It is saved with the model.
	Standardization *kernels.Standardization
}

// Predict returns the n×q matrix of predictions f(x) at the rows of x,
// standardized first when the model has a Standardization, computed one
// block of rows at a time by kernels.Rows.MulTo (memory O(m·block), not
// n×m, and n×d for the standardized rows). x may have no rows.
//
// Errors (wrapping ErrInput): x nil, malformed, holding NaN or ±Inf (also
// linalg.ErrNotFinite) or with a different number of columns than the
// centres, or so far outside the training rows that standardizing it
// overflows (also kernels.ErrData); a nil Model, or one whose fields do
// not form a model (a nil or invalid kernel, no centres, shapes that
// disagree, non-finite values, an invalid Standardization or one of
// another width), as the zero Model.
func (m *Model) Predict(x *linalg.Dense) (*linalg.Dense, error) {
	const op = "Model.Predict"
	if err := m.check(op); err != nil {
		return nil, err
	}
	if err := checkPoints(op, x, m.Centers.Cols); err != nil {
		return nil, err
	}
	n, q := x.Rows, m.Coef.Cols
	out := linalg.NewDense(n, q, nil)
	if n == 0 {
		return out, nil
	}
	x, err := m.Standardization.Apply(x)
	if err != nil {
		return nil, kernelError(op, "X", err)
	}
	rows, err := kernels.NewRows(m.Kernel, x, m.Centers)
	if err != nil {
		return nil, kernelError(op, "X", err)
	}
	rows.MulTo(out, m.Coef)
	addIntercept(out, m.Intercept)
	if err := check.Result(ErrInput, op, "prediction", out, predictionOverflow); err != nil {
		return nil, err
	}
	return out, nil
}

// check reports a nil Model or fields that do not form one: a kernel
// that is nil or invalid, Centers m×d and Coef m×q with m, d, q ≥ 1,
// len(Intercept) = q, all finite.
func (m *Model) check(op string) error {
	if m == nil {
		return inputError(op, "Model", "nil model")
	}
	if err := check.Kernel(ErrInput, op, "Model.Kernel", m.Kernel); err != nil {
		return err
	}
	if err := check.Data(ErrInput, op, "Model.Centers", m.Centers, 1); err != nil {
		return err
	}
	if err := check.Data(ErrInput, op, "Model.Coef", m.Coef, 1); err != nil {
		return err
	}
	if m.Coef.Rows != m.Centers.Rows || len(m.Intercept) != m.Coef.Cols {
		return inputError(op, "Model", "%d centres, %d×%d coefficients and %d intercepts do not agree", m.Centers.Rows, m.Coef.Rows, m.Coef.Cols, len(m.Intercept))
	}
	if err := codec.CheckStandardization(ErrInput, op, "Model", m.Standardization, m.Centers.Cols); err != nil {
		return err
	}
	return check.Vector(ErrInput, op, "Model.Intercept", m.Intercept)
}

func addIntercept(out *linalg.Dense, b []float64) {
	for i := 0; i < out.Rows; i++ {
		row := out.Row(i)
		for k := range row {
			row[k] += b[k]
		}
	}
}

// LinearModel is a fitted linear function with q outputs,
// f(x) = Wᵀx + b, W d×q. It is what the primal and SVD routes of the
// linear kernel produce (W = Xᵀc of the dual). Safe for concurrent Predict.
type LinearModel struct {
	Weights   *linalg.Dense // d×q
	Intercept []float64     // length q

	// FeatureNames and TargetName: as Model's, one name per row of Weights.
	FeatureNames []string
	TargetName   string

	// Standardization, if not nil, is applied by Predict to the rows of x
	// before the product, as Model's: W and b are those of the
	// standardized features.
	Standardization *kernels.Standardization
}

// Predict returns the n×q predictions X·W + b (Z·W + b, Z the
// standardized rows of x, when the model has a Standardization); x may
// have no rows. Errors as Model.Predict: x invalid or of the wrong width,
// or a nil LinearModel or one whose Weights (d×q, d, q ≥ 1), Intercept
// (length q) and Standardization do not agree or are not finite, as the
// zero LinearModel.
func (m *LinearModel) Predict(x *linalg.Dense) (*linalg.Dense, error) {
	const op = "LinearModel.Predict"
	if err := m.check(op); err != nil {
		return nil, err
	}
	if err := checkPoints(op, x, m.Weights.Rows); err != nil {
		return nil, err
	}
	out := linalg.NewDense(x.Rows, m.Weights.Cols, nil)
	if x.Rows > 0 {
		z, err := m.Standardization.Apply(x)
		if err != nil {
			return nil, kernelError(op, "X", err)
		}
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, z, m.Weights, 0, out)
	}
	addIntercept(out, m.Intercept)
	if err := check.Result(ErrInput, op, "prediction", out, predictionOverflow); err != nil {
		return nil, err
	}
	return out, nil
}

// check reports a nil LinearModel or fields that do not form one: Weights
// d×q with d, q ≥ 1 and len(Intercept) = q, all finite.
func (m *LinearModel) check(op string) error {
	if m == nil {
		return inputError(op, "LinearModel", "nil model")
	}
	if err := check.Data(ErrInput, op, "LinearModel.Weights", m.Weights, 1); err != nil {
		return err
	}
	if len(m.Intercept) != m.Weights.Cols {
		return inputError(op, "LinearModel", "%d×%d weights and %d intercepts do not agree", m.Weights.Rows, m.Weights.Cols, len(m.Intercept))
	}
	if err := codec.CheckStandardization(ErrInput, op, "LinearModel", m.Standardization, m.Weights.Rows); err != nil {
		return err
	}
	return check.Vector(ErrInput, op, "LinearModel.Intercept", m.Intercept)
}
