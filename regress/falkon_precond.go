package regress

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
)

// falkonPrecond is Falkon's preconditioner for m centres, held as two
// lower triangular factors: L = Tᵀ with L·Lᵀ = K_mm + δI, and M = Aᵀ with
// M·Mᵀ = LᵀL/m + λI (T·Tᵀ/m + λI). B = T⁻¹A⁻¹ = L⁻ᵀM⁻ᵀ satisfies
// B·Bᵀ = (K_mm'·K_mm'/m + λK_mm')⁻¹ with K_mm' = K_mm + δI, so n·B·Bᵀ
// approximates the inverse of the normal matrix K_nmᵀK_nm + nλK_mm (Rudi,
// Carratino and Rosasco 2017, section 3). falkonSystem applies it by
// triangular solves (linalg.Trtrs) with L and M.
type falkonPrecond struct {
	l, a   *linalg.Dense // lower triangles: L and M (strict upper parts zero)
	delta  float64       // δ
	lambda float64       // λ
}

// newFalkonPrecond builds the preconditioner in two m×m matrices: K_mm
// (lower triangle, kernels.GramTo), copied with δ = ε·m·t on the diagonal
// into the second and factored there (L); then LᵀL/m + λI over K_mm
// (linalg.Lauum, m³/3 flops), factored in place (M). If K_mm + δI is not
// numerically positive definite, the jitter of Nystrom (factorInPlaceWithJitter) is
// added on top, each try refilled and factored in place in the second
// matrix: two m×m matrices at the peak, as FalkonMemory counts.
func newFalkonPrecond(op string, k kernels.Kernel, centers *linalg.Dense, lambda float64) (*falkonPrecond, error) {
	m := centers.Rows
	kmm, err := kernels.GramTo(nil, k, centers, linalg.Lower)
	if err != nil {
		return nil, kernelError(op, "centers", err)
	}
	var trace float64
	for i := range m {
		trace += kmm.At(i, i)
	}
	delta := 0x1p-52 * float64(m) * trace / float64(m) // ε·m·t; not 0x1p-52*trace, which rounds differently
	// K_mm + δI in l, refilled from the K_mm kept for what follows for
	// each try of Nystrom's jitter on top of δ.
	fill := func(l *linalg.Dense) {
		for i := range m {
			copy(l.Row(i)[:i+1], kmm.Row(i)[:i+1])
			l.Set(i, i, l.At(i, i)+delta)
		}
	}
	l := linalg.NewDense(m, m, nil)
	fill(l)
	extra, err := factorInPlaceWithJitter(l, fill)
	delta += extra
	if err != nil {
		return nil, fmt.Errorf("regress: %s: the preconditioner's K_mm + δI: %w", op, err)
	}
	zeroUpper(l)

	// M·Mᵀ = LᵀL/m + λI (A = Mᵀ), written over K_mm.
	a := kmm
	linalg.Lauum(linalg.Lower, 1/float64(m), l, a)
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
