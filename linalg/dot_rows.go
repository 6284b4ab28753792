package linalg

// panelRow returns R_t[off:off+n] for the rows R_t of axpyRows and
// dotRows: row t of x when z.Data is nil, otherwise row t/2 of x (t even)
// or of z (t odd).
func panelRow(x, z Dense, off, t, n int) []float64 {
	d, o := x.Data, t*x.Stride+off
	if z.Data != nil {
		if t%2 == 0 {
			o = t/2*x.Stride + off
		} else {
			d, o = z.Data, t/2*z.Stride+off
		}
	}
	return d[o : o+n : o+n]
}

// dotRowsScalar sets out[t] = R_t[off:]·v for t < len(out), R_t the rows
// of axpyRows (x's rows, or x's and z's alternating): the dot products of
// a panel's earlier reflectors (or of their products) with a new vector,
// each summed as dot sums it. It is dotRows in every build but
// GOEXPERIMENT=simd on an AVX-512 CPU, and that version's oracle. Cost:
// 2·len(out)·len(v) flops.
func dotRowsScalar(out []float64, x, z Dense, off int, v []float64) {
	for t := range out {
		out[t] = dot(panelRow(x, z, off, t, len(v)), v)
	}
}
