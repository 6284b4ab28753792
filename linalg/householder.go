package linalg

import "math"

// Householder reflectors H = I − τ·v·vᵀ with v[0] = 1, the building block of
// the tridiagonal reduction and its back-transformation.

// reflector computes a reflector H with H·x = β·e₁ for the vector x (length
// m ≥ 1) and returns β and τ; on return x[1:] holds v[1:] (v[0] = 1 is
// implicit) and x[0] is untouched. If x[1:] is zero, τ = 0 and H = I. β has
// the opposite sign of x[0], so that v is computed without cancellation:
// β = −sign(x₀)·‖x‖, τ = (β − x₀)/β, v = x/(x₀ − β). If β is tiny, x is
// scaled up first so that 1/(x₀ − β) cannot overflow.
func reflector(x []float64) (beta, tau float64) {
	alpha := x[0]
	xnorm := nrm2(x[1:])
	if xnorm == 0 {
		return alpha, 0
	}
	beta = -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	const safmin = 0x1p-1022 / 0x1p-52 // smallest number whose reciprocal is safe, scaled by ε
	rescaled := 0
	for math.Abs(beta) < safmin && rescaled < 20 {
		// Scale x up (by 1/safmin per round) until β is representable
		// with room to spare; undone on β at the end.
		rescaled++
		for i := range x[1:] {
			x[1+i] /= safmin
		}
		alpha /= safmin
		beta /= safmin
		xnorm = nrm2(x[1:])
		beta = -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	}
	tau = (beta - alpha) / beta
	s := 1 / (alpha - beta)
	for i := range x[1:] {
		x[1+i] *= s
	}
	for ; rescaled > 0; rescaled-- {
		beta *= safmin
	}
	return beta, tau
}

// blockReflectorT forms the k×k upper triangular factor T of the compact WY
// representation H₀·H₁·…·H_{k−1} = I − Vᵀ·T·V (forward order), where the
// reflectors are the rows of vt (k×m: row p is vₚ, with its zeros and unit
// entry explicit) and tau their scalars. T is built column by column:
// T[p][p] = τ_p and T[0:p][p] = −τ_p·T[0:p][0:p]·(V[0:p]·v_p). The cost is
// about k²m flops.
func blockReflectorT(vt Dense, tau []float64, t Dense) {
	k := vt.Rows
	s := make([]float64, k)
	for p := 0; p < k; p++ {
		vp := vt.Data[p*vt.Stride : p*vt.Stride+vt.Cols]
		for q := 0; q < p; q++ {
			s[q] = dot(vt.Data[q*vt.Stride:q*vt.Stride+vt.Cols], vp)
		}
		// T[0:p][p] = −τ_p · T[0:p][0:p] · s[0:p], T upper triangular.
		for q := 0; q < p; q++ {
			row := t.Data[q*t.Stride : q*t.Stride+p]
			t.Data[q*t.Stride+p] = -tau[p] * dot(row[q:p], s[q:p])
		}
		t.Data[p*t.Stride+p] = tau[p]
		for q := p + 1; q < k; q++ {
			t.Data[q*t.Stride+p] = 0
		}
	}
}

// applyBlockReflector overwrites the m×n matrix Z with (I − Vᵀ·T·V)·Z, where
// vt is k×m (reflectors in rows) and t the k×k upper triangular factor from
// blockReflectorT; work must hold 2·k·n values. Two products with Z make up
// the cost, 4kmn flops, both in Gemm: W = V·Z, W ← T·W, Z ← Z − Vᵀ·W.
func applyBlockReflector(vt, t, z Dense, work []float64) {
	k, n := vt.Rows, z.Cols
	w := Dense{Rows: k, Cols: n, Stride: n, Data: work[:k*n]}
	tw := Dense{Rows: k, Cols: n, Stride: n, Data: work[k*n : 2*k*n]}
	gemm(NoTrans, NoTrans, 1, vt, z, 0, w)
	gemm(NoTrans, NoTrans, 1, t, w, 0, tw)
	gemm(Trans, NoTrans, -1, vt, tw, 1, z)
}
