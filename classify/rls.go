package classify

import (
	"errors"
	"fmt"

	"rkhs/internal/check"
	"rkhs/internal/coding"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// RLS is regularized least squares classification (Rifkin's RLSC): kernel
// RLS (regress.RLS) fitted to ±1 codings of the labels.
//
//   - Binary (two classes, OneVsAll false): the smaller label is coded −1,
//     the larger +1; f solves (1/n)Σᵢ(yᵢ − f(xᵢ))² + λ‖f‖² and the
//     prediction is the larger label where f(x) > 0, the smaller where
//     f(x) ≤ 0.
//   - One-vs-all (three or more classes, or OneVsAll set): one column per
//     class c, +1 on the points of class c and −1 elsewhere, all fitted
//     with one factorization of K + nλI (regress.RLS with a q-column Y);
//     the prediction is the class of the largest fₖ(x), the smallest label
//     among ties. With two classes the two columns are exact negatives, and
//     the predictions equal the binary ones.
//
// λ follows the rkhs convention K + nλI, n the number of training rows;
// Intercept is passed to regress.RLS (none, free or penalized).
//
// λ has no default, as everywhere in rkhs: give Lambda > 0, or set
// ChooseLambda to choose λ by exact leave-one-out (package loo) over
// Lambdas, or when Lambdas is empty over 25 values spaced geometrically
// over the spectrum of K (loo.LambdaGrid): the λ whose leave-one-out
// predictions misclassify the fewest training points, ties going to the
// smaller leave-one-out squared error, then to the smaller λ. The kernel
// matrix is then eigendecomposed once (regress.NewSpectral) instead of
// factored, and the chosen model comes from the same decomposition.
// Lambda = 0 without ChooseLambda, ChooseLambda with Lambda > 0, and
// Lambdas without ChooseLambda are input errors, so that no setting is
// silently ignored.
type RLS struct {
	Kernel       kernels.Kernel
	Lambda       float64   // λ > 0 in the K + nλI convention (0 only with ChooseLambda)
	ChooseLambda bool      // choose λ by leave-one-out instead
	Lambdas      []float64 // λ grid of ChooseLambda (empty: 25 values from the spectrum of K)
	Intercept    regress.Intercept
	OneVsAll     bool // one-vs-all coding even for two classes
}

// RLSModel is a fitted RLS classifier: the kernel expansion of regress
// with one output column (binary) or one per class (one-vs-all). It is
// safe for concurrent use.
type RLSModel struct {
	Classes  []float64      // the distinct labels, ascending
	OneVsAll bool           // true: Model has one column per class, in the order of Classes
	Lambda   float64        // the λ used (chosen by leave-one-out with RLS.ChooseLambda)
	Model    *regress.Model // f(x) = Σᵢ Coef[i][k]·k(x, xᵢ) + Intercept[k]; its FeatureNames and TargetName name the columns, its Standardization (if any) maps raw rows
	// With λ chosen by leave-one-out, for each λ of LOOLambdas:
	// LOOErrors is the fraction of training points the leave-one-out fit
	// misclassifies, and LOOMSE the mean squared leave-one-out residual
	// of the ±1 codings, which breaks ties (nil when λ was given).
	LOOLambdas, LOOErrors, LOOMSE []float64
}

// Fit fits the classifier to the rows of x (n×d) and their labels, which
// may be any finite values (−1/+1, 0/1, 1…10); at least two distinct.
//
// Cost: that of regress.RLS with q = 1 (binary) or q = #classes right-hand
// sides: the Gram matrix, n³/3 flops for the Cholesky factorization,
// 2n²q for the solves, one n×n matrix of memory.
//
// Errors: a *linalg.InputError wrapping ErrInput for nil, empty, malformed
// or non-finite X (NaN or ±Inf, here or in λ, also linalg.ErrNotFinite),
// labels of the wrong length or not finite, a single class, Lambda ≤ 0
// without ChooseLambda, Lambda with ChooseLambda, Lambdas without it, an
// element of Lambdas not positive and finite, an unknown Intercept, a nil
// kernel or invalid kernel parameters (which also wrap
// kernels.ErrParameter), X so large that kernel values overflow (also
// kernels.ErrData); linalg.ErrNotPositiveDefinite (wrapped) if K + nλI is
// not numerically positive definite; a *linalg.MemoryError (wrapping
// linalg.ErrTooLarge), before anything large is allocated, if the n×n
// matrix or the n×#classes one-vs-all targets exceed the memory limit. x
// and labels are not modified.
//
// With λ chosen by leave-one-out the cost is one symmetric
// eigendecomposition with vectors (about 4n³/3 + 2n³ flops plus divide and
// conquer, see linalg.EigenSym) instead of a Cholesky factorization, plus
// O(n²·L·q) for L values of λ.
func (r RLS) Fit(x *linalg.Dense, labels []float64) (*RLSModel, error) {
	const op = "RLS.Fit"
	if err := checkFit(op, r.Kernel, x, labels); err != nil {
		return nil, err
	}
	if err := checkIntercept(op, r.Intercept); err != nil {
		return nil, err
	}
	switch {
	case r.ChooseLambda && r.Lambda != 0:
		return nil, inputError(op, "Lambda", "%v given with ChooseLambda; set one of them", r.Lambda)
	case !r.ChooseLambda && len(r.Lambdas) > 0:
		return nil, inputError(op, "Lambdas", "the grid of ChooseLambda, given without it")
	case !r.ChooseLambda && r.Lambda == 0:
		return nil, inputError(op, "Lambda", "0; λ has no default: give λ > 0, or set ChooseLambda to choose it by leave-one-out")
	case !r.ChooseLambda:
		if err := checkLambda(op, r.Lambda); err != nil {
			return nil, err
		}
	}
	for i, l := range r.Lambdas {
		if err := check.Positive(ErrInput, op, fmt.Sprintf("Lambdas[%d]", i), l); err != nil {
			return nil, err
		}
	}
	classes := classesOf(labels)
	if len(classes) < 2 {
		return nil, inputError(op, "labels", "only one class (%v); need two or more", classes[0])
	}
	ova := r.OneVsAll || len(classes) > 2
	y, err := codeTargets(op, labels, classes, ova)
	if err != nil {
		return nil, err
	}
	if r.ChooseLambda {
		return r.fitLOO(x, y, classes, ova)
	}
	fit, err := regress.RLS{Kernel: r.Kernel, Lambda: r.Lambda, Intercept: r.Intercept}.Fit(x, y)
	if err != nil {
		return nil, rlsError(op, err)
	}
	return &RLSModel{Classes: classes, OneVsAll: ova, Lambda: r.Lambda, Model: fit}, nil
}

// fitLOO chooses λ by leave-one-out on the coded targets y and fits the
// model with it, all from one eigendecomposition.
func (r RLS) fitLOO(x, y *linalg.Dense, classes []float64, ova bool) (*RLSModel, error) {
	const op = "RLS.Fit"
	s, err := regress.NewSpectral(r.Kernel, x, y)
	if err != nil {
		return nil, rlsError(op, err)
	}
	grid := r.Lambdas
	if len(grid) == 0 {
		if grid, err = loo.LambdaGrid(s, 25); err != nil {
			return nil, rlsError(op, err)
		}
	}
	path, err := loo.RLS(s, grid, r.Intercept)
	if err != nil {
		return nil, rlsError(op, err)
	}
	errs := path.Score(func(y, pred *linalg.Dense) float64 {
		wrong := 0
		for i := 0; i < y.Rows; i++ {
			if codedClass(y.Row(i)) != codedClass(pred.Row(i)) {
				wrong++
			}
		}
		return float64(wrong) / float64(y.Rows)
	})
	best := bestOf(errs, path.MSE)
	m, err := s.Fit(regress.TikhonovFilter{Lambda: grid[best]}, r.Intercept)
	if err != nil {
		return nil, rlsError(op, err)
	}
	return &RLSModel{Classes: classes, OneVsAll: ova, Lambda: grid[best], Model: m,
		LOOLambdas: append([]float64(nil), grid...), LOOErrors: errs, LOOMSE: append([]float64(nil), path.MSE...)}, nil
}

// codeTargets returns the ±1 targets of RLS classification: one column,
// −1 for the first class and +1 for the second, or with ova one column per
// class, +1 on its points and −1 elsewhere. The n×classes matrix of
// one-vs-all is checked against the memory limit (internal/memlimit)
// before it is allocated: a label with as many values as there are rows
// would otherwise ask for n² values before any other check ran. The error
// is then a *linalg.MemoryError whose Op names the classes.
func codeTargets(op string, labels, classes []float64, ova bool) (*linalg.Dense, error) {
	q := 1
	if ova {
		q = len(classes)
	}
	if err := memlimit.Check(fmt.Sprintf("%s: one-vs-all targets of %d classes", op, q), memlimit.Floats(len(labels), q)); err != nil {
		return nil, err
	}
	y := linalg.NewDense(len(labels), q, nil)
	coding.Targets(y, labels, classes) // every label is among classes, which classesOf drew from them
	return y, nil
}

// codedClass returns the class a row of ±1 codings (or of scores) stands
// for: the sign for one column (1 if > 0, else 0), the index of the largest
// entry (the first on ties) for several.
func codedClass(row []float64) int {
	if len(row) == 1 {
		if row[0] > 0 {
			return 1
		}
		return 0
	}
	best := 0
	for k, v := range row {
		if v > row[best] {
			best = k
		}
	}
	return best
}

// Scores returns the decision values at the rows of x: an n×1 matrix f(x)
// for a binary model, n×q with column k the score of Classes[k] for
// one-vs-all. Cost: the cross-kernel matrix against the n training points,
// built by blocks (2·n·m·d flops for m rows of x), and 2nmq for the
// product with the coefficients.
//
// Errors: a *linalg.InputError wrapping ErrInput if x is nil, malformed,
// holds NaN or ±Inf (also linalg.ErrNotFinite) or has a different number
// of columns than the training data, or if m is nil or its fields do not
// form a model (as the zero RLSModel).
func (m *RLSModel) Scores(x *linalg.Dense) (*linalg.Dense, error) {
	return m.scores("RLSModel.Scores", x)
}

func (m *RLSModel) scores(op string, x *linalg.Dense) (*linalg.Dense, error) {
	if err := m.check(op); err != nil {
		return nil, err
	}
	if err := checkPredict(op, x, m.Model.Centers.Cols); err != nil {
		return nil, err
	}
	if x.Rows == 0 {
		return linalg.NewDense(0, m.Model.Coef.Cols, nil), nil
	}
	s, err := m.Model.Predict(x)
	if err != nil {
		return nil, rlsError(op, err)
	}
	return s, nil
}

// Predict returns the label of every row of x: for a binary model
// Classes[1] where f(x) > 0 and Classes[0] where f(x) ≤ 0; for one-vs-all
// the class of the largest score, the smallest label among ties. Errors as
// Scores.
func (m *RLSModel) Predict(x *linalg.Dense) ([]float64, error) {
	s, err := m.scores("RLSModel.Predict", x)
	if err != nil {
		return nil, err
	}
	if !m.OneVsAll {
		return signLabels(s.Data, m.Classes), nil
	}
	return argmaxLabels(s, m.Classes), nil
}

// check reports a nil RLSModel or fields that do not form one: classes
// (two for a binary model, at least two for one-vs-all) and a regress.Model
// with one column per class (one for a binary model). The model itself is
// checked by its Predict.
func (m *RLSModel) check(op string) error {
	switch {
	case m == nil:
		return inputError(op, "RLSModel", "nil model")
	case m.Model == nil:
		return inputError(op, "RLSModel.Model", "nil model")
	case m.Model.Centers == nil || m.Model.Coef == nil:
		return inputError(op, "RLSModel.Model", "no centres or coefficients")
	}
	q := 1
	if m.OneVsAll {
		q = len(m.Classes)
	}
	if len(m.Classes) < 2 || (!m.OneVsAll && len(m.Classes) != 2) || m.Model.Coef.Cols != q {
		return inputError(op, "RLSModel", "%d classes (one-vs-all %v) and %d columns of coefficients do not agree", len(m.Classes), m.OneVsAll, m.Model.Coef.Cols)
	}
	return nil
}

// rlsError wraps an error of regress or loo: argument errors (invalid
// kernel parameters, kernel values that overflow, a model whose fields do
// not agree, an option such as Falkon's Centers or MaxIter) become
// InputErrors like those of the other classifiers, naming the argument
// the inner *linalg.InputError names (X if there is none), with the
// inner reason said once (its sentinel stays reachable by errors.Is, its
// operation is kept when it is not op); failures of the computation keep
// their own sentinel.
func rlsError(op string, err error) error {
	if errors.Is(err, regress.ErrInput) || errors.Is(err, loo.ErrInput) || errors.Is(err, kernels.ErrParameter) || errors.Is(err, kernels.ErrData) {
		var ie *linalg.InputError
		if errors.As(err, &ie) && ie.Arg != "" {
			reason := ie.Reason
			if ie.Op != op {
				reason = ie.Op + ": " + reason
			}
			return &linalg.InputError{Op: op, Arg: ie.Arg, Reason: reason, Kind: ErrInput, Err: err}
		}
		return kernelError(op, err)
	}
	return fmt.Errorf("classify: %s: %w", op, err)
}
