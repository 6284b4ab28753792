package loo

import (
	"math"
	"slices"

	"rkhs/internal/memlimit"
	"rkhs/linalg"
)

// ScaleEval is the value of a ScaleObjective at one θ, and its gradient
// when the passes gave it.
type ScaleEval struct {
	// Value is J: the mean squared leave-one-out residual over the rows of
	// S and the outputs (LOOMSE; of the ±1 codes with LOOErrorRate), or
	// GCV.
	Value float64
	// StdErr is the standard error of Value as an estimate of its
	// every-row value when S is a uniform subset of the rows (see
	// NystromPath.MSEStdErr): 0 over every row and for GCV.
	StdErr float64
	// ErrorRate and ErrorRateStdErr are, with the LOOErrorRate criterion,
	// the share of the rows of S whose leave-one-out prediction has the
	// wrong class and its standard error; NaN otherwise.
	ErrorRate, ErrorRateStdErr float64
	// DF is tr H, the effective number of parameters of the fit.
	DF float64
	// LOORows is |S|, the rows the leave-one-out mean is over (0 for GCV).
	LOORows int
	// Gradient is ∂J/∂θ (d + 1 values: log σ₁ … log σ_d, then log λ), or
	// nil for a value without its gradient (ScaleLOO.Result).
	Gradient []float64
}

// ScaleLOO is pass A of a ScaleObjective with a leave-one-out criterion:
// over the rows of S, the exact leave-one-out residuals of the path's fit,
// their sums (J_LOO, its standard error, the error rate) and the sums the
// gradient needs, in the path's frame, with the weights αᵢ = rᵢ/(1 − Hᵢᵢ)
// and βᵢ = Σ_ℓ r_iℓ²/(1 − Hᵢᵢ) of the leave-one-out residuals rᵢ
// (docs/notes/ard-gradient.md, eq. 5 and 7, with κ = 1: ScalePath.NewAdjoint scales
// them once |S| is known):
//
//	Ω̂ = Σ βᵢ·fᵢfᵢᵀ (m×m),  Φ̂ = Σ fᵢαᵢᵀ (m×q),  ŝ_β = Σ βᵢ·fᵢ (m),  s_α = Σ αᵢ (q).
//
// Every sum is a sum over rows, so shards of S on different workers, each
// with a ScaleLOO of the same path, merge (Merge, MarshalBinary and
// UnmarshalBinary). Make one with ScalePath.NewLOO. It is not safe for
// concurrent use.
type ScaleLOO struct {
	p      *ScalePath
	rows   int
	sse    float64 // Σ over rows and outputs of rᵢ²
	sse2   float64 // Σ over rows of (Σ over outputs of rᵢ²)²
	rss    float64 // Σ over rows and outputs of eᵢ²
	wrong  int
	omega  *linalg.Dense // Ω̂, its lower triangle
	phi    *linalg.Dense // [Φ̂ | ŝ_β] (m×(q+1))
	salpha []float64     // s_α (q)
	err    error         // the error of a failed Add: the sums are unusable
	ws     scaleWork
}

// NewLOO returns empty pass-A sums of the path. Memory: Ω̂ and Φ̂,
// m(m + q + 1) values, and the workspace of Add; a *linalg.MemoryError
// (linalg.ErrTooLarge) before allocating when they do not fit. An error
// wraps ErrInput for a nil or zero path or the GCV criterion, whose
// gradient needs no pass A.
func (p *ScalePath) NewLOO() (*ScaleLOO, error) {
	const op = "ScalePath.NewLOO"
	if err := p.ready(op); err != nil {
		return nil, err
	}
	if p.obj.Criterion == GCV {
		return nil, inputError(op, "ScalePath", "the GCV criterion has no leave-one-out pass: call NewAdjoint(nil)")
	}
	m, q := p.m, p.q
	b := passRows(m)
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(m, m+q+1), memlimit.Floats(b, 2*m+2*q+len(p.sk.Sigma())+2))); err != nil {
		return nil, err
	}
	return &ScaleLOO{p: p, omega: linalg.NewDense(m, m, nil), phi: linalg.NewDense(m, q+1, nil), salpha: make([]float64, q)}, nil
}

// Add adds the rows x (b×d) with the outputs y (b×q), rows of S, to the
// sums, a block of about 2²⁰ kernel values at a time: the block divided
// by σ, its kernel block, F = K_b·W − 1cᵀ, the residuals, and the sums by
// one linalg.Gemm (Φ̂, ŝ_β) and one linalg.Syrk (Ω̂, on the rows scaled by
// √βᵢ). The rows must be rows the statistics summarise (others mean
// nothing; only a count above n is detected). Neither x nor y is
// modified.
//
// Cost: 2md + 3m² + O(mq) flops and m exponentials a row. Memory: two
// blocks of about 2²⁰ values.
//
// Errors wrap ErrInput: a nil or zero ScaleLOO; x or y nil, malformed,
// without rows or not finite (also linalg.ErrNotFinite), x not of d
// columns, y not of x's rows or q columns, more rows in all than the
// statistics summarise; linalg.ErrNotPositiveDefinite when the fit
// interpolates a row to rounding (a residual not finite: the objective is
// +Inf at this θ). After an error of the second kind the sums are
// unusable, and Result, Merge and MarshalBinary return it.
func (a *ScaleLOO) Add(x, y *linalg.Dense) error {
	const op = "ScaleLOO.Add"
	if err := a.ready(op); err != nil {
		return err
	}
	p := a.p
	if err := checkScaleRows(op, x, y, len(p.sk.Sigma()), p.q); err != nil {
		return err
	}
	if x.Rows > p.n-a.rows {
		return inputError(op, "X", "%d rows, but only %d of the %d rows summarised are left to add", x.Rows, p.n-a.rows, p.n)
	}
	for blk, err := range p.sk.Blocks(x, passRows(p.m), &a.ws.blk) {
		if err != nil {
			return scaledError(op, err)
		}
		if !a.block(&blk.K, y.Slice(blk.I0, blk.I0+blk.K.Rows, 0, y.Cols)) {
			a.err = singularScale(op, p.lambda)
			return a.err
		}
	}
	return nil
}

