package loo

import (
	"errors"
	"fmt"
	"math"

	"rkhs/internal/check"
	"rkhs/internal/decomp"
	"rkhs/linalg"
	"rkhs/regress"
)

// ErrInput is wrapped by every error about the caller's arguments: an empty
// or invalid parameter list (NaN or ±Inf also wrap linalg.ErrNotFinite), an
// unsupported intercept mode, a nil or zero decomposition, nil, malformed
// or non-finite data, fewer than 2 points. They are *linalg.InputError
// values naming the call and the argument.
var ErrInput = errors.New("loo: invalid input")

func inputError(op, arg, format string, args ...any) error {
	return check.Input(ErrInput, op, arg, format, args...)
}

// spectralOf returns the decomposition behind s, or an error for a nil or
// zero regress.Spectral.
func spectralOf(op string, s *regress.Spectral) (*decomp.Spectral, error) {
	d := decomp.SpectralOf(s)
	if d == nil {
		return nil, inputError(op, "s", "nil or zero regress.Spectral: build one with regress.NewSpectral")
	}
	return d, nil
}

// regressError wraps an argument error of package regress (an invalid
// filter, kernel or configuration) as an InputError of op on arg; other
// errors (a failed factorization) are returned as they are.
func regressError(op, arg string, err error) error {
	if errors.Is(err, regress.ErrInput) {
		return check.Wrap(ErrInput, op, arg, err)
	}
	return err
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
// first on ties; NaN scores never win); 0 for a nil or empty Path.
func (p *Path) Best() int {
	if p == nil {
		return 0
	}
	return argmin(p.MSE)
}

// Predictions returns the leave-one-out predictions f⁻ⁱ(xᵢ) = yᵢ − rᵢ for
// parameter j (n×q, newly allocated). It panics, as indexing does, if j is
// not the index of a parameter of the path.
func (p *Path) Predictions(j int) *linalg.Dense {
	if p == nil || j < 0 || j >= len(p.Residuals) {
		panic(fmt.Sprintf("loo: Path.Predictions: parameter %d of a path of %d", j, p.Len()))
	}
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
	s := make([]float64, p.Len())
	for j := range s {
		s[j] = metric(p.y, p.Predictions(j))
	}
	return s
}

// Len returns the number of parameters of the path (0 for a nil Path).
func (p *Path) Len() int {
	if p == nil {
		return 0
	}
	return len(p.Residuals)
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

// checkXY validates the data of an entry point that takes data: X n×d
// and Y n×q with n ≥ 2, d, q ≥ 1, valid views with finite elements, and
// Y of a magnitude whose squared residuals float64 can sum (check.Squarable).
func checkXY(op string, x, y *linalg.Dense) error {
	if err := check.XY(ErrInput, op, x, y, 2); err != nil {
		return err
	}
	return check.Squarable(ErrInput, op, "Y", y)
}

// checkPoints rejects problems with fewer than 2 points: leaving one out of
// a single point leaves nothing to fit (and 1 − Hᵢᵢ = 0 with a free
// intercept).
func checkPoints(op, arg string, n int) error {
	if n < 2 {
		return inputError(op, arg, "leave-one-out needs at least 2 points, got %d", n)
	}
	return nil
}

// checkIntercept rejects an unknown intercept mode (regress.Intercept.Validate).
func checkIntercept(op string, ic regress.Intercept) error {
	return check.Valid(ErrInput, op, "ic", ic)
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

// checkParams requires a non-empty list of positive finite parameters.
func checkParams(op, name string, ps []float64) error {
	if len(ps) == 0 {
		return inputError(op, name, "empty list")
	}
	for j, v := range ps {
		if err := check.Positive(ErrInput, op, fmt.Sprintf("%s[%d]", name, j), v); err != nil {
			return err
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
