package classify

import (
	"math"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Defaults of Logistic.
const (
	defaultLogisticMaxIter = 1000
	defaultLogisticTol     = 1e-5
	// maxBacktracks bounds the doublings of L in one step; 2⁵⁰ is far
	// beyond any estimation error and only rounding can exhaust it.
	maxBacktracks = 50
)

// lipschitzMargin multiplies the power-iteration estimate of λ_max, which
// is a lower bound (see largestEigenvalue). A variable so that a test can
// make the estimate too low and exercise the backtracking.
var lipschitzMargin = 1.1

// Logistic is kernel logistic regression fitted by gradient descent on
// the representer coefficients (Rosasco 2017). With labels coded
// yᵢ = ±1 and f = Kc + b·1 on the training points, it minimizes
//
//	F(c, b) = (1/n) Σᵢ log(1 + exp(−yᵢfᵢ)) + λ cᵀKc,
//
// where the intercept b depends on Intercept: regress.NoIntercept (the
// zero value) fits b = 0; regress.FreeIntercept fits b as a free
// (unpenalized) offset; regress.PenalizedIntercept fits the kernel k + 1
// with b = Σᵢcᵢ, which adds λb² to F. The model's probability of the larger label is σ(f(x)) =
// 1/(1 + exp(−f(x))).
//
// Gradient and step. With gᵢ = −yᵢσ(−yᵢfᵢ)/n and D = diag(σ(fᵢ)σ(−fᵢ)) ⪯
// I/4, the Euclidean gradient is ∇_c F = K(g + 2λc), ∂F/∂b = Σᵢgᵢ, and the
// Hessian in c is KDK/n + 2λK. Its norm is at most
//
//	L_c = λ_max(K)²/(4n) + 2λ·λ_max(K),
//
// so plain gradient descent in c takes steps 1/L_c and converges at the
// rate set by L_c/(2λ·λ_min(K)), hopeless when K is nearly singular, as
// kernel matrices are. Fit descends instead in the norm of the function
// space, ‖(c, b)‖² = cᵀKc + b²: there the gradient is v = g + 2λc (and
// Σᵢgᵢ for b), which is the representer update of Rosasco (2017),
// c ← c − v/L, and the Hessian becomes K⁻¹(KDK/n + 2λK) = DK/n + 2λI,
// similar to K^½DK^½/n + 2λI. With A = [K^½; 1ᵀ] (the free intercept adds
// the row 1ᵀ) its norm is at most ‖A‖²/(4n) + 2λ:
//
//	L = λ_max(K)/(4n) + 2λ          (no intercept),
//	L = λ_max(K + 11ᵀ)/(4n) + 2λ    (free intercept, AᵀA = K + 11ᵀ; and the
//	                                 penalized one, whose kernel is k + 1),
//
// and F is 2λ-strongly convex in c in that norm, so the condition number
// L/(2λ) no longer involves λ_min(K). λ_max comes from power iteration on
// K (or K + 11ᵀ) from a fixed start, capped by Gershgorin's bound and
// multiplied by 1.1: the estimate is a lower bound, tight when λ_max
// stands clear of the next eigenvalue, as it does for most kernel
// matrices. Every step must pass the descent-lemma test
// F(new) ≤ F − ‖∇F‖²/(2L) (to rounding) and F(new) ≤ F; if it fails, L
// doubles and the step is retried, so the objective never increases even
// when the estimate is low.
//
// Stopping: when the gradient norm ‖∇F‖ = √(vᵀKv + (Σgᵢ)²), measured in
// that function-space norm, is at most Tol (Converged true), or after
// MaxIter steps (Converged false, not an error).
type Logistic struct {
	Kernel    kernels.Kernel
	Lambda    float64           // λ > 0 of λcᵀKc: the λ of RLS, whose square-loss problem solves (K + nλI)c = y; no default
	Intercept regress.Intercept // none, free or penalized
	MaxIter   int               // limit on gradient steps; 0 means 1000
	Tol       float64           // stop when the gradient norm is ≤ Tol; 0 means 1e-5
}

// LogisticModel is fitted kernel logistic regression, f(x) = Σⱼ Coef[j]·
// k(x, Centers[j]) + Intercept, with the record of the descent. It owns its
// slices and matrices and is safe for concurrent use.
type LogisticModel struct {
	Kernel    kernels.Kernel
	Centers   *linalg.Dense // training points with a nonzero coefficient
	Coef      []float64
	Intercept float64
	Classes   []float64 // the two labels, ascending: Classes[0] is coded −1
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

	Iterations int       // gradient steps taken
	Converged  bool      // the gradient norm reached Tol
	GradNorm   float64   // ‖∇F‖ at the returned coefficients
	Objective  float64   // F at the returned coefficients
	History    []float64 // F at iterates 0 (c = 0) … Iterations, non-increasing
	Lipschitz  float64   // the final L (1/step size)
}

// Fit runs the descent on the rows of x (n×d) with labels of exactly two
// distinct values; the smaller is coded −1, the larger +1.
//
// Cost: the Gram matrix (n²d flops for Linear, Polynomial and Gaussian,
// one n×n matrix of memory), up to 100 power-iteration products and one
// product K·v (2n² flops) per step plus O(n) work for the objective; a
// retried step costs O(n) more. Products are split by rows over goroutines
// and the result is bit-identical for any GOMAXPROCS.
//
// Errors: a *linalg.InputError wrapping ErrInput for nil, empty,
// malformed or non-finite X (NaN or ±Inf, here or in a parameter, also
// linalg.ErrNotFinite), labels of the wrong length or not finite, one class
// or more than two, Lambda ≤ 0 (0 included: λ has no default), MaxIter < 0,
// Tol < 0, an unknown Intercept, a nil kernel or invalid kernel parameters
// (which also wrap kernels.ErrParameter). x and labels are not modified.
func (lg Logistic) Fit(x *linalg.Dense, labels []float64) (*LogisticModel, error) {
	const op = "Logistic.Fit"
	if err := checkFit(op, lg.Kernel, x, labels); err != nil {
		return nil, err
	}
	if err := checkLambda(op, lg.Lambda); err != nil {
		return nil, err
	}
	if err := checkCount(op, "MaxIter", lg.MaxIter, "1000"); err != nil {
		return nil, err
	}
	if err := check.Option(ErrInput, op, "Tol", lg.Tol, "1e-5"); err != nil {
		return nil, err
	}
	if err := checkIntercept(op, lg.Intercept); err != nil {
		return nil, err
	}
	classes, y, err := binaryCoding(op, labels)
	if err != nil {
		return nil, err
	}
	maxIter, tol := lg.MaxIter, lg.Tol
	if maxIter == 0 {
		maxIter = defaultLogisticMaxIter
	}
	if tol == 0 {
		tol = defaultLogisticTol
	}
	if err := memlimit.CheckSquares(op, x.Rows, 1, x.Cols+8); err != nil {
		return nil, err
	}
	k, err := kernels.Gram(lg.Kernel, x)
	if err != nil {
		return nil, kernelError(op, err)
	}

	free := lg.Intercept == regress.FreeIntercept
	if lg.Intercept == regress.PenalizedIntercept {
		addOnes(k)
	}
	d := newLogisticDescent(k, y, lg.Lambda, free)
	L := lipschitzMargin*largestEigenvalue(k, free)/(4*float64(d.n)) + 2*lg.Lambda
	m := &LogisticModel{Kernel: lg.Kernel, Classes: classes}
	m.History = append(m.History, d.obj)
	for m.Iterations < maxIter && d.gradNorm > tol {
		ok := false
		for range maxBacktracks {
			if d.step(1 / L) {
				ok = true
				break
			}
			L *= 2
		}
		if !ok {
			break // no decrease even with a tiny step: F is flat to rounding
		}
		m.Iterations++
		m.History = append(m.History, d.obj)
	}
	m.Converged = d.gradNorm <= tol
	m.GradNorm, m.Objective, m.Intercept, m.Lipschitz = d.gradNorm, d.obj, d.b, L
	if lg.Intercept == regress.PenalizedIntercept {
		for _, c := range d.c {
			m.Intercept += c
		}
	}
	m.Centers, m.Coef = support(x, d.c)
	return m, nil
}

// logisticDescent is the state of the descent: the iterate (c, b), Kc, the
// objective and the function-space gradient (v for c, gb for b) with Kv.
type logisticDescent struct {
	k      *linalg.Dense
	y      []float64
	lambda float64
	bias   bool
	n      int

	c, kc    []float64
	b        float64
	obj      float64
	v, kv    []float64
	gb       float64
	gradNorm float64

	// trial point of step
	c2, kc2 []float64
}

func newLogisticDescent(k *linalg.Dense, y []float64, lambda float64, bias bool) *logisticDescent {
	n := len(y)
	d := &logisticDescent{k: k, y: y, lambda: lambda, bias: bias, n: n,
		c: make([]float64, n), kc: make([]float64, n), v: make([]float64, n), kv: make([]float64, n),
		c2: make([]float64, n), kc2: make([]float64, n)}
	d.obj = d.objective(d.c, d.kc, 0)
	d.gradient()
	return d
}

// objective returns F(c, b) given kc = K·c.
func (d *logisticDescent) objective(c, kc []float64, b float64) float64 {
	var loss float64
	for i, yi := range d.y {
		loss += softplus(-yi * (kc[i] + b))
	}
	return loss/float64(d.n) + d.lambda*linalg.Dot(c, kc)
}

// gradient sets v, gb, Kv and the gradient norm at the current iterate.
func (d *logisticDescent) gradient() {
	inv := 1 / float64(d.n)
	d.gb = 0
	for i, yi := range d.y {
		g := -yi * sigmoid(-yi*(d.kc[i]+d.b)) * inv
		d.v[i] = g + 2*d.lambda*d.c[i]
		if d.bias {
			d.gb += g
		}
	}
	mulVec(d.kv, d.k, d.v)
	d.gradNorm = math.Sqrt(max(linalg.Dot(d.v, d.kv), 0) + d.gb*d.gb)
}

// step tries (c, b) ← (c, b) − η(v, gb). It keeps the trial point and
// returns true if F decreased by the descent-lemma amount η‖∇F‖²/2 (to
// within rounding of F) and did not increase; otherwise it leaves the
// iterate unchanged and returns false.
func (d *logisticDescent) step(eta float64) bool {
	for i := range d.c {
		d.c2[i] = d.c[i] - eta*d.v[i]
		d.kc2[i] = d.kc[i] - eta*d.kv[i] // K·c2, kept up to date without a product
	}
	b2 := d.b - eta*d.gb
	obj := d.objective(d.c2, d.kc2, b2)
	slack := 4 * 0x1p-52 * math.Abs(d.obj)
	if !(obj <= d.obj && obj <= d.obj-eta*d.gradNorm*d.gradNorm/2+slack) {
		return false
	}
	d.c, d.c2 = d.c2, d.c
	d.kc, d.kc2 = d.kc2, d.kc
	d.b, d.obj = b2, obj
	d.gradient()
	return true
}

// softplus returns log(1 + eᶻ) without overflow.
func softplus(z float64) float64 {
	if z > 0 {
		return z + math.Log1p(math.Exp(-z))
	}
	return math.Log1p(math.Exp(z))
}

// sigmoid returns 1/(1 + e⁻ᶻ) without overflow.
func sigmoid(z float64) float64 {
	if z >= 0 {
		return 1 / (1 + math.Exp(-z))
	}
	e := math.Exp(z)
	return e / (1 + e)
}

func (m *LogisticModel) expansion() *expansion {
	if m == nil {
		return nil
	}
	return &expansion{m.Kernel, m.Centers, m.Coef, m.Intercept, m.Classes, m.FeatureNames, m.TargetName, m.Standardization}
}

// Scores returns the n×1 matrix of decision values f(x) (log-odds of
// Classes[1]) at the rows of x, from cross-kernel blocks against the
// centres (2nmd flops for m centres and the kernels of package kernels).
// Errors: a *linalg.InputError wrapping ErrInput if x is nil, malformed,
// holds NaN or ±Inf (also linalg.ErrNotFinite) or has a different number of
// columns than the training data, or if m is nil or its fields do not form
// a model (as the zero LogisticModel).
func (m *LogisticModel) Scores(x *linalg.Dense) (*linalg.Dense, error) {
	return m.expansion().scores("LogisticModel.Scores", "LogisticModel", x)
}

// Probabilities returns P(label = Classes[1] | x) = σ(f(x)) for every row
// of x. Errors as Scores.
func (m *LogisticModel) Probabilities(x *linalg.Dense) ([]float64, error) {
	s, err := m.expansion().scores("LogisticModel.Probabilities", "LogisticModel", x)
	if err != nil {
		return nil, err
	}
	p := s.Data
	for i, f := range p {
		p[i] = sigmoid(f)
	}
	return p, nil
}

// Predict returns the label of every row of x: Classes[1] where f(x) > 0
// (probability above ½), Classes[0] otherwise. Errors as Scores.
func (m *LogisticModel) Predict(x *linalg.Dense) ([]float64, error) {
	return m.expansion().predict("LogisticModel.Predict", "LogisticModel", x)
}
