package regress

import (
	"fmt"
	"reflect"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
)

// PredictAll returns the predictions of every model at the rows of x (one
// n×q matrix per model, as Model.Predict gives them), for models that share
// their kernel and centres — the models of a regularization path
// (Spectral.FitPath) or the iterates of an iterative solver
// (Iterative.KeepPath). It forms the cross-kernel matrix K(x, centres) once
// (2nmd flops for m centres) and multiplies it by all the coefficients
// [C₁ … C_L] in one linalg.Gemm (2nmLq flops), instead of one kernel matrix
// per model; memory is the n×m matrix plus the n×Lq product.
//
// Errors (InputErrors wrapping ErrInput): no models, a nil or invalid model
// (see Model.Predict), models whose kernels or centres differ (the centres
// are compared element by element, O(md) per model), x invalid or of the
// wrong width.
func PredictAll(models []*Model, x *linalg.Dense) ([]*linalg.Dense, error) {
	const op = "PredictAll"
	if len(models) == 0 {
		return nil, inputError(op, "models", "empty list")
	}
	first := models[0]
	q := 0
	for j, m := range models {
		arg := fmt.Sprintf("models[%d]", j)
		if err := m.check(op); err != nil {
			return nil, kernelError(op, arg, err)
		}
		if !sameKernel(m.Kernel, first.Kernel) || !sameMatrix(m.Centers, first.Centers) {
			return nil, inputError(op, arg, "kernel or centres differ from those of models[0]")
		}
		q += m.Coef.Cols
	}
	if err := checkPoints(op, x, first.Centers.Cols); err != nil {
		return nil, err
	}
	m := first.Centers.Rows
	c := linalg.NewDense(m, q, nil)
	col := 0
	for _, md := range models {
		c.Slice(0, m, col, col+md.Coef.Cols).Copy(md.Coef)
		col += md.Coef.Cols
	}
	p := linalg.NewDense(x.Rows, q, nil)
	if x.Rows > 0 {
		k, err := kernels.Cross(first.Kernel, x, first.Centers)
		if err != nil {
			return nil, kernelError(op, "X", err)
		}
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, k, c, 0, p)
	}
	out := make([]*linalg.Dense, len(models))
	col = 0
	for j, md := range models {
		out[j] = p.Slice(0, x.Rows, col, col+md.Coef.Cols).Clone()
		addIntercept(out[j], md.Intercept)
		if err := check.Result(ErrInput, op, fmt.Sprintf("prediction of models[%d]", j), out[j], predictionOverflow); err != nil {
			return nil, err
		}
		col += md.Coef.Cols
	}
	return out, nil
}

// sameKernel reports whether a and b are the same kernel: equal values of
// one type (compared with reflect.DeepEqual for types that == cannot
// compare).
func sameKernel(a, b kernels.Kernel) bool {
	if reflect.TypeOf(a) != reflect.TypeOf(b) {
		return false
	}
	if reflect.TypeOf(a).Comparable() {
		return a == b
	}
	return reflect.DeepEqual(a, b)
}

// sameMatrix reports whether a and b hold the same elements (the same
// storage, or equal values).
func sameMatrix(a, b *linalg.Dense) bool {
	if a == b {
		return true
	}
	if a.Rows != b.Rows || a.Cols != b.Cols {
		return false
	}
	for i := 0; i < a.Rows; i++ {
		br := b.Row(i)
		for j, v := range a.Row(i) {
			if v != br[j] {
				return false
			}
		}
	}
	return true
}
