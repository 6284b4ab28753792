package kernels

import (
	"fmt"
	"math"

	"rkhs/internal/avx"
	"rkhs/internal/center"
	"rkhs/internal/check"
	"rkhs/internal/parallel"
	"rkhs/linalg"
)

// minParallelWork is the number of kernel evaluations (or elementwise
// transforms, each an exp or a few multiplications) below which a pass runs
// on the calling goroutine.
const minParallelWork = 1 << 15

// prepared holds what evaluating K(·, Z) needs for a fixed Z: for a
// distance kernel, Z centred by its column means μ and the squared norms of
// its centred rows. Centring does not change distances, and it makes the
// norms small where the data sit far from the origin, so that
// ‖x‖² + ‖z‖² − 2xᵀz loses less to cancellation. For a dot kernel it
// holds the largest squared row norm of Z, which bounds the kernel values
// (see fits).
type prepared struct {
	k    Kernel
	dot  dotKernel
	dist distKernel
	z    linalg.Dense // Z, or Z − μ for a distance kernel (a copy)
	mean []float64    // μ, distance kernels only
	nz   []float64    // ‖zⱼ − μ‖², distance kernels only
	zmax float64      // max ‖zⱼ‖² (dot) or max ‖zⱼ − μ‖² (distance)
	zt   []float64    // transposeForDot(&z), for dotSmallTo
}

// checkKernel reports a nil kernel or invalid kernel parameters as an
// ErrParameter InputError of op.
func checkKernel(op string, k Kernel) error { return check.Kernel(ErrParameter, op, "k", k) }

// prepareCross validates the arguments of K(X, Z) — the kernel, then X and
// Z (valid, finite views with the same number of columns; either may have
// no rows) — and prepares Z.
func prepareCross(op string, k Kernel, x, z *linalg.Dense) (*prepared, error) {
	if err := checkKernel(op, k); err != nil {
		return nil, err
	}
	if err := check.Data(ErrData, op, "X", x, 0); err != nil {
		return nil, err
	}
	if err := check.Data(ErrData, op, "Z", z, 0); err != nil {
		return nil, err
	}
	switch {
	case x.Cols == z.Cols:
	case z.Rows == 0:
		z = &linalg.Dense{Cols: x.Cols} // no points, of X's width
	case x.Rows > 0:
		return nil, check.Input(ErrData, op, "Z", "%d columns, X has %d", z.Cols, x.Cols)
	}
	return prepare(k, z), nil
}

// prepare prepares the checked Z for a checked kernel k.
func prepare(k Kernel, z *linalg.Dense) *prepared {
	p := &prepared{k: k, z: *z}
	switch kk := k.(type) {
	case dotKernel:
		p.dot = kk
		p.zmax = maxNorm(rowSqNorms(z))
	case distKernel:
		p.dist = kk
		p.mean = center.Means(z)
		p.z = *center.Subtract(z, p.mean)
		p.nz = rowSqNorms(&p.z)
		p.zmax = maxNorm(p.nz)
	}
	if p.dot != nil || p.dist != nil {
		p.zt = transposeForDot(&p.z)
	}
	return p
}

// xNorms returns the squared norms of the rows of x as crossTo uses them:
// ‖xᵢ − μ‖² for a distance kernel, ‖xᵢ‖² for a dot kernel, nil for
// others. O(nd) time, O(n + d) memory.
func (p *prepared) xNorms(x *linalg.Dense) []float64 {
	switch {
	case p.dot != nil:
		return rowSqNorms(x)
	case p.dist != nil:
		s := make([]float64, x.Rows)
		buf := make([]float64, x.Cols)
		for i := range s {
			for j, v := range x.Row(i) {
				buf[j] = v - p.mean[j] // as center.Subtract rounds it
			}
			s[i] = sqNorm(buf)
		}
		return s
	}
	return nil
}

