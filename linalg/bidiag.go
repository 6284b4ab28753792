package linalg

import "math"

// bidiagNB is the number of columns reduced per panel of bidiagonalize; the
// panel's update of the trailing matrix is one Gemm of inner dimension
// 2·bidiagNB. A variable only so that TestCalibrateReduction can sweep it.
// On a 2-core Intel Xeon virtual machine (family 6 model 207, default
// build, 2026-11-24), 16, 24 and 32 were within 3% of each other at
// n = 500, 1000 and 2000 (358, 353 and 360 ms at n = 1000), 48 and 64
// slower by 4–16%: the matrix–vector passes, not the Gemm, set the pace.
var bidiagNB = 32

// bidiagonalize reduces the m×n matrix A (m ≥ n ≥ 1) to upper bidiagonal
// form B = Qᵀ·A·P by Householder reflectors from both sides,
// Q = H₀·H₁·…·H_{n−1} and P = G₀·G₁·…·G_{n−2} (LAPACK's dgebrd). On return
// d (length n) is the diagonal of B and e (length n−1) its superdiagonal;
// H_j = I − tauq[j]·v·vᵀ, which zeroed column j below the diagonal, is
// stored as v[1:] in a[j+1:][j] (v[0] = 1 at row j), and G_j =
// I − taup[j]·u·uᵀ, which zeroed row j right of the superdiagonal, as u[1:]
// in a[j][j+2:] (u[0] = 1 at column j+1). The rest of a is unspecified.
//
// The reduction is blocked as in LAPACK's dgebrd with dlabrd panels: a
// panel of bidiagNB columns and rows is reduced one pair of reflectors
// at a time, each step needing the products Âᵀ·v and Â·u of the trailing
// matrix Â (as the panel found it) with the new reflectors, the panel's
// earlier reflectors applied through the accumulated X and Y
// (A ← A − V·Yᵀ − X·Uᵀ); then the trailing matrix receives the whole panel
// at once, one Gemm of inner dimension 2·bidiagNB. The two products are
// half of the 4mn² − 4n³/3 flops and are bound by memory bandwidth; they
// are fused so that Â is read once per step rather than twice (see
// bidiagPanel), the other half runs at Gemm speed. Every element is
// computed the same way for any number of goroutines.
func bidiagonalize(a Dense, d, e, tauq, taup []float64) {
	m, n := a.Rows, a.Cols
	nb := min(bidiagNB, n)
	lt := make([]float64, 2*nb*m) // [V; X]: reflectors and X in rows
	rt := make([]float64, 2*nb*n) // [Y; U]
	ps := newBidiagPass(m, n)
	for j0 := 0; j0 < n; j0 += nb {
		b := min(nb, n-j0)
		mm, nn := m-j0, n-j0
		vt := Dense{Rows: b, Cols: mm, Stride: mm, Data: lt[:b*mm]}
		xt := Dense{Rows: b, Cols: mm, Stride: mm, Data: lt[b*mm : 2*b*mm]}
		yt := Dense{Rows: b, Cols: nn, Stride: nn, Data: rt[:b*nn]}
		ut := Dense{Rows: b, Cols: nn, Stride: nn, Data: rt[b*nn : 2*b*nn]}
		bidiagPanel(a, j0, b, vt, xt, yt, ut, d, e, tauq, taup, ps)
		if j0+b < n {
			// A₂₂ ← A₂₂ − V·Yᵀ − X·Uᵀ = A₂₂ − [V X]·[Y U]ᵀ over the rows
			// and columns past the panel.
			l := Dense{Rows: 2 * b, Cols: mm - b, Stride: mm, Data: lt[b : 2*b*mm]}
			r := Dense{Rows: 2 * b, Cols: nn - b, Stride: nn, Data: rt[b : 2*b*nn]}
			gemm(Trans, NoTrans, -1, l, r, 1, a.view(j0+b, m, j0+b, n))
		}
	}
}

