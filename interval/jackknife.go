package interval

import (
	"math"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/internal/parallel"
	"rkhs/linalg"
	"rkhs/regress"
)

// Intervals are the prediction intervals of t test rows at one level, for
// each of the q outputs of the fit.
type Intervals struct {
	Level      float64       // 1 − α
	Prediction *linalg.Dense // t×q: the full fit μ̂(x)
	Lower      *linalg.Dense // t×q: the lower ends (−∞ when Unbounded)
	Upper      *linalg.Dense // t×q: the upper ends (+∞ when Unbounded)
	// StdDev (t) is the posterior standard deviation of f(x) of the
	// Gaussian process whose posterior mean is the fit (see package
	// documentation, Gaussian-process variance); nil for CV+.
	StdDev []float64
	// Unbounded reports that the rows cannot reach Level (Level > n/(n+1),
	// see MaxLevel): every interval is then (−∞, +∞).
	Unbounded bool
}

// smoother is a fit whose predictions are linear in the targets,
// μ̂(x) = Σᵢ wᵢ(x)·yᵢ, with the exact leave-one-out residuals of its
// training rows: what jackknife+ needs of a model.
type smoother interface {
	// rows returns n, the number of training rows, and d, their width.
	rows() (n, d int)
	// residuals returns the leave-one-out residuals eᵢ = yᵢ − μ̂₋ᵢ(xᵢ),
	// n×q.
	residuals() *linalg.Dense
	// blockFloats returns the floats weights needs for b test rows.
	blockFloats(b int) int
	// weights writes, for the b rows of xt, w(x_j) into row j of w
	// (b×n), μ̂(x_j) into row j of pred (b×q) and the Gaussian-process
	// standard deviation into sd[j].
	weights(xt, w, pred *linalg.Dense, sd []float64) error
}

// Jackknife is a fit prepared for jackknife+ intervals: the model, its
// exact leave-one-out residuals and the factorization that gives every
// leave-one-out model at a test point without a refit. It is read-only
// after its constructor (RLS, Nystrom) and safe for concurrent use.
type Jackknife struct {
	model *regress.Model
	sm    smoother
}

// Model returns the fit on all the rows (shared, not a copy: do not
// modify it).
func (j *Jackknife) Model() *regress.Model {
	if j == nil {
		return nil
	}
	return j.model
}

// Residuals returns a copy of the exact leave-one-out residuals
// eᵢ = yᵢ − μ̂₋ᵢ(xᵢ) (n×q); nil for a nil Jackknife.
func (j *Jackknife) Residuals() *linalg.Dense {
	if j == nil || j.sm == nil {
		return nil
	}
	return j.sm.residuals().Clone()
}

// Predict returns the jackknife+ intervals at level (1 − α) of the rows
// of xt (t×d, d the width of the training rows): for each test row x and
// output, the ranks of package documentation over the n values
// μ̂₋ᵢ(x) ∓ Rᵢ, with μ̂₋ᵢ(x) = μ̂(x) − wᵢ(x)·eᵢ, and the Gaussian-process
// standard deviation from the same w(x).
//
// Cost: per block of test rows, the weights of the model (RLS: the cross
// kernel matrix, nd per row, and two triangular solves, 2n² per row;
// Nystrom: 2m² + 2nm per row), then O(nq) per row for the n values and the
// two selections (nthSmallest: no sort). Memory: one block, at most about
// 8 MiB of test rows' weights beside the fit, checked before it is
// allocated (*linalg.MemoryError, linalg.ErrTooLarge). The selections
// run in parallel over the test rows (a static partition: bit-identical
// for any GOMAXPROCS).
//
// Errors: InputErrors wrapping ErrInput for a nil Jackknife, a level not
// strictly between 0 and 1 (NaN or ±Inf also linalg.ErrNotFinite), xt nil,
// malformed, not finite or of another width. A level the rows cannot
// reach is not an error: the intervals are (−∞, +∞) and Unbounded is set.
func (j *Jackknife) Predict(xt *linalg.Dense, level float64) (*Intervals, error) {
	const op = "Jackknife.Predict"
	if j == nil || j.sm == nil {
		return nil, inputError(op, "Jackknife", "nil or zero Jackknife: build one with RLS or Nystrom")
	}
	n, d := j.sm.rows()
	if err := checkPredict(op, xt, d, level); err != nil {
		return nil, err
	}
	t, q := xt.Rows, j.sm.residuals().Cols
	b := testBlock(n, t)
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(3*t, q), memlimit.Floats(b, n+q+1),
		memlimit.Floats(j.sm.blockFloats(b)), memlimit.Floats(parallel.Team(b, 1, 0), n))); err != nil {
		return nil, err
	}
	out := newIntervals(t, q, level, n)
	w := linalg.NewDense(b, n, nil)
	pred := linalg.NewDense(b, q, nil)
	for j0 := 0; j0 < t; j0 += b {
		j1 := min(j0+b, t)
		wb, pb := w.Slice(0, j1-j0, 0, n), pred.Slice(0, j1-j0, 0, q)
		if err := j.sm.weights(xt.Slice(j0, j1, 0, d), wb, pb, out.StdDev[j0:j1]); err != nil {
			return nil, err
		}
		out.Prediction.Slice(j0, j1, 0, q).Copy(pb)
		jackknifeBounds(wb, pb, j.sm.residuals(), level, out.Lower.Slice(j0, j1, 0, q), out.Upper.Slice(j0, j1, 0, q))
	}
	if err := check.Result(ErrInput, op, "interval", out.Prediction, "the test rows lie too far from the training rows"); err != nil {
		return nil, err
	}
	return out, nil
}

