package linalg

import "math"

// The unblocked pieces of the Householder QR factorization: the safe
// 2-norm and two ways of factoring a few columns, each reflector generated
// by householder (householder.go): geqr2, one reflector at a time (LAPACK's
// dgeqr2 with dlarft), and geqrt4, the same by groups of four. The blocked
// driver in qr.go calls geqrt4 on the leaves of its recursive panel
// factorization and on the chunks of the tall-skinny mode; geqr2, called on a whole matrix, is the
// naive twin the tests compare both with. At the end: the small triangular
// products of the block reflectors and the copy that loads A.
//
// Layout reminder (see QR): the factorization works on W = Aᵀ, so column j
// of A is the contiguous row j of W, and a reflector that acts on columns
// of A acts on rows of W from the right.

// geqr2 factors the k×len panel p of W column by column (row by row of W):
// for each row i it generates the reflector that zeros p[i, i+1:], applies
// it to the rows below, and fills column i of the k×k upper triangular
// block-reflector factor t (LAPACK's dlarft, forward and row-wise), so that
// H₀·H₁·…·H_{k−1} = I − Yᵀ·T·Y with Y the rows of p. Row i of p is the
// global row g0+i of q.y and its column 0 is global column g0; on return the
// global row g0+i holds v with explicit zeros before its 1, and its R entries
// (everything up to and including the diagonal) have been moved to column
// g0+i of q.r.
//
// The updates of the other rows of the panel by one reflector are
// independent, so for long rows they are spread over goroutines: each row is
// written by one goroutine with the same operations, whatever their number.
func (q *QR) geqr2(p, t Dense, g0 int) {
	k, n := p.Rows, p.Cols
	ws := p.Stride
	for i := 0; i < k; i++ {
		x := p.Data[i*ws+i : i*ws+n]
		beta, tau := householder(x)
		x[0] = 1 // v, with its unit entry explicit
		q.storeR(g0+i, beta)
		t.Data[i*t.Stride+i] = tau
		if tau == 0 {
			// H = I: nothing to apply, and the column of T is zero.
			for j := 0; j < i; j++ {
				t.Data[j*t.Stride+i] = 0
			}
			continue
		}
		// Rows j > i: w ← w − τ·(w·v)·v over columns [i, n).
		// Rows j < i: g_j = Y_j·vᵀ, the dots that make column i of T; Y_j is
		// zero before column j and v before column i, so the dot starts at i.
		col := make([]float64, i) // g, then T[0:i, i]
		update := taskFunc(func(_, u int) {
			j := u
			if j >= i {
				j++ // skip row i itself
			}
			w := p.Data[j*ws+i : j*ws+n]
			if j < i {
				col[j] = dot(w, x)
				return
			}
			axpy(-tau*dot(w, x), x, w)
		})
		p := 1
		if !q.serial {
			p = teamSize(k-1, 4*float64(k-1)*float64(n-i))
		}
		forEach(p, k-1, update)
		// T[0:i, i] = −τ·T[0:i, 0:i]·g, T upper triangular: row j uses g[j:].
		for j := 0; j < i; j++ {
			var s float64
			for l := j; l < i; l++ {
				s += t.Data[j*t.Stride+l] * col[l]
			}
			t.Data[j*t.Stride+i] = -tau * s
		}
	}
}

// storeR moves the finished R entries of global row g of q.y — R[0:g, g]
// and β = R[g, g] — into column g of q.r, and leaves in their place the
// zeros and the unit diagonal of the Householder vector stored in row g.
func (q *QR) storeR(g int, beta float64) {
	row := q.y.Data[g*q.y.Stride : g*q.y.Stride+g+1]
	n := q.r.Stride
	for c := 0; c < g; c++ {
		q.r.Data[c*n+g] = row[c]
	}
	q.r.Data[g*n+g] = beta
	clear(row[:g])
	row[g] = 1
}