// Overflow. The matrix paths compute a kernel value from an inner product
// (and, for a distance kernel, squared norms), whose intermediates can
// overflow for finite data far from 0: ‖x‖² + ‖z‖² − 2xᵀz is then
// ∞ − ∞ = NaN where Eval would give exp(−∞) = 0, and (xᵀz + c)^p is ±Inf
// or NaN. The entry points bound every value from the largest squared row
// norms, O((n + m)d), instead of scanning the n×m result. The bounds live
// in dotKernel.dotFits and sqDistFits, one per family of kernels.
//
// For a distance kernel, a row the bound does not cover is computed pair
// by pair from the differences of the centred rows (farRow), never from
// norms that may overflow: its squared distances are finite or +Inf, and
// the Gaussian value of a row infinitely far from a centre is 0, as the
// kernel's own formula gives. The rows the bound covers, those of every
// ordinary problem, keep the matrix path and their values bit for bit.
// For a dot kernel an overflowing value is the kernel's true value, which
// float64 cannot hold: the entry points scan the rows the bound does not
// cover and return ErrData for a non-finite value, as they do for the
// NaN a distance kernel can still give where centring itself overflows
// (data near ±MaxFloat64 on both sides of the mean). Other kernels,
// evaluated pair by pair by Eval, are not checked (Laplacian's values are
// always finite, see Laplacian.Validate).

// sqDistFits reports whether ni + nj − 2xᵢᵀxⱼ, formed from squared norms
// ni ≤ a and nj ≤ b, certainly has no intermediate that overflows: with
// |xᵢᵀxⱼ| ≤ √(ni·nj) ≤ max(a, b) up to rounding, that holds when a and b
// are at most a eighth of the largest float64. The Gaussian value of a
// finite squared distance is then finite (σ having passed Validate).
func sqDistFits(a, b float64) bool {
	const limit = math.MaxFloat64 / 8
	return a <= limit && b <= limit // false for NaN
}

// valuesFit reports whether every value of k's matrix path between rows of
// squared norms at most a and b is certainly finite (see sqDistFits and
// dotKernel.dotFits); true for kernels evaluated pair by pair.
func valuesFit(k Kernel, a, b float64) bool {
	switch kk := k.(type) {
	case dotKernel:
		return kk.dotFits(a, b)
	case distKernel:
		return sqDistFits(a, b)
	}
	return true
}

// maxNorm returns the largest of the squared norms s, +Inf if one is NaN,
// 0 for none.
func maxNorm(s []float64) float64 {
	m := 0.0
	for _, v := range s {
		if !(v <= m) {
			m = v
			if math.IsNaN(v) {
				return math.Inf(1)
			}
		}
	}
	return m
}

// unfit returns the indices i of the norms nx[i] that valuesFit does not
// cover against rows of squared norm up to other: none (nil) in the normal
// case, which costs one call of valuesFit.
func unfit(k Kernel, nx []float64, other float64) []int {
	if valuesFit(k, maxNorm(nx), other) {
		return nil
	}
	var bad []int
	for i, v := range nx {
		if !valuesFit(k, v, other) {
			bad = append(bad, i)
		}
	}
	return bad
}

// checkRow returns an ErrData error of op naming the first NaN or ±Inf of
// row, which holds columns j0, j0+1, … of row i of the kernel matrix, or
// nil; norms describes the data for the message. The rows are named
// 1-based, as a data file counts them: "row 5 of X and row 1 of Z" for
// K(X, Z), "rows 5 and 1 of X" for a Gram matrix (gram true).
func checkRow(op string, k Kernel, row []float64, i, j0 int, gram bool, norms string) error {
	for j, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			pair := fmt.Sprintf("row %d of X and row %d of Z", i+1, j0+j+1)
			if gram {
				pair = fmt.Sprintf("rows %d and %d of X", i+1, j0+j+1)
			}
			return check.Input(ErrData, op, "X", "the kernel value of %s is %v: %T%+v overflows on data this large (%s)",
				pair, v, k, k, norms)
		}
	}
	return nil
}

// crossNorms describes the data of K(X, Z) for checkRow.
func crossNorms(xmax, zmax float64) string {
	return fmt.Sprintf("largest squared row norm %.3g in X, %.3g in Z", xmax, zmax)
}

