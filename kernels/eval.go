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
// ‖x‖² + ‖z‖² − 2xᵀz loses less to cancellation.
type prepared struct {
	k    Kernel
	dot  dotKernel
	dist distKernel
	z    linalg.Dense // Z, or Z − μ for a distance kernel (a copy)
	mean []float64    // μ, distance kernels only
	nz   []float64    // ‖zⱼ − μ‖², distance kernels only
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
	case distKernel:
		p.dist = kk
		p.mean = columnMeans(z)
		p.z = centred(z, p.mean)
		p.nz = rowSqNorms(&p.z)
	}
	return p, nil
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
	for i := 0; i < m.Rows; i++ {
		dst := c.Row(i)
		for j, v := range m.Row(i) {
			dst[j] = v - mu[j]
		}
	}
	return *c
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
// x must have been checked.
func (p *prepared) crossTo(dst linalg.Dense, x *linalg.Dense) {
	n, m := x.Rows, p.z.Rows
	if n == 0 || m == 0 {
		return
	}
	switch {
	case p.dot != nil:
		linalg.Gemm(linalg.NoTrans, linalg.Trans, 1, x, &p.z, 0, &dst)
		rowsParallel(n, m, func(i int) {
			row := dst.Row(i)
			for j, g := range row {
				if j%clearEvery == 0 {
					avx.ClearUpper()
				}
				row[j] = p.dot.fromDot(g)
			}
		})
	case p.dist != nil:
		xc := centred(x, p.mean)
		nx := rowSqNorms(&xc)
		linalg.Gemm(linalg.NoTrans, linalg.Trans, 1, &xc, &p.z, 0, &dst)
		rowsParallel(n, m, func(i int) {
			p.dist.sqDistRow(dst.Row(i), p.nz, nx[i])
		})
	default:
		rowsParallel(n, m, func(i int) {
			row, xi := dst.Row(i), x.Row(i)
			for j := range row {
				if j%clearEvery == 0 {
					avx.ClearUpper()
				}
				row[j] = p.k.Eval(xi, p.z.Row(j))
			}
		})
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