// geqrt4 computes the same factorization as geqr2 — the same reflectors
// and the same T, up to rounding — but by groups of four rows: the rows of
// a group are factored one after another as in geqr2, and then the group's
// block reflector I − Y_gᵀ·T_g·Y_g is applied to every row below it at once,
// w ← w − ((w·Y_gᵀ)·T_g)·Y_g, with fused kernels (dot4, axpy4) that read w
// twice instead of eight times. The column of T for row i needs the dots of
// v_i with all earlier rows, computed four at a time as well. On the
// in-cache chunks of the tall-skinny mode this runs 1.5 times as fast as
// geqr2 (1.73 against 2.63 ms for 50×2048 on one core; BenchmarkGeqr).
//
// The block updates of the rows below a group are independent; for long
// rows they are spread over goroutines (unless q.serial), each row written
// by one goroutine with the same operations whatever their number.
func (q *QR) geqrt4(p, t Dense, g0 int) {
	k, n := p.Rows, p.Cols
	ws, ts := p.Stride, t.Stride
	row := func(i, from int) []float64 { return p.Data[i*ws+from : i*ws+n] }
	col := make([]float64, k)
	for i0 := 0; i0 < k; i0 += 4 {
		i1 := min(i0+4, k)
		for i := i0; i < i1; i++ {
			// Bring row i up to date with the group's earlier reflectors.
			for l := i0; l < i; l++ {
				if tau := t.Data[l*ts+l]; tau != 0 {
					w, v := row(i, l), row(l, l)
					axpy(-tau*dot(w, v), v, w)
				}
			}
			x := row(i, i)
			beta, tau := householder(x)
			x[0] = 1 // v, with its unit entry explicit
			q.storeR(g0+i, beta)
			t.Data[i*ts+i] = tau
			// T[0:i, i] = −τ·T[0:i, 0:i]·g with g_j = Y_j·v (from column i).
			g := col[:i]
			if tau == 0 {
				clear(g)
			} else {
				j := 0
				for ; j+4 <= i; j += 4 {
					g[j], g[j+1], g[j+2], g[j+3] = dot4(x, row(j, i), row(j+1, i), row(j+2, i), row(j+3, i))
				}
				for ; j < i; j++ {
					g[j] = dot(x, row(j, i))
				}
			}
			for j := 0; j < i; j++ {
				var s float64
				for l := j; l < i; l++ {
					s += t.Data[j*ts+l] * g[l]
				}
				t.Data[j*ts+i] = -tau * s
			}
		}
		if i1 == k {
			break
		}
		// Rows below the group: w ← w − ((w·Y_gᵀ)·T_g)·Y_g from column i0.
		tg := t.view(i0, i1, i0, i1)
		update := taskFunc(func(_, u int) {
			w := row(i1+u, i0)
			if i1-i0 < 4 {
				// The last, short group: one reflector at a time.
				for l := i0; l < i1; l++ {
					if tau := t.Data[l*ts+l]; tau != 0 {
						v := row(l, i0)
						axpy(-tau*dot(w, v), v, w)
					}
				}
				return
			}
			y0, y1, y2, y3 := row(i0, i0), row(i0+1, i0), row(i0+2, i0), row(i0+3, i0)
			a0, a1, a2, a3 := dot4(w, y0, y1, y2, y3)
			// f = a·T_g, T_g upper triangular.
			d := tg.Data
			f0 := a0 * d[0]
			f1 := a0*d[1] + a1*d[ts+1]
			f2 := a0*d[2] + a1*d[ts+2] + a2*d[2*ts+2]
			f3 := a0*d[3] + a1*d[ts+3] + a2*d[2*ts+3] + a3*d[3*ts+3]
			axpy4(-f0, -f1, -f2, -f3, y0, y1, y2, y3, w)
		})
		p := 1
		if !q.serial {
			p = teamSize(k-i1, 16*float64(k-i1)*float64(n-i0))
		}
		forEach(p, k-i1, update)
	}
}

// dot4 returns the dot products of x with y0, y1, y2 and y3, which must be
// at least as long as x, reading x once. Two elements are taken per step
// and their products added to each sum together, which halves the chain of
// dependent additions without needing more registers than amd64 has.
func dot4(x, y0, y1, y2, y3 []float64) (s0, s1, s2, s3 float64) {
	n := len(x)
	y0, y1, y2, y3 = y0[:n], y1[:n], y2[:n], y3[:n]
	i := 0
	for ; i+1 < len(x); i += 2 {
		a, b := x[i], x[i+1]
		s0 += a*y0[i] + b*y0[i+1]
		s1 += a*y1[i] + b*y1[i+1]
		s2 += a*y2[i] + b*y2[i+1]
		s3 += a*y3[i] + b*y3[i+1]
	}
	if i < len(x) {
		a := x[i]
		s0 += a * y0[i]
		s1 += a * y1[i]
		s2 += a * y2[i]
		s3 += a * y3[i]
	}
	return s0, s1, s2, s3
}

