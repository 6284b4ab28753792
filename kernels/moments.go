package kernels

import (
	"fmt"
	"math"
	"strings"

	"rkhs/internal/center"
	"rkhs/internal/check"
	"rkhs/linalg"
)

// Moments are the per-feature moments of a set of rows, in the mergeable
// form of Chan, Golub and LeVeque ("Updating formulae and a pairwise
// algorithm for computing sample variances", 1979): the count n, the mean
// μⱼ of every column and the sum of squared deviations from it,
//
//	N = n,  Mean[j] = (1/n)·Σᵢ xᵢⱼ,  SumSq[j] = Σᵢ (xᵢⱼ − Mean[j])²,
//
// from which Standardization derives the map to mean 0 and standard
// deviation 1. The rows can be split into shards, the moments of each shard
// computed anywhere (another goroutine, process or machine; the fields
// are exported so that a pipeline can encode them) and merged: two sets
// (nₐ and n_b rows, δ = μ_b − μₐ) merge as
//
//	n = nₐ + n_b,  μ = μₐ + (n_b/n)·δ,  SumSq = SumSqₐ + SumSq_b + (nₐn_b/n)·δ²,
//
// the update regress.NystromStats applies to its moments (one helper,
// rkhs/internal/center). Add folds each block of rows in with the same
// update, so the data is read once and nothing is stored per row; the
// merged moments agree with those of the whole to a few ulps times the
// depth of the merges, and the same rows added in the same blocks and
// merged in the same order give bit-identical moments.
//
// The zero value is the moments of no rows, ready for Add and Merge; the
// number of features d is set by the first Add or Merge. Memory: 2d
// doubles. Cost: Add 4 flops per element, Merge 6 per feature. A Moments
// is not safe for concurrent use while a method runs.
type Moments struct {
	N     int       `json:"n"`
	Mean  []float64 `json:"mean"`
	SumSq []float64 `json:"sum_sq"`
}

// momentsBlockRows is the number of rows Add summarizes on their own
// before merging them in: the block's mean and sum of squares are formed
// from rows still in cache, and each block's rounding stays that of a
// short sum (so a constant column keeps a deviation of a few ulps of its
// value, see Standardization).
const momentsBlockRows = 256

// ConstantTol is the relative threshold below which Standardization calls
// a feature constant: standard deviation σⱼ ≤ ConstantTol·|μⱼ|, σⱼ = 0
// included. Below it the values agree to about twelve significant digits,
// their spread is of the order of the rounding of the mean and the sums,
// and dividing by σⱼ would turn rounding into a feature of unit variance.
// (Add keeps the rounding of a constant column below 10⁻¹³ of its value
// by summing blocks of momentsBlockRows rows.)
const ConstantTol = 1e-12

// Add folds the rows of x (n×d, n ≥ 0) into the moments: each block of
// momentsBlockRows rows is summarized (its mean, then its sum of squared
// deviations, both summed in row order) and merged in by the update in the
// type's documentation. x is not modified.
//
// Errors (m unchanged): x nil, malformed or holding NaN or ±Inf (ErrData,
// and linalg.ErrNotFinite), x with another number of columns than the
// rows added before (ErrData), or moments whose fields do not agree
// (ErrParameter, see Merge).
func (m *Moments) Add(x *linalg.Dense) error {
	const op = "Moments.Add"
	if err := m.check(op, "m"); err != nil {
		return err
	}
	if err := check.Data(ErrData, op, "x", x, 0); err != nil {
		return err
	}
	if x.Rows == 0 {
		return nil
	}
	if len(m.Mean) > 0 && x.Cols != len(m.Mean) {
		return check.Input(ErrData, op, "x", "%d columns, the moments have %d", x.Cols, len(m.Mean))
	}
	if len(m.Mean) == 0 {
		m.Mean, m.SumSq = make([]float64, x.Cols), make([]float64, x.Cols)
	}
	b := Moments{Mean: make([]float64, x.Cols), SumSq: make([]float64, x.Cols)}
	for i0 := 0; i0 < x.Rows; i0 += momentsBlockRows {
		blk := x.Slice(i0, min(i0+momentsBlockRows, x.Rows), 0, x.Cols)
		b.N = blk.Rows
		copy(b.Mean, center.Means(blk))
		clear(b.SumSq)
		for i := 0; i < blk.Rows; i++ {
			for j, v := range blk.Row(i) {
				d := v - b.Mean[j]
				b.SumSq[j] += d * d
			}
		}
		m.merge(&b)
	}
	return nil
}

