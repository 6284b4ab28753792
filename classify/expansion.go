package classify

import (
	"math"

	"rkhs/internal/check"
	"rkhs/internal/codec"
	"rkhs/internal/power"
	"rkhs/kernels"
	"rkhs/linalg"
)

// expansion is the decision function of the binary kernel classifiers
// (perceptron, logistic regression, SVM): f(x) = Σⱼ coef[j]·k(x,
// centers[j]) + b, with the two classes, the first coded −1.
type expansion struct {
	kernel  kernels.Kernel
	centers *linalg.Dense
	coef    []float64
	b       float64
	classes []float64
	// features and target name the columns (saved, not read by Scores).
	features []string
	target   string
	// std, if not nil, standardizes the rows before the kernel.
	std *kernels.Standardization
}

// check reports fields that do not form a model: a nil or invalid kernel,
// centres that are nil, malformed or not finite (zero rows allowed: a fit
// can keep no centre), coefficients of another length or not finite, a
// non-finite intercept, not two classes. The zero value of a model fails.
func (e *expansion) check(op, model string) error {
	if e == nil {
		return inputError(op, model, "nil model")
	}
	if err := checkKernel(op, model+".Kernel", e.kernel); err != nil {
		return err
	}
	if err := check.Data(ErrInput, op, model+".Centers", e.centers, 0); err != nil {
		return err
	}
	if e.centers.Cols == 0 || len(e.coef) != e.centers.Rows {
		return inputError(op, model, "%d coefficients for %d×%d centres", len(e.coef), e.centers.Rows, e.centers.Cols)
	}
	if err := check.Vector(ErrInput, op, model+".Coef", e.coef); err != nil {
		return err
	}
	if err := check.Finite1(ErrInput, op, model+".Intercept", e.b); err != nil {
		return err
	}
	if len(e.classes) != 2 {
		return inputError(op, model+".Classes", "%d classes, want 2", len(e.classes))
	}
	return codec.CheckStandardization(ErrInput, op, model, e.std, e.centers.Cols)
}

// scores returns the n×1 matrix f(x) at the rows of x, standardized
// first when the model standardizes, after checking the model and x.
func (e *expansion) scores(op, model string, x *linalg.Dense) (*linalg.Dense, error) {
	if err := e.check(op, model); err != nil {
		return nil, err
	}
	if err := checkPredict(op, x, e.centers.Cols); err != nil {
		return nil, err
	}
	z, err := e.std.Apply(x)
	if err != nil {
		return nil, kernelError(op, err)
	}
	return expansionScores(op, e.kernel, e.centers, e.coef, e.b, z)
}

// predict returns classes[1] where f(x) > 0 and classes[0] where f(x) ≤ 0.
func (e *expansion) predict(op, model string, x *linalg.Dense) ([]float64, error) {
	s, err := e.scores(op, model, x)
	if err != nil {
		return nil, err
	}
	return signLabels(s.Data, e.classes), nil
}

// expansionScores returns f(x) = Σⱼ coef[j]·k(x, centers[j]) + b at the
// rows of x, from kernels.Rows: the cross-kernel matrix is built a block
// of rows at a time (by one Gemm for the kernels of package kernels) and
// multiplied by coef, bit-identically for any GOMAXPROCS. x must have been
// checked; the kernel was validated.
func expansionScores(op string, k kernels.Kernel, centers *linalg.Dense, coef []float64, b float64, x *linalg.Dense) (*linalg.Dense, error) {
	out := linalg.NewDense(x.Rows, 1, nil)
	if x.Rows == 0 {
		return out, nil
	}
	if centers.Rows > 0 {
		r, err := kernels.NewRows(k, x, centers)
		if err != nil {
			return nil, kernelError(op, err)
		}
		r.MulVecTo(out.Data, coef)
	}
	for i := range out.Data {
		out.Data[i] += b
	}
	if err := check.Result(ErrInput, op, "score", out, "the model's values overflow float64 at these points (coefficients or kernel values too large)"); err != nil {
		return nil, err
	}
	return out, nil
}

// support returns the rows of x whose coefficient is nonzero and those
// coefficients, in training order: the centres a model has to keep.
func support(x *linalg.Dense, coef []float64) (*linalg.Dense, []float64) {
	m := 0
	for _, c := range coef {
		if c != 0 {
			m++
		}
	}
	centers := linalg.NewDense(m, x.Cols, nil)
	kept := make([]float64, 0, m)
	for i, c := range coef {
		if c != 0 {
			copy(centers.Row(len(kept)), x.Row(i))
			kept = append(kept, c)
		}
	}
	return centers, kept
}

// mulVec computes dst = A·v by linalg.Gemm with one column (its
// matrix–vector path: one dot product per element, rows split over
// goroutines, bit-identical for any GOMAXPROCS). dst must not alias v.
func mulVec(dst []float64, a *linalg.Dense, v []float64) {
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, a, linalg.NewDense(len(v), 1, v), 0, linalg.NewDense(len(dst), 1, dst))
}

// addOnes adds 1 to every element of the square matrix g: the Gram
// matrix of the kernel k + 1, whose expansions Σ cᵢ(k(·, xᵢ) + 1) carry
// the intercept b = Σ cᵢ (a constant feature of value 1).
func addOnes(g *linalg.Dense) {
	for i := 0; i < g.Rows; i++ {
		row := g.Row(i)
		for j := range row {
			row[j]++
		}
	}
}

// Power-iteration settings for the largest eigenvalue of a kernel matrix.
// Twenty to fifty products give the Rayleigh quotient to a few per cent on
// the Gram matrices of the bundled data sets; the step sizes built on it
// carry a safety factor and a backtracking guard (see Logistic), so more
// accuracy is not needed.
const (
	powerMaxIter = 100
	powerRelTol  = 1e-3
)

// largestEigenvalue estimates λ_max of the symmetric positive semidefinite
// matrix A = K (ones false) or A = K + 11ᵀ (ones true), K n×n with both
// triangles stored, by the power iteration of rkhs (internal/power; at
// most powerMaxIter products, relative tolerance powerRelTol), and returns
//
//	min(ρ, r), ρ the last Rayleigh quotient, so ρ ≤ λ_max,
//	          r = maxᵢ Σⱼ |Aᵢⱼ|, Gershgorin's bound, so λ_max ≤ r.
//
// ρ is a lower bound: callers add a margin. Cost: up to powerMaxIter
// products of 2n² flops, plus n² for the bound.
func largestEigenvalue(k *linalg.Dense, ones bool) float64 {
	n := k.Rows
	add := 0.0
	if ones {
		add = 1
	}
	var bound float64
	for i := 0; i < n; i++ {
		var s float64
		for _, v := range k.Row(i) {
			s += math.Abs(v + add)
		}
		bound = max(bound, s)
	}
	rho := power.Largest(n, func(dst, v []float64) {
		mulVec(dst, k, v)
		if ones {
			var s float64
			for _, vi := range v {
				s += vi
			}
			for i := range dst {
				dst[i] += s
			}
		}
	}, powerRelTol, powerMaxIter)
	return min(rho, bound)
}
