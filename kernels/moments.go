package kernels

import (
	"fmt"
	"math"
	"slices"

	"rkhs/internal/center"
	"rkhs/internal/check"
	"rkhs/linalg"
)

// Moments are the per-feature moments of a set of rows, in the mergeable
// form of Chan, Golub and LeVeque ("Updating formulae and a pairwise
// algorithm for computing sample variances", 1979): the count n, the mean
// μⱼ of every column and the sum of squared deviations from it,
//
//	N = n,  Mean[j] = (1/n)·Σᵢ xᵢⱼ,  SumSq[j]·uⱼ² = Σᵢ (xᵢⱼ − Mean[j])²,
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
// Units. uⱼ = Unit[j] is the unit the sum of squares of column j is
// counted in, 1 for every column when Unit is empty. The squares of
// features of magnitude 1e155 and more overflow float64, and those of
// magnitude 1e-155 and less lose their digits to underflow, although
// their standard deviation is a float64 like any other. Add therefore
// keeps uⱼ = 1, and the plain sums, for a column whose values lie within
// 2^±400 (about 1e±120) in magnitude — the data of every ordinary problem,
// whose moments are those of the formulae above bit for bit, with Unit
// empty — and otherwise counts in uⱼ = 2^e, the power of two just above
// the largest magnitude |xᵢⱼ| of the block: the deviations are then below
// 2 in that unit, their squares neither overflow nor underflow where they
// matter, and the standard deviation σⱼ = √(SumSq[j]/N)·uⱼ is right
// whenever it is a float64 (normal or not). Merge counts both sides in the
// larger unit of each column, which rescales the other by a power of two
// (exactly, but for what falls below the smallest float64 and is
// negligible beside the larger side's squares), so the update stays that
// of Chan, Golub and LeVeque. Mean is always in the data's own units.
//
// The zero value is the moments of no rows, ready for Add and Merge; the
// number of features d is set by the first Add or Merge. Memory: 2d
// doubles (3d with units). Cost: Add about 6 flops per element (a pass
// for the largest magnitudes, then the sums), Merge 6 per feature. A
// Moments is not safe for concurrent use while a method runs.
type Moments struct {
	N     int       `json:"n"`
	Mean  []float64 `json:"mean"`
	SumSq []float64 `json:"sum_sq"`
	Unit  []float64 `json:"unit,omitempty"`
}

// momentsBlockRows is the number of rows Add summarizes on their own
// before merging them in: the block's mean and sum of squares are formed
// from rows still in cache, and each block's rounding stays that of a
// short sum (so a constant column keeps a deviation of a few ulps of its
// value, see Standardization).
const momentsBlockRows = 256

// unit returns uⱼ, the unit of column j's sum of squares.
func (m *Moments) unit(j int) float64 {
	if len(m.Unit) == 0 {
		return 1
	}
	return m.Unit[j]
}

// sd returns the standard deviation of column j in units of uⱼ,
// √(SumSq[j]/N), and uⱼ: σⱼ = sd·uⱼ. N > 0.
func (m *Moments) sd(j int) (sd, u float64) {
	return math.Sqrt(m.SumSq[j] / float64(m.N)), m.unit(j)
}

// ConstantTol is the relative threshold below which Standardization calls
// a feature constant: standard deviation σⱼ ≤ ConstantTol·|μⱼ|, σⱼ = 0
// included. Below it the values agree to about twelve significant digits,
// their spread is of the order of the rounding of the mean and the sums,
// and dividing by σⱼ would turn rounding into a feature of unit variance.
// (Add keeps the rounding of a constant column below 10⁻¹³ of its value
// by summing blocks of momentsBlockRows rows.)
const ConstantTol = 1e-12

// NearlyConstantTol is the relative threshold NearlyConstant is meant to
// be called with for a warning: a feature whose standard deviation is at
// most 10⁻⁶ of its mean varies in its seventh significant digit only.
// Standardization accepts it, and divides by that tiny σⱼ: a row whose
// value differs from the training rows' in the sixth digit then lies 10⁶
// standard deviations out, where a Gaussian or Laplacian kernel is 0 (see
// Standardization.Outlying).
const NearlyConstantTol = 1e-6

// Add folds the rows of x (n×d, n ≥ 0) into the moments: each block of
// momentsBlockRows rows is summarized (its mean, then its sum of squared
// deviations, both summed in row order, in the unit of each column, see
// Moments) and merged in by the update in the type's documentation. x is
// not modified.
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
	unit := make([]float64, x.Cols)
	for i0 := 0; i0 < x.Rows; i0 += momentsBlockRows {
		b.summarize(x.Slice(i0, min(i0+momentsBlockRows, x.Rows), 0, x.Cols), unit)
		m.merge(&b)
	}
	return nil
}

