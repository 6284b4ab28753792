package linalg

// The matrix–vector passes of the bidiagonal reduction: each step of
// bidiagPanel needs Âᵀ·v and Â·u for the trailing matrix Â, and these
// passes over Â, bound by the loads they issue (two a cycle) or by memory
// bandwidth, are half of bidiagonalize's flops. Rows are taken in pairs by
// dot2 and axpy2, and in two pairs at once by axpy2x2; their scalar
// versions below are the default and the oracle of the AVX-512 ones in
// bidiag_pass_simd.go.

// bidiagBlock is the number of rows of the trailing matrix in one unit of
// the passes of bidiagPass. It fixes the order in which partial sums are
// added, so it must not depend on the number of goroutines.
const bidiagBlock = 64

// bidiagPass holds the workspace of the matrix–vector passes of
// bidiagonalize: rows of the trailing matrix are taken bidiagBlock at a
// time, a sum over rows goes into one partial vector per block, and the
// partial vectors are added in increasing block order, so the results are
// bit-identical for any number of goroutines. A pass over the rows (rows,
// and atv and fused through it) leaves its partial vectors behind, and
// sumThen adds them later, in the parallel loop of the work that uses the
// sum: the panel's corrections of y_p and of row p join it.
type bidiagPass struct {
	part   []float64 // partial sums, block r's at r·n
	col, h []float64 // columns (length m)
	aty    []float64 // Âᵀ·c (length n)
	n      int
	blocks int // row blocks of the last pass
	w      int // length of its partial sums
}

func newBidiagPass(m, n int) *bidiagPass {
	blocks := (m + bidiagBlock - 1) / bidiagBlock
	return &bidiagPass{
		part: make([]float64, blocks*n), n: n,
		col: make([]float64, m), h: make([]float64, m), aty: make([]float64, n),
	}
}

// rows runs body on the row blocks of a (rows × cols) in parallel, each
// block [r0, r1) accumulating into its partial vector of length w, cleared
// first; sumThen adds the partials.
func (ps *bidiagPass) rows(a Dense, w int, body func(r0, r1 int, part []float64)) {
	rows := a.Rows
	blocks := (rows + bidiagBlock - 1) / bidiagBlock
	p := teamSize(blocks, 4*float64(rows)*float64(a.Cols))
	forEach(p, blocks, taskFunc(func(_, r int) {
		part := ps.part[r*ps.n : r*ps.n+w]
		clear(part)
		body(r*bidiagBlock, min((r+1)*bidiagBlock, rows), part)
	}))
	ps.blocks, ps.w = blocks, w
}

// sumThen sets out (length ps.w) to the sum of the last pass's partial
// vectors in increasing block order, and calls then on each range of out
// once it is summed (sumPartialsThen; then costs about flops an element).
func (ps *bidiagPass) sumThen(out []float64, flops float64, then func(c0, c1 int)) {
	w := ps.w
	sumPartialsThen(out[:w], ps.blocks, func(r int) []float64 { return ps.part[r*ps.n : r*ps.n+w] }, flops, then)
}

// atv leaves aᵀ·v (v of length a.Rows) in the partial vectors, for
// sumThen.
func (ps *bidiagPass) atv(a Dense, v []float64) {
	ps.rows(a, a.Cols, func(r0, r1 int, part []float64) {
		i := r0
		for ; i+1 < r1; i += 2 {
			axpy2(v[i], v[i+1], a.Data[i*a.Stride:i*a.Stride+a.Cols], a.Data[(i+1)*a.Stride:(i+1)*a.Stride+a.Cols], part)
		}
		if i < r1 {
			axpy(v[i], a.Data[i*a.Stride:i*a.Stride+a.Cols], part)
		}
	})
}

