package interval

import (
	"fmt"

	"rkhs/classify"
	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// The intervals of one fit, as a caller that fits one model sees them:
// which method serves it, the checks of a level and of K before any work,
// and one constructor that fits the model and its intervals together (so
// that the model is fitted once, and the caller saves the one the
// intervals are of).

// Method is a way of building the intervals of a fit.
type Method string

const (
	// JackknifePlus is the jackknife+ from the n leave-one-out models,
	// closed forms of the fit (RLS, NewPath, Nystrom, ClassifyRLS,
	// ClassifyNystrom): the rows must be in memory.
	JackknifePlus Method = "jackknife+"
	// CVPlus is CV+ from K fold models (RLSCV, NystromCV, or FoldStats
	// for streamed rows) at the fit's σ and λ: what a model file can keep
	// (CV.MarshalJSON).
	CVPlus Method = "cv+"
	// CVPlusFold is CV+ whose fold models each choose their own σ and λ
	// by the selection's rule on the rows outside their fold
	// (RLSCVChosen, NystromCVChosen): the variant Barber et al.'s
	// guarantee covers when σ and λ are chosen from the rows.
	CVPlusFold Method = "cv+fold"
)

// DefaultMethod returns the method of a fit whose rows are in memory
// (JackknifePlus: n models for the price of the fit's factorization) or
// streamed (CVPlus: K fold models from per-fold statistics, one more
// pass).
func DefaultMethod(streamed bool) Method {
	if streamed {
		return CVPlus
	}
	return JackknifePlus
}

// ErrUnreachable is wrapped, with ErrInput, by Reach's error: a level
// above MaxLevel(n), at which every interval is the whole line and every
// label set holds every label.
var ErrUnreachable = fmt.Errorf("%w: a level the rows cannot reach", ErrInput)

// CheckLevel returns nil for 0 < level < 1 and otherwise an InputError
// (ErrInput; NaN and ±Inf also linalg.ErrNotFinite) whose reason starts
// with the level.
func CheckLevel(level float64) error { return checkLevel("CheckLevel", level) }

// CheckFolds returns nil for 2 ≤ k ≤ n, and otherwise an InputError
// (ErrInput) whose reason starts with k: CV+ leaves out one of K non-empty
// folds of the n rows. Folds, Spec.Build and FoldStats (whose hashed folds
// can also leave one empty) apply it.
func CheckFolds(k, n int) error { return foldCount("CheckFolds", "k", k, n) }

// foldCount is CheckFolds for the call op and its argument arg.
func foldCount(op, arg string, k, n int) error {
	if k >= 2 && k <= n {
		return nil
	}
	return inputError(op, arg, "%d, want 2 ≤ K ≤ n = %d (CV+ leaves out one of K non-empty folds)", k, n)
}

// Reach returns nil when n rows give finite intervals at level
// (0 < level ≤ MaxLevel(n) = n/(n+1)), CheckLevel's error for a level
// outside (0, 1), and otherwise an InputError wrapping ErrUnreachable whose reason starts with the level and says so: n = 20
// rows reach 0.95 but not 0.99. Predict itself accepts such a level and
// answers Intervals.Unbounded; Reach is for a caller that would rather
// refuse.
func Reach(level float64, n int) error { return reach("Reach", "level", level, n) }

// reach is Reach for the call op and its argument arg.
func reach(op, arg string, level float64, n int) error {
	if err := checkLevelArg(op, arg, level); err != nil || level <= MaxLevel(n) {
		return err
	}
	what := "rows give"
	if n == 1 {
		what = "row gives"
	}
	return check.Input(ErrUnreachable, op, arg, "%v, %d %s finite intervals only up to level n/(n+1) = %.4g; at %v every interval is the whole line (every label in every set): lower the level, or give more rows", level, n, what, MaxLevel(n), level)
}

// Spec is the intervals of one kernel RLS fit: the method, the level they
// are meant for (checked by Build before the fit), the folds of CV+, and
// the fit — its kernel, λ (K + nλI, n the rows), intercept mode, and
// whether it is Nyström on given centres, an eigendecomposition, or a
// classifier.
type Spec struct {
	Method Method
	// Level is checked (CheckLevel, Reach on the rows) before anything is
	// fitted; Fitted.Predict takes any level.
	Level float64
	// Folds is K of CV+, drawn by Folds(n, Folds, Seed).
	Folds int
	Seed  uint64

	Kernel    kernels.Kernel
	Lambda    float64
	Intercept regress.Intercept
	// Centers, if not nil, are the Nyström centres (m×d) of the fit
	// (regress.Nystrom with Given); nil is exact RLS.
	Centers *linalg.Dense
	// Spectral, if not nil, is the eigendecomposition of the exact fit's
	// kernel matrix on the same rows (regress.NewSpectral): jackknife+ then
	// comes from it (NewPath) and fits nothing, and Fitted.Model is nil.
	Spectral *regress.Spectral
	// Classes makes the targets labels and the intervals label sets of the
	// RLS classifier (classify.RLS; one column of ±1 for two classes
	// unless OneVsAll, one a class beyond two).
	Classes, OneVsAll bool
	// Stream makes a Nyström CV+ (CVPlus, or CVPlusFold whose Choose is by
	// loo.GCV; a leave-one-out choice stays in memory) in two
	// passes over the rows in blocks (FoldStats, FoldFits.Pass, CVPass)
	// instead of NystromCV's copies of each fold: row i goes to fold
	// StreamFold(Seed, i, Folds), so the folds' sizes are random, and the
	// memory is O(K·m² + n) whatever the rows. Ignored without Centers.
	Stream bool
	// Choose is the selection CVPlusFold repeats inside each fold: its
	// Kernel, Sigmas (required), Lambdas and Criterion (Nyström only: the
	// exact fit chooses by loo.SelectRLS); Centers and Intercept are the
	// Spec's.
	Choose *loo.SelectNystrom
}

// Fitted is a fit and its intervals (or label sets), from Spec.Build: one
// of a Jackknife, Path, Classes or CV. It is read-only and safe for
// concurrent use.
type Fitted struct {
	std *kernels.Standardization
	raw bool // cv takes raw rows (WithModel) rather than std's
	j   *Jackknife
	p   *Path
	c   *Classes
	cv  *CV
}

// Build fits the model of s on the rows x (as its kernel sees them) and
// targets y (one a row; the labels with Classes) and prepares its
// intervals:
//
//	Classes, JackknifePlus     ClassifyNystrom (Centers) or ClassifyRLS
//	Classes, CVPlus            ClassifyNystromCV (Centers) or ClassifyRLSCV
//	JackknifePlus              Nystrom (Centers), NewPath (Spectral) or RLS
//	CVPlus                     NystromCV (Centers; FoldStats with Stream) or RLSCV
//	CVPlusFold                 NystromCVChosen (Centers; FoldStats.Choose with Stream) or RLSCVChosen
//
// Cost and memory are those of the constructor (each checks its memory
// first), after checks that cost nothing: the level and the folds are
// refused before anything is fitted. x and y are not modified.
//
// Errors (ErrInput): an unknown Method, a Level outside (0, 1) or above
// MaxLevel(n) (ErrUnreachable; the argument "Level"), Folds outside
// 2…n (the argument "Folds"), CVPlusFold without Choose or with
// Classes, y of another length than the rows; and those of the constructor.
func (s Spec) Build(x *linalg.Dense, y []float64) (*Fitted, error) {
	const op = "Spec.Build"
	if x == nil {
		return nil, inputError(op, "x", "nil rows")
	}
	n := x.Rows
	switch {
	case s.Method != JackknifePlus && s.Method != CVPlus && s.Method != CVPlusFold:
		return nil, inputError(op, "Method", "%q: want %s, %s or %s", s.Method, JackknifePlus, CVPlus, CVPlusFold)
	case s.Classes && s.Method == CVPlusFold:
		return nil, inputError(op, "Method", "%s: label sets are %s's or %s's", s.Method, JackknifePlus, CVPlus)
	case s.Method == CVPlusFold && s.Choose == nil:
		return nil, inputError(op, "Choose", "nil: %s repeats a selection inside each fold", CVPlusFold)
	case len(y) != n:
		return nil, inputError(op, "y", "%d targets for %d rows", len(y), n)
	}
	if err := reach(op, "Level", s.Level, n); err != nil {
		return nil, err
	}
	if err := foldCount(op, "Folds", s.Folds, n); s.Method != JackknifePlus && err != nil {
		return nil, err
	}
	streams := s.Stream && s.Centers != nil && !s.Classes && (s.Method == CVPlus || s.Method == CVPlusFold && s.Choose.Criterion == loo.GCV)
	var folds [][]int
	if s.Method != JackknifePlus && !streams {
		folds, _ = Folds(n, s.Folds, s.Seed)
	}
	yd := linalg.NewDense(n, 1, y)
	rls := regress.RLS{Kernel: s.Kernel, Lambda: s.Lambda, Intercept: s.Intercept}
	nys := regress.Nystrom{Kernel: s.Kernel, Lambda: s.Lambda, Intercept: s.Intercept, Given: s.Centers}
	f := &Fitted{}
	var err error
	switch nystrom := s.Centers != nil; {
	case s.Classes && nystrom && folds != nil:
		f.c, err = ClassifyNystromCV(nys, s.OneVsAll, x, y, folds)
	case s.Classes && nystrom:
		f.c, err = ClassifyNystrom(nys, s.OneVsAll, x, y)
	case s.Classes && folds != nil:
		f.c, err = ClassifyRLSCV(classify.RLS{Kernel: s.Kernel, Lambda: s.Lambda, Intercept: s.Intercept, OneVsAll: s.OneVsAll}, x, y, folds)
	case s.Classes:
		f.c, err = ClassifyRLS(classify.RLS{Kernel: s.Kernel, Lambda: s.Lambda, Intercept: s.Intercept, OneVsAll: s.OneVsAll}, x, y)
	case streams:
		f.cv, err = s.streamed(x, yd)
	case s.Method == CVPlusFold && nystrom:
		sn := *s.Choose
		sn.Centers, sn.Intercept = s.Centers, s.Intercept
		f.cv, err = NystromCVChosen(sn, x, yd, folds)
	case s.Method == CVPlusFold:
		f.cv, err = RLSCVChosen(s.Choose.Kernel, s.Choose.Sigmas, s.Choose.Lambdas, s.Intercept, x, yd, folds)
	case s.Method == CVPlus && nystrom:
		f.cv, err = NystromCV(nys, x, yd, folds)
	case s.Method == CVPlus:
		f.cv, err = RLSCV(rls, x, yd, folds)
	case nystrom:
		f.j, err = Nystrom(nys, x, yd)
	case s.Spectral != nil:
		f.p, err = NewPath(s.Spectral, []float64{s.Lambda}, s.Intercept)
	default:
		f.j, err = RLS(rls, x, yd)
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

// streamBlock is the number of rows Spec.streamed adds at a time; the
// result does not depend on it.
const streamBlock = 8192

// streamed is Build's CV+ of Nyström with Stream: FoldStats over the rows
// in blocks, the fold models at λ (or, for CVPlusFold, chosen by each
// fold from its statistics), and the second pass.
func (s Spec) streamed(x, y *linalg.Dense) (*CV, error) {
	ks := []kernels.Kernel{s.Kernel}
	if s.Method == CVPlusFold {
		ks = make([]kernels.Kernel, len(s.Choose.Sigmas))
		for i, sg := range s.Choose.Sigmas {
			ks[i] = s.Choose.Kernel(sg)
		}
	}
	fs, err := NewFoldStats(ks, s.Centers, s.Folds, s.Seed, 0)
	if err != nil {
		return nil, err
	}
	blocks := func(add func(x, y *linalg.Dense) error) error {
		for i := 0; i < x.Rows; i += streamBlock {
			j := min(i+streamBlock, x.Rows)
			if err := add(x.Slice(i, j, 0, x.Cols), y.Slice(i, j, 0, y.Cols)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := blocks(fs.Add); err != nil {
		return nil, err
	}
	var fits *FoldFits
	if s.Method == CVPlusFold {
		sn := *s.Choose
		sn.Intercept = s.Intercept
		fits, err = fs.Choose(sn)
	} else {
		fits, err = fs.Models(s.Lambda, s.Intercept)
	}
	if err != nil {
		return nil, err
	}
	pass, err := fits.Pass(0)
	if err != nil {
		return nil, err
	}
	if err := blocks(pass.Add); err != nil {
		return nil, err
	}
	return pass.CV()
}

// Model returns the regression model fitted on all the rows (shared, not a
// copy): the one the intervals are around and a caller saves, so that it
// fits once. It is nil for label sets (see Classifier) and for a Path,
// whose model the caller fitted from the same eigendecomposition.
func (f *Fitted) Model() *regress.Model {
	switch {
	case f == nil:
		return nil
	case f.j != nil:
		return f.j.Model()
	case f.cv != nil:
		return f.cv.Model()
	}
	return nil
}

// Classifier returns the classifier of label sets fitted on all the rows
// (shared), nil for intervals.
func (f *Fitted) Classifier() *classify.RLSModel {
	if f == nil || f.c == nil {
		return nil
	}
	return f.c.Model()
}

// CV returns the CV+ intervals (with CVPlus and CVPlusFold), nil otherwise
// (label sets by CV+ too): what a
// model file can keep (CV.MarshalJSON).
func (f *Fitted) CV() *CV {
	if f == nil {
		return nil
	}
	return f.cv
}

// WithModel returns the intervals around m, a model of the same fit with
// its Standardization (raw rows in, as m takes them), perhaps solved
// another way (Falkon's iterations for a Nyström CV+): Predict then maps
// raw rows by m's standardization, and a CV+ predicts with m
// (CV.WithModel). f is not modified. Errors: those of CV.WithModel.
func (f *Fitted) WithModel(m *regress.Model) (*Fitted, error) {
	if f == nil || m == nil {
		return nil, inputError("Fitted.WithModel", "m", "nil Fitted or model")
	}
	g := *f
	g.std = m.Standardization
	if f.cv != nil {
		cv, err := f.cv.WithModel(m)
		if err != nil {
			return nil, err
		}
		g.cv, g.raw = cv, true
	}
	return &g, nil
}

// Predict returns the intervals at level of the rows of xt — or, for a
// classifier, its label sets (the other result nil) — with the rows
// mapped by the standardization of WithModel's model first. Cost, memory
// and errors those of the Predict of the Jackknife, Path, Classes or CV.
func (f *Fitted) Predict(xt *linalg.Dense, level float64) (*Intervals, *LabelSets, error) {
	if f == nil || f.j == nil && f.p == nil && f.c == nil && f.cv == nil {
		return nil, nil, inputError("Fitted.Predict", "Fitted", "nil or zero Fitted: build one with Spec.Build")
	}
	if f.cv != nil && f.raw {
		iv, err := f.cv.Predict(xt, level)
		return iv, nil, err
	}
	x, err := f.std.Apply(xt)
	switch {
	case err != nil:
		return nil, nil, err
	case f.cv != nil:
		iv, err := f.cv.Predict(x, level)
		return iv, nil, err
	case f.c != nil:
		s, err := f.c.Predict(x, level)
		return nil, s, err
	case f.p != nil:
		ivs, err := f.p.Predict(x, level)
		if err != nil {
			return nil, nil, err
		}
		return ivs[0], nil, nil
	}
	iv, err := f.j.Predict(x, level)
	return iv, nil, err
}
