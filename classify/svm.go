package classify

import (
	"fmt"
	"math"

	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// defaultSVMMaxIter is the iteration count of an SVM with MaxIter 0.
const defaultSVMMaxIter = 2000

// SVM is the kernel support vector machine (hinge loss) fitted by the
// subgradient method on the representer coefficients (Rosasco 2017).
// With labels coded yᵢ = ±1 and f = Kc on the training points it minimizes
//
//	F(c) = (1/n) Σᵢ max(0, 1 − yᵢfᵢ) + λ cᵀKc,
//
// the problem LIBSVM states with C = 1/(2nλ) (regress.LambdaFromC), less
// LIBSVM's unpenalized bias.
//
// Step. Like Logistic, the method steps in the function-space norm cᵀKc,
// where a subgradient is v = s/n + 2λc with sᵢ = −yᵢ if yᵢfᵢ < 1 and 0
// otherwise (the update of Rosasco 2017). F is 2λ-strongly convex in that norm,
// and the step is the one that theory gives strongly convex objectives,
// γₜ = 1/(2λt) at step t = 1, 2, …: the error at the best iterate then
// falls like G²·log(T)/(λT), G a bound on the subgradient, against
// G²/√T for the step 1/√t that ignores strong convexity, and no constant
// has to be tuned (the step of Pegasos, Shalev-Shwartz, Singer and Srebro
// 2007). With it the update reads
// c ← (1 − 1/t)·c − s/(2λnt): c is the running average of the scaled
// hinge subgradients.
//
// The subgradient method does not decrease F at every step, so Fit
// evaluates F at every iterate and keeps the best (lowest F; the first
// one on ties). It has no cheap optimality certificate, so it runs exactly
// MaxIter steps.
//
// Intercept: with regress.PenalizedIntercept the offset is b = Σᵢ cᵢ and
// the kernel is k + 1 (a constant feature of value 1), so F gains λb².
// That keeps F strongly convex in every direction, which the step 1/(2λt)
// needs; a free intercept would have no curvature and no safe step size,
// so regress.FreeIntercept is an input error. regress.NoIntercept (the
// zero value) fits none.
type SVM struct {
	Kernel    kernels.Kernel
	Lambda    float64           // λ > 0 of λcᵀKc: the λ of RLS, whose square-loss problem solves (K + nλI)c = y; no default
	Intercept regress.Intercept // NoIntercept or PenalizedIntercept
	MaxIter   int               // number of subgradient steps; 0 means 2000
}

// SVMModel is a fitted kernel SVM, f(x) = Σⱼ Coef[j]·k(x, Centers[j]) +
// Intercept, at the best iterate of the subgradient method. It owns its
// slices and matrices and is safe for concurrent use.
type SVMModel struct {
	Kernel    kernels.Kernel
	Centers   *linalg.Dense // training points with a nonzero coefficient (support vectors)
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

	Objective float64   // F at the kept iterate
	BestIter  int       // index of the kept iterate (0 is c = 0)
	History   []float64 // F at iterates 0 … MaxIter
}

// Fit runs MaxIter subgradient steps on the rows of x (n×d) with labels of
// exactly two distinct values; the smaller is coded −1, the larger +1.
//
// Cost: the Gram matrix (n²d flops for Linear, Polynomial and Gaussian,
// one n×n matrix of memory), then per step one product K·s (2n² flops,
// split by rows over goroutines, bit-identical for any GOMAXPROCS) and
// O(n) work; Kc is updated from K·s rather than recomputed.
//
// Errors: a *linalg.InputError wrapping ErrInput for nil, empty,
// malformed or non-finite X (NaN or ±Inf, here or in λ, also
// linalg.ErrNotFinite), labels of the wrong length or not finite, one class
// or more than two, Lambda ≤ 0 (0 included: λ has no default), MaxIter < 0,
// the free intercept, a nil kernel or invalid kernel parameters (which
// also wrap kernels.ErrParameter). An error wrapping
// linalg.ErrNoConvergence if no step improved on c = 0 although c = 0 is
// not optimal (K·y ≠ 0): at a λ so small that the step 1/(2λt) overshoots
// for all MaxIter steps, the zero model would otherwise be returned as a
// fit. x and labels are not modified.
func (sv SVM) Fit(x *linalg.Dense, labels []float64) (*SVMModel, error) {
	const op = "SVM.Fit"
	if err := checkFit(op, sv.Kernel, x, labels); err != nil {
		return nil, err
	}
	if err := checkLambda(op, sv.Lambda); err != nil {
		return nil, err
	}
	if err := checkCount(op, "MaxIter", sv.MaxIter, "2000"); err != nil {
		return nil, err
	}
	if err := checkIntercept(op, sv.Intercept); err != nil {
		return nil, err
	}
	if sv.Intercept == regress.FreeIntercept {
		return nil, inputError(op, "Intercept", "free: the step 1/(2λt) needs strong convexity in every direction, which an unpenalized b lacks; use PenalizedIntercept")
	}
	classes, y, err := binaryCoding(op, labels)
	if err != nil {
		return nil, err
	}
	maxIter := sv.MaxIter
	if maxIter == 0 {
		maxIter = defaultSVMMaxIter
	}
	if err := memlimit.CheckSquares(op, x.Rows, 1, x.Cols+8); err != nil {
		return nil, err
	}
	k, err := kernels.Gram(sv.Kernel, x)
	if err != nil {
		return nil, kernelError(op, err)
	}
	penalized := sv.Intercept == regress.PenalizedIntercept
	if penalized {
		addOnes(k)
	}

	n := len(y)
	lambda, inv := sv.Lambda, 1/float64(n)
	c, kc := make([]float64, n), make([]float64, n)
	s, ks := make([]float64, n), make([]float64, n)
	best := make([]float64, n)
	var sks0 float64 // sᵀKs at c = 0: 0 when c = 0 is optimal
	m := &SVMModel{Kernel: sv.Kernel, Classes: classes, History: make([]float64, 0, maxIter+1)}
	for t := 0; ; t++ {
		// F at iterate t, and the hinge subgradient s there.
		var loss float64
		for i, yi := range y {
			if margin := yi * kc[i]; margin < 1 {
				loss += 1 - margin
				s[i] = -yi
			} else {
				s[i] = 0
			}
		}
		obj := loss*inv + lambda*linalg.Dot(c, kc)
		m.History = append(m.History, obj)
		if t == 0 || obj < m.Objective {
			m.Objective, m.BestIter = obj, t
			copy(best, c)
		}
		if t == maxIter {
			break
		}
		// Step t+1 with γ = 1/(2λ(t+1)): c ← (1 − 1/(t+1))c − γs/n.
		a := 1 - 1/float64(t+1)
		g := inv / (2 * lambda * float64(t+1))
		mulVec(ks, k, s)
		if t == 0 {
			sks0 = linalg.Dot(s, ks)
		}
		for i := range c {
			c[i] = a*c[i] - g*s[i]
			kc[i] = a*kc[i] - g*ks[i]
		}
	}
	if m.BestIter == 0 && maxIter > 0 && sks0 > 1e-13*float64(n)*trace(k) {
		// c = 0 is optimal only if its subgradient, K·y/n, is 0; else no
		// step was short enough to improve on it.
		return nil, fmt.Errorf("classify: %s: no subgradient step improved on c = 0 at λ = %g, the step 1/(2λt) is too long for so small a λ (raise Lambda or MaxIter): %w",
			op, lambda, &linalg.ConvergenceError{Algorithm: "the SVM subgradient method", Iterations: maxIter})
	}
	if penalized {
		for _, v := range best {
			m.Intercept += v
		}
	}
	m.Centers, m.Coef = support(x, best)
	return m, nil
}

// trace returns the sum of the diagonal of the square matrix k.
func trace(k *linalg.Dense) float64 {
	var s float64
	for i := 0; i < k.Rows; i++ {
		s += math.Abs(k.At(i, i))
	}
	return s
}

func (m *SVMModel) expansion() *expansion {
	if m == nil {
		return nil
	}
	return &expansion{m.Kernel, m.Centers, m.Coef, m.Intercept, m.Classes, m.FeatureNames, m.TargetName, m.Standardization}
}

// Scores returns the n×1 matrix of decision values f(x) at the rows of x,
// from cross-kernel blocks against the support vectors (2nmd flops for m
// of them and the kernels of package kernels). Errors: a *linalg.InputError
// wrapping ErrInput if x is nil, malformed, holds NaN or ±Inf (also
// linalg.ErrNotFinite) or has a different number of columns than the
// training data, or if m is nil or its fields do not form a model (as the
// zero SVMModel).
func (m *SVMModel) Scores(x *linalg.Dense) (*linalg.Dense, error) {
	return m.expansion().scores("SVMModel.Scores", "SVMModel", x)
}

// Predict returns the label of every row of x: Classes[1] where f(x) > 0,
// Classes[0] where f(x) ≤ 0. Errors as Scores.
func (m *SVMModel) Predict(x *linalg.Dense) ([]float64, error) {
	return m.expansion().predict("SVMModel.Predict", "SVMModel", x)
}
