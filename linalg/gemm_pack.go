package linalg

// Packing copies a block of an operand into the order in which the
// micro-kernel reads it, so that the kernel streams through contiguous
// memory whatever the operand's stride or transposition. The layout depends
// only on the register block MR×NR of the kernel in use (kern), so it is
// shared by the scalar and the SIMD kernels.
//
// Packed A: the mc×kc block of op(A) starting at (i0, p0) becomes
// ⌈mc/MR⌉ micro-panels of MR rows. Panel r holds rows [r·MR, r·MR+MR) column
// by column: dst[r·MR·kc + p·MR + i] = op(A)[i0 + r·MR + i, p0 + p].
//
// Packed B: the kc×nc block of op(B) starting at (p0, j0) becomes
// ⌈nc/NR⌉ micro-panels of NR columns. Panel s holds columns [s·NR, s·NR+NR)
// row by row: dst[s·NR·kc + p·NR + j] = op(B)[p0 + p, j0 + s·NR + j].
//
// Rows (or columns) past the edge of the block are filled with zeros, so
// the micro-kernel always works on full MR×NR tiles.

// packA packs the mc×kc block of op(A) at (i0, p0) into dst, which has
// length at least ⌈mc/MR⌉·MR·kc.
func packA(tA Op, mc, kc int, a Dense, i0, p0 int, dst []float64) {
	MR := kern.mr
	lda := a.Stride
	for ir := 0; ir < mc; ir += MR {
		mr := min(MR, mc-ir)
		d := dst[ir*kc : ir*kc+MR*kc]
		if tA == NoTrans {
			// op(A)[i, p] = a[i, p]: MR rows of A, read in parallel.
			packRows(d, a, i0+ir, mr, MR, p0, kc)
			continue
		}
		// op(A)[i, p] = a[p, i]: each row of A gives MR contiguous values.
		if mr == 4 && MR == 4 {
			// Every kernel's MR: four assignments, where copy calls
			// memmove for 32 bytes (at 16 cores memmove was two thirds of
			// the CPU of packA in EigenSym's back-transformation).
			for p := range kc {
				src := a.Data[(p0+p)*lda+i0+ir:][:4:4]
				q := d[p*4 : p*4+4 : p*4+4]
				q[0], q[1], q[2], q[3] = src[0], src[1], src[2], src[3]
			}
			continue
		}
		for p := range kc {
			src := a.Data[(p0+p)*lda+i0+ir:][:mr]
			q := d[p*MR : p*MR+MR]
			copy(q, src)
			clear(q[mr:])
		}
	}
}

// packGroup is about the number of columns of B that packB handles
// together: 16 doubles are two cache lines of a row of B. It is rounded up
// to a multiple of NR, so that a group holds whole micro-panels.
const packGroup = 16

// packB packs the kc×nc block of op(B) at (p0, j0) into dst, which has
// length at least ⌈nc/NR⌉·NR·kc.
func packB(tB Op, kc, nc int, b Dense, p0, j0 int, dst []float64) {
	NR := kern.nr
	ldb := b.Stride
	if tB == NoTrans {
		// op(B)[p, j] = b[p, j]. Go through the columns a group of
		// packGroup at a time (whole cache lines of each row of B); within
		// a group, read each row's segment once and deal it out to the
		// group's micro-panels, which stay in L1 (packGroup·kc values).
		full := nc / NR * NR
		group := roundUp(packGroup, NR)
		for g0 := 0; g0 < full; g0 += group {
			g1 := min(g0+group, full)
			for p := range kc {
				seg := b.Data[(p0+p)*ldb+j0+g0 : (p0+p)*ldb+j0+g1]
				for jr := 0; jr < len(seg); jr += NR {
					off := (g0+jr)*kc + p*NR
					if NR == 2 {
						q := dst[off : off+2 : off+2]
						q[0], q[1] = seg[jr], seg[jr+1]
						continue
					}
					copy(dst[off:off+NR], seg[jr:jr+NR])
				}
			}
		}
		if full < nc {
			for p := range kc {
				row := b.Data[(p0+p)*ldb+j0:][:nc]
				q := dst[full*kc+p*NR : full*kc+p*NR+NR]
				copy(q, row[full:])
				clear(q[nc-full:])
			}
		}
		return
	}
	// op(B)[p, j] = b[j, p]: NR rows of B, read in parallel.
	for jr := 0; jr < nc; jr += NR {
		packRows(dst[jr*kc:jr*kc+NR*kc], b, j0+jr, min(NR, nc-jr), NR, p0, kc)
	}
}

// packRows packs the r ≤ w rows x[r0 : r0+r] of x, each from column p0 on
// for kc columns, as one micro-panel of width w: d[p·w + i] =
// x[r0+i, p0+p], and zeros for i ≥ r. It is the packing of A (w = MR) and
// of Bᵀ (w = NR) when their rows are the panel's rows, with the full
// panels of the scalar kernel (4 rows of A, 2 of Bᵀ) unrolled.
func packRows(d []float64, x Dense, r0, r, w, p0, kc int) {
	ld := x.Stride
	switch {
	case r == 4 && w == 4:
		x0 := x.Data[r0*ld+p0:][:kc]
		x1 := x.Data[(r0+1)*ld+p0:][:kc]
		x2 := x.Data[(r0+2)*ld+p0:][:kc]
		x3 := x.Data[(r0+3)*ld+p0:][:kc]
		for p := range kc {
			q := d[p*4 : p*4+4 : p*4+4]
			q[0], q[1], q[2], q[3] = x0[p], x1[p], x2[p], x3[p]
		}
		return
	case r == 2 && w == 2:
		x0 := x.Data[r0*ld+p0:][:kc]
		x1 := x.Data[(r0+1)*ld+p0:][:kc]
		for p := range kc {
			q := d[p*2 : p*2+2 : p*2+2]
			q[0], q[1] = x0[p], x1[p]
		}
		return
	}
	if r < w {
		clear(d[:w*kc])
	}
	// Four rows at a time: each step of p writes four adjacent values, so
	// a wide panel (the SIMD kernels' 16 columns of Bᵀ) is swept r/4
	// times instead of r.
	i := 0
	for ; i+4 <= r; i += 4 {
		x0 := x.Data[(r0+i)*ld+p0:][:kc]
		x1 := x.Data[(r0+i+1)*ld+p0:][:kc]
		x2 := x.Data[(r0+i+2)*ld+p0:][:kc]
		x3 := x.Data[(r0+i+3)*ld+p0:][:kc]
		for p := range kc {
			q := d[p*w+i : p*w+i+4 : p*w+i+4]
			q[0], q[1], q[2], q[3] = x0[p], x1[p], x2[p], x3[p]
		}
	}
	for ; i < r; i++ {
		row := x.Data[(r0+i)*ld+p0:][:kc]
		for p, v := range row {
			d[p*w+i] = v
		}
	}
}
