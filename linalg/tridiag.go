package linalg

import "math"

// tridiagNB is the number of reflectors formed per panel of the blocked
// tridiagonal reduction; the panel's rank-2·tridiagNB update of the trailing
// matrix is one triangular Gemm. A variable only so that
// TestCalibrateReduction (go test ./linalg -run CalibrateReduction
// -calibrate -v) can sweep it. On a 2-core Intel Xeon virtual machine
// (family 6 model 207, default build, 2026-11-24), 16, 24 and 32 were
// within 3% of each other at n = 500, 1000 and 2000 (185, 183 and 189 ms at
// n = 1000), 48 and 64 slower by 3–9%. On the 2-core AMD EPYC of
// 2026-12-02 (family 25 model 17, 2 MiB L2 a core, 32 MiB L3, SIMD build,
// one goroutine, thread CPU time, three rounds alternating the sizes in one
// process, a heavily loaded machine): at n = 1000 every size from 16 to 64
// took 74–108 ms, within the noise; at n = 2000, 24 and 32 took 796–912 ms,
// 16 and 48 840–1060, 64 1004–1086. The panel's rows (3·32 of n, 1.5 MB at
// n = 2000) stay in L2 at 32 and the trailing update's inner dimension 64
// is already at Gemm speed, so the size does not follow n here; 32 stays.
var tridiagNB = 32

// tridiagonalize reduces the symmetric n×n matrix A to tridiagonal form
// T = Qᵀ·A·Q by Householder reflectors, Q = H₀·H₁·…·H_{n−2}:
// on return d (length n) is the diagonal of T and e (length n−1) its
// off-diagonal. a must hold A in its lower triangle (the strict upper
// triangle is scratch: its content on entry is ignored). On return row j
// holds, right of the superdiagonal, the reflector H_j = I − τ_j·v·vᵀ that
// annihilated column j below the subdiagonal, as v[1:] in a[j][j+2:]
// (v[0] = 1 at index j+1 is implicit), with τ_j in tau[j] (length n−1); the
// rest of a is unspecified.
//
// Row-major storage makes a row contiguous. Column j below the diagonal,
// the one step j works on, is copied into row j right of the diagonal (by
// symmetry they are the same vector), so every reflector is built and
// stored in a contiguous row. The reduction is blocked as in LAPACK's
// dsytrd: a panel of tridiagNB columns is reduced one reflector at a time,
// each needing the product of the not yet updated trailing matrix with v
// (symvLower: half of the 4n³/3 flops, bound by memory bandwidth, so it
// reads only the lower triangle, once), with the panel's earlier reflectors
// applied through the accumulated V and W; then the lower triangle of the
// trailing matrix receives the whole panel at once, A ← A − V·Wᵀ − W·Vᵀ, as
// one triangular product of inner dimension 2·tridiagNB (the other half of
// the flops, at Gemm speed). Every element is computed the same way for any
// number of goroutines.
func tridiagonalize(a Dense, d, e, tau []float64) {
	n := a.Rows
	if n == 0 {
		return
	}
	if n == 1 {
		d[0] = a.Data[0]
		return
	}
	nb := min(tridiagNB, n)
	m0 := n - 1
	// Panel storage: V and W transposed (reflectors in rows, contiguous),
	// stacked as [V; W; V] so that [V; W] and [W; V] are views and the
	// update V·Wᵀ + W·Vᵀ is a single product [V; W]ᵀ·[W; V].
	stack := make([]float64, 3*nb*m0)
	sv := newSymvLower(n)
	for j0 := 0; j0 < n; j0 += nb {
		// The panel reduces rows j0 … j0+b−1; local index r ↔ global j0+1+r.
		m := n - j0 - 1
		b := min(nb, n-j0) // a last panel of one row just reads its diagonal
		vt := Dense{Rows: nb, Cols: m, Stride: m, Data: stack[:nb*m]}
		wt := Dense{Rows: nb, Cols: m, Stride: m, Data: stack[nb*m : 2*nb*m]}
		tridiagPanel(a, j0, b, vt, wt, d, e, tau, sv)
		if j0+b >= n {
			break
		}
		// Trailing update of rows and columns j0+b … n−1 (local b−1 …). Only
		// the last panel can be short (b < nb), and it has no trailing matrix.
		vv := Dense{Rows: 3 * nb, Cols: m - (b - 1), Stride: m, Data: stack[b-1 : 3*nb*m]}
		left := vv.view(0, 2*nb, 0, vv.Cols)
		right := vv.view(nb, 3*nb, 0, vv.Cols)
		copy(stack[2*nb*m:3*nb*m], stack[:nb*m]) // third block = V
		c := a.view(j0+b, n, j0+b, n)
		blockedProduct(Trans, NoTrans, -1, left, right, 1, c, lower, false)
	}
}

