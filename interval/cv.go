package interval

import (
	"fmt"
	"math"
	"slices"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/internal/parallel"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// CV is CV+ (Barber et al., section 4) from K fold models: model k is
// the fit without the rows of fold k, and each row's held-out residual is
// that of its fold's model. It holds the K models and the residuals of
// each fold sorted, O(K·(model) + nq), not the rows, so a CV built from
// streamed statistics is as small as one built in memory. It is read-only
// after its constructor and safe for concurrent use.
type CV struct {
	models []*regress.Model
	sorted [][][]float64 // sorted[out][k]: the |residuals| of fold k, ascending
	n      int
	full   *regress.Model // the fit on all rows, when the constructor made it

	// chosen is the σ and λ the full fit was chosen with, and choices
	// those of each fold model, when the constructor chose them
	// (RLSCVChosen, NystromCVChosen, FoldFits from FoldStats.Choose).
	chosen  *loo.Choice
	choices []loo.Choice
}

// NewCV assembles CV+ from K ≥ 2 fold models and, for each fold k, the
// held-out residuals yᵢ − μ̂₋ₖ(xᵢ) of its rows (nₖ×q, q the outputs of
// the models): the constructors RLSCV and NystromCV build both, and a
// streamed Nyström fit builds them from per-fold regress.NystromStats
// (FoldModels) and a pass over the rows. The models are shared, not
// copied; the residuals are copied, sorted.
//
// Errors (ErrInput): fewer than 2 models, a nil or invalid model (the
// checks of regress.Model.Predict), models of different widths or numbers
// of outputs, residuals of another number of folds or outputs, a fold
// without rows, a non-finite residual (also linalg.ErrNotFinite).
func NewCV(models []*regress.Model, residuals []*linalg.Dense) (*CV, error) {
	const op = "NewCV"
	if len(models) < 2 {
		return nil, inputError(op, "models", "%d fold models, CV+ needs at least 2", len(models))
	}
	if len(residuals) != len(models) {
		return nil, inputError(op, "residuals", "%d folds of residuals for %d fold models", len(residuals), len(models))
	}
	var d, q int
	for k, m := range models {
		if _, err := m.Predict(linalg.NewDense(0, 0, nil)); err != nil {
			return nil, check.Wrap(ErrInput, op, fmt.Sprintf("models[%d]", k), err)
		}
		if k == 0 {
			d, q = m.Centers.Cols, m.Coef.Cols
		} else if m.Centers.Cols != d || m.Coef.Cols != q {
			return nil, inputError(op, fmt.Sprintf("models[%d]", k), "width %d and %d outputs, models[0] has %d and %d", m.Centers.Cols, m.Coef.Cols, d, q)
		}
	}
	c := &CV{models: models, sorted: make([][][]float64, q)}
	for out := range c.sorted {
		c.sorted[out] = make([][]float64, len(models))
	}
	for k, r := range residuals {
		name := fmt.Sprintf("residuals[%d]", k)
		if err := check.Data(ErrInput, op, name, r, 1); err != nil {
			return nil, err
		}
		if r.Cols != q {
			return nil, inputError(op, name, "%d columns, the models have %d outputs", r.Cols, q)
		}
		for out := 0; out < q; out++ {
			v := make([]float64, r.Rows)
			for i := range v {
				v[i] = math.Abs(r.At(i, out))
			}
			slices.Sort(v)
			c.sorted[out][k] = v
		}
		c.n += r.Rows
	}
	return c, nil
}

// Folds returns k folds of the n rows drawn with seed (loo.KFold: sizes
// that differ by at most one, each in increasing order), or an error
// (ErrInput) unless 2 ≤ k ≤ n.
func Folds(n, k int, seed uint64) ([][]int, error) {
	if err := foldCount("Folds", "k", k, n); err != nil {
		return nil, err
	}
	return loo.KFold(n, k, seed), nil
}

// checkFolds requires K ≥ 2 non-empty folds that partition 0…n−1.
func checkFolds(op string, folds [][]int, n int) error {
	if err := foldCount(op, "folds", len(folds), n); err != nil {
		return err
	}
	seen := make([]bool, n)
	for k, f := range folds {
		if len(f) == 0 {
			return inputError(op, fmt.Sprintf("folds[%d]", k), "empty fold")
		}
		for _, i := range f {
			if i < 0 || i >= n {
				return inputError(op, fmt.Sprintf("folds[%d]", k), "row %d outside 0…%d", i, n-1)
			}
			if seen[i] {
				return inputError(op, fmt.Sprintf("folds[%d]", k), "row %d is in two folds", i)
			}
			seen[i] = true
		}
	}
	for i, ok := range seen {
		if !ok {
			return inputError(op, "folds", "row %d is in no fold", i)
		}
	}
	return nil
}

// Model returns the fit on all the rows when the constructor made one
// (RLSCV, NystromCV; shared, not a copy), nil for NewCV.
func (c *CV) Model() *regress.Model {
	if c == nil {
		return nil
	}
	return c.full
}

// Choices returns, when each fold chose its own σ and λ (RLSCVChosen,
// NystromCVChosen, FoldStats.Choose), the pair the full fit was chosen
// with and the pair of each fold model, fold k's by its own rule on the
// rows outside fold k; ok is false for fold models at one fixed λ.
func (c *CV) Choices() (full loo.Choice, folds []loo.Choice, ok bool) {
	if c == nil || c.chosen == nil {
		return loo.Choice{}, nil, false
	}
	return *c.chosen, slices.Clone(c.choices), true
}

// Models returns the K fold models (shared, not copies: do not modify
// them); model k is the fit without fold k.
func (c *CV) Models() []*regress.Model {
	if c == nil {
		return nil
	}
	return slices.Clone(c.models)
}

// Rows returns n, the number of rows over all folds.
func (c *CV) Rows() int {
	if c == nil {
		return 0
	}
	return c.n
}

// Predict returns the CV+ intervals at level of the rows of xt (t×d):
// for each test row x and output, the ranks of package documentation over
// the n values μ̂₋ₖ₍ᵢ₎(x) ∓ Rᵢ. Prediction is the full fit's where the
// constructor made one (RLSCV, NystromCV), otherwise the mean of the K
// fold models' predictions weighted by their folds' sizes; StdDev is nil.
//
// Cost: the K fold models' predictions (regress.Model.Predict: O(K·m·d)
// per row for models of m centres), then O(K log² n) per row and output
// for the two selections over the K sorted residual lists (no sort, no n
// values formed). Memory: K t×q predictions, checked first. The rows are
// split over goroutines statically: bit-identical for any GOMAXPROCS.
//
// Errors as Jackknife.Predict.
func (c *CV) Predict(xt *linalg.Dense, level float64) (*Intervals, error) {
	const op = "CV.Predict"
	if c == nil || len(c.models) == 0 {
		return nil, inputError(op, "CV", "nil or zero CV: build one with NewCV, RLSCV or NystromCV")
	}
	if err := checkPredict(op, xt, c.models[0].Centers.Cols, level); err != nil {
		return nil, err
	}
	t, q, kk := xt.Rows, len(c.sorted), len(c.models)
	if err := memlimit.Check(op, memlimit.Floats(kk+3, t, q)); err != nil {
		return nil, err
	}
	preds := make([]*linalg.Dense, kk)
	for k, m := range c.models {
		p, err := m.Predict(xt)
		if err != nil {
			return nil, check.Wrap(ErrInput, op, "xt", err)
		}
		preds[k] = p
	}
	out := newIntervals(t, q, level, c.n)
	out.StdDev = nil
	var full *linalg.Dense
	if c.full != nil {
		var err error
		if full, err = c.full.Predict(xt); err != nil {
			return nil, check.Wrap(ErrInput, op, "xt", err)
		}
	}
	lo, hi := ranks(c.n, level)
	p := parallel.Team(t, float64(t)*float64(q*kk)*64, 1<<15)
	type scratch struct {
		shift    []float64
		lo, hi   []int
		buf      []float64
		mids     []middle
		low, upp shiftedLists
	}
	ws := make([]scratch, p)
	for g := range ws {
		ws[g] = scratch{shift: make([]float64, kk), lo: make([]int, kk), hi: make([]int, kk), buf: make([]float64, 0, 16*kk), mids: make([]middle, 0, kk)}
	}
	parallel.For(p, t, parallel.Func(func(g, j int) {
		s := &ws[g]
		for out2 := 0; out2 < q; out2++ {
			var mean float64
			for k := range preds {
				s.shift[k] = preds[k].At(j, out2)
				mean += s.shift[k] * float64(len(c.sorted[out2][k]))
			}
			if full != nil {
				mean = full.At(j, out2) * float64(c.n)
			}
			out.Prediction.Set(j, out2, mean/float64(c.n))
			lv, uv := math.Inf(-1), math.Inf(1)
			if lo >= 1 {
				s.low = shiftedLists{res: c.sorted[out2], shift: s.shift, sign: -1, mids: s.mids}
				lv = selectShifted(&s.low, lo, s.lo, s.hi, s.buf)
			}
			if hi <= c.n {
				s.upp = shiftedLists{res: c.sorted[out2], shift: s.shift, sign: 1, mids: s.mids}
				uv = selectShifted(&s.upp, hi, s.lo, s.hi, s.buf)
			}
			out.Lower.Set(j, out2, lv)
			out.Upper.Set(j, out2, uv)
		}
	}))
	return out, nil
}
