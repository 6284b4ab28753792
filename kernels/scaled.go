package kernels

import (
	"fmt"
	"iter"
	"math"

	"rkhs/internal/check"
	"rkhs/linalg"
)

// Scaled is a radial kernel with one length scale per feature (automatic
// relevance determination) against fixed centres Z (m×d):
//
//	Gaussian:   k_σ(x, z) = exp(−Σ_j (x_j − z_j)²/(2σ_j²)),   ∂k/∂log σ_j = k·(x̃_j − z̃_j)²
//	Laplacian:  k_σ(x, z) = exp(−Σ_j |x_j − z_j|/σ_j),       ∂k/∂log σ_j = k·|x̃_j − z̃_j|
//
// the kernel of width 1 (Gaussian{Sigma: 1}, Laplacian{Sigma: 1}) on the
// scaled features x̃ = x/σ and z̃ = z/σ (column j divided by σ_j). Both
// are smooth in σ: the Laplacian is not differentiable in x at x_j = z_j,
// but its derivative in σ_j is |x̃_j − z̃_j|·k there too, 0 at x_j = z_j. It owns what an objective of the length
// scales needs of the kernel: the blocks of rows of K = K(X̃, Z̃), each
// block of X divided by σ as it is evaluated (Blocks), and the
// contraction of an adjoint with K's derivatives in every log σ_j
// (AddGradient, EndGradient, CentersGradient), so that the objective
// only forms its adjoint — the split of Rasmussen and Williams,
// "Gaussian Processes for Machine Learning" (2006, §5.4.1), where each
// kernel gives ∂K/∂θ_j and the objective contracts it, streamed here
// without a tensor of n·m·d values.
//
// A Scaled is only read once made, so it is safe for concurrent use.
type Scaled struct {
	k     Kernel        // the kernel of width 1
	sigma []float64     // σ_j
	zs    *linalg.Dense // Z̃ = Z/σ (m×d)
	zbar  []float64     // the column means of Z̃, by which the contraction shifts both sets
	ze    *linalg.Dense // [Z̃ − 1z̄ᵀ | 1] (m×(d+1))
}

// NewScaled prepares the kernel k — Gaussian or Laplacian, whose own
// width the length scales replace — with the length scales sigma (one
// per column of z) on the centres z (m×d), which it divides by sigma into
// a copy: O(md). Neither z nor sigma is kept.
//
// Errors (*linalg.InputError values): ErrParameter for another kernel
// (nil included) or sigma not of d positive finite values (also
// linalg.ErrNotFinite for NaN or ±Inf);
// ErrData for z nil, malformed, without rows or not finite, or a centre
// whose division by σ overflows.
func NewScaled(k Kernel, z *linalg.Dense, sigma []float64) (*Scaled, error) {
	const op = "NewScaled"
	var unit Kernel
	switch k.(type) {
	case Gaussian:
		unit = Gaussian{Sigma: 1}
	case Laplacian:
		unit = Laplacian{Sigma: 1}
	default:
		return nil, check.Input(ErrParameter, op, "k", "%T: one length scale per feature is defined for the Gaussian and Laplacian kernels", k)
	}
	if err := check.Data(ErrData, op, "z", z, 1); err != nil {
		return nil, err
	}
	if len(sigma) != z.Cols {
		return nil, check.Input(ErrParameter, op, "sigma", "%d scales for %d features", len(sigma), z.Cols)
	}
	for j, v := range sigma {
		if err := check.Positive(ErrParameter, op, fmt.Sprintf("sigma[%d]", j), v); err != nil {
			return nil, err
		}
	}
	m, d := z.Rows, z.Cols
	s := &Scaled{k: unit, sigma: append([]float64(nil), sigma...), zbar: make([]float64, d)}
	s.zs = scaleColumns(nil, z, s.sigma)
	if err := check.Finite(ErrData, op, "z divided by sigma", s.zs); err != nil {
		return nil, err
	}
	for k := 0; k < m; k++ {
		for j, v := range s.zs.Row(k) {
			s.zbar[j] += v
		}
	}
	for j := range s.zbar {
		s.zbar[j] /= float64(m)
	}
	s.ze = linalg.NewDense(m, d+1, nil)
	for k := 0; k < m; k++ {
		row := s.ze.Row(k)
		for j, v := range s.zs.Row(k) {
			row[j] = v - s.zbar[j]
		}
		row[d] = 1
	}
	return s, nil
}

// Kernel returns the kernel of width 1 that the scaled features are
// evaluated with: Gaussian{Sigma: 1} or Laplacian{Sigma: 1}.
func (s *Scaled) Kernel() Kernel { return s.k }

// Sigma returns the length scales σ_j; the caller must not modify them.
func (s *Scaled) Sigma() []float64 { return s.sigma }

