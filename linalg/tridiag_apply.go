package linalg

// tridiagQNB is the number of reflectors applied at once by applyTridiagQ:
// the inner dimension of its Gemm calls, so larger than tridiagNB (an inner
// dimension of 32 leaves the micro-kernel loading and storing C for every 32
// multiply-adds). A variable only so that TestCalibrate can sweep it.
var tridiagQNB = 128

// applyTridiagQ overwrites the n×k matrix Z with Q·Z, where
// Q = H₀·H₁·…·H_{n−2} is the orthogonal matrix of tridiagonalize, whose
// reflectors are stored in the rows of a (v[1:] of H_j in a[j][j+2:]) with
// scalars tau. With Z the eigenvectors of the tridiagonal T, Q·Z are those of
// A.
//
// The reflectors are applied tridiagQNB at a time in compact WY form,
// I − Vᵀ·T·V, last block first (Q·Z = B₀·(B₁·(…·Z))), each block costing
// two Gemm calls; in all about 2n²k flops, at Gemm speed.
func applyTridiagQ(a Dense, tau []float64, z Dense) {
	n, k := z.Rows, z.Cols
	if n < 2 || k == 0 {
		return
	}
	nr := n - 1 // reflectors H_0 … H_{n−2}; H_j acts on rows j+1 … n−1
	nb := min(tridiagQNB, nr)
	vbuf := make([]float64, nb*(n-1))
	tbuf := make([]float64, nb*nb)
	work := make([]float64, 2*nb*k)
	last := (nr - 1) / nb * nb
	for j0 := last; j0 >= 0; j0 -= nb {
		b := min(nb, nr-j0)
		m := n - j0 - 1 // rows j0+1 … n−1 of Z
		// V: b×m, row p = v of H_{j0+p} over rows j0+1…: zeros, 1, a[j][j+2:].
		vt := Dense{Rows: b, Cols: m, Stride: m, Data: vbuf[:b*m]}
		for p := 0; p < b; p++ {
			j := j0 + p
			row := vt.Data[p*m : (p+1)*m]
			clear(row[:p])
			row[p] = 1
			copy(row[p+1:], a.Data[j*a.Stride+j+2:j*a.Stride+n])
		}
		t := Dense{Rows: b, Cols: b, Stride: b, Data: tbuf[:b*b]}
		blockReflectorT(vt, tau[j0:j0+b], t)
		applyBlockReflector(vt, t, z.view(j0+1, n, 0, k), work)
	}
}