// tridiagPanel reduces rows j0 … j0+b−1 of a (dlatrd): for each row j it
// applies the panel's earlier reflectors to row j, forms the reflector of
// row j, and computes w = τ·(A₂₂ − V·Wᵀ − W·Vᵀ)·v − (τ²/2)(vᵀ·A₂₂'·v)·v,
// the vector that makes the rank-2 update A₂₂ − v·wᵀ − w·vᵀ equal H·A₂₂·H.
// vt and wt (b rows used) receive v and w in local coordinates.
func tridiagPanel(a Dense, j0, b int, vt, wt Dense, d, e, tau []float64, sv *symvLower) {
	n := a.Rows
	m := n - j0 - 1
	lda := a.Stride
	coef := make([]float64, 2*b)
	copied := false // row j holds column j already (step 3 of column j−1)
	for p := 0; p < b; p++ {
		j := j0 + p
		row := a.Data[j*lda+j : j*lda+n] // a[j][j:], contiguous
		// Column j from the diagonal down, as the panel found it, into row
		// j: by symmetry the same vector, now contiguous.
		if !copied {
			for c := range row {
				row[c] = a.Data[(j+c)*lda+j]
			}
		}
		copied = false
		// 1. Apply the panel's reflectors 0…p−1 to row j (columns j…n−1,
		// local p−1…m−1): a[j][c] −= Σ_q V[j][q]·W[c][q] + W[j][q]·V[c][q].
		if p > 0 {
			for q := range p {
				coef[2*q], coef[2*q+1] = vt.Data[q*m+p-1], wt.Data[q*m+p-1]
			}
			panelAxpys(row, wt, vt, p-1, coef[:2*p])
		}
		d[j] = row[0]
		if j == n-1 {
			break
		}
		// 2. The reflector for x = a[j][j+1:].
		x := row[1:]
		beta, t := householder(x)
		e[j] = beta
		tau[j] = t
		vp := vt.Data[p*m : (p+1)*m]
		wp := wt.Data[p*m : (p+1)*m]
		clear(vp[:p])
		vp[p] = 1
		copy(vp[p+1:], x[1:])
		clear(wp[:p])
		if t == 0 {
			clear(wp[p:])
			continue
		}
		// 3. w = A₂₂·v on the trailing matrix A[j+1:, j+1:], which the
		// panel has not updated yet, corrected by the panel's earlier
		// reflectors: w −= W·(Vᵀv) + V·(Wᵀv) over local indices p…m−1,
		// then scaled, w = τ·w. Two parallel loops do it: the products of
		// the symmetric matrix's row ranges with the dot products Vᵀv and
		// Wᵀv, then the sum of the ranges' partial vectors with the
		// corrections and the scaling, range by range of w (dotRows and
		// panelAxpysRange, one operation per element as if in loops of
		// their own).
		// The product goes straight into row p of wt: the corrections and
		// the dot products read only its rows 0 … p−1.
		v := vp[p:]
		wl := wp[p:]
		// The product reads column j+1 of the trailing matrix, which the
		// panel has not changed, so it also copies it into row j+1 (the
		// step before 1. of the next column), within the panel: the rows
		// it writes are above the diagonal, where it reads nothing.
		c := coef[:2*p]
		sj := symvJoin{
			n: p,
			tasks: func(q int) {
				// V_q·v and W_q·v.
				vq := Dense{Rows: 1, Cols: m, Stride: m, Data: vt.Data[q*vt.Stride:]}
				wq := Dense{Rows: 1, Cols: m, Stride: m, Data: wt.Data[q*wt.Stride:]}
				dotRows(c[2*q:2*q+2], vq, wq, p, v)
			},
			flops: 2*float64(len(c)) + 1,
			then: func(c0, c1 int) {
				panelAxpysRange(wl, wt, vt, p, c, c0, c1)
				for i := c0; i < c1; i++ {
					wl[i] *= t
				}
			},
		}
		if p+1 < b {
			sj.col = a.Data[(j+1)*lda+j+1 : (j+1)*lda+n]
			copied = true
		}
		sv.mul(a, j+1, v, wl, sj)
		// w = w − (τ/2)(wᵀv)·v, by the panel kernels (AVX-512 in the
		// SIMD build; dot and axpy, the same bits, otherwise).
		vr := Dense{Rows: 1, Cols: len(v), Stride: len(v), Data: v}
		var wv [1]float64
		dotRows(wv[:], vr, Dense{}, 0, wl)
		wv[0] *= 0.5 * t
		axpyRows(wl, vr, Dense{}, 0, wv[:])
	}
}

