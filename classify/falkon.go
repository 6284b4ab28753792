package classify

import (
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Falkon is RLS classification (see RLS: the same ±1 codings, binary or
// one-vs-all, the same decision rule) on data far too large for an n×n
// kernel matrix: the codings are fitted by regress.Falkon, the Nyström
// approximation over m centres solved by preconditioned conjugate
// gradient with K_nm streamed in row blocks, never stored. One-vs-all
// fits every class in the same run (one q-column solve: each pass over the
// data serves all classes).
//
// λ follows the rkhs convention K + nλI and has no default; Intercept is
// NoIntercept or FreeIntercept; Centers, Seed, Given, MaxIter and Tol are
// those of regress.Falkon (m distinct rows of X drawn at random, MaxIter 0
// selects regress.DefaultFalkonIter; see there how m and λ govern the
// iterations needed). Callback, if not nil,
// is called after every iteration with the residual of regress.Falkon and
// the current classifier, valid during the call only: its Predict on a
// validation set gives the validation error, for early stopping.
type Falkon struct {
	Kernel    kernels.Kernel
	Lambda    float64 // λ > 0 in the K + nλI convention
	Centers   int     // m ≥ 1, distinct rows of X drawn at random; no default
	Seed      uint64
	Given     *linalg.Dense // the centres (m×d), if not nil; Centers and Seed are then ignored
	Intercept regress.Intercept
	OneVsAll  bool // one-vs-all coding even for two classes
	MaxIter   int
	Tol       float64
	Callback  func(iter int, residual float64, current *RLSModel) bool
}

// FalkonFit is a fitted Falkon classifier: an RLSModel (its Predict,
// Scores and model file; the expansion runs over the m centres) and how
// the solver ran (see regress.FalkonFit).
type FalkonFit struct {
	*RLSModel
	Indices    []int   // rows of X used as centres (nil when Given)
	Jitter     float64 // δ of regress.FalkonFit
	Iterations int
	Residuals  []float64 // relative to the first, as in regress.FalkonFit
	Stopped    regress.StopReason
}

// StoppedShort reports whether the solver used its budget of iterations
// and stopped far from what its preconditioner promises (see
// regress.FalkonFit.StoppedShort): more iterations or a larger λ are
// needed for the converged classifier.
func (f *FalkonFit) StoppedShort() bool { return f.StoppedShortOf(f.Iterations) }

// StoppedShortOf is StoppedShort measured against FalkonPromise(t)
// (regress.FalkonFit.StoppedShortOf).
func (f *FalkonFit) StoppedShortOf(t int) bool {
	return (&regress.FalkonFit{Iterations: f.Iterations, Residuals: f.Residuals, Stopped: f.Stopped}).StoppedShortOf(t)
}

// Fit fits the classifier to the rows of x (n×d) and their labels (any
// finite values, at least two distinct); x and labels are not modified.
//
// Cost: that of regress.Falkon with q = 1 (binary) or q = #classes
// outputs, per iteration 2nmd flops and nm kernel transforms plus 4nmq;
// memory O(m² + n·(d + q)).
//
// Errors: those of RLS.Fit about the data, labels, λ, the kernel and the
// memory of the one-vs-all targets, and
// those of regress.Falkon.Fit about the centres, options and memory, as
// *linalg.InputError values wrapping ErrInput (and regress.ErrInput) and
// naming the field regress.Falkon names (Centers, Given, Intercept,
// MaxIter, Tol);
// failures of the computation (linalg.ErrNotPositiveDefinite,
// linalg.ErrNoConvergence) wrapped.
func (f Falkon) Fit(x *linalg.Dense, labels []float64) (*FalkonFit, error) {
	const op = "Falkon.Fit"
	if err := checkFit(op, f.Kernel, x, labels); err != nil {
		return nil, err
	}
	if err := checkLambda(op, f.Lambda); err != nil {
		return nil, err
	}
	classes := classesOf(labels)
	if len(classes) < 2 {
		return nil, inputError(op, "labels", "only one class (%v); need two or more", classes[0])
	}
	ova := f.OneVsAll || len(classes) > 2
	y, err := codeTargets(op, labels, classes, ova)
	if err != nil {
		return nil, err
	}
	rf := &regress.Falkon{Kernel: f.Kernel, Lambda: f.Lambda, Centers: f.Centers, Seed: f.Seed, Given: f.Given,
		Intercept: f.Intercept, MaxIter: f.MaxIter, Tol: f.Tol}
	if f.Callback != nil {
		view := &RLSModel{Classes: classes, OneVsAll: ova, Lambda: f.Lambda}
		rf.Callback = func(iter int, residual float64, current *regress.Model) bool {
			view.Model = current
			return f.Callback(iter, residual, view)
		}
	}
	fit, err := rf.Fit(x, y)
	if err != nil {
		return nil, rlsError(op, err)
	}
	return &FalkonFit{
		RLSModel:   &RLSModel{Classes: classes, OneVsAll: ova, Lambda: f.Lambda, Model: fit.Model},
		Indices:    fit.Indices,
		Jitter:     fit.Jitter,
		Iterations: fit.Iterations,
		Residuals:  fit.Residuals,
		Stopped:    fit.Stopped,
	}, nil
}
