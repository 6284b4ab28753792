package linalg

import "math"

// bdMerge merges the two solved halves of a node of bdsdc's tree (the step
// of Gu and Eisenstat, "A divide-and-conquer algorithm for the bidiagonal
// SVD" (1995), and of LAPACK's dlasd1–dlasd3).
//
// The node is an n×m upper bidiagonal matrix B, m = n + sqre (sqre ∈ {0, 1}:
// with one more column, the last superdiagonal entry in column n). Its row
// nl is left out: the nl×(nl+1) block B₁ above it and the
// (n−nl−1)×(m−nl−1) block B₂ below it have been solved, B₁ = U₁·[D₁ 0]·W₁ᵀ
// and B₂ = U₂·[D₂ 0]·W₂ᵀ (the zero column only when B₂ has one more
// column), and row nl holds α at column nl and β at column nl+1. On entry
// d[:nl] and d[nl+1:] hold D₁ and D₂ (each ascending), the n×n matrix u
// holds diag(U₁, 0, U₂) (bdMerge sets the 1 in the middle) and the m×m
// matrix w holds diag(W₁, W₂), vectors in columns. On return d holds the
// singular values of B in ascending order, u its left and w its right
// singular vectors, the last column of w (when sqre = 1) spanning the null
// space.
//
// In these bases B is the matrix M with first row z — z₀ = α·W₁[nl][nl]
// (the null vector of B₁), α·W₁[nl][:nl] and β·W₂[0][:] — and below it
// diag(D₁, D₂), its first column zero but for z₀: the singular values of M
// are the roots of the secular equation 1 + Σ zᵢ²/(dᵢ² − σ²) = 0 (d₀ = 0).
// When sqre = 1 the entry of z for W₂'s null vector is first rotated into
// z₀ (columns 0 and m−1 of M are zero below their first row). Then, after
// scaling B to entries at most 1 and merging D₁ and D₂ into ascending
// order, with tol = 8ε·max(|α|, |β|, max dᵢ):
//
//  1. Deflation (secularDeflate). A component with |zᵢ| ≤ tol is dropped:
//     dᵢ is then a singular value, its vectors those of the child. A
//     dᵢ ≤ tol is rotated into the first column (its z entry moves into z₀)
//     and deflates with value dᵢ. Two neighbouring dᵢ < dⱼ whose rotation
//     (of both the left and the right vectors) would zero zᵢ at the price of
//     an entry (dⱼ − dᵢ)·c·s ≤ tol, or whose squares round to the same
//     value, are rotated, and dᵢ deflates. A |z₀| ≤ tol is raised to tol.
//     Each step perturbs B by at most about tol.
//  2. The K remaining singular values are the square roots of the roots of
//     the secular equation with poles pᵢ = dᵢ² (p₀ = 0) and ρ = 1, found by
//     secularRoots, which also returns the differences δᵢⱼ = pᵢ − σⱼ²
//     accurate to a few ulps: they, not the σⱼ, make the vectors.
//  3. Löwner's formula gives the ẑ for which the σⱼ are exact (see
//     lownerVector); the right singular vectors of M are ẑᵢ/δᵢⱼ and the
//     left ones (−1, dᵢ·ẑᵢ/δᵢⱼ), normalized: exact vectors of a nearby
//     matrix, computed to a few ulps componentwise, hence orthogonal to
//     working precision however close the σⱼ.
//  4. The new vectors are the old ones times those of M: for u and for w,
//     two GEMMs on the rows of B₁'s and B₂'s blocks (see mergeColumns);
//     deflated vectors are moved, and all are put into ascending order.
//
// With serial set everything runs on the calling goroutine (merges running
// in parallel with each other); otherwise the roots, the row passes and the
// GEMMs are spread over goroutines. The result does not depend on which.
// bdMerge returns the error of secularRoot, if any.
func bdMerge(d []float64, u, w Dense, nl, sqre int, alpha, beta float64, serial bool) error {
	n := len(d)
	m := n + sqre
	d[nl] = 0
	u.Data[nl*u.Stride+nl] = 1 // the 1 of diag(U₁, 1, U₂); row and column nl are zero otherwise
	orgnrm := math.Max(maxAbs(d), math.Max(math.Abs(alpha), math.Abs(beta)))
	if orgnrm == 0 {
		return nil // B = 0: d is zero, and the identity bases do
	}
	sc := -exponentOf(orgnrm)
	scaleExp(d, sc)
	alpha, beta = math.Ldexp(alpha, sc), math.Ldexp(beta, sc)
	p := 1
	if !serial {
		p = teamSize(n, float64(n)*float64(n))
	}

	// The coordinates of M in merged order: position k is column col[k] of
	// u and w, with value dd[k] and component zz[k]. Position 0 is the
	// first column of M: column nl of u (the unit vector of row nl) and of
	// w (the null vector of B₁).
	col := make([]int, n)
	dd := make([]float64, n)
	zz := make([]float64, n)
	typU := make([]int8, n) // rows of u a column can touch: split at nl
	typW := make([]int8, n) // rows of w: split at nl+1
	wrow := func(i int) []float64 { return w.Data[i*w.Stride : i*w.Stride+m] }
	col[0], zz[0], typU[0], typW[0] = nl, alpha*wrow(nl)[nl], colBot, colTop
	for k, i, j := 1, 0, nl+1; k < n; k++ {
		if j == n || (i < nl && d[i] <= d[j]) {
			col[k], dd[k], zz[k], typU[k], typW[k] = i, d[i], alpha*wrow(nl)[i], colTop, colTop
			i++
		} else {
			col[k], dd[k], zz[k], typU[k], typW[k] = j, d[j], beta*wrow(nl + 1)[j], colBot, colBot
			j++
		}
	}
	if sqre == 1 {
		// Rotate W₂'s null vector (z entry β·W₂[0][last]) into position 0;
		// what is left in column n of w is B's null vector.
		zx := beta * wrow(nl + 1)[n]
		if r := math.Hypot(zz[0], zx); r != 0 {
			c, s := zz[0]/r, zx/r
			rotateColumns(w, nl, n, c, s, nl+1, colBoth, colBoth)
			zz[0] = r
			typW[0] = colBoth
		}
	}

	tol := 8 * tridiagEps * math.Max(maxAbs(dd), math.Max(math.Abs(alpha), math.Abs(beta)))

	// 1. Deflation: kept and defl list positions (kept[0] = 0).
	kept, defl := secularDeflate(dd, zz, 1, tol, []int{0}, make([]int, 0, n),
		func(nj int) bool {
			if math.Abs(zz[nj]) <= tol {
				return true
			}
			if dd[nj] > tol {
				return false
			}
			// Rotate column nj of M into column 0 (from the right only):
			// its z entry joins z₀, and what it leaves in row nj of
			// column 0, at most dd[nj], is dropped.
			r := math.Hypot(zz[0], zz[nj])
			c, s := zz[0]/r, zz[nj]/r
			rotateColumns(w, col[0], col[nj], c, s, nl+1, typW[0], typW[nj])
			if typW[0] != typW[nj] {
				typW[0] = colBoth
			}
			zz[0], zz[nj] = r, 0
			return true
		},
		// Poles whose squares round to the same value always deflate.
		func(pj, nj int) bool { return dd[nj]*dd[nj] <= dd[pj]*dd[pj] },
		func(pj, nj int, c, s float64) {
			// Rotate columns pj and nj of both bases so that pj's z
			// component vanishes; the coupling left between them is
			// negligible.
			rotateColumns(u, col[pj], col[nj], c, s, nl, typU[pj], typU[nj])
			rotateColumns(w, col[pj], col[nj], c, s, nl+1, typW[pj], typW[nj])
			if typU[pj] != typU[nj] {
				typU[nj], typW[nj] = colBoth, colBoth
			}
		})
	if math.Abs(zz[0]) <= tol {
		zz[0] = math.Copysign(tol, zz[0]+0) // +0: a zero z₀ becomes +tol
	}
	sortByValue(defl, dd)

	// 2. The secular equation: poles pl = dd², components zl; row j of
	// delta holds pl[i] − σⱼ². Then Löwner's ẑ.
	k := len(kept)
	pl := make([]float64, k)
	zl := make([]float64, k)
	for i, s := range kept {
		pl[i], zl[i] = dd[s]*dd[s], zz[s]
	}
	pr := 1
	if !serial {
		pr = teamSize(k, 30*float64(k)*float64(k))
	}
	sig, delta, zhat, err := secularRoots(pl, zl, 1, pr) // the roots σⱼ²
	if err != nil {
		return err
	}
	for j, s2 := range sig {
		sig[j] = math.Sqrt(s2)
	}

	// 3. The vectors of M: row j of yv (right) and yu (left) is the vector
	// of σⱼ over the kept positions.
	yv := delta                // overwritten row by row: row j is read before it is written
	yu := scratchFloats(k * k) // every element written below
	forEach(pr, k, taskFunc(func(_, j int) {
		dr := delta[j*k : (j+1)*k]
		vr, ur := yv[j*k:(j+1)*k], yu[j*k:(j+1)*k]
		for i, dij := range dr {
			vr[i] = zhat[i] / dij
		}
		ur[0] = -1
		for i := 1; i < k; i++ {
			ur[i] = dd[kept[i]] * vr[i]
		}
		scaleVector(vr)
		scaleVector(ur)
	}))

	// 4. The new bases, then the ascending order of all values.
	kcol := make([]int, k)
	ktypU, ktypW := make([]int8, k), make([]int8, k)
	for i, s := range kept {
		kcol[i], ktypU[i], ktypW[i] = col[s], typU[s], typW[s]
	}
	dcol := make([]int, len(defl))
	for q, s := range defl {
		dcol[q] = col[s]
	}
	mergeColumns(u, nl, kcol, ktypU, yu, dcol, p, serial)
	mergeColumns(w, nl+1, kcol, ktypW, yv, dcol, p, serial)
	releaseFloats(yu)
	releaseFloats(delta) // yv

	if src := mergeAscending(d, sig, dd, defl); src != nil {
		permuteColumns(u, src, p)
		permuteColumns(w, src, p)
	}
	scaleExp(d, -sc)
	return nil
}