// summarize sets b to the moments of the rows of blk (at least one): N,
// the mean and the sum of squared deviations of every column, in its unit
// (see Moments; unit is workspace of one value a column, which b.Unit
// shares when a column needs a unit other than 1). The columns of unit 1
// are summed as the formulae say; the others on the values divided by
// their unit, a power of two, so that each is the same computation on
// scaled values.
func (b *Moments) summarize(blk *linalg.Dense, unit []float64) {
	b.N = blk.Rows
	clear(unit)
	for i := 0; i < blk.Rows; i++ {
		for j, v := range blk.Row(i) {
			unit[j] = max(unit[j], math.Abs(v))
		}
	}
	b.Unit = nil
	for j, mx := range unit {
		if unit[j] = center.Unit(mx); unit[j] != 1 {
			b.Unit = unit
		}
	}
	clear(b.SumSq)
	if b.Unit == nil {
		copy(b.Mean, center.Means(blk))
		for i := 0; i < blk.Rows; i++ {
			for j, v := range blk.Row(i) {
				d := v - b.Mean[j]
				b.SumSq[j] += d * d
			}
		}
		return
	}
	// inv[j] = 1/uⱼ is a power of two: v·inv[j] is exact (but for what
	// falls below the normal range), and exactly v for uⱼ = 1.
	inv := make([]float64, len(unit))
	for j, u := range unit {
		inv[j] = 1 / u
	}
	clear(b.Mean)
	for i := 0; i < blk.Rows; i++ {
		for j, v := range blk.Row(i) {
			b.Mean[j] += v * inv[j]
		}
	}
	for j := range b.Mean {
		b.Mean[j] /= float64(blk.Rows)
	}
	for i := 0; i < blk.Rows; i++ {
		for j, v := range blk.Row(i) {
			d := v*inv[j] - b.Mean[j]
			b.SumSq[j] += d * d
		}
	}
	for j, u := range unit {
		b.Mean[j] *= u
	}
}

// Merge adds the moments of o, for other rows, to those of m by the
// update in the type's documentation, each column in the larger of its
// two units; o is not modified. Merging the moments of no rows changes
// nothing; merging into them copies o.
//
// Errors (m unchanged): moments whose fields do not agree, in m or o
// (ErrParameter): N < 0, Mean, SumSq and a non-empty Unit of different
// lengths, or Mean empty with N > 0, a value that is NaN or ±Inf (also
// linalg.ErrNotFinite), a negative SumSq, or a unit that is not a
// positive normal float64; or moments of another number of features
// (ErrData).
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
// or which has no rows. Without units on either side it is one call of
// center.Merge; otherwise each column is merged on its own, both sides
// counted in the larger of their units (for a column of unit 1 on both
// sides, the same arithmetic bit for bit).
func (m *Moments) merge(o *Moments) {
	if m.N == 0 {
		m.N = o.N
		m.Mean = append(m.Mean[:0], o.Mean...)
		m.SumSq = append(m.SumSq[:0], o.SumSq...)
		m.Unit = nil
		if len(o.Unit) > 0 {
			m.Unit = append([]float64(nil), o.Unit...)
		}
		return
	}
	if len(m.Unit) == 0 && len(o.Unit) == 0 {
		center.Merge(m.N, m.Mean, m.SumSq, o.N, o.Mean, o.SumSq)
		m.N += o.N
		return
	}
	if len(m.Unit) == 0 {
		m.Unit = make([]float64, len(m.Mean))
		for j := range m.Unit {
			m.Unit[j] = 1
		}
	}
	plain := true
	for j := range m.Mean {
		ua, ub := m.Unit[j], o.unit(j)
		u := max(ua, ub)
		ra, rb := ua/u, ub/u // powers of two, at most 1
		mu, ss := [1]float64{m.Mean[j] / u}, [1]float64{m.SumSq[j] * ra * ra}
		muB, ssB := [1]float64{o.Mean[j] / u}, [1]float64{o.SumSq[j] * rb * rb}
		center.Merge(m.N, mu[:], ss[:], o.N, muB[:], ssB[:])
		m.Mean[j], m.SumSq[j], m.Unit[j] = mu[0]*u, ss[0], u
		plain = plain && u == 1
	}
	if plain {
		m.Unit = nil
	}
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
	case len(m.Unit) > 0 && len(m.Unit) != len(m.Mean):
		return check.Input(ErrParameter, op, arg+".Unit", "%d units for %d means (want one per feature, or none)", len(m.Unit), len(m.Mean))
	}
	if err := check.Vector(ErrParameter, op, arg+".Mean", m.Mean); err != nil {
		return err
	}
	if err := check.Vector(ErrParameter, op, arg+".SumSq", m.SumSq); err != nil {
		return err
	}
	if err := check.Vector(ErrParameter, op, arg+".Unit", m.Unit); err != nil {
		return err
	}
	for j, s := range m.SumSq {
		if s < 0 {
			return check.Input(ErrParameter, op, fmt.Sprintf("%s.SumSq[%d]", arg, j), "%g, must be ≥ 0", s)
		}
	}
	for j, u := range m.Unit {
		if !(u >= minNormal) {
			return check.Input(ErrParameter, op, fmt.Sprintf("%s.Unit[%d]", arg, j), "%g, must be a positive normal float64 (at least %g)", u, minNormal)
		}
	}
	return nil
}