// mul sets x = τ·(a·u − h) (x and h of length a.Rows), after prep(r0, r1)
// has run on each block of rows (it computes h[r0:r1]); each element is
// one dot product, so the rows need no partial sums.
func (ps *bidiagPass) mul(a Dense, u []float64, tau float64, h, x []float64, prep func(r0, r1 int)) {
	rows := a.Rows
	blocks := (rows + bidiagBlock - 1) / bidiagBlock
	forEach(teamSize(blocks, 2*float64(rows)*float64(a.Cols)), blocks, taskFunc(func(_, r int) {
		i, r1 := r*bidiagBlock, min((r+1)*bidiagBlock, rows)
		prep(i, r1)
		for ; i+1 < r1; i += 2 {
			x[i], x[i+1] = dot2(a.Data[i*a.Stride:i*a.Stride+a.Cols], a.Data[(i+1)*a.Stride:(i+1)*a.Stride+a.Cols], u)
			x[i], x[i+1] = tau*(x[i]-h[i]), tau*(x[i+1]-h[i+1])
		}
		if i < r1 {
			x[i] = tau * (dot(a.Data[i*a.Stride:i*a.Stride+a.Cols], u) - h[i])
		}
	}))
}

// fused is one pass over a for step 5 of bidiagPanel and the next step's
// sum: on each block of rows, prep(r0, r1) first (it computes h[r0:r1]
// and c[r0:r1]), then for each row r, x[r] = τ·(a[r]·u − h[r]),
// c[r] −= x[r], and s += c[r]·a[r][1:], leaving s = a[:, 1:]ᵀ·c (length
// a.Cols−1) in the partial vectors, for sumThen. Rows are taken in fours
// (fusedRows4: the four dot products, then the sum for all four, so that
// each element of the partial sum is loaded and stored once for four
// rows; the second reading of a row finds it in the L1 or L2 cache). A
// remainder of two rows or one follows.
func (ps *bidiagPass) fused(a Dense, u []float64, tau float64, h, c, x []float64, prep func(r0, r1 int)) {
	ps.rows(a, a.Cols-1, func(r0, r1 int, part []float64) {
		prep(r0, r1)
		i := r0
		for ; i+3 < r1; i += 4 {
			a0 := a.Data[i*a.Stride : i*a.Stride+a.Cols]
			a1 := a.Data[(i+1)*a.Stride : (i+1)*a.Stride+a.Cols]
			a2 := a.Data[(i+2)*a.Stride : (i+2)*a.Stride+a.Cols]
			a3 := a.Data[(i+3)*a.Stride : (i+3)*a.Stride+a.Cols]
			fusedRows4(a0, a1, a2, a3, u, tau, h[i:i+4:i+4], c[i:i+4:i+4], x[i:i+4:i+4], part)
		}
		for ; i+1 < r1; i += 2 {
			a0 := a.Data[i*a.Stride : i*a.Stride+a.Cols]
			a1 := a.Data[(i+1)*a.Stride : (i+1)*a.Stride+a.Cols]
			t0, t1 := dot2(a0, a1, u)
			x0, x1 := tau*(t0-h[i]), tau*(t1-h[i+1])
			x[i], x[i+1] = x0, x1
			c0, c1 := c[i]-x0, c[i+1]-x1
			c[i], c[i+1] = c0, c1
			axpy2(c0, c1, a0[1:], a1[1:], part)
		}
		if i < r1 {
			ar := a.Data[i*a.Stride : i*a.Stride+a.Cols]
			xi := tau * (dot(ar, u) - h[i])
			x[i] = xi
			ci := c[i] - xi
			c[i] = ci
			axpy(ci, ar[1:], part)
		}
	})
}

// fusedRows4Scalar is the step of fused on four rows a0…a3 (h, c and x of
// length 4): x[k] = τ·(a_k·u − h[k]) with the dot products in pairs
// (dot2), c[k] −= x[k], then part += Σ c[k]·a_k[1:] by axpy2x2. It is
// fusedRows4 in every build but GOEXPERIMENT=simd on an AVX-512 CPU, and
// that version's oracle.
func fusedRows4Scalar(a0, a1, a2, a3, u []float64, tau float64, h, c, x, part []float64) {
	t0, t1 := dot2(a0, a1, u)
	t2, t3 := dot2(a2, a3, u)
	fusedRows4Update(a0, a1, a2, a3, t0, t1, t2, t3, tau, h, c, x, part)
}

