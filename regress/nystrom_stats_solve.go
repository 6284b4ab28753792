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
	g, r := s.moments(ic, w, nil)
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
// G is formed in dst (m×m) when it is not nil, which may be s.mm itself:
// row i of G reads only row i of M's lower triangle. It is the one rule
// behind Solve and Gram.
func (s *NystromStats) moments(ic Intercept, w []float64, dst *linalg.Dense) (g, r *linalg.Dense) {
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
	g = dst
	if g == nil {
		g = linalg.NewDense(m, m, nil)
	}
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

// NystromGram is the ridge problem a NystromStats summarises, in the
// frame of an intercept mode (see NystromStats.Gram): the Gram matrix G
// and the cross moment R of the features Z of that frame, for the problem
//
//	minimize over a  ‖Y₀ − Z·a‖² + nλ·aᵀP·a
//
// (λ in the K + nλI convention), Y₀ = Y − 1ȳᵀ with a free intercept and Y
// otherwise, whose fit has the coefficients c = L⁻ᵀa on k(·, C) and the
// intercept ȳ − μᵀa (free), 1ᵀc (penalized) or 0. With
// bᵢ = L⁻¹k(xᵢ, C) the features of the statistics and w = L⁻¹1, the
// frames are
//
//	NoIntercept:         zᵢ = bᵢ,      G = M + nμμᵀ,            P = I
//	FreeIntercept:       zᵢ = bᵢ − μ,  G = M,                   P = I
//	PenalizedIntercept:  zᵢ = bᵢ + w,  G = M + n(μ+w)(μ+w)ᵀ,  P = I + wwᵀ
//
// (the penalized intercept is the kernel k + 1, whose K_mm + 11ᵀ is
// L(I + wwᵀ)Lᵀ), and R = ZᵀY = C + n·νȳᵀ for the same ν = μ, 0 or μ + w.
// Every field is the caller's but L, which is the statistics' own
// (read-only) after Gram and the caller's after GramInPlace.
type NystromGram struct {
	// G = ZᵀZ (m×m), both triangles.
	G *linalg.Dense
	// R = ZᵀY (m×q).
	R *linalg.Dense
	// YY holds, for each output, the sum of squares of Y₀: Σ(yᵢ − ȳ)²
	// with a free intercept, Σyᵢ² otherwise.
	YY []float64
	// YBar is ȳ, the mean of the outputs (q).
	YBar []float64
	// Shift is the vector subtracted from each bᵢ to give zᵢ: μ (free
	// intercept), 0 (none) or −w (penalized) (m).
	Shift []float64
	// W is w = L⁻¹1 for a penalized intercept, nil otherwise.
	W []float64
	// L is the Cholesky factor of K_mm + δI (m×m, lower triangle).
	L *linalg.Dense
	// Jitter is δ.
	Jitter float64
	// N is the number of rows summarised.
	N int
}

// Gram returns the ridge problem of the summarised rows in the frame of
// the intercept mode ic (see NystromGram): G = ZᵀZ with both triangles,
// R = ZᵀY, the sums of squares of Y, ȳ, the shift of the features, w for
// a penalized intercept, and L (a view of the statistics' own factor,
// read-only; the rest is new). Solve solves the same problem (G + nλP)a =
// R by a Cholesky factorization; package loo's NystromPath factors G once
// for every λ. The statistics are not modified.
//
// Cost: O(m²) flops (one triangular solve for w with a penalized
// intercept), and m³/3 the first time after UnmarshalBinary, to recompute
// L. Memory: G and R, m(m + q) values, and a second m×m matrix for L the
// first time after UnmarshalBinary (the memory check counts both).
//
// Errors wrap ErrInput (the zero value, statistics of no rows, an unknown
// intercept mode), *linalg.MemoryError (linalg.ErrTooLarge) when G does
// not fit, or linalg.ErrNotPositiveDefinite (K_mm of decoded statistics).
func (s *NystromStats) Gram(ic Intercept) (*NystromGram, error) {
	return s.gram("NystromStats.Gram", ic, false)
}

// GramInPlace is Gram with G formed in the storage of the statistics' M,
// for a caller that lets go of the statistics once it has the problem:
// one m×m matrix less. It hands L over too and leaves s the zero value
// (its methods then return the zero value's error, and it can be filled
// again by UnmarshalBinary). On error s is unchanged.
//
// Cost: that of Gram. Memory: R, m×q values (and L, m×m, the first time
// after UnmarshalBinary). Errors: those of Gram.
func (s *NystromStats) GramInPlace(ic Intercept) (*NystromGram, error) {
	return s.gram("NystromStats.GramInPlace", ic, true)
}

// gram is Gram, with G in M's storage when inPlace.
func (s *NystromStats) gram(op string, ic Intercept, inPlace bool) (*NystromGram, error) {
	if err := s.ready(op); err != nil {
		return nil, err
	}
	if s.n == 0 {
		return nil, inputError(op, "NystromStats", "statistics of no rows")
	}
	if err := ic.check(op); err != nil {
		return nil, err
	}
	m := s.mm.Rows
	squares := 0
	if !inPlace {
		squares++
	}
	if s.l == nil {
		squares++
	}
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(squares, m, m), memlimit.Floats(m, s.q))); err != nil {
		return nil, err
	}
	if err := s.factor(op); err != nil {
		return nil, err
	}
	gr := &NystromGram{L: s.l, Jitter: s.jitter, N: s.n, YBar: append([]float64(nil), s.ybar...), Shift: make([]float64, m)}
	switch ic {
	case FreeIntercept:
		copy(gr.Shift, s.mu)
	case PenalizedIntercept:
		gr.W = s.ones()
		for i, wi := range gr.W {
			gr.Shift[i] = -wi
		}
	}
	var dst *linalg.Dense
	if inPlace {
		dst = s.mm
	}
	gr.G, gr.R = s.moments(ic, gr.W, dst)
	for i := 0; i < m; i++ {
		row := gr.G.Row(i)[:i]
		for j, v := range row {
			gr.G.Data[j*gr.G.Stride+i] = v
		}
	}
	n := float64(s.n)
	gr.YY = make([]float64, s.q)
	for k, v := range s.syy {
		gr.YY[k] = v
		if ic != FreeIntercept {
			gr.YY[k] += n * s.ybar[k] * s.ybar[k]
		}
	}
	if inPlace {
		*s = NystromStats{}
	}
	return gr, nil
}
