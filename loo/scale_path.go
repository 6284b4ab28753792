package loo

import (
	"errors"
	"fmt"
	"math"

	"rkhs/internal/parallel"
	"rkhs/linalg"
	"rkhs/regress"
)

// ScalePath is the Nyström fit of a ScaleStats at its θ, in the frame of
// NystromPath at the one λ = exp(θ_{d+1}): W = L⁻ᵀV (m×m, with the
// penalized intercept's change of variables), the eigenvalues μ of the
// features' Gram matrix, D = diag(1/(μ + nλ)), the coefficients Ĉ = Z∘D
// (m×q) and the shift c, so that the rows of a block are
// F = K_b·W − 1cᵀ, the hat diagonal Hᵢᵢ = fᵢᵀDfᵢ (+ 1/n with a free
// intercept) and the fit ŷᵢ = Ĉᵀfᵢ (+ ȳ). Every worker of a pass builds
// it from the same statistics, bit for bit the same path: that is what
// lets the passes' sums (ScaleLOO, ScaleAdjoint) merge.
type ScalePath struct {
	// DF is tr H at λ, the effective number of parameters.
	DF float64
	// GCV is n·RSS/(n − tr H)² at λ, the mean over the outputs, from the
	// statistics alone (see NystromPath's Method for its accuracy).
	GCV float64

	obj    ScaleObjective // Centers nil
	theta  []float64
	lambda float64
	sk     *scaledKernel
	np     *NystromPath  // the path at the one λ
	dk     []float64     // d_k = 1/(μ_k + nλ)
	chat   *linalg.Dense // Ĉ (m×q): the path's Z∘D
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
	p := &ScalePath{
		DF: np.DF[0], GCV: np.GCV[0],
		obj: s.obj, theta: s.theta, lambda: lambda,
		sk: s.sk,
		np: np, dk: make([]float64, np.m), chat: np.zd,
	}
	for k := range p.dk {
		p.dk[k] = np.d.At(k, 0)
	}
	return p, nil
}

// Fit returns the Nyström fit at the path's θ, read from its λ path
// (NystromPath.Fit): the model whose residuals the passes score, of the
// Gaussian kernel of width 1 on the scaled centres C/σ (a copy), with the
// Standardization of Mean 0 and Scale σ, so that it predicts rows in the
// space of X (compose it with the caller's own by ComposeScales). O(m²q)
// flops, no pass over the rows. An error wraps ErrInput for a nil or zero
// ScalePath.
func (p *ScalePath) Fit() (*regress.NystromFit, error) {
	if err := p.ready("ScalePath.Fit"); err != nil {
		return nil, err
	}
	fit := p.np.Fit(0)
	std, err := ComposeScales(nil, p.sk.sigma)
	if err != nil {
		return nil, err
	}
	fit.Model.Standardization = std
	return fit, nil
}

// ready reports a nil or zero ScalePath.
func (p *ScalePath) ready(op string) error {
	if p == nil || p.np == nil {
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
	out := []uint64{uint64(p.np.n), uint64(p.np.q), uint64(p.np.m), uint64(len(p.sk.sigma)),
		uint64(p.obj.Intercept), uint64(p.obj.Criterion)}
	for _, v := range p.theta {
		out = append(out, math.Float64bits(v))
	}
	return append(out, p.np.hashW())
}

// scaleWork is the workspace of the blocks of the passes: one serves the
// passes of an evaluation in turn, and the evaluations of a descent.
type scaleWork struct {
	xs, kb      linalg.Dense // the scaled rows of a block and its kernel block
	work        []float64    // the statistics' (regress.NystromWorkLen values)
	f, yhat, ab linalg.Dense // F (b×m), the residuals (b×q), the weights [α | β] (b×(q+1))
	g           []float64    // 1 − Hᵢᵢ (b)
	gf, n, fs   linalg.Dense // pass B: the adjoint in the frame, G (b×m), N = G·Wᵀ, and the rows of F of S
	ys          linalg.Dense // pass B: the outputs of the rows of S
	r, ones     linalg.Dense // pass B: E·[Z̃ − 1z̄ᵀ | 1] (b×(d+1)), a column of ones (b×1)
}

// frameRows computes the frame's rows F = K_b·W − 1cᵀ (b×m) of the kernel
// rows kb of a block into ws.f and returns it: one linalg.Gemm, the shift
// subtracted row by row.
func (p *ScalePath) frameRows(ws *scaleWork, kb *linalg.Dense) *linalg.Dense {
	np := p.np
	f := ws.f.Reuse(kb.Rows, np.m)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, kb, np.w, 0, f)
	eachRow(kb.Rows, np.m, func(i int) {
		row := f.Row(i)
		for k, ck := range np.c {
			row[k] -= ck
		}
	})
	return f
}