// checkPredict validates the test rows (t×d, t ≥ 0) and the level of a
// prediction.
func checkPredict(op string, xt *linalg.Dense, d int, level float64) error {
	if err := checkLevel(op, level); err != nil {
		return err
	}
	return check.Points(ErrInput, op, "xt", xt, d)
}

// testBlock returns the number of test rows whose n weights make one
// block: about 2²⁰ floats (8 MiB), at least 16 and at most t.
func testBlock(n, t int) int {
	return max(1, min(t, max(16, (1<<20)/max(n, 1))))
}

// newIntervals allocates the result for t test rows and q outputs of a
// fit on n rows.
func newIntervals(t, q int, level float64, n int) *Intervals {
	lo, hi := ranks(n, level)
	return &Intervals{
		Level:      level,
		Prediction: linalg.NewDense(t, q, nil),
		Lower:      linalg.NewDense(t, q, nil),
		Upper:      linalg.NewDense(t, q, nil),
		StdDev:     make([]float64, t),
		Unbounded:  lo < 1 || hi > n,
	}
}

// jackknifeBounds writes the jackknife+ ends of each test row j of a
// block and each output k: with vᵢ = pred[j][k] − w[j][i]·e[i][k], the
// lo-th smallest of vᵢ − |e[i][k]| into lower[j][k] and the hi-th
// smallest of vᵢ + |e[i][k]| into upper[j][k] (ranks), ±∞ beyond the
// ranks. The rows are split over goroutines, each with its own n values.
func jackknifeBounds(w, pred, e *linalg.Dense, level float64, lower, upper *linalg.Dense) {
	n, q := e.Rows, e.Cols
	lo, hi := ranks(n, level)
	p := parallel.Team(w.Rows, float64(w.Rows)*float64(n*q), 1<<15)
	scratch := make([]float64, p*n)
	parallel.For(p, w.Rows, parallel.Func(func(g, j int) {
		buf := scratch[g*n : (g+1)*n]
		wj := w.Row(j)[:n]
		for k := 0; k < q; k++ {
			mu := pred.At(j, k)
			lv, uv := math.Inf(-1), math.Inf(1)
			if lo >= 1 {
				for i, wi := range wj {
					ei := e.At(i, k)
					buf[i] = mu - wi*ei - math.Abs(ei)
				}
				lv = nthSmallest(buf, lo)
			}
			if hi <= n {
				for i, wi := range wj {
					ei := e.At(i, k)
					buf[i] = mu - wi*ei + math.Abs(ei)
				}
				uv = nthSmallest(buf, hi)
			}
			lower.Set(j, k, lv)
			upper.Set(j, k, uv)
		}
	}))
}

// Coverage returns the fraction of the t×q targets y that lie in their
// intervals (Lower ≤ y ≤ Upper) and the mean width Upper − Lower over
// the same entries (+Inf when Unbounded): the two figures a test file
// reports. It returns NaN, NaN for a nil y, a y of another shape, or no
// rows.
func (iv *Intervals) Coverage(y *linalg.Dense) (coverage, meanWidth float64) {
	if iv == nil || y == nil || iv.Lower == nil || y.Rows != iv.Lower.Rows || y.Cols != iv.Lower.Cols || y.Rows == 0 {
		return math.NaN(), math.NaN()
	}
	in, cells := 0, y.Rows*y.Cols
	var width float64
	for j := 0; j < y.Rows; j++ {
		for k, v := range y.Row(j) {
			lo, hi := iv.Lower.At(j, k), iv.Upper.At(j, k)
			if lo <= v && v <= hi {
				in++
			}
			width += hi - lo
		}
	}
	return float64(in) / float64(cells), width / float64(cells)
}
