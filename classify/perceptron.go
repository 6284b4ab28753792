package classify

import (
	"math/rand/v2"

	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// defaultMaxPasses is the pass limit of a Perceptron with MaxPasses 0.
const defaultMaxPasses = 100

// Perceptron is the kernel perceptron in dual form (Igel's Algorithm 1):
// with labels coded yᵢ = ±1 and mistake counts αᵢ, initially 0, the
// decision function is
//
//	f(x) = Σⱼ αⱼ yⱼ k(xⱼ, x)  (+ b),
//
// and a pass visits every training point i once and, if yᵢ f(xᵢ) ≤ 0 (a
// mistake; every point is one at the start), sets αᵢ ← αᵢ + 1. Fitting
// stops after the first pass without a mistake — the data are separated,
// Converged is true — or after MaxPasses passes, Converged false: data
// that no f of this form separates (overlapping classes, or duplicate
// points with different labels) never converge, and the limit is what
// ends the loop.
//
// Order: points are visited in index order 0, 1, …, n−1 in every pass;
// with Shuffle set, each pass visits them in a fresh permutation drawn from
// a PCG generator seeded by Seed (one generator for the whole fit, so the
// order of pass p is the same for a given Seed).
//
// Intercept: with regress.FreeIntercept the offset is b = Σⱼ αⱼ yⱼ (b ←
// b + yᵢ at a mistake), the perceptron of the kernel k + 1 (a constant
// feature of value 1 appended to every point); its scale against k
// matters: for kernels far larger than 1, scale the data or the kernel.
// regress.NoIntercept (the zero value) fits none. A perceptron has no
// penalty, so regress.PenalizedIntercept is an input error.
type Perceptron struct {
	Kernel    kernels.Kernel
	Intercept regress.Intercept // NoIntercept or FreeIntercept
	MaxPasses int               // limit on passes; 0 means 100
	Shuffle   bool
	Seed      uint64 // seed of the per-pass shuffle; unused without Shuffle (0 is a seed like any other)
}

// PerceptronModel is a fitted kernel perceptron, f(x) = Σⱼ Coef[j]·k(x,
// Centers[j]) + Intercept, with the outcome of the fit. It owns its slices
// and matrices; Predict and Scores only read them, so a model is safe for
// concurrent use.
type PerceptronModel struct {
	Kernel    kernels.Kernel
	Centers   *linalg.Dense // the training points with αᵢ > 0, in training order
	Coef      []float64     // αᵢ·yᵢ for those points
	Intercept float64       // Σ αᵢyᵢ with FreeIntercept, else 0
	Classes   []float64     // the two labels, ascending: Classes[0] is coded −1
	// FeatureNames and TargetName name the columns of the training data,
	// as regress.Model's do: one name per feature and the label's, nil
	// and "" without a header; saved with the model, not read by Predict.
	FeatureNames []string
	TargetName   string
	// Standardization, if not nil, maps raw features to the scale the
	// model was fitted on, as regress.Model's: the methods that take rows
	// apply it first, and Centers are standardized rows; nil after
	// Fit (set it after fitting on standardized rows); saved with the model.
	Standardization *kernels.Standardization

	Alpha     []int // mistake count αᵢ of every training point
	Passes    int   // passes made, the last clean one included
	Mistakes  int   // Σ αᵢ, the number of updates
	Converged bool  // true if the last pass made no mistake
}

// Fit runs the perceptron on the rows of x (n×d) with labels of exactly
// two distinct values; the smaller is coded −1, the larger +1.
//
// Cost: the Gram matrix (n²d flops for Linear, Polynomial and Gaussian,
// one n×n matrix of memory), then per pass n tests and n flops per
// mistake, since the decision values of all training points are kept up
// to date (f ← f + yᵢ·K[i,:] on a mistake at i).
//
// Errors: a *linalg.InputError wrapping ErrInput for nil, empty, malformed
// or non-finite X (NaN or ±Inf also linalg.ErrNotFinite), labels of the
// wrong length or not finite, one class or more than two, MaxPasses < 0,
// the penalized intercept, a nil kernel or invalid kernel parameters (which
// also wrap kernels.ErrParameter). Not converging is not an error; see
// Converged. x and labels are not modified.
func (p Perceptron) Fit(x *linalg.Dense, labels []float64) (*PerceptronModel, error) {
	const op = "Perceptron.Fit"
	if err := checkFit(op, p.Kernel, x, labels); err != nil {
		return nil, err
	}
	if err := checkCount(op, "MaxPasses", p.MaxPasses, "100"); err != nil {
		return nil, err
	}
	if err := checkIntercept(op, p.Intercept); err != nil {
		return nil, err
	}
	if p.Intercept == regress.PenalizedIntercept {
		return nil, inputError(op, "Intercept", "penalized: a perceptron has no penalty; use NoIntercept or FreeIntercept")
	}
	classes, y, err := binaryCoding(op, labels)
	if err != nil {
		return nil, err
	}
	maxPasses := p.MaxPasses
	if maxPasses == 0 {
		maxPasses = defaultMaxPasses
	}
	n := x.Rows
	if err := memlimit.CheckSquares(op, x.Rows, 1, x.Cols+8); err != nil {
		return nil, err
	}
	k, err := kernels.Gram(p.Kernel, x)
	if err != nil {
		return nil, kernelError(op, err)
	}
	free := p.Intercept == regress.FreeIntercept
	if free {
		addOnes(k)
	}

	m := &PerceptronModel{Kernel: p.Kernel, Classes: classes, Alpha: make([]int, n)}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	var rnd *rand.Rand
	if p.Shuffle {
		rnd = rand.New(rand.NewPCG(p.Seed, 0x70657263)) // "perc"
	}
	// Invariant: f[i] = Σⱼ αⱼ yⱼ K[i][j] for the current α.
	f := make([]float64, n)
	for m.Passes < maxPasses {
		if rnd != nil {
			rnd.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		m.Passes++
		mistakes := 0
		for _, i := range order {
			if y[i]*f[i] > 0 {
				continue
			}
			m.Alpha[i]++
			mistakes++
			yi, row := y[i], k.Row(i) // K symmetric: row i is column i
			f := f[:len(row)]         // one bounds check for the loop
			for j, kij := range row {
				f[j] += yi * kij
			}
		}
		m.Mistakes += mistakes
		if mistakes == 0 {
			m.Converged = true
			break
		}
	}

	coef := make([]float64, n)
	for i, a := range m.Alpha {
		coef[i] = float64(a) * y[i]
		if free {
			m.Intercept += coef[i]
		}
	}
	m.Centers, m.Coef = support(x, coef)
	return m, nil
}

func (m *PerceptronModel) expansion() *expansion {
	if m == nil {
		return nil
	}
	return &expansion{m.Kernel, m.Centers, m.Coef, m.Intercept, m.Classes, m.FeatureNames, m.TargetName, m.Standardization}
}

// Scores returns the n×1 matrix of decision values f(x) at the rows of x,
// from cross-kernel blocks against the centres (2nmd flops for m centres
// and the kernels of package kernels). Errors: a *linalg.InputError
// wrapping ErrInput if x is nil, malformed, holds NaN or ±Inf (also
// linalg.ErrNotFinite) or has a different number of columns than the
// training data, or if m is nil or its fields do not form a model (as the
// zero PerceptronModel).
func (m *PerceptronModel) Scores(x *linalg.Dense) (*linalg.Dense, error) {
	return m.expansion().scores("PerceptronModel.Scores", "PerceptronModel", x)
}

// Predict returns the label of every row of x: Classes[1] where f(x) > 0,
// Classes[0] where f(x) ≤ 0. Errors as Scores.
func (m *PerceptronModel) Predict(x *linalg.Dense) ([]float64, error) {
	return m.expansion().predict("PerceptronModel.Predict", "PerceptronModel", x)
}