// axpy4 computes x[i] += a0·y0[i] + a1·y1[i] + a2·y2[i] + a3·y3[i] for
// i < len(x), reading and writing x once.
func axpy4(a0, a1, a2, a3 float64, y0, y1, y2, y3, x []float64) {
	n := len(x)
	y0, y1, y2, y3 = y0[:n], y1[:n], y2[:n], y3[:n]
	for i := range x {
		x[i] += (a0*y0[i] + a1*y1[i]) + (a2*y2[i] + a3*y3[i])
	}
}

// timesUpper overwrites the r×k matrix z with z·T for the k×k upper
// triangular t. Column j of the product needs columns 0…j of z, so each
// row is done from right to left in place.
func timesUpper(z, t Dense) {
	k := t.Rows
	for i := 0; i < z.Rows; i++ {
		row := z.Data[i*z.Stride : i*z.Stride+k]
		for j := k - 1; j >= 0; j-- {
			var s float64
			for l := 0; l <= j; l++ {
				s += row[l] * t.Data[l*t.Stride+j]
			}
			row[j] = s
		}
	}
}

// upperTimes overwrites the k×c matrix z with T·z for the k×k upper
// triangular t. Row i of T·z needs rows i…k−1 of z, so the rows are done
// top down in place.
func upperTimes(t, z Dense) {
	k := t.Rows
	zr := func(i int) []float64 { return z.Data[i*z.Stride : i*z.Stride+z.Cols] }
	for i := 0; i < k; i++ {
		row := zr(i)
		d := t.Data[i*t.Stride+i]
		for j := range row {
			row[j] *= d
		}
		for l := i + 1; l < k; l++ {
			axpy(t.Data[i*t.Stride+l], zr(l), row)
		}
	}
}

// copyScan sets dst = srcᵀ (trans) or dst = src and returns the largest
// |element| of src and whether every element is finite. Large copies are
// split over goroutines by blocks of rows of src (see copyScanBlock); the
// maximum does not depend on the order in which the blocks are combined.
func copyScan(dst, src Dense, trans bool) (amax float64, finite bool) {
	const block = 256
	r, c := src.Rows, src.Cols
	if r == 0 || c == 0 {
		return 0, true
	}
	units := (r + block - 1) / block
	p := teamSize(units, 8*float64(r)*float64(c))
	maxes := make([]float64, units)
	ok := make([]bool, units)
	forEach(p, units, taskFunc(func(_, u int) {
		i0, i1 := u*block, min(u*block+block, r)
		var d Dense
		if trans {
			d = dst.view(0, c, i0, i1)
		} else {
			d = dst.view(i0, i1, 0, c)
		}
		maxes[u], ok[u] = copyScanBlock(d, src.view(i0, i1, 0, c), trans)
	}))
	finite = true
	for u := range maxes {
		amax = math.Max(amax, maxes[u])
		finite = finite && ok[u]
	}
	return amax, finite
}

// copyScanBlock is copyScan on the calling goroutine. The transpose goes by
// 32×32 tiles so that both the reads and the writes stay in cache. NaN is
// caught by x − x ≠ 0, which also holds for ±Inf.
func copyScanBlock(dst, src Dense, trans bool) (amax float64, finite bool) {
	const tile = 32
	r, c := src.Rows, src.Cols
	var bad float64 // Σ (x − x): 0 unless some x is NaN or ±Inf
	if !trans {
		for i := 0; i < r; i++ {
			s := src.Data[i*src.Stride : i*src.Stride+c]
			copy(dst.Data[i*dst.Stride:i*dst.Stride+c], s)
			for _, x := range s {
				bad += x - x
				if v := math.Abs(x); v > amax {
					amax = v
				}
			}
		}
		return amax, bad == 0
	}
	for j0 := 0; j0 < c; j0 += tile {
		j1 := min(j0+tile, c)
		for i0 := 0; i0 < r; i0 += tile {
			i1 := min(i0+tile, r)
			for j := j0; j < j1; j++ {
				d := dst.Data[j*dst.Stride+i0 : j*dst.Stride+i1]
				s := src.Data[i0*src.Stride+j:]
				for i := range d {
					x := s[i*src.Stride]
					d[i] = x
					bad += x - x
					if v := math.Abs(x); v > amax {
						amax = v
					}
				}
			}
		}
	}
	return amax, bad == 0
}