// crossCheck computes the rows of K(X, Z) that the bound of valuesFit does
// not cover and returns an ErrData error for the first non-finite value
// among them; nil at once in the normal case. row(i) must return row i of
// K, computed as crossTo computes it.
func (p *prepared) crossCheck(op string, nx []float64, row func(i int) []float64) error {
	bad := unfit(p.k, nx, p.zmax)
	for _, i := range bad {
		if err := checkRow(op, p.k, row(i), i, 0, false, crossNorms(maxNorm(nx), p.zmax)); err != nil {
			return err
		}
	}
	return nil
}

func rowSqNorms(m *linalg.Dense) []float64 {
	s := make([]float64, m.Rows)
	for i := range s {
		s[i] = sqNorm(m.Row(i))
	}
	return s
}

// sqNorm returns Σ x[i]², summed in order. It is not linalg.Dot(x, x): the
// norms enter every Gaussian kernel value, and keeping their summation
// order keeps the values (and the predictions of saved models) the same
// bit for bit.
func sqNorm(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return s
}

// crossTo writes K(X, Z) into dst (x.Rows × z.Rows): by one Gemm and an
// elementwise pass for the kernels of this package, pair by pair otherwise.
// x must have been checked; nx is p.xNorms(x) (only read for a distance
// kernel); work, if not nil, is reused for the centred rows of x (x's
// shape, distance kernels only), which are otherwise allocated.
//
// With few columns (see maxSmallDot) the products come from dotSmall, on
// the goroutine that then applies the kernel to them: the rows are split
// into one contiguous chunk per goroutine, each evaluated by evalRows in
// groups of about 1 MiB of K, as a streamed block is.
func (p *prepared) crossTo(dst linalg.Dense, x *linalg.Dense, nx []float64, work *linalg.Dense) {
	n, m := x.Rows, p.z.Rows
	if n == 0 || m == 0 {
		return
	}
	var xc linalg.Dense
	if p.dist != nil {
		if work == nil {
			work = new(linalg.Dense)
		}
		xc = *work.Reuse(n, x.Cols)
	}
	if !p.serialProduct() {
		p.product(&dst, x, &xc)
		rowsParallel(n, m, func(i int) {
			p.finishRow(dst.Row(i), x.Row(i), nx, i)
		})
		return
	}
	g := streamRows(m) // rows per group
	t := parallel.Team(n, float64(n)*float64(m), minParallelWork)
	chunks := parallel.NewChunks(n, t, g)
	parallel.For(t, chunks.Count(), parallel.Func(func(_, c int) {
		lo, hi := chunks.Bounds(c)
		for i0 := lo; i0 < hi; i0 += g {
			i1 := min(i0+g, hi)
			var xci *linalg.Dense
			if p.dist != nil {
				xci = xc.Slice(i0, i1, 0, x.Cols)
			}
			var nxi []float64
			if nx != nil {
				nxi = nx[i0:i1]
			}
			p.evalRows(dst.Slice(i0, i1, 0, m), x.Slice(i0, i1, 0, x.Cols), xci, nxi)
		}
	}))
}

// serialProduct reports whether product runs on the calling goroutine:
// for kernels evaluated pair by pair (it does nothing) and when dotSmall
// computes the inner products.
func (p *prepared) serialProduct() bool {
	return (p.dot == nil && p.dist == nil) || p.z.Cols <= maxSmallDot
}

// evalRows writes K(X, Z) into dst for the rows of x, as crossTo does, on
// the calling goroutine when serialProduct (otherwise linalg.Gemm may
// start others): product, then finishRow for each row. xc is workspace of
// x's shape (distance kernels only), nx the norms of the rows of x.
func (p *prepared) evalRows(dst, x, xc *linalg.Dense, nx []float64) {
	p.product(dst, x, xc)
	for i := range x.Rows {
		avx.ClearUpper()
		p.finishRow(dst.Row(i), x.Row(i), nx, i)
	}
}