// minNormal is the smallest positive normal float64, 2⁻¹⁰²²: below it a
// float64 keeps fewer than 53 significant bits.
const minNormal = 0x1p-1022

// Constant returns the features the moments show to be constant, in
// ascending order: those whose standard deviation σⱼ (see Moments) is at
// most ConstantTol·|Mean[j]| (σⱼ = 0 included), compared in the unit of
// the column so that neither side underflows. It is
// NearlyConstant(ConstantTol). Standardization keeps them at their value;
// a caller names them in its own terms. Moments of no rows have none, and so
// have moments whose fields do not agree (see Merge).
func (m *Moments) Constant() []int { return m.NearlyConstant(ConstantTol) }

// NearlyConstant returns the features whose standard deviation σⱼ is at
// most rel·|Mean[j]| (σⱼ = 0 included), in ascending order, compared in
// the unit of the column (see Moments) so that neither side underflows:
// √(SumSq[j]/N) ≤ rel·|Mean[j]|/uⱼ. With rel = ConstantTol these are the
// constant features (Constant); with rel = NearlyConstantTol, those that
// Standardization accepts but scales by a σⱼ so small that test rows a
// little off the training values lie far outside them, for a warning.
// Moments of no rows have none, and so have moments whose fields do not
// agree (see Merge) and a rel that is negative or NaN. Cost: d square
// roots; it reads the moments only.
func (m *Moments) NearlyConstant(rel float64) []int {
	var cols []int
	if !(rel >= 0) || m.check("", "") != nil || m.N == 0 {
		return nil
	}
	for j := range m.SumSq {
		if sd, u := m.sd(j); sd <= rel*(math.Abs(m.Mean[j])/u) {
			cols = append(cols, j)
		}
	}
	return cols
}

// Standardization returns the map that gives each feature mean 0 and
// standard deviation 1 on the rows the moments describe: Mean = μ and
// Scale[j] = σⱼ = √(SumSq[j]/N)·uⱼ, the population standard deviation
// (divided by n, not n − 1: the moments describe the training rows
// themselves, as scikit-learn's StandardScaler does). Mean is a copy. For
// moments without units (see Moments) Scale[j] is √(SumSq[j]/N).
//
// A constant feature (see Constant) cannot be given standard deviation 1:
// it is kept at its value, Mean[j] that value and Scale[j] its magnitude
// |Mean[j]| (1 for a feature that is 0 throughout), so that it adds
// nothing to the distances between the rows described and a row off its
// value lies as far out as its relative change; a caller names such
// features (Constant) in a note. Files without column names (LIBSVM, a
// CSV file without a header) often carry all-zero columns, which a
// refusal would leave no way around.
//
// Errors (ErrData, naming features by their 1-based position, as "feature
// 2"): moments of no rows; a standard deviation below the smallest
// normal float64, 2.2e-308, which Standardization.Validate refuses as a
// scale (features of magnitude 1e-296 or less, whose spread no division
// can resolve to 16 digits). Fields that do not agree are ErrParameter
// (see Merge).
func (m *Moments) Standardization() (*Standardization, error) {
	const op = "Moments.Standardization"
	if err := m.check(op, "m"); err != nil {
		return nil, err
	}
	if m.N == 0 {
		return nil, check.Input(ErrData, op, "m", "moments of no rows")
	}
	constant := m.Constant()
	s := &Standardization{Mean: append([]float64(nil), m.Mean...), Scale: make([]float64, len(m.SumSq)), Constant: constant}
	for j := range m.SumSq {
		if slices.Contains(constant, j) {
			s.Scale[j] = 1 // a constant 0 (and below: see the doc)
			if a := math.Abs(m.Mean[j]); a >= minNormal {
				s.Scale[j] = a
			}
			continue
		}
		sd, u := m.sd(j)
		if s.Scale[j] = sd * u; s.Scale[j] < minNormal {
			return nil, check.Input(ErrData, op, "m", "feature %d (mean %g): standard deviation %g is below the smallest normal float64, %g: too small to standardize by", j+1, m.Mean[j], s.Scale[j], minNormal)
		}
	}
	return s, nil
}
