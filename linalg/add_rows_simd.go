//go:build goexperiment.simd && amd64

package linalg

import (
	"simd/archsimd"

	"rkhs/internal/simdapi"
)

// addRows is addRowsScalar with AVX-512: thirty-two elements of y held in
// four vectors while the rows go by, then eight, and the last len(y) mod 8
// by addRowsScalar. A vector add rounds each lane as the scalar add does,
// so the result is addRowsScalar's to the bit.
func addRows(y []float64, rows [][]float64) {
	n := len(y)
	if !hasAVX512 || n < 16 || len(rows) == 0 {
		addRowsScalar(y, rows)
		return
	}
	m := n / 8 * 8
	addRows8(y[:m], rows)
	// The tail: each row's part beyond m, in the same order.
	var buf [32][]float64
	tail := buf[:0]
	if len(rows) > len(buf) {
		tail = make([][]float64, 0, len(rows))
	}
	for _, r := range rows {
		if len(r) > m {
			tail = append(tail, r[m:])
		}
	}
	addRowsScalar(y[m:], tail)
}

// addRows8 is addRows on a length that is a multiple of 8. A row that ends
// inside a block of y is added element by element, in its turn, with the
// block's vectors stored first and loaded again after (this happens once
// per row and call at most).
//
//go:noinline
func addRows8(y []float64, rows [][]float64) {
	n := len(y)
	k := 0
	for ; k+32 <= n; k += 32 {
		y0 := simdapi.Load8(y[k : k+8])
		y1 := simdapi.Load8(y[k+8 : k+16])
		y2 := simdapi.Load8(y[k+16 : k+24])
		y3 := simdapi.Load8(y[k+24 : k+32])
		for _, r := range rows {
			if len(r) >= k+32 {
				rs := r[k : k+32 : k+32]
				y0 = y0.Add(simdapi.Load8(rs[0:8]))
				y1 = y1.Add(simdapi.Load8(rs[8:16]))
				y2 = y2.Add(simdapi.Load8(rs[16:24]))
				y3 = y3.Add(simdapi.Load8(rs[24:32]))
				continue
			}
			if len(r) > k {
				simdapi.Store8(y0, y[k:k+8])
				simdapi.Store8(y1, y[k+8:k+16])
				simdapi.Store8(y2, y[k+16:k+24])
				simdapi.Store8(y3, y[k+24:k+32])
				archsimd.ClearAVXUpperBits() // no vector is live: the scalar adds run clean
				ys := y[k:len(r)]
				for i, v := range r[k:] {
					ys[i] += v
				}
				y0 = simdapi.Load8(y[k : k+8])
				y1 = simdapi.Load8(y[k+8 : k+16])
				y2 = simdapi.Load8(y[k+16 : k+24])
				y3 = simdapi.Load8(y[k+24 : k+32])
			}
		}
		simdapi.Store8(y0, y[k:k+8])
		simdapi.Store8(y1, y[k+8:k+16])
		simdapi.Store8(y2, y[k+16:k+24])
		simdapi.Store8(y3, y[k+24:k+32])
	}
	for ; k+8 <= n; k += 8 {
		y0 := simdapi.Load8(y[k : k+8])
		for _, r := range rows {
			if len(r) >= k+8 {
				y0 = y0.Add(simdapi.Load8(r[k : k+8]))
				continue
			}
			if len(r) > k {
				simdapi.Store8(y0, y[k:k+8])
				archsimd.ClearAVXUpperBits()
				ys := y[k:len(r)]
				for i, v := range r[k:] {
					ys[i] += v
				}
				y0 = simdapi.Load8(y[k : k+8])
			}
		}
		simdapi.Store8(y0, y[k:k+8])
	}
	archsimd.ClearAVXUpperBits()
}
