package loo

import (
	"rkhs/internal/parallel"
	"rkhs/internal/wire"
	"rkhs/linalg"
	"rkhs/regress"
)

// frame is what every exact leave-one-out quantity of a Nyström fit is
// computed from, at L values of λ (NystromPath's Method derives it): in
// the frame of the intercept mode, with V·diag(μ)·Vᵀ = G the features'
// Gram matrix and Z = VᵀR,
//
//	fᵢ = Wᵀk(xᵢ, C) − c                 the row of the frame (W m×m, c m)
//	Hᵢᵢ = Σ_k f_ik²·D_kj (+ 1/n)        the hat diagonal at λ_j, D_kj = 1/(μ_k + nλ_j)
//	ŷᵢ = Σ_k f_ik·Z_k,out·D_kj (+ ȳ)    the fitted values
//	rᵢ = (yᵢ − ŷᵢ)/(1 − Hᵢᵢ)            the leave-one-out residual
//
// (the 1/n and ȳ with a free intercept only). A block of b rows costs
// 2bm² flops for its frame rows, 2bmqL for the fitted values and 2bmL
// for the hat diagonal. Both selections stand on it: the grid's λ path
// (NystromPath, L values of λ) and the length scales' fit at one λ
// (ScalePath) embed it and differ only in the sums they keep. A frame is
// only read once built, so the goroutines of a pass share it.
type frame struct {
	ic      regress.Intercept
	n, q, m int
	mu      []float64     // eigenvalues of G, ascending
	w       *linalg.Dense // m×m: rows fᵢ = Wᵀk(xᵢ, C) − c
	c       []float64     // m
	d       *linalg.Dense // m×L, D_kj = 1/(μ_k + nλ_j)
	zd      *linalg.Dense // m×(qL), Z_k,out·D_kj at column out·L + j
	ybar    []float64     // ȳ with a free intercept, zeros otherwise
}

// rows computes the frame's rows F = K_b·W − 1cᵀ (b×m) of the kernel
// rows kb (b×m) of a block into dst and returns it: one linalg.Gemm, the
// shift subtracted row by row.
func (f *frame) rows(dst, kb *linalg.Dense) *linalg.Dense {
	fb := dst.Reuse(kb.Rows, f.m)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, kb, f.w, 0, fb)
	eachRow(kb.Rows, f.m, func(i int) {
		row := fb.Row(i)
		for k, ck := range f.c {
			row[k] -= ck
		}
	})
	return fb
}

// residuals computes, for the frame's rows fb (b×m) of a block with the
// outputs yb (b×q), the training residuals E = Y − Ŷ of every λ into dst
// (b×qL, E_i,out·L+j at λ_j) and returns it: Ŷ − 1ȳᵀ = F·(Z∘D) by one
// linalg.Gemm, then yᵢ − (ŷᵢ − ȳ + ȳ) row by row.
func (f *frame) residuals(dst, fb, yb *linalg.Dense) *linalg.Dense {
	nl := f.d.Cols
	e := dst.Reuse(fb.Rows, f.q*nl)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, fb, f.zd, 0, e)
	eachRow(fb.Rows, f.q*nl, func(i int) {
		row, yi := e.Row(i), yb.Row(i)
		for out, yv := range yi {
			for j, v := range row[out*nl : (out+1)*nl] {
				row[out*nl+j] = yv - (v + f.ybar[out])
			}
		}
	})
	return e
}

// hats computes Hᵢᵢ − h0 (see h0) at every λ for the frame's rows fb
// (b×m) into dst (b×L) and returns it: (F∘F)·D by one linalg.Gemm,
// squaring fb in place. A caller that needs F afterwards, as the length
// scales' sums do, takes one row at a time with hat instead.
func (f *frame) hats(dst, fb *linalg.Dense) *linalg.Dense {
	eachRow(fb.Rows, f.m, func(i int) {
		row := fb.Row(i)
		for k, v := range row {
			row[k] = v * v
		}
	})
	h := dst.Reuse(fb.Rows, f.d.Cols)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, fb, f.d, 0, h)
	return h
}

// hat returns Hᵢᵢ − h0 at λ_j for one row fi of the frame,
// Σ_k f_ik²·D_kj summed in the order of k, leaving fi as it is.
func (f *frame) hat(fi []float64, j int) float64 {
	var h float64
	for k, v := range fi {
		h += v * v * f.d.At(k, j)
	}
	return h
}

// h0 returns the hat diagonal's part from the free intercept, 1/n, or 0
// for the other modes.
func (f *frame) h0() float64 {
	if f.ic == regress.FreeIntercept {
		return 1 / float64(f.n)
	}
	return 0
}

// wrongClass reports whether the leave-one-out prediction yᵢ − eᵢ/gᵢ of
// a row, whose outputs yi code classes and whose training residuals are
// e[0], e[stride], … (one per output), gi = 1 − Hᵢᵢ, has another class
// than yᵢ: with one output its sign (±1 codes), with several (one
// against all) the index of the largest.
func wrongClass(yi, e []float64, stride int, gi float64) bool {
	truth, pred := -1, -1
	var ty, tp float64
	for out, yv := range yi {
		if pv := yv - e[out*stride]/gi; pred < 0 || pv > tp {
			pred, tp = out, pv
		}
		if truth < 0 || yv > ty {
			truth, ty = out, yv
		}
	}
	if len(yi) == 1 {
		return (ty > 0) != (tp > 0)
	}
	return pred != truth
}

// fit returns the coefficients W·(Z∘D)_j (m×q) and the intercept
// ȳ − cᵀ(Z∘D)_j of the fit at λ_j, in O(m²q) flops.
func (f *frame) fit(j int) (coef *linalg.Dense, b []float64) {
	nl := f.d.Cols
	zd := linalg.NewDense(f.m, f.q, nil)
	b = append([]float64(nil), f.ybar...)
	for k, ck := range f.c {
		src, dst := f.zd.Row(k), zd.Row(k)
		for out := range dst {
			dst[out] = src[out*nl+j]
			b[out] -= ck * dst[out]
		}
	}
	coef = linalg.NewDense(f.m, f.q, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, f.w, zd, 0, coef)
	return coef, b
}

// hashW returns the hash of W's first m rows (wire.HashFloats) that the
// fingerprints of the sums of a frame's passes carry.
func (f *frame) hashW() uint64 {
	rows := make([][]float64, f.m)
	for i := range rows {
		rows[i] = f.w.Row(i)
	}
	return wire.HashFloats(rows...)
}

// eachRow calls f(i) for every row i < n of an n×m elementwise pass, the
// rows split over the goroutines in contiguous chunks; each row is one
// call, so the split cannot change a value.
func eachRow(n, m int, f func(i int)) {
	t := parallel.Team(n, float64(n)*float64(m), 1<<15)
	chunks := parallel.NewChunks(n, t, 1)
	parallel.For(t, chunks.Count(), parallel.Func(func(_, c int) {
		lo, hi := chunks.Bounds(c)
		for i := lo; i < hi; i++ {
			f(i)
		}
	}))
}
