package loo

import (
	"errors"
	"fmt"
	"math"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// ScalePath is the Nyström fit of a ScaleStats at its θ: the frame of
// NystromPath at the one λ = exp(θ_{d+1}) (W = L⁻ᵀV, m×m, with the
// penalized intercept's change of variables; the eigenvalues μ of the
// features' Gram matrix; D = diag(1/(μ + nλ)); the coefficients Ĉ = Z∘D,
// m×q; the shift c), so that the rows of a block are F = K_b·W − 1cᵀ,
// the hat diagonal Hᵢᵢ = fᵢᵀDfᵢ (+ 1/n with a free intercept) and the
// fit ŷᵢ = Ĉᵀfᵢ (+ ȳ). Every worker of a pass builds it from the same
// statistics, bit for bit the same path: that is what lets the passes'
// sums (ScaleLOO, ScaleAdjoint) merge.
type ScalePath struct {
	// DF is tr H at λ, the effective number of parameters.
	DF float64
	// GCV is n·RSS/(n − tr H)² at λ, the mean over the outputs, from the
	// statistics alone (see NystromPath's Method for its accuracy).
	GCV float64

	frame                 // the fit at the one λ: Ĉ is its Z∘D (m×q)
	obj    ScaleObjective // Centers nil
	theta  []float64
	lambda float64
	sk     *kernels.Scaled
	jitter float64   // the δ of K_mm's factor
	dk     []float64 // d_k = 1/(μ_k + nλ), D's one column
}

// NewScalePath returns the fit of the statistics s at its θ: NewNystromPath
// at the one λ = exp(θ_{d+1}) with the objective's intercept mode, which
// gives DF and GCV. s is not modified and not kept.
//
// Cost: about 9m³ flops. Memory: that of NewNystromPath, four m×m
// matrices besides s; a *linalg.MemoryError (linalg.ErrTooLarge) before
// allocating when they do not fit.
//
// Errors wrap ErrInput: s nil, the zero value or of no rows;
// linalg.ErrNotPositiveDefinite when λ is so small that G + nλI is
// numerically singular (the objective is +Inf there) or K_mm of decoded
// statistics cannot be factored; linalg.ErrNoConvergence from the
// eigensolver.
func NewScalePath(s *ScaleStats) (*ScalePath, error) {
	const op = "NewScalePath"
	if s == nil || s.stats == nil {
		return nil, inputError(op, "s", "nil or zero ScaleStats: make it with ScaleObjective.NewStats")
	}
	if s.stats.Rows() == 0 {
		return nil, inputError(op, "s", "statistics of no rows: add the rows with ScaleStats.Add")
	}
	return newScalePath(op, s, new(linalg.EigenSym), false)
}

// newScalePath is NewScalePath with the eigensolver's workspace given; with
// spend, the statistics are spent (their M becomes W, see newNystromPath)
// and s must not be used again.
func newScalePath(op string, s *ScaleStats, es *linalg.EigenSym, spend bool) (*ScalePath, error) {
	d := len(s.theta) - 1
	lambda := math.Exp(s.theta[d])
	np, _, err := newNystromPath(s.stats, s.obj.Intercept, []float64{lambda}, es, spend)
	if err != nil {
		return nil, renameOp(err, "NewNystromPath", op)
	}
	if spend {
		s.stats = nil
	}
	p := &ScalePath{obj: s.obj, theta: s.theta, lambda: lambda, sk: s.sk}
	p.frame, p.DF, p.GCV, p.jitter = np.first()
	p.dk = make([]float64, p.m)
	for k := range p.dk {
		p.dk[k] = p.d.At(k, 0)
	}
	return p, nil
}

// Fit returns the Nyström fit at the path's θ, read from its λ path
// (NystromPath.Fit): the model whose residuals the passes score, of the
// objective's kernel of width 1 on the scaled centres C/σ (a copy), with the
// Standardization of Mean 0 and Scale σ, so that it predicts rows in the
// space of X (compose it with the caller's own by ComposeScales). O(m²q)
// flops, no pass over the rows. An error wraps ErrInput for a nil or zero
// ScalePath.
func (p *ScalePath) Fit() (*regress.NystromFit, error) {
	if err := p.ready("ScalePath.Fit"); err != nil {
		return nil, err
	}
	fit := p.fit()
	std, err := ComposeScales(nil, p.sk.Sigma())
	if err != nil {
		return nil, err
	}
	fit.Model.Standardization = std
	return fit, nil
}

// fit is Fit without the standardization: the model of the scaled
// centres, which predicts scaled rows.
func (p *ScalePath) fit() *regress.NystromFit {
	coef, b := p.frame.fit(0)
	return &regress.NystromFit{
		Model:  &regress.Model{Kernel: p.sk.Kernel(), Centers: p.sk.Centers().Clone(), Coef: coef, Intercept: b},
		Jitter: p.jitter,
	}
}

// ready reports a nil or zero ScalePath.
func (p *ScalePath) ready(op string) error {
	if p == nil || p.w == nil {
		return inputError(op, "ScalePath", "nil or zero value: make it with NewScalePath")
	}
	return nil
}

// renameOp returns err with the Op of its *linalg.InputError or
// *linalg.MemoryError changed from the call this package made (from) to
// the caller's entry point (to), so that errors name what the caller
// called.
func renameOp(err error, from, to string) error {
	var ie *linalg.InputError
	var me *linalg.MemoryError
	switch {
	case errors.As(err, &ie) && ie.Op == from:
		ie.Op = to
	case errors.As(err, &me) && me.Op == from:
		me.Op = to
	}
	return err
}

// header returns the fingerprint of the path, the words its passes'
// encodings begin with: n, q, m, d, the intercept mode, the criterion,
// the bits of θ and a 64-bit FNV-1a hash of the bits of W.
func (p *ScalePath) header() []uint64 {
	out := []uint64{uint64(p.n), uint64(p.q), uint64(p.m), uint64(len(p.sk.Sigma())),
		uint64(p.obj.Intercept), uint64(p.obj.Criterion)}
	for _, v := range p.theta {
		out = append(out, math.Float64bits(v))
	}
	return append(out, p.hashW())
}

// scaleWork is the workspace of the blocks of the passes: one serves the
// passes of an evaluation in turn, and the evaluations of a descent.
type scaleWork struct {
	blk         kernels.ScaledBlock  // the scaled rows of a block and its kernel block
	work        []float64            // the statistics' (regress.NystromWorkLen values)
	f, yhat, ab linalg.Dense         // F (b×m), the residuals (b×q), the weights [α | β] (b×(q+1))
	g           []float64            // 1 − Hᵢᵢ (b)
	gf, n, fs   linalg.Dense         // pass B: the adjoint in the frame, G (b×m), N = G·Wᵀ, and the rows of F of S
	ys          linalg.Dense         // pass B: the outputs of the rows of S
	grad        kernels.GradientWork // pass B: the contraction's
}

// rowWeights computes, for the frame's rows f (b×m) of a block with the
// outputs yb (b×q), the residuals eᵢ = yᵢ − ŷᵢ into ws.yhat
// (frame.residuals), gᵢ = 1 − Hᵢᵢ into ws.g, and the weights of the
// leave-one-out objective (docs/notes/ard-gradient.md, eq. 5) with κ = 1 into ws.ab: with rᵢ = eᵢ/gᵢ,
// αᵢ = rᵢ/gᵢ (q columns) and βᵢ = Σ_ℓ r_iℓ²/gᵢ (column q). It reports
// false when a row has gᵢ ≤ 0 or a value that is not finite: the fit
// interpolates that row to rounding and λ is numerically singular. The
// rows are split over the goroutines; each row is computed on its own.
func (p *ScalePath) rowWeights(ws *scaleWork, f, yb *linalg.Dense) bool {
	b, m, q := f.Rows, p.m, p.q
	e := p.residuals(&ws.yhat, f, yb)
	ab := ws.ab.Reuse(b, q+1)
	if cap(ws.g) < b {
		ws.g = make([]float64, b)
	}
	g := ws.g[:b]
	h0 := p.h0()
	eachRow(b, m, func(i int) {
		gi := 1 - (p.hat(f.Row(i), 0) + h0)
		g[i] = gi
		ei, wi := e.Row(i), ab.Row(i)
		var beta float64
		for out, res := range ei {
			loo := res / gi
			wi[out] = loo / gi
			beta += loo * loo
		}
		wi[q] = beta / gi
	})
	for i := 0; i < b; i++ {
		if !(g[i] > 0) {
			return false
		}
		for _, v := range ab.Row(i) {
			if bad(v) {
				return false
			}
		}
	}
	return true
}

// scaleRowsBy multiplies row i of a (b×m) by s(i), the rows split over
// the goroutines (eachRow).
func scaleRowsBy(a *linalg.Dense, s func(i int) float64) {
	eachRow(a.Rows, a.Cols, func(i int) {
		v, row := s(i), a.Row(i)
		for k := range row {
			row[k] *= v
		}
	})
}

// singularScale is the error of a pass at a θ where the fit interpolates a
// row to rounding.
func singularScale(op string, lambda float64) error {
	return fmt.Errorf("loo: %s: a leave-one-out residual is not finite at λ = %g: the fit interpolates a row to rounding, G + nλI is numerically singular there: %w",
		op, lambda, linalg.ErrNotPositiveDefinite)
}
