package kernels

import (
	"fmt"
	"math"

	"rkhs/internal/avx"
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

func prepare(k Kernel, z *linalg.Dense) (*prepared, error) {
	if k == nil {
		return nil, fmt.Errorf("%w: nil kernel", ErrParameter)
	}
	if v, ok := k.(Validator); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
	}
	if err := checkData(z, "Z"); err != nil {
		return nil, err
	}
	p := &prepared{k: k, z: *z}
	switch kk := k.(type) {
	case dotKernel:
		p.dot = kk
		p.zmax = maxNorm(rowSqNorms(z))
	case distKernel:
		p.dist = kk
		p.mean = columnMeans(z)
		p.z = centred(z, p.mean)
		p.nz = rowSqNorms(&p.z)
		p.zmax = maxNorm(p.nz)
	}
	if p.dot != nil || p.dist != nil {
		p.zt = transposeForDot(&p.z)
	}
	return p, nil
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
				buf[j] = v - p.mean[j] // as centred rounds it
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
// or NaN. Instead of scanning the n×m result, the entry points bound every
// value from the largest squared row norms, O((n + m)d), and scan (and
// return ErrData) only the rows the bound does not cover. The bounds live
// in dotKernel.dotFits and sqDistFits, one per family of kernels; other
// kernels, evaluated pair by pair by Eval, are not checked (Laplacian's
// values are always finite, see Laplacian.Validate).

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

// checkRow returns an ErrData error naming the first NaN or ±Inf of row,
// which is row i of the kernel matrix, or nil; norms describes the data
// for the message.
func checkRow(k Kernel, row []float64, i int, norms string) error {
	for j, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: kernel value K[%d][%d] is %v: %T%+v overflows on data this large (%s)",
				ErrData, i, j, v, k, k, norms)
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
func (p *prepared) crossCheck(nx []float64, row func(i int) []float64) error {
	bad := unfit(p.k, nx, p.zmax)
	for _, i := range bad {
		if err := checkRow(p.k, row(i), i, crossNorms(maxNorm(nx), p.zmax)); err != nil {
			return err
		}
	}
	return nil
}

// checkData returns an ErrData error naming the first NaN or ±Inf of m.
func checkData(m *linalg.Dense, name string) error {
	for i := 0; i < m.Rows; i++ {
		for j, v := range m.Row(i) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%w: %s[%d][%d] is %v", ErrData, name, i, j, v)
			}
		}
	}
	return nil
}

func checkCols(x, z *linalg.Dense) error {
	if x.Cols != z.Cols {
		return fmt.Errorf("%w: X has %d columns, Z has %d", ErrData, x.Cols, z.Cols)
	}
	return nil
}

// columnMeans returns the mean of each column of m, summing rows in order.
func columnMeans(m *linalg.Dense) []float64 {
	mu := make([]float64, m.Cols)
	for i := 0; i < m.Rows; i++ {
		for j, v := range m.Row(i) {
			mu[j] += v
		}
	}
	if m.Rows > 0 {
		for j := range mu {
			mu[j] /= float64(m.Rows)
		}
	}
	return mu
}

// centred returns a compact copy of m with mu subtracted from every row.
func centred(m *linalg.Dense, mu []float64) linalg.Dense {
	c := linalg.NewDense(m.Rows, m.Cols, nil)
	centreTo(c, m, mu)
	return *c
}

// centreTo writes m with mu subtracted from every row into dst, of m's
// shape.
func centreTo(dst, m *linalg.Dense, mu []float64) {
	for i := 0; i < m.Rows; i++ {
		d := dst.Row(i)
		for j, v := range m.Row(i) {
			d[j] = v - mu[j]
		}
	}
}

func rowSqNorms(m *linalg.Dense) []float64 {
	s := make([]float64, m.Rows)
	for i := range s {
		s[i] = sqNorm(m.Row(i))
	}
	return s
}

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
// kernel).
//
// With few columns (see maxSmallDot) the products come from dotSmall, on
// the goroutine that then applies the kernel to them: the rows are split
// into one contiguous chunk per goroutine, each evaluated by evalRows in
// groups of about 1 MiB of K, as a streamed block is.
func (p *prepared) crossTo(dst linalg.Dense, x *linalg.Dense, nx []float64) {
	n, m := x.Rows, p.z.Rows
	if n == 0 || m == 0 {
		return
	}
	var xc linalg.Dense
	if p.dist != nil {
		xc = *linalg.NewDense(n, x.Cols, nil)
	}
	if !p.serialProduct() {
		p.product(&dst, x, &xc)
		rowsParallel(n, m, func(i int) {
			p.finishRow(dst.Row(i), x.Row(i), nx, i)
		})
		return
	}
	g := max(minStreamRows, streamBlockElems/m) // rows per group
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
		centreTo(xc, x, p.mean)
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
// f(‖xᵢ − μ‖² + ‖zⱼ − μ‖² − 2(xᵢ − μ)ᵀ(zⱼ − μ)) with nx[i] = ‖xᵢ − μ‖², or
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
	case p.dist != nil:
		p.dist.sqDistRow(row, p.nz, nx[i])
	default:
		for j := range row {
			if j%clearEvery == 0 {
				avx.ClearUpper()
			}
			row[j] = p.k.Eval(xi, p.z.Row(j))
		}
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
