//go:build goexperiment.simd && amd64

package linalg

// dotRows is dotRowsScalar with AVX-512: the rows two at a time by dot2,
// which loads each element of v once for both and keeps each sum in eight
// lanes added across in a fixed order (an odd last row is paired with
// itself). The results depend only on the inputs, not on the number of
// goroutines, but differ in the last bits from the scalar build's.
func dotRows(out []float64, x, z Dense, off int, v []float64) {
	if !hasAVX512 || len(v) < 16 {
		dotRowsScalar(out, x, z, off, v)
		return
	}
	n := len(v)
	t := 0
	for ; t+1 < len(out); t += 2 {
		out[t], out[t+1] = dot2(panelRow(x, z, off, t, n), panelRow(x, z, off, t+1, n), v)
	}
	if t < len(out) {
		r := panelRow(x, z, off, t, n)
		out[t], _ = dot2(r, r, v)
	}
}