// bidiagPanel reduces columns and rows j0 … j0+b−1 of a (dlabrd). In the
// panel's local coordinates (row and column j0 are 0) step p:
//
//  1. brings column p up to date: a[p:][p] − Σ_{q<p} (v_q·y_q[p] + x_q·u_q[p]);
//  2. forms its reflector v_p (d and tauq);
//  3. computes y_p = τq·(Âᵀ·v_p − Y·(Vᵀ·v_p) − U·(Xᵀ·v_p)) over columns p+1…;
//  4. brings row p up to date (with y_p included) and forms its reflector
//     u_p (e and taup);
//  5. computes x_p = τp·(Â·u_p − V·(Yᵀ·u_p) − X·(Uᵀ·u_p)) over rows p+1….
//
// The products with Â, the trailing matrix as the panel found it, are the
// expensive part. Step 5's Â·u_p and the next step's Âᵀ·v_{p+1} are done in
// one pass over Â (bidiagPass.fused): column p+1, brought up to date, is
// g − x_p with g known before the pass, and v_{p+1} = s·(c − β·e₀) for
// that column c, its reflector's β and s = 1/(c₀ − β); so each row r of Â
// gives x_p[r] from its dot product with u_p and then adds c[r] times
// itself to Âᵀ·c, from which Âᵀ·v_{p+1} = s·(Âᵀ·c − β·Â[p+1][:]) follows.
// The error of that form is that of Âᵀ·v_{p+1} computed directly, since
// |c₀ − β| ≥ ‖c‖. A column so small that s could overflow falls back to a
// separate pass.
//
// The corrections by the panel's earlier reflectors run inside the
// parallel loops of the passes: those of h (for x_p) and of column p+1 on
// each block of rows of the fused pass before its rows are read, those of
// y_p and of row p on each range of columns as the partial sums of Âᵀ·v_p
// are added (bidiagPass.sumThen). They are elementwise, so the results do
// not depend on the ranges; the dot products with the panel's vectors and
// the Householder vectors stay on the calling goroutine.
//
// vt, xt (b×(m−j0)) and yt, ut (b×(n−j0)) receive v_p, x_p, y_p and u_p in
// their rows, with explicit zeros (and units), ready for the trailing Gemm.
func bidiagPanel(a Dense, j0, b int, vt, xt, yt, ut Dense, d, e, tauq, taup []float64, ps *bidiagPass) {
	m, n := a.Rows, a.Cols
	mm, nn := m-j0, n-j0
	lda := a.Stride
	row := func(r int) []float64 { return a.Data[(j0+r)*lda+j0 : (j0+r)*lda+n] } // local row r
	tr := func(t Dense, q int) []float64 { return t.Data[q*t.Stride : q*t.Stride+t.Cols] }
	col := ps.col[:mm]
	g := ps.h[:mm] // scratch for the corrections of x_p
	aty := ps.aty[:nn]
	// haveCol: col[p:] already holds column p up to date (from the fused
	// pass); haveSum: the pass's partial vectors hold Âᵀ·c for that
	// column c, to be added into aty[p+1:].
	haveCol, haveSum := false, false
	// The coefficients of the corrections by the panel's earlier
	// reflectors, each applied in one pass over its vector (axpyRows), in
	// the order of the axpy calls they stand for: of column p and of y_p
	// (cf, alternating V, X and Y, U), of row p (cr: V[q][p], q ≤ p; cr2:
	// X[q][p], q < p), of h (cu, cu2: −Y·u_p, −U·u_p) and of column p+1
	// (cn: Y[q][p+1], q ≤ p; cn2: U[q][p+1], q < p).
	cf := make([]float64, 2*b)
	cr, cr2 := make([]float64, b), make([]float64, b)
	cu, cu2 := make([]float64, b), make([]float64, b)
	cn, cn2 := make([]float64, b), make([]float64, b)
	for p := 0; p < b; p++ {
		i := j0 + p
		// 1. Column p, rows p…, up to date.
		c := col[p:mm]
		if !haveCol {
			for r := p; r < mm; r++ {
				c[r-p] = row(r)[p]
			}
			for q := 0; q < p; q++ {
				cf[2*q], cf[2*q+1] = tr(yt, q)[p], tr(ut, q)[p]
			}
			axpyRows(c, vt, xt, p, cf[:2*p])
		}
		// 2. Its reflector.
		c0 := c[0]
		beta, tq := householder(c)
		d[i], tauq[i] = beta, tq
		for r := p + 1; r < mm; r++ {
			row(r)[p] = c[r-p]
		}
		vp := tr(vt, p)
		clear(vp[:p])
		vp[p] = 1
		copy(vp[p+1:], c[1:])
		if i == n-1 {
			break // the last column has no row reflector
		}

		// 3. y_p over columns p+1…, and 4. row p brought up to date
		// (with y_p included), range by range in the loop that adds the
		// partial sums of Âᵀ·v_p: both are elementwise over the columns.
		yp := tr(yt, p)
		clear(yp[:p+1])
		y := yp[p+1:]
		r := row(p)[p+1:]
		for q := 0; q <= p; q++ {
			cr[q] = tr(vt, q)[p]
		}
		for q := 0; q < p; q++ {
			cr2[q] = tr(xt, q)[p]
		}
		rowUp := func(k0, k1 int) {
			axpyRows(r[k0:k1], yt, Dense{}, p+1+k0, cr[:p+1])
			axpyRows(r[k0:k1], ut, Dense{}, p+1+k0, cr2[:p])
		}
		finish := func(k0, k1 int) {
			axpyRows(y[k0:k1], yt, ut, p+1+k0, cf[:2*p])
			for k := k0; k < k1; k++ {
				y[k] *= tq
			}
			rowUp(k0, k1)
		}
		flops := float64(8*p + 4) // per column: y's corrections, row p's
		switch {
		case tq == 0:
			clear(y)
			rowUp(0, len(y))
		case haveSum && math.Abs(beta) >= bidiagFusedMin:
			// Âᵀ·v = s·(Âᵀ·c − β·Â[p][:]), s = 1/(c₀ − β), with Â[p][:]
			// read in each range before row p's update overwrites it.
			dotRows(cf[:2*p], vt, xt, p, vp[p:])
			s := 1 / (c0 - beta)
			at := aty[p+1:]
			ps.sumThen(at, flops, func(k0, k1 int) {
				for k := k0; k < k1; k++ {
					y[k] = s * (at[k] - beta*r[k])
				}
				finish(k0, k1)
			})
		default:
			ps.atv(a.view(j0+p, m, j0+p+1, n), vp[p:])
			dotRows(cf[:2*p], vt, xt, p, vp[p:])
			ps.sumThen(y, flops, finish)
		}

		// 4. Row p's reflector.
		beta, tp := householder(r)
		e[i], taup[i] = beta, tp
		up := tr(ut, p)
		clear(up[:p+1])
		up[p+1] = 1
		copy(up[p+2:], r[1:])

		// 5. x_p over rows p+1…, with column p+1 and Âᵀ·(column p+1)
		// in the same pass when the next step is in this panel.
		xp := tr(xt, p)
		clear(xp[:p+1])
		x := xp[p+1:]
		next := p+1 < b
		haveCol, haveSum = false, false
		if tp == 0 {
			clear(x)
			continue
		}
		// h = V·(Yᵀ·u_p) + X·(Uᵀ·u_p) over rows p+1…, q ≤ p and q < p,
		// range by range in the pass over the rows.
		uu := up[p+1:]
		h := g[p+1 : mm]
		// (axpyRows subtracts: the coefficients are the dot products
		// negated, exactly.)
		dotRows(cu[:p+1], yt, Dense{}, p+1, uu)
		dotRows(cu2[:p], ut, Dense{}, p+1, uu)
		for q := 0; q <= p; q++ {
			cu[q] = -cu[q]
		}
		for q := 0; q < p; q++ {
			cu2[q] = -cu2[q]
		}
		hUp := func(r0, r1 int) {
			clear(h[r0:r1])
			axpyRows(h[r0:r1], vt, Dense{}, p+1+r0, cu[:p+1])
			axpyRows(h[r0:r1], xt, Dense{}, p+1+r0, cu2[:p])
		}
		av := a.view(j0+p+1, m, j0+p+1, n)
		if !next {
			ps.mul(av, uu, tp, h, x, hUp)
			continue
		}
		// Column p+1 up to date but for −x_p: its Â entries minus the
		// panel's reflectors q ≤ p (V) and q < p (X).
		cv := col[p+1 : mm]
		for q := 0; q <= p; q++ {
			cn[q] = tr(yt, q)[p+1]
		}
		for q := 0; q < p; q++ {
			cn2[q] = tr(ut, q)[p+1]
		}
		ps.fused(av, uu, tp, h, cv, x, func(r0, r1 int) {
			hUp(r0, r1)
			for k := r0; k < r1; k++ {
				cv[k] = av.Data[k*av.Stride]
			}
			axpyRows(cv[r0:r1], vt, Dense{}, p+1+r0, cn[:p+1])
			axpyRows(cv[r0:r1], xt, Dense{}, p+1+r0, cn2[:p])
		})
		haveCol, haveSum = true, true
	}
}

// bidiagFusedMin: a column whose reflector has |β| below it gets its
// Âᵀ·v from a separate pass instead of the fused one, whose s = 1/(c₀ − β)
// could lose accuracy to underflow in Âᵀ·c (or overflow) for such tiny
// columns.
const bidiagFusedMin = 0x1p-500
