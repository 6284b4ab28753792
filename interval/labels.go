package interval

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"rkhs/classify"
	"rkhs/internal/check"
	"rkhs/internal/coding"
	"rkhs/internal/memlimit"
	"rkhs/internal/parallel"
	"rkhs/linalg"
	"rkhs/regress"
)

// Classes is an RLS classifier (classify.RLS: ±1 codings of the labels,
// one column for two classes or one per class against all) prepared for
// conformal label sets from its exact leave-one-out decision values.
// It is read-only after ClassifyRLS or ClassifyNystrom (or, for CV+ sets
// from K fold models, ClassifyRLSCV or ClassifyNystromCV) and safe for
// concurrent use.
//
// The nonconformity score of label ℓ at x under a model f is
//
//	S(x, ℓ; f) = −f_ℓ(x),
//
// minus the decision value of ℓ: the column of ℓ for one-vs-all, and for
// two classes f_ℓ = f for the larger label and −f for the smaller (so a
// point scores 1 − its margin, shifted). With μ̂₋ᵢ the leave-one-out models
// and Sᵢ = S(xᵢ, yᵢ; μ̂₋ᵢ) each row's score under the model that did not
// see it, the set at level 1 − α is the jackknife+ set
//
//	C(x) = {ℓ : #{i : S(x, ℓ; μ̂₋ᵢ) > Sᵢ} < (1−α)(n+1)},
//
// which holds the true label with probability at least 1 − 2α for
// exchangeable rows (Barber et al., 2021, whose interval is this set for
// the score |y − μ̂(x)|; Romano, Sesia and Candès, "Classification with
// valid and adaptive coverage", 2020, for classes). When
// (1−α)(n+1) > n every label is in every set (LabelSets.Unbounded).
type Classes struct {
	jk      *Jackknife
	model   *classify.RLSModel
	classes []float64
	score   []float64 // Sᵢ
	n       int

	// folds and foldScores are the fold models and each fold's scores Sᵢ,
	// ascending, of CV+ sets (ClassifyRLSCV, ClassifyNystromCV); jk and
	// score are then nil.
	folds      []*regress.Model
	foldScores [][]float64
}

// LabelSets are the conformal label sets of t test rows at one level.
type LabelSets struct {
	Level     float64
	Classes   []float64   // every label, ascending
	Sets      [][]float64 // Sets[j]: the labels in the set of test row j, ascending
	Predicted []float64   // the classifier's label at each test row (classify.RLSModel.Predict)
	Unbounded bool        // the rows cannot reach Level: every set holds every label
}

// ClassifyRLS fits the RLS classifier cfg (Lambda > 0 given, not chosen:
// ChooseLambda would make λ depend on every row, see package
// documentation) on the rows of x and their labels, any finite values
// with at least two distinct, by Cholesky as RLS does, and keeps what the
// label sets need: the leave-one-out decision values of every row.
//
// Cost: that of RLS with q = 1 (two classes) or q = #classes outputs; per
// test row Predict costs RLS's weights and O(nq) to count. Errors:
// ErrInput for ChooseLambda, for labels of another length than the rows,
// not finite, or of one class; those of RLS.
func ClassifyRLS(cfg classify.RLS, x *linalg.Dense, labels []float64) (*Classes, error) {
	const op = "ClassifyRLS"
	if cfg.ChooseLambda || len(cfg.Lambdas) > 0 {
		return nil, inputError(op, "cfg.ChooseLambda", "λ chosen by leave-one-out on the same rows breaks the guarantee of the label sets: choose it first (classify.RLS with ChooseLambda) and give it as Lambda, knowing the sets then rest on a chosen λ")
	}
	return newClasses(op, x, labels, cfg.OneVsAll, cfg.Lambda, func(y *linalg.Dense) (*Jackknife, error) {
		return RLS(regress.RLS{Kernel: cfg.Kernel, Lambda: cfg.Lambda, Intercept: cfg.Intercept}, x, y)
	})
}

// ClassifyNystrom is ClassifyRLS for the Nyström fit cfg in memory
// (interval.Nystrom on the ±1 codings, one column for two classes unless
// oneVsAll, one per class otherwise): the same score and sets, with the
// Nyström leave-one-out models, which keep the centres. Cost that of
// Nystrom with q outputs; errors those of Nystrom and ClassifyRLS.
func ClassifyNystrom(cfg regress.Nystrom, oneVsAll bool, x *linalg.Dense, labels []float64) (*Classes, error) {
	return newClasses("ClassifyNystrom", x, labels, oneVsAll, cfg.Lambda, func(y *linalg.Dense) (*Jackknife, error) {
		return Nystrom(cfg, x, y)
	})
}

// newClasses codes the labels, fits by fit and computes each row's score
// under its leave-one-out model.
func newClasses(op string, x *linalg.Dense, labels []float64, oneVsAll bool, lambda float64, fit func(y *linalg.Dense) (*Jackknife, error)) (*Classes, error) {
	y, classes, ova, err := codeLabels(op, x, labels, oneVsAll)
	if err != nil {
		return nil, err
	}
	jk, err := fit(y)
	if err != nil {
		return nil, asCallError(op, err)
	}
	c := &Classes{jk: jk, classes: classes, score: make([]float64, x.Rows), n: x.Rows,
		model: &classify.RLSModel{Classes: classes, OneVsAll: ova, Lambda: lambda, Model: jk.model}}
	e := jk.sm.residuals()
	for i, l := range labels {
		col, sign := c.column(l)
		// f₋ᵢ,yᵢ(xᵢ) = sign·(codeᵢ − eᵢ), and sign·codeᵢ = 1.
		c.score[i] = -(1 - sign*e.At(i, col))
	}
	return c, nil
}