// block adds the rows kb (b×m) of K_θ with the outputs yb to the sums, or
// reports false, adding nothing, when the fit interpolates one of them.
func (a *ScaleLOO) block(kb, yb *linalg.Dense) bool {
	p, ws := a.p, &a.ws
	q := p.q
	f := p.rows(&ws.f, kb)
	if !p.rowWeights(ws, f, yb) {
		return false
	}
	e, ab, g := &ws.yhat, &ws.ab, ws.g
	for i := 0; i < kb.Rows; i++ {
		ei, gi := e.Row(i), g[i]
		var row, res float64
		for _, v := range ei {
			r := v / gi
			row += r * r
			res += v * v
		}
		a.sse += row
		a.sse2 += row * row
		a.rss += res
		if p.obj.Criterion == LOOErrorRate && wrongClass(yb.Row(i), ei, 1, gi) {
			a.wrong++
		}
		for out, v := range ab.Row(i)[:q] {
			a.salpha[out] += v
		}
	}
	a.rows += kb.Rows
	// [Φ̂ | ŝ_β] += Fᵀ·[α | β], then Ω̂ += (diag(√β)F)ᵀ(diag(√β)F).
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, f, ab, 1, a.phi)
	scaleRowsBy(f, func(i int) float64 { return math.Sqrt(ab.At(i, q)) })
	linalg.Syrk(linalg.Lower, linalg.Trans, 1, f, 1, a.omega)
	return true
}

// Merge adds the sums o has collected to a; o is not modified. Both must
// be of the same path (the same statistics and θ: checked by the
// path's header, n, q, m, d, the modes, θ and a hash of W). Errors wrap ErrInput, or
// are the error of a failed Add of either; on error a is unchanged.
func (a *ScaleLOO) Merge(o *ScaleLOO) error {
	const op = "ScaleLOO.Merge"
	if err := a.ready(op); err != nil {
		return err
	}
	if o == nil || o.p == nil {
		return inputError(op, "o", "nil or zero ScaleLOO: make it with ScalePath.NewLOO")
	}
	if o.err != nil {
		return o.err
	}
	if o.p != a.p && !slices.Equal(o.p.header(), a.p.header()) {
		return inputError(op, "o", "the sums of another path: other statistics or θ")
	}
	if o.rows > a.p.n-a.rows {
		return inputError(op, "o", "%d rows added, but only %d of the %d rows summarised are left", o.rows, a.p.n-a.rows, a.p.n)
	}
	a.rows += o.rows
	a.sse += o.sse
	a.sse2 += o.sse2
	a.rss += o.rss
	a.wrong += o.wrong
	for i := range a.omega.Data {
		a.omega.Data[i] += o.omega.Data[i]
	}
	for i := range a.phi.Data {
		a.phi.Data[i] += o.phi.Data[i]
	}
	for i := range a.salpha {
		a.salpha[i] += o.salpha[i]
	}
	return nil
}

// Rows returns the number of rows added so far (by Add and Merge).
func (a *ScaleLOO) Rows() int {
	if a == nil {
		return 0
	}
	return a.rows
}

// Result returns J_LOO over the rows added, its standard error as an
// estimate of the mean over all n rows (0 when every row was added;
// NystromPath.MSEStdErr's formula), the error rate and its standard error
// with the LOOErrorRate criterion, and DF; Gradient is nil. Errors wrap
// ErrInput: a nil or zero ScaleLOO, no rows added; or the error of a
// failed Add.
func (a *ScaleLOO) Result() (*ScaleEval, error) {
	const op = "ScaleLOO.Result"
	if err := a.ready(op); err != nil {
		return nil, err
	}
	if a.rows == 0 {
		return nil, inputError(op, "ScaleLOO", "no rows added: call Add with the rows of S")
	}
	return a.result(), nil
}

// result is Result after the checks.
func (a *ScaleLOO) result() *ScaleEval {
	p := a.p
	r, n, q := float64(a.rows), float64(p.n), float64(p.q)
	ev := &ScaleEval{Value: a.sse / (r * q), DF: p.DF, LOORows: a.rows, ErrorRate: math.NaN(), ErrorRateStdErr: math.NaN()}
	if a.rows >= 2 {
		ev.StdErr = sampleStdErr(a.sse/q, a.sse2/(q*q), r, n)
	}
	if p.obj.Criterion == LOOErrorRate {
		w := float64(a.wrong)
		ev.ErrorRate = w / r
		ev.ErrorRateStdErr = 0
		if a.rows >= 2 {
			ev.ErrorRateStdErr = sampleStdErr(w, w, r, n)
		}
	}
	return ev
}

// ready reports a nil or zero ScaleLOO, or one whose Add failed.
func (a *ScaleLOO) ready(op string) error {
	if a == nil || a.p == nil {
		return inputError(op, "ScaleLOO", "nil or zero value: make it with ScalePath.NewLOO")
	}
	return a.err
}
