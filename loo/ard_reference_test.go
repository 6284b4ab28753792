package loo

// A dense reference for learning one Gaussian length scale per feature
// (automatic relevance determination) by the exact leave-one-out error of
// a Nyström fit: the fit, its leave-one-out residuals (closed form and n
// refits), the objectives J_LOO and GCV, and their gradient in
// θ = (log σ₁ … log σ_d, log λ) by the adjoint of the hat matrix, both as
// dense matrices and in the two passes over the rows a streamed version
// makes. docs/notes/ard-gradient.md derives the formulas; the notation
// below is that note's. Everything is formed explicitly (n ≤ 300): this
// is the oracle a streamed implementation is tested against, not a fast
// path.

import (
	"fmt"
	"math"
	"testing"

	"rkhs/internal/center"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// ardScale returns x with column j divided by σ_j = exp(θ_j): the Gaussian
// kernel of width 1 on the result is k_θ(x, z) = exp(−Σ_j (x_j − z_j)²/(2σ_j²)).
func ardScale(x *linalg.Dense, theta []float64) *linalg.Dense {
	s := x.Clone()
	for i := 0; i < s.Rows; i++ {
		row := s.Row(i)
		for j := range row {
			row[j] /= math.Exp(theta[j])
		}
	}
	return s
}

// ardKernels returns K_nm = k_θ(X, C) and K_mm = k_θ(C, C), the Gaussian
// parts only (without the penalized intercept's 1 or the jitter), and the
// scaled features X/σ and C/σ.
func ardKernels(t *testing.T, x, c *linalg.Dense, theta []float64) (knm, kmm, xs, cs *linalg.Dense) {
	t.Helper()
	xs, cs = ardScale(x, theta), ardScale(c, theta)
	g := kernels.Gaussian{Sigma: 1}
	knm, err := kernels.Cross(g, xs, cs)
	if err != nil {
		t.Fatal(err)
	}
	kmm, err = kernels.Gram(g, cs)
	if err != nil {
		t.Fatal(err)
	}
	return knm, kmm, xs, cs
}

// ardMul returns op(a)·op(b), a new matrix.
func ardMul(ta, tb linalg.Op, a, b *linalg.Dense) *linalg.Dense {
	r, c := a.Rows, b.Cols
	if ta == linalg.Trans {
		r = a.Cols
	}
	if tb == linalg.Trans {
		c = b.Rows
	}
	out := linalg.NewDense(r, c, nil)
	linalg.Gemm(ta, tb, 1, a, b, 0, out)
	return out
}

// ardInverse returns the inverse of the symmetric positive definite a (by
// its Cholesky factor), or fails the test.
func ardInverse(t *testing.T, a *linalg.Dense) *linalg.Dense {
	t.Helper()
	var ch linalg.Cholesky
	if err := ch.Factorize(a); err != nil {
		t.Fatal(err)
	}
	id := linalg.NewDense(a.Rows, a.Rows, nil)
	for i := 0; i < a.Rows; i++ {
		id.Set(i, i, 1)
	}
	return ch.SolveTo(nil, id)
}

// ardAbs returns the matrix of the absolute values of a's entries.
func ardAbs(a *linalg.Dense) *linalg.Dense {
	b := a.Clone()
	for i, v := range b.Data {
		b.Data[i] = math.Abs(v)
	}
	return b
}

// ardDesign returns the model's matrices from the Gaussian parts: for a
// penalized intercept K_nm + 11ᵀ and K_mm + 11ᵀ (the kernel k + 1), else
// copies; and K_mm + δI.
func ardDesign(knm, kmm *linalg.Dense, ic regress.Intercept, jitter float64) (a, k *linalg.Dense) {
	a, k = knm.Clone(), kmm.Clone()
	if ic == regress.PenalizedIntercept {
		for i := range a.Data {
			a.Data[i]++
		}
		for i := range k.Data {
			k.Data[i]++
		}
	}
	for i := 0; i < k.Rows; i++ {
		k.Set(i, i, k.At(i, i)+jitter)
	}
	return a, k
}

// ardModel is the Nyström fit at one θ, formed densely: it minimises
// (1/n)‖K_nm·c + b·1 − y‖² + λ·cᵀK_mm·c (b free, absent, or in the kernel
// k + 1 as ic says), through M = ÃᵀÃ + nλ·K_mm, C = M⁻¹ÃᵀỸ and
// H = Ã·M⁻¹·Ãᵀ (+ (1/n)·11ᵀ for a free intercept).
type ardModel struct {
	ic     regress.Intercept
	n, q   int
	lambda float64
	a      *linalg.Dense // Ã (n×m): K_nm centred by its column means (free), K_nm + 1 (penalized), K_nm (none)
	kmm    *linalg.Dense // the penalty's K_mm (+ 11ᵀ penalized) + δI
	y      *linalg.Dense // Y as given
	yc     *linalg.Dense // Ỹ: Y centred (free), Y otherwise
	minv   *linalg.Dense // M⁻¹ (m×m)
	coef   *linalg.Dense // C (m×q)
	e      *linalg.Dense // residuals Y − Ŷ (n×q)
	h      []float64     // Hᵢᵢ
}

// newArdModel fits the model to the Gaussian parts knm (n×m) and kmm.
func newArdModel(t *testing.T, knm, kmm, y *linalg.Dense, ic regress.Intercept, lambda, jitter float64) *ardModel {
	t.Helper()
	n, q := y.Rows, y.Cols
	a, k := ardDesign(knm, kmm, ic, jitter)
	yc := y.Clone()
	if ic == regress.FreeIntercept {
		center.SubtractTo(a, a, center.Means(a))
		center.SubtractTo(yc, yc, center.Means(yc))
	}
	mm := ardMul(linalg.Trans, linalg.NoTrans, a, a)
	for i := range mm.Data {
		mm.Data[i] += float64(n) * lambda * k.Data[i]
	}
	f := &ardModel{ic: ic, n: n, q: q, lambda: lambda, a: a, kmm: k, y: y, yc: yc, minv: ardInverse(t, mm)}
	f.coef = ardMul(linalg.NoTrans, linalg.NoTrans, f.minv, ardMul(linalg.Trans, linalg.NoTrans, a, yc))
	f.e = ardMul(linalg.NoTrans, linalg.NoTrans, a, f.coef)
	for i := range f.e.Data {
		f.e.Data[i] = yc.Data[i] - f.e.Data[i] // Ỹ − ÃC = Y − Ŷ: the intercept is ȳ − āᵀC
	}
	g := ardMul(linalg.NoTrans, linalg.NoTrans, a, f.minv)
	f.h = make([]float64, n)
	for i := 0; i < n; i++ {
		for k, v := range g.Row(i) {
			f.h[i] += v * a.At(i, k)
		}
		if ic == regress.FreeIntercept {
			f.h[i] += 1 / float64(n)
		}
	}
	return f
}

// loo returns the leave-one-out residuals rᵢ = eᵢ/(1 − Hᵢᵢ) (n×q).
func (f *ardModel) loo() *linalg.Dense {
	r := f.e.Clone()
	for i := 0; i < f.n; i++ {
		row := r.Row(i)
		for k := range row {
			row[k] /= 1 - f.h[i]
		}
	}
	return r
}

// ardBrute returns the leave-one-out residuals by n refits, each without
// row i, with the same centres and the same penalty nλ (n the number of
// all rows): the refit for which the closed form is exact (see doc.go).
func ardBrute(t *testing.T, knm, kmm, y *linalg.Dense, ic regress.Intercept, lambda, jitter float64) *linalg.Dense {
	t.Helper()
	n, m, q := y.Rows, knm.Cols, y.Cols
	a, k := ardDesign(knm, kmm, ic, jitter)
	res := linalg.NewDense(n, q, nil)
	for i := 0; i < n; i++ {
		ar, yr := without(a, y, i)
		abar, ybar := make([]float64, m), make([]float64, q)
		if ic == regress.FreeIntercept {
			abar, ybar = center.Means(ar), center.Means(yr)
			center.SubtractTo(ar, ar, abar)
			center.SubtractTo(yr, yr, ybar)
		}
		mm := ardMul(linalg.Trans, linalg.NoTrans, ar, ar)
		for j := range mm.Data {
			mm.Data[j] += float64(n) * lambda * k.Data[j]
		}
		c := ardMul(linalg.NoTrans, linalg.NoTrans, ardInverse(t, mm), ardMul(linalg.Trans, linalg.NoTrans, ar, yr))
		for out := 0; out < q; out++ {
			pred := ybar[out] // the intercept ȳ − āᵀc of the refit, plus aᵢᵀc
			for j := 0; j < m; j++ {
				pred += (a.At(i, j) - abar[j]) * c.At(j, out)
			}
			res.Set(i, out, y.At(i, out)-pred)
		}
	}
	return res
}

// ardObjective is J_LOO over the rows of subset (nil: all), or GCV.
type ardObjective struct {
	subset []int
	gcv    bool
}

// String names the objective in test messages.
func (o ardObjective) String() string {
	switch {
	case o.gcv:
		return "GCV"
	case o.subset != nil:
		return fmt.Sprintf("J_LOO over %d rows", len(o.subset))
	}
	return "J_LOO over all rows"
}

// rows returns the rows whose weights α, β are not zero, the rows pass A
// visits: S for J_LOO, all n for GCV.
func (o ardObjective) rows(n int) []int {
	if o.subset != nil && !o.gcv {
		return o.subset
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	return all
}

// value returns J_LOO = (1/(|S|q))·Σ_{i∈S} Σ_ℓ r_iℓ², or
// GCV = (n/q)·Σ_ℓ RSS_ℓ/(n − tr H)².
func (o ardObjective) value(f *ardModel) float64 {
	if o.gcv {
		var tr, rss float64
		for i := 0; i < f.n; i++ {
			tr += f.h[i]
		}
		for _, v := range f.e.Data {
			rss += v * v
		}
		tau := float64(f.n) - tr
		return float64(f.n) * rss / (tau * tau) / float64(f.q)
	}
	r := f.loo()
	rows := o.rows(f.n)
	var s float64
	for _, i := range rows {
		for _, v := range r.Row(i) {
			s += v * v
		}
	}
	return s / float64(len(rows)*f.q)
}

// weights returns α (n×q) and β (n) of dJ = Σ α_iℓ·de_iℓ + Σ βᵢ·dHᵢᵢ:
// for J_LOO, α_iℓ = κ·r_iℓ/(1 − Hᵢᵢ) and βᵢ = κ·Σ_ℓ r_iℓ²/(1 − Hᵢᵢ) on S
// (zero elsewhere), κ = 2/(|S|q); for GCV, α = (2n/(qτ²))·e and
// βᵢ = 2n·RSS/(qτ³) on every row, τ = n − tr H.
func (o ardObjective) weights(f *ardModel) (alpha *linalg.Dense, beta []float64) {
	n, q := f.n, f.q
	alpha, beta = linalg.NewDense(n, q, nil), make([]float64, n)
	if o.gcv {
		var tr, rss float64
		for i := 0; i < n; i++ {
			tr += f.h[i]
		}
		for _, v := range f.e.Data {
			rss += v * v
		}
		tau, nf, qf := float64(n)-tr, float64(n), float64(q)
		for i := range alpha.Data {
			alpha.Data[i] = 2 * nf / (qf * tau * tau) * f.e.Data[i]
		}
		for i := range beta {
			beta[i] = 2 * nf * rss / (qf * tau * tau * tau)
		}
		return alpha, beta
	}
	rows := o.rows(n)
	kappa := 2 / float64(len(rows)*q)
	r := f.loo()
	for _, i := range rows {
		g := 1 - f.h[i]
		for out := 0; out < q; out++ {
			v := r.At(i, out)
			alpha.Set(i, out, kappa*v/g)
			beta[i] += kappa * v * v / g
		}
	}
	return alpha, beta
}

// adjointDense returns the adjoint of the objective with weights α, β:
// N (n×m) and P (m×m) with dJ = ⟨N, dK_nm⟩ + ⟨P, dK_mm⟩ + (∂J/∂log λ)·dlog λ,
// and ∂J/∂log λ, from n×n matrices:
//
//	Γ = diag(β) − (αYᵀ + Yαᵀ)/2,  Ψ = Ã·M⁻¹,  Q = ΨᵀΓΨ,
//	N = 2Π(ΓΨ − ÃQ),  P = −nλ·Q,  ∂J/∂log λ = −nλ·tr(Q·K_mm),
//
// Π = I − (1/n)11ᵀ for a free intercept, I otherwise.
func (f *ardModel) adjointDense(alpha *linalg.Dense, beta []float64) (nmat, pmat *linalg.Dense, dlam float64) {
	n := f.n
	gam := ardMul(linalg.NoTrans, linalg.Trans, alpha, f.y)
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			s := -(gam.At(i, j) + gam.At(j, i)) / 2
			gam.Set(i, j, s)
			gam.Set(j, i, s)
		}
		gam.Set(i, i, beta[i]-gam.At(i, i))
	}
	psi := ardMul(linalg.NoTrans, linalg.NoTrans, f.a, f.minv)
	gpsi := ardMul(linalg.NoTrans, linalg.NoTrans, gam, psi)
	q := ardMul(linalg.Trans, linalg.NoTrans, psi, gpsi)
	nmat = ardMul(linalg.NoTrans, linalg.NoTrans, f.a, q)
	for i := range nmat.Data {
		nmat.Data[i] = 2 * (gpsi.Data[i] - nmat.Data[i])
	}
	if f.ic == regress.FreeIntercept {
		center.SubtractTo(nmat, nmat, center.Means(nmat))
	}
	nl := float64(n) * f.lambda
	pmat = q.Clone()
	for i := range pmat.Data {
		pmat.Data[i] *= -nl
		dlam -= nl * q.Data[i] * f.kmm.Data[i] // tr(Q·K_mm), both symmetric
	}
	return nmat, pmat, dlam
}

