package linalg

// applyTridiagQ overwrites the n×k matrix Z with Q·Z, where
// Q = H₀·H₁·…·H_{n−2} is the orthogonal matrix of tridiagonalize, whose
// reflectors are stored in the rows of a (v[1:] of H_j in a[j][j+2:]) with
// scalars tau. With Z the eigenvectors of the tridiagonal T, Q·Z are those of
// A. The reflectors are applied in blocks by applyReflectors (compact WY
// form, at Gemm speed), about 2n²k flops.
func applyTridiagQ(a Dense, tau []float64, z Dense) {
	n := z.Rows
	applyReflectors(n-1, 1, tau, func(j int, dst []float64) {
		copy(dst, a.Data[j*a.Stride+j+2:j*a.Stride+n])
	}, z)
}