// fusedRows4Update finishes fusedRows4 from the four dot products t0…t3.
func fusedRows4Update(a0, a1, a2, a3 []float64, t0, t1, t2, t3, tau float64, h, c, x, part []float64) {
	h, c, x = h[:4], c[:4], x[:4]
	x0, x1 := tau*(t0-h[0]), tau*(t1-h[1])
	x2, x3 := tau*(t2-h[2]), tau*(t3-h[3])
	x[0], x[1], x[2], x[3] = x0, x1, x2, x3
	c0, c1 := c[0]-x0, c[1]-x1
	c2, c3 := c[2]-x2, c[3]-x3
	c[0], c[1], c[2], c[3] = c0, c1, c2, c3
	axpy2x2(c0, c1, c2, c3, a0[1:], a1[1:], a2[1:], a3[1:], part)
}

// dot2Scalar returns r0·u and r1·u (r1 and u at least as long as r0), each
// with two partial sums combined at the end. It is dot2 in every build but
// GOEXPERIMENT=simd on an AVX-512 CPU, and that version's oracle.
func dot2Scalar(r0, r1, u []float64) (float64, float64) {
	r1 = r1[:len(r0)]
	u = u[:len(r0)]
	var s0, s1, t0, t1 float64
	k := 0
	for ; k+2 <= len(r0); k += 2 {
		u0, u1 := u[k], u[k+1]
		s0 += r0[k] * u0
		t0 += r1[k] * u0
		s1 += r0[k+1] * u1
		t1 += r1[k+1] * u1
	}
	if k < len(r0) {
		s0 += r0[k] * u[k]
		t0 += r1[k] * u[k]
	}
	return s0 + s1, t0 + t1
}

// axpy2x2Scalar computes y ← (y + (c0·r0 + c1·r1)) + (c2·r2 + c3·r3) over
// len(r0) elements: the sums of two calls of axpy2Scalar, in one pass over
// y (five loads and a store per element where two passes take six and
// two).
func axpy2x2Scalar(c0, c1, c2, c3 float64, r0, r1, r2, r3, y []float64) {
	n := len(r0)
	r1, r2, r3, y = r1[:n], r2[:n], r3[:n], y[:n]
	k := 0
	for ; k+2 <= n; k += 2 {
		a, b, c, d, w := r0[k:k+2:k+2], r1[k:k+2:k+2], r2[k:k+2:k+2], r3[k:k+2:k+2], y[k:k+2:k+2]
		w[0] = (w[0] + (c0*a[0] + c1*b[0])) + (c2*c[0] + c3*d[0])
		w[1] = (w[1] + (c0*a[1] + c1*b[1])) + (c2*c[1] + c3*d[1])
	}
	if k < n {
		y[k] = (y[k] + (c0*r0[k] + c1*r1[k])) + (c2*r2[k] + c3*r3[k])
	}
}

// axpy2Scalar computes y += c0·r0 + c1·r1 over len(r0) elements. It is
// axpy2 in every build but GOEXPERIMENT=simd on an AVX-512 CPU, and that
// version's oracle. Four elements a step, through subslices of fixed
// length (one bounds check a step), run 1.7× faster than one a step at
// length 1000 on an AMD EPYC (Zen 5 class): three loads and a store per
// element, at the two loads a cycle of its floating-point units.
func axpy2Scalar(c0, c1 float64, r0, r1, y []float64) {
	n := len(r0)
	r1 = r1[:n]
	y = y[:n]
	k := 0
	for ; k+4 <= n; k += 4 {
		a, b, w := r0[k:k+4:k+4], r1[k:k+4:k+4], y[k:k+4:k+4]
		w[0] += c0*a[0] + c1*b[0]
		w[1] += c0*a[1] + c1*b[1]
		w[2] += c0*a[2] + c1*b[2]
		w[3] += c0*a[3] + c1*b[3]
	}
	for ; k < n; k++ {
		y[k] += c0*r0[k] + c1*r1[k]
	}
}
