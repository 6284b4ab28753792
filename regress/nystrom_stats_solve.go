package regress

import (
	"fmt"

	"rkhs/internal/memlimit"
	"rkhs/linalg"
)

// Solve returns the Nyström fit of the summarised rows with the
// regularization λ (in the K + nλI convention: the objective of Nystrom
// with n the number of rows summarised) and the intercept mode ic: the
// model Nystrom{Kernel: k, Given: C, Lambda: λ, Intercept: ic}.Fit returns
// on the same rows, to the rounding of the ridge problem. The statistics
// are not modified, so one summary serves any number of λ and modes.
//
// Method: Nystrom's ridge problem (BᵀB + nλI)a = BᵀY, c = L⁻ᵀa, with
// BᵀB = M + nμμᵀ without an intercept and M (the features centred,
// b = ȳ − μᵀa) with a free one. A penalized intercept is the kernel k + 1,
// whose K_mm + 11ᵀ = L(I + wwᵀ)Lᵀ with w = L⁻¹1: its features are
// B + 1wᵀ and the problem (ZᵀZ + nλ(I + wwᵀ))a = ZᵀY with
// ZᵀZ = M + n(μ+w)(μ+w)ᵀ, then b = 1ᵀc. (Nystrom factors K_mm + 11ᵀ itself;
// the two agree when neither needs a jitter, and otherwise this path
// regularizes with the jitter of K_mm.) The cost is m³/3 flops for the
// Cholesky factorization, m²q for c and O(m²); memory one m×m matrix
// beside the statistics, and a second for the factor of K_mm the first
// time after UnmarshalBinary (the memory check counts both).
//
// Errors wrap ErrInput (the zero value, statistics of no rows, λ not
// positive and finite, an unknown intercept mode), *linalg.MemoryError
// (linalg.ErrTooLarge) when two more m×m matrices do not fit, or
// linalg.ErrNotPositiveDefinite (for a λ too small for the rounding
// errors, or K_mm on decoded statistics).
func (s *NystromStats) Solve(lambda float64, ic Intercept) (*NystromFit, error) {
	const op = "NystromStats.Solve"
	if err := s.ready(op); err != nil {
		return nil, err
	}
	if s.n == 0 {
		return nil, inputError(op, "NystromStats", "statistics of no rows")
	}
	if err := checkLambda(op, "lambda", lambda); err != nil {
		return nil, err
	}
	if err := ic.check(op); err != nil {
		return nil, err
	}
	if err := memlimit.Check(op, memlimit.Floats(2, s.mm.Rows, s.mm.Rows)); err != nil {
		return nil, err
	}
	if err := s.factor(op); err != nil {
		return nil, err
	}
	var w []float64
	if ic == PenalizedIntercept {
		w = s.ones()
	}
	g, r := s.moments(ic, w)
	nl := float64(s.n) * lambda
	shift(g, nl, false)
	for i, wi := range w { // + nλ·wwᵀ
		row := g.Row(i)[:i+1]
		for j := range row {
			row[j] += nl * wi * w[j]
		}
	}
	var ch linalg.Cholesky
	if err := ch.FactorizeInPlace(g); err != nil {
		return nil, fmt.Errorf("regress: Nyström BᵀB + nλI with λ = %g: %w", lambda, err)
	}
	a := ch.SolveTo(r, r)
	b := make([]float64, s.q)
	if ic == FreeIntercept {
		b = freeOffsets(s.ybar, s.mu, a)
	}
	// c = L⁻ᵀ·a.
	linalg.Trsm(linalg.Lower, linalg.Trans, s.l, a)
	if ic == PenalizedIntercept {
		b = colSums(a)
	}
	return &NystromFit{
		Model:  &Model{Kernel: s.kernel, Centers: s.centers.Clone(), Coef: a, Intercept: b},
		Jitter: s.jitter,
	}, nil
}

// ones returns w = L⁻¹1.
func (s *NystromStats) ones() []float64 {
	w := make([]float64, s.l.Rows)
	for i := range w {
		w[i] = 1
	}
	linalg.Trsv(linalg.Lower, linalg.NoTrans, s.l, w)
	return w
}

// moments returns the second moment G (m×m, lower triangle) of the
// features and their cross moment R (m×q) with Y: about 0 (NoIntercept),
// about the means (FreeIntercept), or of the features shifted by w
// (PenalizedIntercept): M + n·ννᵀ and C + n·νȳᵀ with ν = μ, 0 or μ + w.
func (s *NystromStats) moments(ic Intercept, w []float64) (g, r *linalg.Dense) {
	m, q := s.mm.Rows, s.q
	nu := make([]float64, m)
	switch ic {
	case NoIntercept:
		copy(nu, s.mu)
	case PenalizedIntercept:
		for j, v := range s.mu {
			nu[j] = v + w[j]
		}
	}
	n := float64(s.n)
	g = linalg.NewDense(m, m, nil)
	r = linalg.NewDense(m, q, nil)
	for i := 0; i < m; i++ {
		row, src := g.Row(i)[:i+1], s.mm.Row(i)[:i+1]
		ni := n * nu[i]
		for j := range row {
			row[j] = src[j] + ni*nu[j]
		}
		rrow := r.Row(i)
		for k, v := range s.cy.Row(i) {
			rrow[k] = v + ni*s.ybar[k]
		}
	}
	return g, r
}