// mergeColumns replaces columns of the R×C matrix q by products with the
// vectors of a merge: with y (k×k, row j over the k kept columns kcol),
// columns 0…k−1 become Q[:, kcol]·yᵀ, and the columns dcol are moved to
// columns k, k+1, … (the other columns of q are left alone). A kept column
// of type colTop is zero in rows r1…, one of type colBot in rows …r1−1;
// the product is two GEMMs over the non-zero blocks, with the columns
// grouped by type (top, both, bottom) and copied first, so that every
// element is read before it is overwritten. Rows are copied on up to p
// goroutines, and the GEMMs run on the calling goroutine only if serial.
func mergeColumns(q Dense, r1 int, kcol []int, typ []int8, y []float64, dcol []int, p int, serial bool) {
	k := len(kcol)
	rows := q.Rows
	var cnt [3]int
	for _, t := range typ {
		cnt[t]++
	}
	next := [3]int{0, cnt[colTop], cnt[colTop] + cnt[colBoth]}
	grp := make([]int, k)
	gcol := make([]int, k)
	for i, t := range typ {
		g := next[t]
		next[t]++
		grp[i], gcol[g] = g, kcol[i]
	}
	n12 := cnt[colTop] + cnt[colBoth] // groups [0, n12) meet rows [0, r1)
	c1 := cnt[colTop]                 // groups [c1, k) meet rows [r1, rows)
	yt := scratchFloats(k * k)        // y with its columns in group order
	for j := 0; j < k; j++ {
		for i, g := range grp {
			yt[j*k+g] = y[j*k+i]
		}
	}
	w1 := Dense{Rows: r1, Cols: n12, Stride: max(n12, 1), Data: scratchFloats(r1 * n12)}
	w2 := Dense{Rows: rows - r1, Cols: k - c1, Stride: max(k-c1, 1), Data: scratchFloats((rows - r1) * (k - c1))}
	chunks := newRowChunks(rows, max(p, 1), 1)
	width := q.Cols
	rowTmp := scratchFloats(chunks.Count() * width)
	forEach(p, chunks.Count(), taskFunc(func(_, c int) {
		t := rowTmp[c*width : (c+1)*width]
		lo, hi := chunks.Bounds(c)
		for r := lo; r < hi; r++ {
			row := q.Data[r*q.Stride : r*q.Stride+width]
			copy(t, row)
			if r < r1 {
				dst := w1.Data[r*n12 : (r+1)*n12]
				for g := range dst {
					dst[g] = t[gcol[g]]
				}
			} else {
				dst := w2.Data[(r-r1)*(k-c1) : (r-r1+1)*(k-c1)]
				for g := range dst {
					dst[g] = t[gcol[c1+g]]
				}
			}
			for i, s := range dcol {
				row[k+i] = t[s]
			}
		}
	}))
	ytd := Dense{Rows: k, Cols: k, Stride: k, Data: yt}
	dcProduct(w1, ytd.view(0, k, 0, n12), q.view(0, r1, 0, k), serial)
	dcProduct(w2, ytd.view(0, k, c1, k), q.view(r1, rows, 0, k), serial)
	for _, s := range [][]float64{yt, w1.Data, w2.Data, rowTmp} {
		releaseFloats(s)
	}
}