// ardSums are the sums a pass over the rows of S accumulates (pass A):
// Ω = Σ βᵢ·ãᵢãᵢᵀ (m×m), Φ = Σ ãᵢαᵢᵀ (m×q), s_β = Σ βᵢ·ãᵢ (m) and
// s_α = Σ αᵢ (q), ãᵢ the rows of Ã.
type ardSums struct {
	omega, phi *linalg.Dense
	sb, sa     []float64
}

// adjointPasses returns N, P and ∂J/∂log λ as adjointDense does, but the
// way a streamed version computes them: pass A over the rows of S
// accumulates ardSums; from them and the fit (m×m and m×q matrices)
//
//	Υ = M⁻¹Φ,  Q = M⁻¹ΩM⁻¹ − (ΥCᵀ + CΥᵀ)/2,  ν̄ = (1/n)(2M⁻¹s_β − C·s_α) (free; 0 otherwise),
//
// and pass B forms each row of N on its own:
//
//	Nᵢ = 2βᵢ·M⁻¹ãᵢ − C·αᵢ − Υ·ỹᵢ − 2Q·ãᵢ − ν̄.
func (f *ardModel) adjointPasses(alpha *linalg.Dense, beta []float64, rows []int) (nmat, pmat *linalg.Dense, dlam float64, sums ardSums) {
	n, m, q := f.n, f.a.Cols, f.q
	// Pass A.
	sums = ardSums{omega: linalg.NewDense(m, m, nil), phi: linalg.NewDense(m, q, nil), sb: make([]float64, m), sa: make([]float64, q)}
	for _, i := range rows {
		ai, al, b := f.a.Row(i), alpha.Row(i), beta[i]
		for k, ak := range ai {
			orow, prow := sums.omega.Row(k), sums.phi.Row(k)
			for l, al2 := range ai {
				orow[l] += b * ak * al2
			}
			for out, v := range al {
				prow[out] += ak * v
			}
			sums.sb[k] += b * ak
		}
		for out, v := range al {
			sums.sa[out] += v
		}
	}
	// Between the passes: O(m³) and O(m²q).
	ups := ardMul(linalg.NoTrans, linalg.NoTrans, f.minv, sums.phi)
	qm := ardMul(linalg.NoTrans, linalg.NoTrans, f.minv, ardMul(linalg.NoTrans, linalg.NoTrans, sums.omega, f.minv))
	uc := ardMul(linalg.NoTrans, linalg.Trans, ups, f.coef)
	for k := 0; k < m; k++ {
		for l := 0; l < m; l++ {
			qm.Set(k, l, qm.At(k, l)-(uc.At(k, l)+uc.At(l, k))/2)
		}
	}
	nubar := make([]float64, m)
	if f.ic == regress.FreeIntercept {
		for k := 0; k < m; k++ {
			var s float64
			for l := 0; l < m; l++ {
				s += 2 * f.minv.At(k, l) * sums.sb[l]
			}
			for out := 0; out < q; out++ {
				s -= f.coef.At(k, out) * sums.sa[out]
			}
			nubar[k] = s / float64(n)
		}
	}
	// Pass B: every row of N from its own row of Ã, α, β and Ỹ.
	nmat = linalg.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		ai, al, yi, b := f.a.Row(i), alpha.Row(i), f.yc.Row(i), beta[i]
		row := nmat.Row(i)
		for k := range row {
			var s float64
			for l, v := range ai {
				s += (2*b*f.minv.At(k, l) - 2*qm.At(k, l)) * v
			}
			for out := 0; out < q; out++ {
				s -= f.coef.At(k, out)*al[out] + ups.At(k, out)*yi[out]
			}
			row[k] = s - nubar[k]
		}
	}
	nl := float64(n) * f.lambda
	pmat = qm.Clone()
	for i := range pmat.Data {
		pmat.Data[i] *= -nl
		dlam -= nl * qm.Data[i] * f.kmm.Data[i]
	}
	return nmat, pmat, dlam, sums
}

