package regress

import (
	"fmt"

	"rkhs/internal/check"
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

// Summary returns what a conjugate-gradient Nyström solver needs from the
// data besides its products: n, K_nmᵀY (m×q), K_nmᵀ1 (length m) and 1ᵀY
// (length q), from the statistics (L(C + nμȳᵀ), nLμ and nȳ). Errors wrap
// ErrInput: the zero value, or statistics of no rows; or
// linalg.ErrNotPositiveDefinite (K_mm, on decoded statistics).
func (s *NystromStats) Summary() (n int, kty *linalg.Dense, kt1, sumY []float64, err error) {
	const op = "NystromStats.Summary"
	if err := s.ready(op); err != nil {
		return 0, nil, nil, nil, err
	}
	if s.n == 0 {
		return 0, nil, nil, nil, inputError(op, "NystromStats", "statistics of no rows")
	}
	if err := s.factor(op); err != nil {
		return 0, nil, nil, nil, err
	}
	nf := float64(s.n)
	_, bty := s.moments(NoIntercept, nil)
	kty = linalg.NewDense(s.l.Rows, s.q, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, s.l, bty, 0, kty)
	mu := linalg.NewDense(len(s.mu), 1, nil)
	for j, v := range s.mu {
		mu.Data[j] = nf * v
	}
	kt1 = linalg.NewDense(len(s.mu), 1, nil).Data
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, s.l, mu, 0, linalg.NewDense(len(kt1), 1, kt1))
	sumY = make([]float64, s.q)
	for k, v := range s.ybar {
		sumY[k] = nf * v
	}
	return s.n, kty, kt1, sumY, nil
}

// NormalMul sets dst (m×q) = K_nmᵀ(K_nm·V) = L·BᵀB·LᵀV for V (m×q), the
// product a conjugate-gradient Nyström solver needs at every iteration,
// here from the m×m statistics instead of a pass over the data: 6m²q
// flops beside forming BᵀB (m² flops and m² doubles). dst may be V.
// Errors wrap ErrInput: the zero value, statistics of no rows, V or dst
// nil, malformed, not finite or not m×q with V and dst the same shape; or
// linalg.ErrNotPositiveDefinite (K_mm, on decoded statistics).
func (s *NystromStats) NormalMul(dst, v *linalg.Dense) error {
	const op = "NystromStats.NormalMul"
	if err := s.ready(op); err != nil {
		return err
	}
	if s.n == 0 {
		return inputError(op, "NystromStats", "statistics of no rows")
	}
	m := s.mm.Rows
	for _, a := range []struct {
		name string
		d    *linalg.Dense
	}{{"V", v}, {"dst", dst}} {
		if err := checkXYShape(op, a.name, a.d, m, v); err != nil {
			return err
		}
	}
	if err := s.factor(op); err != nil {
		return err
	}
	g, _ := s.moments(NoIntercept, nil)
	for i := 0; i < m; i++ {
		for j := i + 1; j < m; j++ {
			g.Data[i*m+j] = g.Data[j*m+i]
		}
	}
	t := linalg.NewDense(m, v.Cols, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, s.l, v, 0, t)
	u := linalg.NewDense(m, v.Cols, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, g, t, 0, u)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, s.l, u, 0, dst)
	return nil
}

// checkXYShape validates an m-row matrix of NormalMul with as many columns
// as V.
func checkXYShape(op, name string, a *linalg.Dense, m int, v *linalg.Dense) error {
	if err := check.Data(ErrInput, op, name, a, 1); err != nil {
		return err
	}
	if a.Rows != m || a.Cols != v.Cols || a.Cols == 0 {
		return inputError(op, name, "%d×%d, want %d×%d", a.Rows, a.Cols, m, v.Cols)
	}
	return nil
}
