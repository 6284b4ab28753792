package regress

import (
	"errors"
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
)

// falkonPrecond is Falkon's preconditioner for m centres, held as two
// lower triangular factors: L = Tᵀ with L·Lᵀ = K_mm + δI, and M = Aᵀ with
// M·Mᵀ = LᵀL/m + λI (T·Tᵀ/m + λI). B = T⁻¹A⁻¹ = L⁻ᵀM⁻ᵀ satisfies
// B·Bᵀ = (K_mm'·K_mm'/m + λK_mm')⁻¹ with K_mm' = K_mm + δI, so n·B·Bᵀ
// approximates the inverse of the normal matrix K_nmᵀK_nm + nλK_mm (Rudi,
// Carratino and Rosasco 2017, section 3).
type falkonPrecond struct {
	l, a   *linalg.Dense // lower triangles: L and M (strict upper parts zero)
	delta  float64       // δ
	lambda float64       // λ
}

// newFalkonPrecond builds the preconditioner in two m×m matrices: K_mm
// (lower triangle, kernels.GramTo), copied with δ = ε·m·t on the diagonal
// into the second and factored there (L); then LᵀL/m + λI over K_mm
// (lowerGram, m³/3 flops), factored in place (M). If K_mm + δI is not
// numerically positive definite, the jitter of Nystrom (jitterSteps) is
// added on top, each try refilled and factored in place in the second
// matrix: two m×m matrices at the peak, as falkonBytes counts.
func newFalkonPrecond(op string, k kernels.Kernel, centres *linalg.Dense, lambda float64) (*falkonPrecond, error) {
	m := centres.Rows
	kmm, err := kernels.GramTo(nil, k, centres, linalg.Lower)
	if err != nil {
		return nil, kernelError(op, "centres", err)
	}
	var trace float64
	for i := range m {
		trace += kmm.At(i, i)
	}
	delta := 0x1p-52 * float64(m) * trace / float64(m) // ε·m·t; not 0x1p-52*trace, which rounds differently
	l := linalg.NewDense(m, m, nil)
	for i := range m {
		copy(l.Row(i)[:i+1], kmm.Row(i)[:i+1])
		l.Set(i, i, l.At(i, i)+delta)
	}
	var ch linalg.Cholesky
	err = ch.FactorizeInPlace(l)
	if errors.Is(err, linalg.ErrNotPositiveDefinite) {
		// The jitter of Nystrom on top of δ, tried in place in l as
		// factorWithJitter would on K_mm + δI (same mean diagonal, same
		// steps, same sums), without its copy.
		var t float64
		for i := range m {
			t += kmm.At(i, i) + delta
		}
		var steps []float64
		steps, err = jitterSteps(t/float64(m), err)
		for _, extra := range steps {
			for i := range m {
				copy(l.Row(i)[:i+1], kmm.Row(i)[:i+1])
				l.Set(i, i, (l.At(i, i)+delta)+extra)
			}
			if err = ch.FactorizeInPlace(l); err == nil {
				delta += extra
				break
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("regress: %s: the preconditioner's K_mm + δI: %w", op, err)
	}
	zeroUpper(l)

	// M·Mᵀ = LᵀL/m + λI (A = Mᵀ), written over K_mm.
	a := kmm
	lowerGram(a, l, 1/float64(m))
	for i := range m {
		a.Set(i, i, a.At(i, i)+lambda)
	}
	var ca linalg.Cholesky
	if err := ca.FactorizeInPlace(a); err != nil {
		return nil, fmt.Errorf("regress: %s: the preconditioner's T·Tᵀ/m + λI (λ = %g): %w", op, lambda, err)
	}
	zeroUpper(a)
	return &falkonPrecond{l: l, a: a, delta: delta, lambda: lambda}, nil
}

// lauumPanel is the height of the row panels of lowerGram.
const lauumPanel = 256

// lowerGram sets the lower triangle of c to α·LᵀL for L lower triangular
// (m×m, strict upper triangle zero), as LAPACK's dlauum does for its
// triangle: the sum over panels of lauumPanel rows, L_K = L[k₀:k₁, 0:k₁]
// (zero to the right of column k₁), of α·L_Kᵀ·L_K into c[0:k₁, 0:k₁] by
// linalg.Syrk, in increasing order of the panels. The flops are about
// m³/3, a third of one Syrk on the whole of L.
func lowerGram(c, l *linalg.Dense, alpha float64) {
	m := l.Rows
	for i := range m {
		clear(c.Row(i)[:i+1])
	}
	for k0 := 0; k0 < m; k0 += lauumPanel {
		k1 := min(k0+lauumPanel, m)
		linalg.Syrk(linalg.Lower, linalg.Trans, alpha, l.Slice(k0, k1, 0, k1), 1, c.Slice(0, k1, 0, k1))
	}
}

// zeroUpper sets the strict upper triangle of a to zero.
func zeroUpper(a *linalg.Dense) {
	for i := range a.Rows {
		clear(a.Row(i)[i+1:])
	}
}

// forward sets av = A⁻¹p = M⁻ᵀp and v = T⁻¹A⁻¹p = L⁻ᵀ·av.
func (pc *falkonPrecond) forward(av, v, p *linalg.Dense) {
	av.Copy(p)
	triSolve(linalg.Trans, pc.a, av)
	v.Copy(av)
	triSolve(linalg.Trans, pc.l, v)
}

// backward sets z = A⁻ᵀT⁻ᵀz = M⁻¹L⁻¹z.
func (pc *falkonPrecond) backward(z *linalg.Dense) {
	triSolve(linalg.NoTrans, pc.l, z)
	triSolve(linalg.NoTrans, pc.a, z)
}

// finish completes W·p from hv = (centred) K_nmᵀK_nm·v, v = T⁻¹A⁻¹p and
// av = A⁻¹p: with the penalty TᵀT = L·Lᵀ = K_mm + δI and Lᵀv = av,
//
//	W·p = M⁻¹L⁻¹(hv/n + λ·L·Lᵀv) = M⁻¹(L⁻¹hv/n + λ·av),
//
// written into dst; hv is overwritten.
func (pc *falkonPrecond) finish(dst, hv, av *linalg.Dense, n float64) {
	triSolve(linalg.NoTrans, pc.l, hv)
	for j := range hv.Rows {
		h, ar := hv.Row(j), av.Row(j)
		for k := range h {
			h[k] = h[k]/n + pc.lambda*ar[k]
		}
	}
	triSolve(linalg.NoTrans, pc.a, hv)
	dst.Copy(hv)
}

// triSolve solves op(A)·X = B in place for the lower triangular A:
// linalg.Trsv for one column (B m×1 with unit stride, its Data the
// vector), which reads A once instead of packing it for the blocked
// linalg.Trsm, linalg.Trsm otherwise.
func triSolve(t linalg.Op, a, b *linalg.Dense) {
	if b.Cols == 1 && b.Stride == 1 {
		linalg.Trsv(linalg.Lower, t, a, b.Data[:b.Rows])
		return
	}
	linalg.Trsm(linalg.Lower, t, a, b)
}

// coefficients sets c = T⁻¹A⁻¹β = L⁻ᵀM⁻ᵀβ.
func (pc *falkonPrecond) coefficients(c, beta *linalg.Dense) {
	c.Copy(beta)
	triSolve(linalg.Trans, pc.a, c)
	triSolve(linalg.Trans, pc.l, c)
}