// ardContract returns, for every feature j, Σ_ik E_ik·(x_ij − z_kj)² as
// (x∘x)ᵀ(E·1) − 2·diag(XᵀEZ) + (1ᵀE)(z∘z): O(nmd) instead of a triple
// loop. x is n×d, e n×m, z m×d.
func ardContract(e, x, z *linalg.Dense) []float64 {
	d := x.Cols
	out := make([]float64, d)
	xe := ardMul(linalg.Trans, linalg.NoTrans, x, e) // d×m
	rowSums, colSums := make([]float64, e.Rows), make([]float64, e.Cols)
	for i := 0; i < e.Rows; i++ {
		for k, v := range e.Row(i) {
			rowSums[i] += v
			colSums[k] += v
		}
	}
	for j := 0; j < d; j++ {
		for i, s := range rowSums {
			out[j] += x.At(i, j) * x.At(i, j) * s
		}
		for k, s := range colSums {
			out[j] += z.At(k, j)*z.At(k, j)*s - 2*xe.At(j, k)*z.At(k, j)
		}
	}
	return out
}

// ardContractDirect is ardContract by the triple sum.
func ardContractDirect(e, x, z *linalg.Dense) []float64 {
	out := make([]float64, x.Cols)
	for i := 0; i < e.Rows; i++ {
		for k, v := range e.Row(i) {
			for j := range out {
				dx := x.At(i, j) - z.At(k, j)
				out[j] += v * dx * dx
			}
		}
	}
	return out
}

