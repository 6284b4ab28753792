package classify

import (
	"errors"
	"fmt"
	"strings"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// SelectRLS chooses the kernel width σ and λ of RLS classification (see
// RLS) by the exact leave-one-out error rate over a σ × λ grid: for each σ
// one eigendecomposition of the kernel matrix (RLS with ChooseLambda),
// the error rate and the mean squared leave-one-out residual of the ±1
// codes at every λ, and the pair that loo.Table.Best chooses — the fewest
// misclassified rows, ties to the smaller squared residual, then to the
// first pair in grid order (σ before λ). The model of the chosen σ, fitted
// at its λ from the same decomposition, is the result's.
//
// Cost per σ: that of RLS with ChooseLambda (about 4n³/3 + 2n³ flops for
// the eigendecomposition, O(n²Lq) for L values of λ and q coded columns);
// memory that of one such fit at a time, besides the best model so far.
type SelectRLS struct {
	// Kernel builds the kernel of a width σ; required.
	Kernel func(sigma float64) kernels.Kernel
	// Sigmas is the σ grid (positive); required.
	Sigmas []float64
	// Lambdas is the λ grid (positive, in the K + nλI convention). With
	// one σ it may be empty: then 25 values over the spectrum of K
	// (loo.LambdaGrid), as RLS chooses; with several σ it is required, so
	// that every σ is scored on the same λ.
	Lambdas []float64
	// Intercept is the intercept mode of every fit; OneVsAll codes two
	// classes one against all too (see RLS).
	Intercept regress.Intercept
	OneVsAll  bool
	// Progress, if not nil, is called before each σ's eigendecomposition
	// with its number (1, 2, …), the number of σ and σ.
	Progress func(pass, passes int, sigma float64)
}

// RLSSelection is the result of SelectRLS.Fit.
type RLSSelection struct {
	// Choice is the pair chosen and its leave-one-out error rate.
	loo.Choice
	// Scores holds the leave-one-out error rate of every pair
	// (loo.LOOErrorRate), and its Ties the mean squared leave-one-out
	// residual of the ±1 codes, [σ][λ].
	Scores *loo.Table
	// Model is the classifier at the chosen pair, fitted on every row.
	Model *RLSModel
}

// Fit runs the selection on the rows of x (n×d) and their labels (any
// finite values, at least two distinct), which it does not modify.
//
// Errors: a *linalg.InputError wrapping ErrInput for a nil Kernel, an
// invalid kernel from it (also kernels.ErrParameter), empty or invalid
// grids (NaN or ±Inf also linalg.ErrNotFinite), an empty Lambdas with
// several σ, an unknown intercept mode, and the errors of RLS.Fit (the data,
// one class, the memory); ErrInput when no pair has a finite score.
func (s SelectRLS) Fit(x *linalg.Dense, labels []float64) (*RLSSelection, error) {
	const op = "SelectRLS.Fit"
	if s.Kernel == nil {
		return nil, inputError(op, "Kernel", "nil kernel function")
	}
	if len(s.Sigmas) == 0 {
		return nil, inputError(op, "Sigmas", "an empty grid")
	}
	for i, v := range s.Sigmas {
		if err := check.Positive(ErrInput, op, fmt.Sprintf("Sigmas[%d]", i), v); err != nil {
			return nil, err
		}
	}
	if len(s.Sigmas) > 1 && len(s.Lambdas) == 0 {
		return nil, inputError(op, "Lambdas", "an empty grid with %d values of σ: give the λ every σ is scored on", len(s.Sigmas))
	}
	if err := checkTrain(op, x, labels); err != nil {
		return nil, err
	}
	t := &loo.Table{Criterion: loo.LOOErrorRate, Sigmas: append([]float64(nil), s.Sigmas...), Lambdas: append([]float64(nil), s.Lambdas...)}
	var best *RLSModel
	for a, sg := range s.Sigmas {
		if s.Progress != nil {
			s.Progress(a+1, len(s.Sigmas), sg)
		}
		m, err := RLS{Kernel: s.Kernel(sg), ChooseLambda: true, Lambdas: s.Lambdas, Intercept: s.Intercept, OneVsAll: s.OneVsAll}.Fit(x, labels)
		if err != nil {
			var ie *linalg.InputError
			if errors.As(err, &ie) && strings.HasPrefix(ie.Arg, "Kernel") {
				// The kernel of this σ, named as the option builds it.
				return nil, &linalg.InputError{Op: op, Arg: fmt.Sprintf("Kernel(%g)", sg) + strings.TrimPrefix(ie.Arg, "Kernel"),
					Reason: ie.Reason, Kind: ErrInput, Err: err}
			}
			return nil, err
		}
		t.Lambdas = m.LOOLambdas // the grid of one σ when Lambdas is empty
		t.Scores, t.Ties = append(t.Scores, m.LOOErrors), append(t.Ties, m.LOOMSE)
		if b, _, ok := t.BestAt(); ok && b == a {
			best = m // fitted at its own best λ: the pair's, by the same rule
		}
	}
	c, ok := t.Best()
	if !ok {
		return nil, inputError(op, "Lambdas", "no finite leave-one-out error rate on the grid")
	}
	return &RLSSelection{Choice: c, Scores: t, Model: best}, nil
}

// SelectNystrom chooses the kernel width σ and λ of RLS classification on
// Nyström features by leave-one-out over a σ × λ grid, the rows streamed:
// loo.SelectNystrom on the ±1 codes of the labels (one column for two
// classes, one per class beyond or with OneVsAll, as RLS codes them),
// with Criterion loo.LOOErrorRate (the default here: the share of rows
// whose leave-one-out class is wrong, ties to the smaller squared
// residual of the codes), loo.LOOMSE (the squared residual of the codes)
// or loo.GCV. The classifier is the Nyström fit at the chosen pair.
type SelectNystrom struct {
	// Selection holds the kernel, centres, grids, intercept, subset, seed
	// and progress of the selection (see loo.SelectNystrom); its Criterion
	// is ignored for Criterion below.
	Selection loo.SelectNystrom
	// Criterion is what is minimized; the zero value is the error rate.
	Criterion ClassCriterion
	// OneVsAll codes two classes one against all too.
	OneVsAll bool
}

// ClassCriterion is what SelectNystrom minimizes for classes.
type ClassCriterion int

const (
	// ErrorRate is the leave-one-out error rate (loo.LOOErrorRate).
	ErrorRate ClassCriterion = iota
	// CodeMSE is the mean squared leave-one-out residual of the ±1 codes
	// (loo.LOOMSE).
	CodeMSE
	// GCV is generalized cross-validation of the codes (loo.GCV).
	GCV
)

// criterion returns the loo criterion of c.
func (c ClassCriterion) criterion() (loo.Criterion, bool) {
	switch c {
	case ErrorRate:
		return loo.LOOErrorRate, true
	case CodeMSE:
		return loo.LOOMSE, true
	case GCV:
		return loo.GCV, true
	}
	return 0, false
}

// NystromSelection is the result of SelectNystrom.Fit: the selection of
// the codes, and the classifier at the chosen pair (its Model is the
// selection's Fit.Model).
type NystromSelection struct {
	*loo.NystromSelection
	Classifier *RLSModel
}

// Fit runs the selection on the rows of x (n×d) and their labels (any
// finite values, at least two distinct), which it does not modify.
//
// Cost and memory: those of loo.SelectNystrom with q = 1 coded column for
// two classes (two with OneVsAll), one per class beyond, and the n×q
// codes.
//
// Errors: a *linalg.InputError wrapping ErrInput for labels of the wrong
// length, not finite or of one class, an unknown criterion; a
// *linalg.MemoryError before the codes are allocated if they do not fit;
// and the errors of loo.SelectNystrom.Fit.
func (s SelectNystrom) Fit(x *linalg.Dense, labels []float64) (*NystromSelection, error) {
	c, err := newCodedSelection("SelectNystrom.Fit", x, labels, s.Criterion, s.OneVsAll)
	if err != nil {
		return nil, err
	}
	sn := s.Selection
	sn.Criterion = c.criterion
	sel, err := sn.Fit(x, c.y)
	if err != nil {
		return nil, err
	}
	return &NystromSelection{NystromSelection: sel, Classifier: c.classifier(sel.Lambda, sel.Fit.Model)}, nil
}

// codedSelection is what a selection over classes needs beside the
// selection itself: the criterion on the codes, the classes in order, the
// coding and the n×q codes.
type codedSelection struct {
	criterion loo.Criterion
	classes   []float64
	ova       bool
	y         *linalg.Dense
}

// newCodedSelection checks the rows and labels of a selection over
// classes (SelectNystrom.Fit, SelectScales.Fit, named by op) and codes the
// labels: ±1 for two classes, one column a class for more or with
// oneVsAll.
func newCodedSelection(op string, x *linalg.Dense, labels []float64, cc ClassCriterion, oneVsAll bool) (*codedSelection, error) {
	if err := checkTrain(op, x, labels); err != nil {
		return nil, err
	}
	crit, ok := cc.criterion()
	if !ok {
		return nil, inputError(op, "Criterion", "unknown criterion %d", int(cc))
	}
	classes := classesOf(labels)
	if len(classes) < 2 {
		return nil, inputError(op, "labels", "only one class (%v); need two or more", classes[0])
	}
	ova := oneVsAll || len(classes) > 2
	y, err := codeTargets(op, labels, classes, ova)
	if err != nil {
		return nil, err
	}
	return &codedSelection{criterion: crit, classes: classes, ova: ova, y: y}, nil
}

// classifier returns the classifier of the selection's fit at λ.
func (c *codedSelection) classifier(lambda float64, m *regress.Model) *RLSModel {
	return &RLSModel{Classes: c.classes, OneVsAll: c.ova, Lambda: lambda, Model: m}
}

// MaxClasses returns the default limit of CheckClasses for n rows:
// max(20, n/10). Fewer than 10 rows a class on average is the mark of a
// continuous target (house prices, temperatures), which regression fits,
// rather than of class codes; 20 keeps small data sets with a few rows a
// class.
func MaxClasses(n int) int { return max(20, n/10) }

// CheckClasses refuses distinct class labels among n rows that look like
// a continuous target: more than limit, or with limit 0 more than
// MaxClasses(n), or, with limit 0, a label of its own on every one of
// n ≥ 2 rows (the mark of a continuous target on a handful of rows, where
// MaxClasses cannot tell: no class has a second row to learn it from).
// The error, an InputError wrapping ErrInput on "labels", says so and
// names the counts; the limit is the caller's to raise when the labels
// are classes after all.
func CheckClasses(distinct, n, limit int) error {
	given := limit > 0
	if !given {
		limit = MaxClasses(n)
	}
	if distinct > limit {
		return inputError("CheckClasses", "labels", "%d distinct labels in %d rows, more than %d: this looks like a continuous target (regression), not classes", distinct, n, limit)
	}
	if !given && n >= 2 && distinct == n {
		return inputError("CheckClasses", "labels", "%d distinct labels in %d rows, a label of its own on every row: this looks like a continuous target (regression), not classes, and no class has a second row to learn it from", distinct, n)
	}
	return nil
}

// CountClasses returns the number of distinct values of labels, −0 and 0
// counted as one (as every classifier here counts classes).
func CountClasses(labels []float64) int { return len(classesOf(labels)) }

// bestOf returns the index of the λ RLS with ChooseLambda chooses among
// one σ's error rates errs and squared residuals mse: loo.Table's rule
// on a table of one row.
func bestOf(errs, mse []float64) int {
	t := loo.Table{Sigmas: []float64{0}, Lambdas: make([]float64, len(errs)), Scores: [][]float64{errs}, Ties: [][]float64{mse}}
	if _, j, ok := t.BestAt(); ok {
		return j
	}
	return 0 // every score NaN: the error is RLS's to report at the fit
}
