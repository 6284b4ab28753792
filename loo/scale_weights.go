package loo

import (
	"math"
	"slices"

	"rkhs/internal/memlimit"
	"rkhs/linalg"
)

// adjointWeights are what the adjoint of a criterion is formed from
// (NewAdjoint): its value, and the weighted sums over the rows in the
// frame, times the weights' scale κ — from pass A for a leave-one-out
// criterion (looWeights), from the fit for GCV (gcvWeights): the sums
// of eq. 7 in the frame, with the weights of eq. 5.
type adjointWeights struct {
	value      *ScaleEval
	omega, phi *linalg.Dense // Ω̂ (m×m, both triangles), Φ̂ (m×q)
	sb, sa     []float64     // ŝ_β (m) and s_α (q); zeros for GCV
	kappa      float64       // κ = 2/(|S|q); 0 for GCV
	loo        int           // |S|; 0 for GCV
	all        bool          // every row is of S
	kappaG, b  float64       // GCV's κ_G = 2n/(qτ²) and b = 2n·RSS/(qτ³); 0 otherwise
}

// weights checks a, the pass-A sums of the path's criterion (nil for
// GCV), and the memory of NewAdjoint, and returns the criterion's
// weights.
func (p *ScalePath) weights(op string, a *ScaleLOO) (*adjointWeights, error) {
	if p.obj.Criterion == GCV {
		if a != nil {
			return nil, inputError(op, "a", "the GCV criterion has no leave-one-out sums: pass nil")
		}
		if err := p.adjointMemory(op); err != nil {
			return nil, err
		}
		return p.gcvWeights(), nil
	}
	switch {
	case a == nil || a.p == nil:
		return nil, inputError(op, "a", "nil or zero ScaleLOO: the %v criterion needs the sums of its leave-one-out pass (ScalePath.NewLOO, ScaleLOO.Add)", p.obj.Criterion)
	case a.err != nil:
		return nil, a.err
	case a.rows == 0:
		return nil, inputError(op, "a", "no rows added: call ScaleLOO.Add with the rows of S")
	case a.p != p && !slices.Equal(a.p.header(), p.header()):
		return nil, inputError(op, "a", "the sums of another path: other statistics or θ")
	}
	if err := p.adjointMemory(op); err != nil {
		return nil, err
	}
	return p.looWeights(a), nil
}

// adjointMemory checks that NewAdjoint's matrices and Add's workspace fit.
func (p *ScalePath) adjointMemory(op string) error {
	m, q, d := p.m, p.q, len(p.sk.Sigma())
	return memlimit.Check(op, memlimit.Sum(memlimit.Floats(4, m, m), memlimit.Floats(m, 3*q+2*d+8),
		memlimit.Floats(passRows(m), 4*m+3*q+d+4)))
}

// looWeights returns the leave-one-out weights: the pass-A sums of a
// (its lower triangle of Ω̂ mirrored) times κ = 2/(|S|q) (eq. 5).
func (p *ScalePath) looWeights(a *ScaleLOO) *adjointWeights {
	m, q := p.m, p.q
	w := &adjointWeights{value: a.result(), loo: a.rows, all: a.rows == p.n,
		omega: linalg.NewDense(m, m, nil), phi: linalg.NewDense(m, q, nil), sb: make([]float64, m), sa: make([]float64, q)}
	w.kappa = 2 / (float64(a.rows) * float64(q))
	for k := 0; k < m; k++ {
		row := w.omega.Row(k)
		for l, v := range a.omega.Row(k)[:k+1] {
			row[l] = w.kappa * v
			w.omega.Set(l, k, w.kappa*v)
		}
		for out, v := range a.phi.Row(k)[:q] {
			w.phi.Set(k, out, w.kappa*v)
		}
		w.sb[k] = w.kappa * a.phi.At(k, q)
	}
	for out, v := range a.salpha {
		w.sa[out] = w.kappa * v
	}
	return w
}

// gcvWeights returns GCV's weights, which follow from the fit: with
// τ = n − tr H, κ_G = 2n/(qτ²) and b = 2n·RSS/(qτ³) = 2·GCV/τ,
// Ω̂ = b·diag(μ) and Φ̂ = κ_G·nλ·Ĉ (eq. 5 and 16).
func (p *ScalePath) gcvWeights() *adjointWeights {
	m, q, n := p.m, p.q, float64(p.n)
	w := &adjointWeights{value: &ScaleEval{Value: p.GCV, DF: p.DF, ErrorRate: math.NaN(), ErrorRateStdErr: math.NaN()},
		omega: linalg.NewDense(m, m, nil), phi: linalg.NewDense(m, q, nil), sb: make([]float64, m), sa: make([]float64, q)}
	tau := n - p.DF
	w.kappaG, w.b = 2*n/(float64(q)*tau*tau), 2*p.GCV/tau
	nl := n * p.lambda
	for k, mu := range p.mu {
		w.omega.Set(k, k, w.b*mu)
		for out, v := range p.zd.Row(k) {
			w.phi.Set(k, out, w.kappaG*nl*v)
		}
	}
	return w
}
