package regress

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
)

// Intercept says how the offset b of f(x) = Σ cᵢ k(x, xᵢ) + b is fitted.
type Intercept int

const (
	// NoIntercept: b = 0, (K + nλI)c = y.
	NoIntercept Intercept = iota
	// FreeIntercept: b is not penalized, the saddle-point system
	// [K + nλI, 1; 1ᵀ, 0]·[c; b] = [y; 0] (Prato & Zanni's system 7). It is
	// solved through the positive definite G = K + nλI alone:
	// b = 1ᵀG⁻¹y / 1ᵀG⁻¹1 and c = G⁻¹(y − b·1), so that 1ᵀc = 0.
	FreeIntercept
	// PenalizedIntercept: b is penalized like the rest of f, which is RLS
	// with the kernel k + 1: (K + 11ᵀ + nλI)c = y and b = 1ᵀc (system 8).
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

func (ic Intercept) check() error {
	if ic < NoIntercept || ic > PenalizedIntercept {
		return inputError("unknown intercept mode %d", int(ic))
	}
	return nil
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
}

// Predict returns the n×q matrix of predictions f(x) at the rows of x,
// computed one block of rows at a time through kernels.Rows (memory
// O(m·block), not n×m). Errors: ErrInput (wrapped) if x has a different
// number of columns than the centres or holds NaN or ±Inf.
func (m *Model) Predict(x *linalg.Dense) (*linalg.Dense, error) {
	if x == nil {
		return nil, inputError("X must not be nil")
	}
	if x.Cols != m.Centers.Cols {
		return nil, inputError("X has %d columns, the model was fitted on %d", x.Cols, m.Centers.Cols)
	}
	if err := checkFinite(x, "X"); err != nil {
		return nil, err
	}
	rows, err := kernels.NewRows(m.Kernel, x, m.Centers)
	if err != nil {
		return nil, err
	}
	n, q := x.Rows, m.Coef.Cols
	out := linalg.NewDense(n, q, nil)
	const block = 2048
	var kb linalg.Dense
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		if kb.Rows != i1-i0 {
			kb = linalg.Dense{}
		}
		k := rows.BlockTo(&kb, i0, i1)
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, k, m.Coef, 0, out.Slice(i0, i1, 0, q))
	}
	addIntercept(out, m.Intercept)
	return out, nil
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
}

// Predict returns the n×q predictions X·W + b. Errors as Model.Predict.
func (m *LinearModel) Predict(x *linalg.Dense) (*linalg.Dense, error) {
	if x == nil {
		return nil, inputError("X must not be nil")
	}
	if x.Cols != m.Weights.Rows {
		return nil, inputError("X has %d columns, the model has %d weights", x.Cols, m.Weights.Rows)
	}
	if err := checkFinite(x, "X"); err != nil {
		return nil, err
	}
	out := linalg.NewDense(x.Rows, m.Weights.Cols, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, x, m.Weights, 0, out)
	addIntercept(out, m.Intercept)
	return out, nil
}