// panelAxpyCols is the number of elements of a unit of panelAxpys.
const panelAxpyCols = 512

// panelAxpys sets y −= Σ_q (c[2q]·X_q + c[2q+1]·Y_q), X_q and Y_q the rows
// q < len(c)/2 of xt and yt from column off on (as long as y): the
// panel's earlier reflectors applied to a row or to w. Every element takes
// its len(c) terms in the order written, one axpy at a time, so the
// vector is split into ranges over goroutines and the result is the same
// for any number of them. Cost: 2·len(c)·len(y) flops.
func panelAxpys(y []float64, xt, yt Dense, off int, c []float64) {
	n := len(y)
	units := (n + panelAxpyCols - 1) / panelAxpyCols
	forEach(teamSize(units, 2*float64(len(c))*float64(n)), units, taskFunc(func(_, u int) {
		panelAxpysRange(y, xt, yt, off, c, u*panelAxpyCols, min((u+1)*panelAxpyCols, n))
	}))
}

// panelAxpysRange is panelAxpys on the elements [lo, hi) of y, on the
// calling goroutine, in one pass over them (axpyRows).
func panelAxpysRange(y []float64, xt, yt Dense, off int, c []float64, lo, hi int) {
	axpyRows(y[lo:hi], xt, yt, off+lo, c)
}

// symvUnits is the most units symvLower splits a product into, and
// symvMinRows the fewest rows a unit has (but the first): row ranges of
// equal work, that is of equal area of the triangle, so that the units
// balance over goroutines however they are dealt. Ranges of a fixed 128
// rows give a product of order 4000 32 units whose work grows 63-fold from
// the first to the last, and 16 goroutines taking two each would keep the
// cores 68% busy (52% at order 2048, one each). Each unit costs a partial
// vector to clear and to add, so the units are few: 32, two per goroutine
// at 16 (64 were slower than ranges of 128 rows on two cores, 16 and 32 as
// fast). The ranges depend on the order alone, which fixes the order in
// which partial sums are added: y is the same for any number of
// goroutines.
const (
	symvUnits   = 32
	symvMinRows = 16
)

// symvLower computes y = A·v for a symmetric matrix held in its lower
// triangle, reading each element once. Row i contributes its dot product
// with v to yᵢ and, through the symmetric element, vᵢ times its entries to
// y₀ … y_{i−1}. The rows are split into ranges of equal work (symvBounds);
// range r adds its rows' contributions into a private partial vector Pᵣ,
// and y = Σᵣ Pᵣ is summed in increasing r (sumPartials).
// The ranges are spread over goroutines, but the partition and the order
// of the final sum are fixed, so y is bit-identical for any number of
// goroutines.
type symvLower struct {
	part   []float64 // partial vectors, range r's of length bounds[r+1], at r·n
	zero   []float64 // n zeros, never written: the first rows' src (symvQuad)
	bounds []int
	n      int
}

// symvBounds sets bounds[0 … u] to the row ranges of a product of order m
// and returns u, the number of ranges: range r is rows [bounds[r],
// bounds[r+1]), bounds[r] = m·√(r/u) rounded down to even (rows go in
// pairs), so that every range holds about m²/(2u) elements of the
// triangle.
func symvBounds(m int, bounds []int) int {
	u := symvRanges(m)
	bounds[0] = 0
	for r := 1; r < u; r++ {
		b := int(float64(m)*math.Sqrt(float64(r)/float64(u))) &^ 1
		bounds[r] = max(b, bounds[r-1])
	}
	bounds[u] = m
	return u
}

