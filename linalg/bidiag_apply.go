package linalg

// The back-transformations of bidiagonalize: with B = Qᵀ·A·P and
// B = U_B·Σ·V_Bᵀ, A = (Q·U_B)·Σ·(P·V_B)ᵀ. Both products go through
// applyReflectors (compact WY blocks, at Gemm speed): Q·U_B by applyBidiagQ
// below, P·V_B by applyRowReflectors (householder.go), which it shares with
// tridiagonalize's Q.

// applyBidiagQ overwrites the m×k matrix z with Q·z, Q = H₀·…·H_{n−1} the
// left reflectors of bidiagonalize stored in the columns of the m×n matrix
// a (v[1:] of H_j in a[j+1:][j]) with scalars tauq. The cost is about
// 4mnk − 2n²k flops.
func applyBidiagQ(a Dense, tauq []float64, z Dense) {
	m, n := a.Rows, a.Cols
	applyReflectors(n, 0, tauq, func(j int, dst []float64) {
		for r := range dst[:m-j-1] {
			dst[r] = a.Data[(j+1+r)*a.Stride+j]
		}
	}, z)
}