// codeLabels checks the labels of the rows of x and codes them ±1
// (coding.Targets): one column for two classes unless oneVsAll, one a
// class otherwise; classes ascending, ova whether there is a column a
// class.
func codeLabels(op string, x *linalg.Dense, labels []float64, oneVsAll bool) (y *linalg.Dense, classes []float64, ova bool, err error) {
	if err := check.View(ErrInput, op, "X", x); err != nil {
		return nil, nil, false, err
	}
	if len(labels) != x.Rows {
		return nil, nil, false, inputError(op, "labels", "%d labels for %d rows of X", len(labels), x.Rows)
	}
	if err := check.Vector(ErrInput, op, "labels", labels); err != nil {
		return nil, nil, false, err
	}
	if len(labels) == 0 {
		return nil, nil, false, inputError(op, "labels", "no rows")
	}
	classes = slices.Clone(labels)
	for i := range classes {
		classes[i] += 0 // −0 is +0, as coding.Targets reads it
	}
	slices.Sort(classes)
	classes = slices.Compact(classes)
	if len(classes) < 2 {
		return nil, nil, false, inputError(op, "labels", "only one class (%v); need two or more", classes[0])
	}
	ova = oneVsAll || len(classes) > 2
	q := 1
	if ova {
		q = len(classes)
	}
	if err := memlimit.Check(fmt.Sprintf("%s: one-vs-all targets of %d classes", op, q), memlimit.Floats(len(labels), 2*q+1)); err != nil {
		return nil, nil, false, err
	}
	y = linalg.NewDense(len(labels), q, nil)
	coding.Targets(y, labels, classes)
	return y, classes, ova, nil
}

// asCallError renames an argument error of a constructor that op called
// (RLS, Nystrom, RLSCV, NystromCV name themselves) as op's; other errors
// (memory, factorization) pass as they are.
func asCallError(op string, err error) error {
	var ie *linalg.InputError
	if errors.As(err, &ie) && errors.Is(err, ErrInput) {
		return check.Wrap(ErrInput, op, ie.Arg, err)
	}
	return err
}

// Model returns the classifier fitted on all the rows (shared, not a
// copy).
func (c *Classes) Model() *classify.RLSModel {
	if c == nil {
		return nil
	}
	return c.model
}

// Predict returns the label sets at level of the rows of xt (t×d): label
// ℓ is in the set of x when fewer than (1−α)(n+1) rows i have
// S(x, ℓ; μ̂₋ᵢ) > Sᵢ (see Classes), with the leave-one-out decision values
// f₋ᵢ(x) = f(x) − wᵢ(x)·eᵢ of every column. Cost, memory and errors as
// Jackknife.Predict; it counts instead of selecting, O(n·#classes) per
// row.
func (c *Classes) Predict(xt *linalg.Dense, level float64) (*LabelSets, error) {
	const op = "Classes.Predict"
	if c == nil || c.jk == nil && len(c.folds) == 0 {
		return nil, inputError(op, "Classes", "nil or zero Classes: build one with ClassifyRLS, ClassifyNystrom, ClassifyRLSCV or ClassifyNystromCV")
	}
	if c.jk == nil {
		return c.predictCV(op, xt, level)
	}
	sm := c.jk.sm
	n, d := sm.rows()
	if err := checkPredict(op, xt, d, level); err != nil {
		return nil, err
	}
	e := sm.residuals()
	t, q, nc := xt.Rows, e.Cols, len(c.classes)
	b := testBlock(n, t)
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(t, nc+2), memlimit.Floats(b, n+q+1), memlimit.Floats(sm.blockFloats(b)))); err != nil {
		return nil, err
	}
	_, hi := ranks(n, level)
	out := &LabelSets{Level: level, Classes: slices.Clone(c.classes), Sets: make([][]float64, t), Unbounded: hi > n}
	pm, err := c.model.Predict(xt)
	if err != nil {
		return nil, check.Wrap(ErrInput, op, "xt", err)
	}
	out.Predicted = pm
	w := linalg.NewDense(b, n, nil)
	pred := linalg.NewDense(b, q, nil)
	sd := make([]float64, b)
	for j0 := 0; j0 < t; j0 += b {
		j1 := min(j0+b, t)
		wb, pb := w.Slice(0, j1-j0, 0, n), pred.Slice(0, j1-j0, 0, q)
		if err := sm.weights(xt.Slice(j0, j1, 0, d), wb, pb, sd); err != nil {
			return nil, err
		}
		p := parallel.Team(wb.Rows, float64(wb.Rows)*float64(n*nc), 1<<15)
		parallel.For(p, wb.Rows, parallel.Func(func(_, j int) {
			wj := wb.Row(j)[:n]
			var set []float64
			for _, l := range c.classes {
				col, sign := c.column(l)
				f := pb.At(j, col)
				count := 0
				for i, wi := range wj {
					if -sign*(f-wi*e.At(i, col)) > c.score[i] {
						count++
					}
				}
				if count < hi {
					set = append(set, l)
				}
			}
			out.Sets[j0+j] = set
		}))
	}
	return out, nil
}

// Coverage returns the fraction of rows whose label is in its set and the
// mean number of labels in a set, for sets of len(labels) rows. It
// returns NaN, NaN when the lengths differ or there are no rows.
func (s *LabelSets) Coverage(labels []float64) (coverage, meanSize float64) {
	if s == nil || len(labels) != len(s.Sets) || len(labels) == 0 {
		return math.NaN(), math.NaN()
	}
	in, size := 0, 0
	for j, set := range s.Sets {
		size += len(set)
		if _, ok := slices.BinarySearch(set, labels[j]+0); ok {
			in++
		}
	}
	return float64(in) / float64(len(labels)), float64(size) / float64(len(labels))
}