// symvRanges is the number of row ranges of a product of order m.
func symvRanges(m int) int { return max(1, min(symvUnits, m/symvMinRows)) }

func newSymvLower(n int) *symvLower {
	u := symvRanges(n)
	return &symvLower{part: make([]float64, u*n), zero: make([]float64, n), bounds: make([]int, u+1), n: n}
}

// symvRow returns Σ row[k]·v[k] and adds vi·row[k] to p[k], in one pass.
func symvRow(row, v, p []float64, vi float64) float64 {
	v = v[:len(row)]
	p = p[:len(row)]
	var s0, s1 float64
	k := 0
	for ; k+2 <= len(row); k += 2 {
		a, b := row[k], row[k+1]
		s0 += a * v[k]
		s1 += b * v[k+1]
		p[k] += vi * a
		p[k+1] += vi * b
	}
	for ; k < len(row); k++ {
		s0 += row[k] * v[k]
		p[k] += vi * row[k]
	}
	return s0 + s1
}

// symvPairScalar is symvRow for two rows at once: it returns Σ r0[k]·v[k]
// and Σ r1[k]·v[k] and adds vi0·r0[k] + vi1·r1[k] to p[k], loading each
// v[k] and p[k] once for both rows. It is symvPair in every build but
// GOEXPERIMENT=simd on an AVX-512 CPU, and that version's oracle.
func symvPairScalar(r0, r1, v, p []float64, vi0, vi1 float64) (float64, float64) {
	r1 = r1[:len(r0)]
	v = v[:len(r0)]
	p = p[:len(r0)]
	var s0, s1 float64
	for k, a := range r0 {
		b, vk := r1[k], v[k]
		s0 += a * vk
		s1 += b * vk
		p[k] += vi0*a + vi1*b
	}
	return s0, s1
}

// symvQuadScalar is symvPairScalar for rows 0 and 1, then for rows 2 and
// 3, in one pass: it returns the four sums Σ rᵢ[k]·v[k] and sets p[k] to
// src[k] plus vi[0]·r0[k] + vi[1]·r1[k], then plus vi[2]·r2[k] +
// vi[3]·r3[k], loading each v[k] and src[k] once for four rows. src is p
// itself (p[k] += …) or, for the first rows of a range whose partial vector
// holds nothing yet, zeros: the same bits as clearing p first, without the
// pass that clears it. Every sum and every p[k]
// takes the operations of the two symvPairScalar calls in their order, so
// the results are theirs to the bit, at every GOAMD64 level.
func symvQuadScalar(r0, r1, r2, r3, v, src, p []float64, vi *[4]float64) (sums [4]float64) {
	n := len(r0)
	r1, r2, r3, v, src, p = r1[:n], r2[:n], r3[:n], v[:n], src[:n], p[:n]
	w0, w1, w2, w3 := vi[0], vi[1], vi[2], vi[3] // held in registers: p could alias vi
	var s0, s1, s2, s3 float64
	for k, a := range r0 {
		b, c, d, vk := r1[k], r2[k], r3[k], v[k]
		s0 += a * vk
		s1 += b * vk
		s2 += c * vk
		s3 += d * vk
		pk := src[k]
		pk += w0*a + w1*b
		pk += w2*c + w3*d
		p[k] = pk
	}
	return [4]float64{s0, s1, s2, s3}
}

// symvJoin is work that joins the two parallel loops of symvLower.mul
// rather than waiting for loops of its own (each costs a start and a join
// of every goroutine, for every column of the tridiagonal reduction). The
// zero value adds none.
type symvJoin struct {
	// tasks(u) for u < n, independent of the product and of each other,
	// about 4·len(v) flops each, run beside the products of the row ranges.
	n     int
	tasks func(u int)
	// then(c0, c1), about flops per element, runs on each range [c0, c1)
	// of y once it is summed (sumPartialsThen).
	flops float64
	then  func(c0, c1 int)
	// col, if not nil, receives column 0 of A[j:, j:] (col[i] = A[j+i][j]),
	// which the ranges copy as they read their rows.
	col []float64
}