// residuals computes, for the rows of the frame f (b×m, see frameRows)
// with the outputs yb (b×q), the residuals eᵢ = yᵢ − ŷᵢ (ŷ = F·Ĉ + 1ȳᵀ,
// one linalg.Gemm) into ws.yhat, gᵢ = 1 − Hᵢᵢ into ws.g, and the weights
// of the leave-one-out objective with κ = 1 into ws.ab: with
// rᵢ = eᵢ/gᵢ, αᵢ = rᵢ/gᵢ (q columns) and βᵢ = Σ_ℓ r_iℓ²/gᵢ (column q).
// It reports false when a row has gᵢ ≤ 0 or a value that is not finite:
// the fit interpolates that row to rounding and λ is numerically
// singular. The rows are split over the goroutines; each row is computed
// on its own.
func (p *ScalePath) residuals(ws *scaleWork, f, yb *linalg.Dense) bool {
	np := p.np
	b, m, q := f.Rows, np.m, np.q
	e := ws.yhat.Reuse(b, q)
	ab := ws.ab.Reuse(b, q+1)
	if cap(ws.g) < b {
		ws.g = make([]float64, b)
	}
	g := ws.g[:b]
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, f, p.chat, 0, e)
	var h0 float64
	if p.obj.Intercept == regress.FreeIntercept {
		h0 = 1 / float64(np.n)
	}
	eachRow(b, m, func(i int) {
		row := f.Row(i)
		var h float64
		for k, v := range row {
			h += v * v * p.dk[k]
		}
		gi := 1 - (h + h0)
		g[i] = gi
		ei, yi, wi := e.Row(i), yb.Row(i), ab.Row(i)
		var beta float64
		for out, yv := range yi {
			res := yv - (ei[out] + np.ybar[out])
			loo := res / gi
			ei[out] = res
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

// wrongClass reports whether the leave-one-out prediction yᵢ − eᵢ/gᵢ of a
// row has another class than yᵢ: with one output its sign (±1 codes),
// with several (one against all) the index of the largest.
func wrongClass(yi, ei []float64, gi float64) bool {
	truth, pred := -1, -1
	var ty, tp float64
	for out, yv := range yi {
		if pv := yv - ei[out]/gi; pred < 0 || pv > tp {
			pred, tp = out, pv
		}
		if truth < 0 || yv > ty {
			truth, ty = out, yv
		}
	}
	if len(yi) == 1 {
		return (ty > 0) != (tp > 0)
	}
	return pred != truth
}

// scaleRowsBy multiplies row i of a (b×m) by s[i], the rows split over
// the goroutines.
func scaleRowsBy(a *linalg.Dense, s func(i int) float64) {
	t := parallel.Team(a.Rows, float64(a.Rows)*float64(a.Cols), 1<<15)
	chunks := parallel.NewChunks(a.Rows, t, 1)
	parallel.For(t, chunks.Count(), parallel.Func(func(_, c int) {
		lo, hi := chunks.Bounds(c)
		for i := lo; i < hi; i++ {
			v := s(i)
			row := a.Row(i)
			for k := range row {
				row[k] *= v
			}
		}
	}))
}

// singularScale is the error of a pass at a θ where the fit interpolates a
// row to rounding.
func singularScale(op string, lambda float64) error {
	return fmt.Errorf("loo: %s: a leave-one-out residual is not finite at λ = %g: the fit interpolates a row to rounding, G + nλI is numerically singular there: %w",
		op, lambda, linalg.ErrNotPositiveDefinite)
}