// Centers returns the scaled centres Z̃ = Z/σ (m×d); the caller must not
// modify them.
func (s *Scaled) Centers() *linalg.Dense { return s.zs }

// scaleColumns writes x with column j divided by sigma[j] into dst (nil
// is allocated) and returns it: the same division
// Standardization.Apply makes with Mean 0 and Scale σ, so that a model of
// the scaled centres with that standardization predicts with these
// values.
func scaleColumns(dst, x *linalg.Dense, sigma []float64) *linalg.Dense {
	if dst == nil {
		dst = new(linalg.Dense)
	}
	dst.Reuse(x.Rows, x.Cols)
	for i := 0; i < x.Rows; i++ {
		src, row := x.Row(i), dst.Row(i)
		for j, v := range src {
			row[j] = v / sigma[j]
		}
	}
	return dst
}

// ScaledBlock is one block of rows of a Scaled kernel's matrix as
// Scaled.Blocks gives it: I0, the index of its first row in X, the
// scaled rows X̃_b (b×d) and their kernel rows K_b = K(X̃_b, Z̃) (b×m).
// It is also the storage Blocks reuses from block to block and from
// pass to pass.
type ScaledBlock struct {
	I0   int
	X, K linalg.Dense
}

// Blocks returns an iterator over the rows of x (n×d) in blocks of rows
// rows, in order: each step gives the block (its rows [I0, I0 + b)
// divided by σ and their kernel rows, CrossTo's values bit for bit) and a
// nil error; the last block holds the rows left. The block lives in
// work (nil: allocated once for the iteration), valid during its step
// only. A block whose kernel values CrossTo refuses ends the iteration
// with CrossTo's error (ErrData). A row's values do not depend on the
// rows of its block. Blocks panics if rows < 1 or x has another number
// of columns than the centres.
//
// Cost: that of CrossTo on every block, 2nmd flops and nm exponentials,
// and nd divisions. Memory: one block, b(m + d) values.
func (s *Scaled) Blocks(x *linalg.Dense, rows int, work *ScaledBlock) iter.Seq2[*ScaledBlock, error] {
	if rows < 1 || x.Cols != s.zs.Cols {
		panic(fmt.Sprintf("kernels: Scaled.Blocks: blocks of %d rows of %d columns, the centres have %d", rows, x.Cols, s.zs.Cols))
	}
	if work == nil {
		work = new(ScaledBlock)
	}
	return func(yield func(*ScaledBlock, error) bool) {
		for i0 := 0; i0 < x.Rows; i0 += rows {
			i1 := min(i0+rows, x.Rows)
			work.I0 = i0
			xs := scaleColumns(&work.X, x.Slice(i0, i1, 0, x.Cols), s.sigma)
			if _, err := CrossTo(work.K.Reuse(i1-i0, s.zs.Rows), s.k, xs, s.zs); err != nil {
				yield(nil, err)
				return
			}
			if !yield(work, nil) {
				return
			}
		}
	}
}

// AddGradient adds one block's part of the contraction of an adjoint N
// (b×m, the derivative of a function J of K in the block's entries K_b)
// with K's derivatives in every log σ_j,
//
//	Σ_ik N_ik·∂K_ik/∂log σ_j = Σ_ik E_ik·δ(x̃_ij − z̃_kj),   E = N∘K_b,
//
// δ(t) = t² for the Gaussian and |t| for the Laplacian, into g (d) and t
// (m), sums over the rows that blocks on different workers merge by
// adding; EndGradient adds what t owes once every block is in. N is
// overwritten with E. work (nil: allocated) is reused between calls.
//
// The Gaussian's sum is taken expanded, (x′∘x′)ᵀ(E·1) −
// 2·diag(X′ᵀE·Z′) + (1ᵀE)(z′∘z′), with both sets shifted by z̄
// (x′ = x̃ − z̄, z′ = z̃ − z̄) so that the expansion cancels no more than
// the distances do: one product R = E·[Z′ | 1] (2bmd flops), then
// g_j += Σ_i x′_ij(x′_ij·R_id − 2R_ij) in row order, and t += Eᵀ1. The
// Laplacian's has no such expansion: each row's Σ_k E_ik|x̃_ij − z̃_kj|
// (bmd scalar flops, rows split over the goroutines), added to g in row
// order; t is not used.
func (s *Scaled) AddGradient(g, t []float64, b *ScaledBlock, n *linalg.Dense, work *GradientWork) {
	kb, xs := &b.K, &b.X
	rows, d := kb.Rows, s.zs.Cols
	if len(g) != d || len(t) != s.zs.Rows || n.Rows != rows || n.Cols != kb.Cols {
		panic(fmt.Sprintf("kernels: Scaled.AddGradient: g of %d, t of %d, N %d×%d for a block %d×%d", len(g), len(t), n.Rows, n.Cols, rows, kb.Cols))
	}
	if work == nil {
		work = new(GradientWork)
	}
	rowsParallel(rows, kb.Cols, func(i int) {
		row, krow := n.Row(i), kb.Row(i)
		for k := range row {
			row[k] *= krow[k]
		}
	})
	r := work.r.Reuse(rows, d+1)
	if _, ok := s.k.(Laplacian); ok {
		absContract(r, n, xs, s.zs)
		for i := 0; i < rows; i++ {
			for j, v := range r.Row(i)[:d] {
				g[j] += v
			}
		}
		return
	}
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, n, s.ze, 0, r)
	ones := work.ones.Reuse(rows, 1)
	for i := range ones.Data {
		ones.Data[i] = 1
	}
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, n, ones, 1, linalg.NewDense(len(t), 1, t))
	for i := 0; i < rows; i++ {
		ri, xi := r.Row(i), xs.Row(i)
		for j, v := range xi {
			x := v - s.zbar[j]
			g[j] += x * (x*ri[d] - 2*ri[j])
		}
	}
}

