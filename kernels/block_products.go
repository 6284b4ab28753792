package kernels

import (
	"rkhs/internal/avx"
	"rkhs/linalg"
)

// The two skinny products of a streamed block K_b (b×m, in cache) with q
// columns: W = K_b·V and P += K_b·ᵀW (or K_bᵀ·Y_b), on the calling
// goroutine. V, P and the columns of Y are kept as q columns of length m
// (or b), each contiguous, so that both products are sequences of
// contiguous dot products and axpys: 2bmq flops each. The summation order
// of every result is fixed by the code alone (see rowDot and addRows), so
// the products cannot depend on the number of goroutines. In a
// GOEXPERIMENT=simd build on an AVX-512 CPU, rowDot and axpy4 run eight
// lanes at a time (block_products_simd.go) and sum in another fixed order.

// mulRows sets wt[c·b + i] = K_b[i]·vt[c·m : (c+1)·m] for the rows i of
// kb (b×m, rows of stride m) and the q columns of V stored one after
// another in vt: W = K_b·V, b×q, stored by columns.
func mulRows(wt, kb, vt []float64, b, m, q int) {
	for i := range b {
		avx.ClearUpper()
		row := kb[i*m : (i+1)*m]
		for c := range q {
			wt[c*b+i] = rowDot(row, vt[c*m:(c+1)*m])
		}
	}
}

// addRows adds Σᵢ wt[c·b + i]·K_b[i] to pt[c·m : (c+1)·m] for every column
// c < q: P += K_bᵀ·W with W (b×q) stored by columns in wt and P (m×q) by
// columns in pt. The rows of K_b are added four at a time by axpy4, in
// increasing order, then one at a time.
func addRows(pt, kb, wt []float64, b, m, q int) {
	for c := range q {
		p, w := pt[c*m:(c+1)*m], wt[c*b:(c+1)*b]
		i := 0
		for ; i+4 <= b; i += 4 {
			avx.ClearUpper()
			axpy4(w[i], w[i+1], w[i+2], w[i+3], kb[i*m:(i+1)*m], kb[(i+1)*m:(i+2)*m], kb[(i+2)*m:(i+3)*m], kb[(i+3)*m:(i+4)*m], p)
		}
		for ; i < b; i++ {
			wi, row := w[i], kb[i*m:(i+1)*m]
			row = row[:len(p)]
			for j := range p {
				p[j] += wi * row[j]
			}
		}
	}
}

// rowDotScalar returns Σⱼ a[j]·b[j] over j < len(a) (b may be longer):
// linalg.Dot, whose fixed order of summation (four interleaved partial
// sums) makes the result depend only on a and b.
func rowDotScalar(a, b []float64) float64 { return linalg.Dot(a, b[:len(a)]) }

// axpy4Scalar adds (w0·k0[j] + w1·k1[j]) + (w2·k2[j] + w3·k3[j]) to y[j]
// for every j.
func axpy4Scalar(w0, w1, w2, w3 float64, k0, k1, k2, k3, y []float64) {
	k0, k1, k2, k3 = k0[:len(y)], k1[:len(y)], k2[:len(y)], k3[:len(y)]
	for j := range y {
		y[j] += (w0*k0[j] + w1*k1[j]) + (w2*k2[j] + w3*k3[j])
	}
}