// ardGradient returns ∇_θ J from the adjoint: with ∂K_ik/∂log σ_j =
// K_ik·(x_ij − z_kj)²/σ_j², the scaled features xs = X/σ and cs = C/σ
// absorb the 1/σ_j², so ∂J/∂log σ_j is ardContract(N∘K_nm, xs, cs)_j +
// ardContract(P∘K_mm, cs, cs)_j, K_nm and K_mm the Gaussian parts; the
// last entry is ∂J/∂log λ.
func ardGradient(nmat, pmat, knm, kmm, xs, cs *linalg.Dense, dlam float64) []float64 {
	en, ep := nmat.Clone(), pmat.Clone()
	for i := range en.Data {
		en.Data[i] *= knm.Data[i]
	}
	for i := range ep.Data {
		ep.Data[i] *= kmm.Data[i]
	}
	g := ardContract(en, xs, cs)
	for j, v := range ardContract(ep, cs, cs) {
		g[j] += v
	}
	return append(g, dlam)
}

// ardProblem is the data and fixed settings of one objective: the fit
// uses every row of x (n×d) and y (n×q), the centres c are rows of x.
type ardProblem struct {
	x, y, c *linalg.Dense
	ic      regress.Intercept
	jitter  float64 // δ added to K_mm, fixed
	obj     ardObjective
}