// absContract sets r_ij = Σ_k e_ik·|x_ij − z_kj| for every row i of e
// (b×m) and x (b×d), z (m×d), r at least d columns; the rows are split
// over the goroutines, each row one call.
func absContract(r, e, x, z *linalg.Dense) {
	d := x.Cols
	rowsParallel(e.Rows, e.Cols*d, func(i int) {
		ri, ei, xi := r.Row(i)[:d], e.Row(i), x.Row(i)
		clear(ri)
		for k, ek := range ei {
			zk := z.Row(k)[:d]
			for j, v := range xi {
				ri[j] += ek * math.Abs(v-zk[j])
			}
		}
	})
}

// GradientWork is the workspace of AddGradient, reused from block to
// block.
type GradientWork struct{ r, ones linalg.Dense }

// EndGradient adds to grad (d) the part of the contraction that the sums
// t (m) of AddGradient over every row still owe: Σ_k t_k·z′_kj² for the
// Gaussian, nothing for the Laplacian. grad then holds
// Σ_ik N_ik·∂K_ik/∂log σ_j, with g the first d values the caller added
// in.
func (s *Scaled) EndGradient(grad, t []float64) {
	if _, ok := s.k.(Laplacian); ok {
		return
	}
	d := s.zs.Cols
	for k, tk := range t {
		zk := s.ze.Row(k)
		for j := 0; j < d; j++ {
			grad[j] += tk * zk[j] * zk[j]
		}
	}
}

// CentersGradient returns the contraction of an adjoint P (m×m,
// symmetric: the derivative of J in K_mm = K(Z̃, Z̃)) with K_mm's
// derivatives in every log σ_j, Σ_kl P_kl·∂(K_mm)_kl/∂log σ_j, d values:
// Σ_kl E_kl·δ(z̃_kj − z̃_lj), E = P∘K_mm (see AddGradient), for the
// Gaussian as 2·(z′∘z′)ᵀ(E·1) − 2·diag(Z′ᵀE·Z′) from one product
// E·[Z′ | 1], for the Laplacian row by row. K_mm is
// formed in work (m×m, overwritten; nil or empty: allocated), then E in
// its place; P is not modified. Cost: about 2m²d flops and m²
// exponentials. An error of GramTo on the scaled centres (a
// *linalg.MemoryError) is returned as it is.
func (s *Scaled) CentersGradient(p, work *linalg.Dense) ([]float64, error) {
	m, d := s.zs.Rows, s.zs.Cols
	if p.Rows != m || p.Cols != m {
		panic(fmt.Sprintf("kernels: Scaled.CentersGradient: P %d×%d, want %d×%d", p.Rows, p.Cols, m, m))
	}
	ep, err := GramTo(work, s.k, s.zs, linalg.All)
	if err != nil {
		return nil, err
	}
	for i := 0; i < m; i++ {
		row, prow := ep.Row(i), p.Row(i)
		for k := range row {
			row[k] *= prow[k]
		}
	}
	r := linalg.NewDense(m, d+1, nil)
	out := make([]float64, d)
	if _, ok := s.k.(Laplacian); ok {
		absContract(r, ep, s.zs, s.zs)
		for k := 0; k < m; k++ {
			for j, v := range r.Row(k)[:d] {
				out[j] += v
			}
		}
		return out, nil
	}
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, ep, s.ze, 0, r)
	for k := 0; k < m; k++ {
		rk, zk := r.Row(k), s.ze.Row(k)
		for j := 0; j < d; j++ {
			out[j] += 2 * zk[j] * (zk[j]*rk[d] - rk[j])
		}
	}
	return out, nil
}
