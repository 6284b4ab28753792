package linalg

// axpyRowsBlock is the number of elements of y that axpyRows keeps in
// registers while it runs through the rows: eight independent chains of
// additions, enough to hide the latency of each (three or four cycles) at
// two additions a cycle, and few enough for the fifteen floating-point
// registers the Go compiler gives amd64.
const axpyRowsBlock = 8

// axpyRowsScalar sets y[i] −= Σ_t c[t]·R_t[off+i] for i < len(y), over the rows
// R_t of the panels the reflectors of a blocked reduction accumulate: with
// z.Data nil, R_t is row t of x (t < len(c)); otherwise the rows alternate,
// R_{2q} = row q of x and R_{2q+1} = row q of z (q < len(c)/2). Each
// element takes its terms in the order of t, each as y[i] += (−c[t])·R_t[i]
// — the operations of axpy(−c[t], R_t[off:], y) for t = 0, 1, … in turn,
// bit for bit on every architecture — but y is read and written once, not
// once per row, and eight elements are updated side by side, so that the
// pass runs at the floating-point units' pace rather than at that of the
// loads and stores of y. The rows must not overlap y. Cost: 2·len(c)·len(y)
// flops. It is axpyRows in every build but GOEXPERIMENT=simd on an AVX-512
// CPU, and that version's oracle.
func axpyRowsScalar(y []float64, x, z Dense, off int, c []float64) {
	n := len(y)
	k := 0
	for ; k+axpyRowsBlock <= n; k += axpyRowsBlock {
		ys := y[k : k+axpyRowsBlock : k+axpyRowsBlock]
		y0, y1, y2, y3 := ys[0], ys[1], ys[2], ys[3]
		y4, y5, y6, y7 := ys[4], ys[5], ys[6], ys[7]
		if z.Data == nil {
			for t, ct := range c {
				a, o := -ct, t*x.Stride+off+k
				r := x.Data[o : o+axpyRowsBlock : o+axpyRowsBlock]
				y0 += a * r[0]
				y1 += a * r[1]
				y2 += a * r[2]
				y3 += a * r[3]
				y4 += a * r[4]
				y5 += a * r[5]
				y6 += a * r[6]
				y7 += a * r[7]
			}
		} else {
			for q := 0; q+1 < len(c); q += 2 {
				a, b := -c[q], -c[q+1]
				o, p := q/2*x.Stride+off+k, q/2*z.Stride+off+k
				r := x.Data[o : o+axpyRowsBlock : o+axpyRowsBlock]
				s := z.Data[p : p+axpyRowsBlock : p+axpyRowsBlock]
				y0 += a * r[0]
				y1 += a * r[1]
				y2 += a * r[2]
				y3 += a * r[3]
				y4 += a * r[4]
				y5 += a * r[5]
				y6 += a * r[6]
				y7 += a * r[7]
				y0 += b * s[0]
				y1 += b * s[1]
				y2 += b * s[2]
				y3 += b * s[3]
				y4 += b * s[4]
				y5 += b * s[5]
				y6 += b * s[6]
				y7 += b * s[7]
			}
		}
		ys[0], ys[1], ys[2], ys[3] = y0, y1, y2, y3
		ys[4], ys[5], ys[6], ys[7] = y4, y5, y6, y7
	}
	for ; k < n; k++ {
		yk := y[k]
		for t, ct := range c {
			a := -ct
			switch {
			case z.Data == nil:
				yk += a * x.Data[t*x.Stride+off+k]
			case t%2 == 0:
				yk += a * x.Data[t/2*x.Stride+off+k]
			default:
				yk += a * z.Data[t/2*z.Stride+off+k]
			}
		}
		y[k] = yk
	}
}