// mul sets y = A[j:, j:]·v, A the lower triangle of a, with the work of x
// (see symvJoin).
func (s *symvLower) mul(a Dense, j int, v, y []float64, x symvJoin) {
	m := a.Rows - j
	units := symvBounds(m, s.bounds)
	p := teamSize(units+x.n, float64(m)*float64(m+4*x.n))
	forEach(p, units+x.n, taskFunc(func(_, r int) {
		if r >= units {
			x.tasks(r - units)
			return
		}
		r0, r1 := s.bounds[r], s.bounds[r+1]
		if x.col != nil {
			for i := r0; i < r1; i++ {
				x.col[i] = a.Data[(j+i)*a.Stride+j]
			}
		}
		pr := s.part[r*s.n : r*s.n+r1]
		// The first four rows set Pᵣ[:r0] from zeros (src = s.zero); the
		// rest of Pᵣ, which the rows reach by their diagonal blocks first,
		// is cleared. A range of fewer rows clears all.
		clear(pr[r0:])
		src := s.zero
		if r1-r0 < 4 {
			clear(pr[:r0])
			src = pr
		}
		i := r0
		// Rows in fours: each loaded element of v and Pᵣ serves four rows.
		for ; i+3 < r1; i += 4 {
			var rows [4][]float64
			for q := range rows {
				rows[q] = a.Data[(j+i+q)*a.Stride+j : (j+i+q)*a.Stride+j+i+q+1] // A[i+q][0:i+q+1]
			}
			r0w, r1w, r2w, r3w := rows[0], rows[1], rows[2], rows[3]
			s := symvQuad(r0w[:i], r1w[:i], r2w[:i], r3w[:i], v[:i], src[:i], pr[:i], (*[4]float64)(v[i:i+4]))
			src = pr
			// The rest in the order of two pairs: rows i and i+1 end with
			// their 2×2 diagonal block; rows i+2 and i+3 take columns i and
			// i+1, then theirs.
			pr[i] += s[0] + r0w[i]*v[i] + r1w[i]*v[i+1]
			pr[i+1] += s[1] + r1w[i]*v[i] + r1w[i+1]*v[i+1]
			s2, s3 := s[2], s[3]
			for k := i; k < i+2; k++ {
				c, d := r2w[k], r3w[k]
				s2 += c * v[k]
				s3 += d * v[k]
				pr[k] += v[i+2]*c + v[i+3]*d
			}
			pr[i+2] += s2 + r2w[i+2]*v[i+2] + r3w[i+2]*v[i+3]
			pr[i+3] += s3 + r3w[i+2]*v[i+2] + r3w[i+3]*v[i+3]
		}
		// Then in pairs: each loaded element of v and Pᵣ serves two rows.
		for ; i+1 < r1; i += 2 {
			r0w := a.Data[(j+i)*a.Stride+j : (j+i)*a.Stride+j+i+1]     // A[i][0:i+1]
			r1w := a.Data[(j+i+1)*a.Stride+j : (j+i+1)*a.Stride+j+i+2] // A[i+1][0:i+2]
			s0, s1 := symvPair(r0w[:i], r1w[:i], v[:i], pr[:i], v[i], v[i+1])
			// The 2×2 diagonal block: A[i][i], A[i+1][i], A[i+1][i+1].
			pr[i] += s0 + r0w[i]*v[i] + r1w[i]*v[i+1]
			pr[i+1] += s1 + r1w[i]*v[i] + r1w[i+1]*v[i+1]
		}
		for ; i < r1; i++ {
			row := a.Data[(j+i)*a.Stride+j : (j+i)*a.Stride+j+i+1]
			pr[i] += symvRow(row[:i], v[:i], pr[:i], v[i]) + row[i]*v[i]
		}
	}))
	// y = Σᵣ Pᵣ in increasing r; element c gets the ranges with bounds[r+1] > c.
	sumPartialsThen(y[:m], units, func(r int) []float64 { return s.part[r*s.n : r*s.n+s.bounds[r+1]] }, x.flops, x.then)
}
