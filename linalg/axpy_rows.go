package linalg

// axpyRowsScalar sets y[i] −= Σ_t c[t]·R_t[off+i] for i < len(y), over the
// rows R_t of the panels the reflectors of a blocked reduction accumulate:
// with z.Data nil, R_t is row t of x (t < len(c)); otherwise the rows
// alternate, R_{2q} = row q of x and R_{2q+1} = row q of z
// (q < len(c)/2) (panelRow). It is axpy(−c[t], R_t[off:], y) for t = 0,
// 1, … in turn. Elements of y held in registers across the rows (one pass
// over y instead of one a row) ran no faster in the scalar code Go
// compiles — both kept the core's instruction decoding, not its loads,
// busy, at about 0.3 ns a term on the AMD EPYC of 2026-12-02 — so this
// stays the plain loop, and the results the reductions had. It is
// axpyRows in every build but GOEXPERIMENT=simd on an AVX-512 CPU, and
// that version's oracle. The rows must not overlap y. Cost:
// 2·len(c)·len(y) flops.
func axpyRowsScalar(y []float64, x, z Dense, off int, c []float64) {
	for t, ct := range c {
		axpy(-ct, panelRow(x, z, off, t, len(y)), y)
	}
}