// Merge adds the moments of o, for other rows, to those of m by the
// update in the type's documentation; o is not modified. Merging the
// moments of no rows changes nothing; merging into them copies o.
//
// Errors (m unchanged): moments whose fields do not agree, in m or o
// (ErrParameter): N < 0, Mean and SumSq of different lengths, or empty
// with N > 0, a value that is NaN or ±Inf (also linalg.ErrNotFinite) or a
// negative SumSq; or moments of another number of features (ErrData).
func (m *Moments) Merge(o *Moments) error {
	const op = "Moments.Merge"
	if err := m.check(op, "m"); err != nil {
		return err
	}
	if o == nil {
		return check.Input(ErrParameter, op, "o", "nil moments")
	}
	if err := o.check(op, "o"); err != nil {
		return err
	}
	if o.N == 0 {
		return nil
	}
	if m.N > 0 && len(o.Mean) != len(m.Mean) {
		return check.Input(ErrData, op, "o", "moments of %d features, want %d", len(o.Mean), len(m.Mean))
	}
	m.merge(o)
	return nil
}

// merge folds the checked moments o (N ≥ 1) into m, whose width matches
// or which has no rows.
func (m *Moments) merge(o *Moments) {
	if m.N == 0 {
		m.N = o.N
		m.Mean = append(m.Mean[:0], o.Mean...)
		m.SumSq = append(m.SumSq[:0], o.SumSq...)
		return
	}
	center.Merge(m.N, m.Mean, m.SumSq, o.N, o.Mean, o.SumSq)
	m.N += o.N
}

// check reports moments whose fields do not agree (see Merge); arg names
// them in the error.
func (m *Moments) check(op, arg string) error {
	switch {
	case m == nil:
		return check.Input(ErrParameter, op, arg, "nil moments")
	case m.N < 0:
		return check.Input(ErrParameter, op, arg+".N", "%d, must be ≥ 0", m.N)
	case len(m.Mean) != len(m.SumSq) || (m.N > 0 && len(m.Mean) == 0):
		return check.Input(ErrParameter, op, arg, "%d rows with %d means and %d sums of squares", m.N, len(m.Mean), len(m.SumSq))
	}
	if err := check.Vector(ErrParameter, op, arg+".Mean", m.Mean); err != nil {
		return err
	}
	if err := check.Vector(ErrParameter, op, arg+".SumSq", m.SumSq); err != nil {
		return err
	}
	for j, s := range m.SumSq {
		if s < 0 {
			return check.Input(ErrParameter, op, fmt.Sprintf("%s.SumSq[%d]", arg, j), "%g, must be ≥ 0", s)
		}
	}
	return nil
}

// Constant returns the features the moments show to be constant, in
// ascending order: those whose standard deviation σⱼ = √(SumSq[j]/N) is at
// most ConstantTol·|Mean[j]| (σⱼ = 0 included). Standardization refuses
// them; a caller can name them in its own terms first. Moments of no rows
// have none, and so have moments whose fields do not agree (see Merge).
func (m *Moments) Constant() []int {
	var cols []int
	if m.check("", "") != nil || m.N == 0 {
		return nil
	}
	for j, s := range m.SumSq {
		if math.Sqrt(s/float64(m.N)) <= ConstantTol*math.Abs(m.Mean[j]) {
			cols = append(cols, j)
		}
	}
	return cols
}

// Standardization returns the map that gives each feature mean 0 and
// standard deviation 1 on the rows the moments describe: Mean = μ and
// Scale[j] = σⱼ = √(SumSq[j]/N), the population standard deviation
// (divided by n, not n − 1: the moments describe the training rows
// themselves, as scikit-learn's StandardScaler does). Mean is a copy.
//
// Errors: moments of no rows (ErrData), a constant feature (ErrData, see
// Constant: the error names every constant column by its index), or
// fields that do not agree (ErrParameter, see Merge).
func (m *Moments) Standardization() (*Standardization, error) {
	const op = "Moments.Standardization"
	if err := m.check(op, "m"); err != nil {
		return nil, err
	}
	if m.N == 0 {
		return nil, check.Input(ErrData, op, "m", "moments of no rows")
	}
	if cols := m.Constant(); len(cols) > 0 {
		return nil, check.Input(ErrData, op, "m", "%s: a constant feature cannot be standardized (leave it out)", constantColumns(cols, m))
	}
	s := &Standardization{Mean: append([]float64(nil), m.Mean...), Scale: make([]float64, len(m.SumSq))}
	for j, v := range m.SumSq {
		s.Scale[j] = math.Sqrt(v / float64(m.N))
	}
	return s, nil
}

// constantColumns says which columns are constant and at what value.
func constantColumns(cols []int, m *Moments) string {
	parts := make([]string, len(cols))
	for i, j := range cols {
		parts[i] = fmt.Sprintf("column %d (mean %g, standard deviation %g)", j, m.Mean[j], math.Sqrt(m.SumSq[j]/float64(m.N)))
	}
	verb := "is"
	if len(cols) > 1 {
		verb = "are"
	}
	return strings.Join(parts, ", ") + " " + verb + " constant"
}
