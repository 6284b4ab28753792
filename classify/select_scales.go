package classify

import (
	"rkhs/linalg"
	"rkhs/loo"
)

// SelectScales learns one Gaussian length scale per feature and λ of RLS
// classification on Nyström features (automatic relevance
// determination): loo.SelectScales on the ±1 codes of the labels (one
// column for two classes, one per class beyond or with OneVsAll, as RLS
// codes them), from the isotropic pair a grid chose (usually
// SelectNystrom on the same centres). The objective is the mean squared
// leave-one-out residual of the codes, a smooth function of the scales,
// with the leave-one-out error rate reported beside it (Criterion
// ErrorRate, the zero value, and CodeMSE descend on the same objective;
// ErrorRate reports the rate), or GCV of the codes. The classifier is
// the descent's fit on every row at the scales: the Gaussian kernel of
// width 1 with the standardization that divides each feature by its
// scale (loo.ComposeScales), so that it classifies raw rows.
type SelectScales struct {
	// Selection holds the objective (its centres, intercept, subset and
	// seed), the start, the budget, the rows of the descent, the
	// caller's standardization and the progress (see loo.SelectScales);
	// its Objective.Criterion is ignored for Criterion below.
	Selection loo.SelectScales
	// Criterion is what is minimized; the zero value is the error rate's
	// smooth objective (see above).
	Criterion ClassCriterion
	// OneVsAll codes two classes one against all too.
	OneVsAll bool
}

// ScaleSelection is the result of SelectScales.Fit: the descent on the
// codes, and the classifier at the scales (its Model is the descent's
// Fit.Model).
type ScaleSelection struct {
	*loo.ScaleSelection
	Classifier *RLSModel
}

// Fit runs the descent on the rows of x (n×d) and their labels (any
// finite values, at least two distinct), which it does not modify.
//
// Cost and memory: those of loo.SelectScales.Fit with q = 1 coded column
// for two classes (two with OneVsAll), one per class beyond, and the n×q
// codes.
//
// Errors: a *linalg.InputError wrapping ErrInput for labels of the wrong
// length, not finite or of one class, an unknown criterion; a
// *linalg.MemoryError before the codes are allocated if they do not fit;
// and the errors of loo.SelectScales.Fit.
func (s SelectScales) Fit(x *linalg.Dense, labels []float64) (*ScaleSelection, error) {
	c, err := newCodedSelection("SelectScales.Fit", x, labels, s.Criterion, s.OneVsAll)
	if err != nil {
		return nil, err
	}
	ss := s.Selection
	ss.Objective.Criterion = c.criterion
	sel, err := ss.Fit(x, c.y)
	if err != nil {
		return nil, err
	}
	return &ScaleSelection{ScaleSelection: sel, Classifier: c.classifier(sel.Lambda, sel.Fit.Model)}, nil
}