// product writes into dst what finishRow turns into kernel values: X·Zᵀ
// for a dot kernel, (X − μ)·(Z − μ)ᵀ for a distance kernel (centring X into
// xc, of x's shape), nothing for other kernels. The inner products come
// from dotSmallTo for at most maxSmallDot columns, from linalg.Gemm
// otherwise.
func (p *prepared) product(dst, x, xc *linalg.Dense) {
	a := x
	switch {
	case p.dist != nil:
		center.SubtractTo(xc, x, p.mean)
		a = xc
	case p.dot == nil:
		return
	}
	if a.Cols <= maxSmallDot {
		dotSmallTo(dst, a, &p.z, p.zt)
		return
	}
	linalg.Gemm(linalg.NoTrans, linalg.Trans, 1, a, &p.z, 0, dst)
}

// finishRow turns row i of product's result into row i of K: f(xᵢᵀzⱼ),
// f(‖xᵢ − μ‖² + ‖zⱼ − μ‖² − 2(xᵢ − μ)ᵀ(zⱼ − μ)) with nx[i] = ‖xᵢ − μ‖²
// (farRow's values where sqDistFits does not cover the row), or
// k.Eval(xᵢ, zⱼ) (xi is row i of X).
func (p *prepared) finishRow(row, xi, nx []float64, i int) {
	switch {
	case p.dot != nil:
		for j, g := range row {
			if j%clearEvery == 0 {
				avx.ClearUpper()
			}
			row[j] = p.dot.fromDot(g)
		}
	case p.dist != nil && !sqDistFits(nx[i], p.zmax):
		p.farRow(row, xi, p.dist)
	case p.dist != nil:
		p.dist.rowFromDots(row, p.nz, nx[i])
	default:
		for j := range row {
			if j%clearEvery == 0 {
				avx.ClearUpper()
			}
			row[j] = p.k.Eval(xi, p.z.Row(j))
		}
	}
}

// farRow sets row[j] = f(‖(xᵢ − μ) − (zⱼ − μ)‖²) for every centred row
// zⱼ − μ of p.z, the squared distance summed from the differences in
// order: the values of a distance kernel k for a row xi far from the
// origin, where ‖xᵢ − μ‖² + ‖zⱼ − μ‖² − 2(xᵢ − μ)ᵀ(zⱼ − μ) may be ∞ − ∞
// (see Overflow above). Each difference of finite centred values is
// finite or ±Inf, its square finite or +Inf, so the distance is never
// NaN and the Gaussian value is in [0, 1]: 0 for a row infinitely far
// away. A centred value that is itself ±Inf (xᵢ − μ or zⱼ − μ overflowed)
// can still give NaN, which the entry points report. Cost: 3md flops and
// m kernel transforms for m centres of d features.
func (p *prepared) farRow(row, xi []float64, k distKernel) {
	for j := range row {
		if j%clearEvery == 0 {
			avx.ClearUpper()
		}
		zj := p.z.Row(j)
		zj = zj[:len(xi)]
		var s float64
		for l, v := range xi {
			t := (v - p.mean[l]) - zj[l] // v − μ rounded as center.Subtract rounds it
			s += t * t
		}
		row[j] = k.fromSqDist(s)
	}
}

// rowsParallel calls f(i) for every row i < n of an n×m pass, rows split
// over goroutines in contiguous chunks. Each row is computed by one call, so
// the split cannot change a value. Before each row it calls avx.ClearUpper
// (see rkhs/internal/avx); rows longer than a few hundred entries of scalar
// work call it again every clearEvery entries.
func rowsParallel(n, m int, f func(i int)) {
	p := parallel.Team(n, float64(n)*float64(m), minParallelWork)
	chunks := parallel.NewChunks(n, p, 1)
	parallel.For(p, chunks.Count(), parallel.Func(func(_, c int) {
		lo, hi := chunks.Bounds(c)
		for i := lo; i < hi; i++ {
			avx.ClearUpper()
			f(i)
		}
	}))
}