// fit returns the model at θ = (log σ₁ … log σ_d, log λ) and the Gaussian
// parts of its kernel matrices with the scaled features.
func (p ardProblem) fit(t *testing.T, theta []float64) (f *ardModel, knm, kmm, xs, cs *linalg.Dense) {
	t.Helper()
	d := p.x.Cols
	knm, kmm, xs, cs = ardKernels(t, p.x, p.c, theta[:d])
	f = newArdModel(t, knm, kmm, p.y, p.ic, math.Exp(theta[d]), p.jitter)
	return f, knm, kmm, xs, cs
}

// value returns J(θ).
func (p ardProblem) value(t *testing.T, theta []float64) float64 {
	f, _, _, _, _ := p.fit(t, theta)
	return p.obj.value(f)
}

// gradient returns ∇_θ J by the adjoint, from the dense N and from the
// passes, which must agree.
func (p ardProblem) gradient(t *testing.T, theta []float64) (dense, passes []float64) {
	t.Helper()
	f, knm, kmm, xs, cs := p.fit(t, theta)
	alpha, beta := p.obj.weights(f)
	n1, p1, l1 := f.adjointDense(alpha, beta)
	n2, p2, l2, _ := f.adjointPasses(alpha, beta, p.obj.rows(f.n))
	return ardGradient(n1, p1, knm, kmm, xs, cs, l1), ardGradient(n2, p2, knm, kmm, xs, cs, l2)
}
