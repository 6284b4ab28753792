package loo

import (
	"errors"
	"fmt"
	"math"

	"rkhs/linalg"
	"rkhs/regress"
)

// ErrInput is wrapped by every error about the caller's arguments: an empty
// or invalid parameter list, an unsupported intercept mode, bad data.
var ErrInput = errors.New("loo: invalid input")

func inputError(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInput}, args...)...)
}

// Path holds leave-one-out results along a list of parameter values (λ,
// or an iteration count, or a filter).
type Path struct {
	// Params are the parameter values in the order given (λ for RLS).
	Params []float64
	// Filters are the filters of a path computed by Filters (nil
	// otherwise), in the order given.
	Filters []regress.Filter
	// Residuals[j] (n×q) holds yᵢ − f⁻ⁱ(xᵢ) for parameter j, f⁻ⁱ the model
	// fitted without point i, for every output.
	Residuals []*linalg.Dense
	// MSE[j] is the mean of the squared residuals over points and outputs.
	MSE []float64
	// GCV[j] is the generalized cross-validation score
	// n‖(I − H)y‖² / tr(I − H)² (mean over outputs), where the path was
	// computed from a hat matrix H; nil otherwise.
	GCV []float64
	y   *linalg.Dense
}

// Best returns the index of the parameter with the smallest MSE (the
// first on ties; NaN scores never win).
func (p *Path) Best() int { return argmin(p.MSE) }

// Predictions returns the leave-one-out predictions f⁻ⁱ(xᵢ) = yᵢ − rᵢ for
// parameter j (n×q, newly allocated).
func (p *Path) Predictions(j int) *linalg.Dense {
	out := p.y.Clone()
	r := p.Residuals[j]
	for i := 0; i < out.Rows; i++ {
		row := out.Row(i)
		for k, v := range r.Row(i) {
			row[k] -= v
		}
	}
	return out
}

// Score applies metric(y, predictions) to the leave-one-out predictions
// of every parameter, for example a misclassification rate; both arguments
// are n×q.
func (p *Path) Score(metric func(y, pred *linalg.Dense) float64) []float64 {
	s := make([]float64, len(p.Params))
	for j := range s {
		s[j] = metric(p.y, p.Predictions(j))
	}
	return s
}

func argmin(v []float64) int {
	best := -1
	for j, x := range v {
		if !math.IsNaN(x) && (best < 0 || x < v[best]) {
			best = j
		}
	}
	return max(best, 0)
}

func meanSquare(m *linalg.Dense) float64 {
	var s float64
	for _, v := range m.Data[:m.Rows*m.Cols] {
		s += v * v
	}
	return s / float64(m.Rows*m.Cols)
}

// checkFinite returns an error wrapping ErrInput for the first NaN or ±Inf
// element of m (row by row), named as in "Y[2][0] is NaN".
func checkFinite(m *linalg.Dense, name string) error {
	for i := 0; i < m.Rows; i++ {
		for j, v := range m.Row(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return inputError("%s[%d][%d] is %v", name, i, j, v)
			}
		}
	}
	return nil
}

// checkY validates the targets of an entry point that takes data: n×q with
// q ≥ 1, all finite (the checks of regress on Y).
func checkY(y *linalg.Dense, n int) error {
	if y == nil {
		return inputError("Y must not be nil")
	}
	if y.Rows != n {
		return inputError("Y has %d rows, X has %d", y.Rows, n)
	}
	if y.Cols == 0 {
		return inputError("Y has no columns")
	}
	return checkFinite(y, "Y")
}

// checkPoints rejects problems with fewer than 2 points: leaving one out of
// a single point leaves nothing to fit (and 1 − Hᵢᵢ = 0 with a free
// intercept).
func checkPoints(n int) error {
	if n < 2 {
		return inputError("leave-one-out needs at least 2 points, got %d", n)
	}
	return nil
}

// checkPath is the final guard of every leave-one-out entry point: the
// inputs were finite, so a NaN or ±Inf residual, MSE or GCV score means the
// system solved for parameter j was numerically singular (matrix names it,
// for example "G + nλI"). The error names the parameter and wraps
// linalg.ErrNotPositiveDefinite.
func checkPath(p *Path, entry, matrix string) error {
	at := func(j int) string {
		if p.Params != nil {
			return fmt.Sprintf("λ = %g", p.Params[j])
		}
		return fmt.Sprintf("filter %d (%v)", j, p.Filters[j])
	}
	fail := func(j int, what string, v float64) error {
		return fmt.Errorf("loo: %s: %s is %v at %s: %s is numerically singular there, try a larger λ (more regularization): %w",
			entry, what, v, at(j), matrix, linalg.ErrNotPositiveDefinite)
	}
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }
	for j, r := range p.Residuals {
		for i := 0; i < r.Rows; i++ {
			for _, v := range r.Row(i) {
				if bad(v) {
					return fail(j, fmt.Sprintf("the leave-one-out residual of point %d", i), v)
				}
			}
		}
		if bad(p.MSE[j]) {
			return fail(j, "the leave-one-out MSE", p.MSE[j])
		}
		if p.GCV != nil && bad(p.GCV[j]) {
			return fail(j, "the GCV score", p.GCV[j])
		}
	}
	return nil
}

func checkParams(ps []float64, name string) error {
	if len(ps) == 0 {
		return inputError("no %s given", name)
	}
	for j, v := range ps {
		if !(v > 0) || math.IsInf(v, 0) {
			return inputError("%s[%d] is %v, must be positive and finite", name, j, v)
		}
	}
	return nil
}

// squaredRowsTimes returns (Q∘Q)·D (n×L) without forming Q∘Q: rows of Q are
// squared a block at a time into a workspace and multiplied by D with
// linalg.Gemm (parallel inside). Row i of the result is Σ_k Q_ik²·D_kj, the
// diagonal of Q·diag(D_j)·Qᵀ for every column j at once.
func squaredRowsTimes(q, d *linalg.Dense) *linalg.Dense {
	n := q.Rows
	out := linalg.NewDense(n, d.Cols, nil)
	const block = 256
	sq := linalg.NewDense(min(block, n), q.Cols, nil)
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		w := sq.Slice(0, i1-i0, 0, q.Cols)
		for i := i0; i < i1; i++ {
			dst := w.Row(i - i0)
			for k, v := range q.Row(i) {
				dst[k] = v * v
			}
		}
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, w, d, 0, out.Slice(i0, i1, 0, d.Cols))
	}
	return out
}
