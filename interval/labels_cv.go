package interval

import (
	"slices"

	"rkhs/classify"
	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/internal/parallel"
	"rkhs/linalg"
	"rkhs/regress"
)

// CV+ label sets: the sets of Classes with K fold models in place of the
// n leave-one-out models.
//
// With f₋ₖ the decision values of the model fitted without fold k (the
// penalty nλ of the full fit held, as RLSCV and NystromCV hold it) and
// Sᵢ = S(xᵢ, yᵢ; f₋ₖ₍ᵢ₎) each row's score under the model that did not
// see its fold, the set at level 1 − α is
//
//	C(x) = {ℓ : #{i : S(x, ℓ; f₋ₖ₍ᵢ₎) > Sᵢ} < (1−α)(n+1)},
//
// the CV+ set of Barber et al. (section 4) for the score of Classes. The
// score S(x, ℓ; f₋ₖ) is one number per fold, so the count is the sum over
// folds of the rows of fold k whose score lies below it: one binary search
// in fold k's sorted scores, O(K log n) per test row and label.

// ClassifyRLSCV is ClassifyRLS by CV+ with the folds (a partition of the
// rows into 2 ≤ K ≤ n non-empty folds, as Folds draws): the fold models
// of RLSCV on the ±1 codings of the labels, each row scored by its fold's
// model. Classes.Predict then gives the CV+ sets above.
//
// Cost: that of RLSCV with q = 1 (two classes) or q = #classes outputs,
// then each fold model's decision values at its fold's rows (2n² kernel
// evaluations over all folds); memory RLSCV's and the K fold models' n·q
// coefficients, checked first. Per test row Predict costs the K fold
// models' decision values (O(K·n·d)) and O(K·#classes·log n) to count.
//
// Errors: those of ClassifyRLS and RLSCV.
func ClassifyRLSCV(cfg classify.RLS, x *linalg.Dense, labels []float64, folds [][]int) (*Classes, error) {
	const op = "ClassifyRLSCV"
	if cfg.ChooseLambda || len(cfg.Lambdas) > 0 {
		return nil, inputError(op, "cfg.ChooseLambda", "λ chosen by leave-one-out on the same rows breaks the guarantee of the label sets: choose it first and give it as Lambda")
	}
	return newClassesCV(op, x, labels, folds, cfg.OneVsAll, cfg.Lambda, func(y *linalg.Dense) (*CV, error) {
		return RLSCV(regress.RLS{Kernel: cfg.Kernel, Lambda: cfg.Lambda, Intercept: cfg.Intercept}, x, y, folds)
	})
}

// ClassifyNystromCV is ClassifyRLSCV for the Nyström fit cfg in memory
// (NystromCV on the ±1 codings, one column for two classes unless
// oneVsAll): the fold models keep the centres. Cost that of NystromCV with
// q outputs and a pass of the fold models over their rows; errors those
// of NystromCV and ClassifyRLSCV.
func ClassifyNystromCV(cfg regress.Nystrom, oneVsAll bool, x *linalg.Dense, labels []float64, folds [][]int) (*Classes, error) {
	return newClassesCV("ClassifyNystromCV", x, labels, folds, oneVsAll, cfg.Lambda, func(y *linalg.Dense) (*CV, error) {
		return NystromCV(cfg, x, y, folds)
	})
}

// newClassesCV codes the labels, builds the CV+ of fit and scores each
// row under its fold's model.
func newClassesCV(op string, x *linalg.Dense, labels []float64, folds [][]int, oneVsAll bool, lambda float64, fit func(y *linalg.Dense) (*CV, error)) (*Classes, error) {
	y, classes, ova, err := codeLabels(op, x, labels, oneVsAll)
	if err != nil {
		return nil, err
	}
	if err := checkFolds(op, folds, x.Rows); err != nil {
		return nil, err
	}
	cv, err := fit(y)
	if err != nil {
		return nil, asCallError(op, err)
	}
	if err := memlimit.Check(op, memlimit.Floats(x.Rows, 2)); err != nil {
		return nil, err
	}
	c := &Classes{classes: classes, folds: cv.models, foldScores: make([][]float64, len(folds)),
		model: &classify.RLSModel{Classes: classes, OneVsAll: ova, Lambda: lambda, Model: cv.full}}
	for k, f := range folds {
		p, err := cv.models[k].Predict(rowsOfDense(x, f))
		if err != nil {
			return nil, fitError(op, "X", err)
		}
		s := make([]float64, len(f))
		for r, i := range f {
			col, sign := c.column(labels[i])
			s[r] = -sign * p.At(r, col)
		}
		slices.Sort(s)
		c.foldScores[k] = s
		c.n += len(f)
	}
	return c, nil
}

// column returns the column of label l's decision value and its sign (see
// Classes): −sign·f_col is l's score.
func (c *Classes) column(l float64) (col int, sign float64) {
	ci, _ := slices.BinarySearch(c.classes, l+0)
	if c.model.OneVsAll {
		return ci, 1
	}
	return 0, float64(2*ci - 1)
}

// predictCV is Classes.Predict for CV+ (see ClassifyRLSCV).
func (c *Classes) predictCV(op string, xt *linalg.Dense, level float64) (*LabelSets, error) {
	if err := checkPredict(op, xt, c.folds[0].Centers.Cols, level); err != nil {
		return nil, err
	}
	t, kk, nc := xt.Rows, len(c.folds), len(c.classes)
	if err := memlimit.Check(op, memlimit.Floats(kk+1, t, c.folds[0].Coef.Cols+nc)); err != nil {
		return nil, err
	}
	preds := make([]*linalg.Dense, kk)
	for k, m := range c.folds {
		p, err := m.Predict(xt)
		if err != nil {
			return nil, check.Wrap(ErrInput, op, "xt", err)
		}
		preds[k] = p
	}
	_, hi := ranks(c.n, level)
	out := &LabelSets{Level: level, Classes: slices.Clone(c.classes), Sets: make([][]float64, t), Unbounded: hi > c.n}
	pm, err := c.model.Predict(xt)
	if err != nil {
		return nil, check.Wrap(ErrInput, op, "xt", err)
	}
	out.Predicted = pm
	p := parallel.Team(t, float64(t)*float64(kk*nc)*32, 1<<15)
	parallel.For(p, t, parallel.Func(func(_, j int) {
		var set []float64
		for _, l := range c.classes {
			col, sign := c.column(l)
			count := 0
			for k, s := range c.foldScores {
				v := -sign * preds[k].At(j, col)
				below, _ := slices.BinarySearch(s, v) // rows of fold k whose score is below v
				count += below
			}
			if count < hi {
				set = append(set, l)
			}
		}
		out.Sets[j] = set
	}))
	return out, nil
}
