package regress

import (
	"math"

	"rkhs/internal/parallel"
	"rkhs/linalg"
)

// Column and row helpers on linalg.Dense, written once for the solvers of
// this package: sums, norms and scalings of the columns (each output of a
// multi-output fit is a column), the column of ones of an intercept, the
// centring of rows, and the clearing of a triangle. Each sums in a fixed
// order (rows in order), so that results depend on the data alone.

// colSums returns the sum of each column of m.
func colSums(m *linalg.Dense) []float64 {
	s := make([]float64, m.Cols)
	for i := 0; i < m.Rows; i++ {
		for k, v := range m.Row(i) {
			s[k] += v
		}
	}
	return s
}

// sqNorms returns the squared 2-norm of each column of m, summed
// without scaling (see colNorms for the overflow-safe norms).
func sqNorms(m *linalg.Dense) []float64 {
	s := make([]float64, m.Cols)
	for i := 0; i < m.Rows; i++ {
		for k, v := range m.Row(i) {
			s[k] += v * v
		}
	}
	return s
}

// sqrtAll returns the square roots of s.
func sqrtAll(s []float64) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = math.Sqrt(v)
	}
	return out
}

// neg returns −s.
func neg(s []float64) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = -v
	}
	return out
}

// colNorms returns the 2-norms of the columns of m (linalg.Nrm2 of each
// column, gathered).
func colNorms(m *linalg.Dense) []float64 {
	col := make([]float64, m.Rows)
	s := make([]float64, m.Cols)
	for k := range s {
		for i := range col {
			col[i] = m.At(i, k)
		}
		s[k] = linalg.Nrm2(col)
	}
	return s
}

// frob returns the Frobenius norm of the first q columns of m, without
// overflow or underflow (linalg.Nrm2 of those columns, gathered).
func frob(m *linalg.Dense, q int) float64 {
	buf := make([]float64, 0, m.Rows*q)
	for i := 0; i < m.Rows; i++ {
		buf = append(buf, m.Row(i)[:q]...)
	}
	return linalg.Nrm2(buf)
}

// maxAbs returns the largest magnitude in the first q columns of m.
func maxAbs(m *linalg.Dense, q int) float64 {
	var big float64
	for i := 0; i < m.Rows; i++ {
		for _, v := range m.Row(i)[:q] {
			big = max(big, math.Abs(v))
		}
	}
	return big
}

// scaleTo sets x = a·x.
func scaleTo(x []float64, a float64) {
	for i := range x {
		x[i] *= a
	}
}

// pow2Scale returns down = 2⁻ᵉ and up = 2ᵉ for the power of two 2ᵉ with
// big/2ᵉ in [0.5, 1) (1, 1 for big = 0, NaN or Inf). Scaling by a power of
// two is exact, so an iteration run on data scaled by down gives the
// iterates of the data itself times down (see CGLS).
func pow2Scale(big float64) (down, up float64) {
	if big == 0 || math.IsNaN(big) || math.IsInf(big, 0) {
		return 1, 1
	}
	_, e := math.Frexp(big)
	return math.Ldexp(1, -e), math.Ldexp(1, e)
}

// axpyCols sets y[:,k] += a[k]·x[:,k].
func axpyCols(y, x *linalg.Dense, a []float64) {
	for i := 0; i < y.Rows; i++ {
		yr, xr := y.Row(i), x.Row(i)
		for k := range yr {
			yr[k] += a[k] * xr[k]
		}
	}
}

// appendOnes returns [M | 1], M with a column of ones appended.
func appendOnes(m *linalg.Dense) *linalg.Dense {
	n, d := m.Rows, m.Cols
	r := linalg.NewDense(n, d+1, nil)
	r.Slice(0, n, 0, d).Copy(m)
	for i := 0; i < n; i++ {
		r.Set(i, d, 1)
	}
	return r
}

// withOnes returns [Y | 1] (n×(q+1)) when free is set, else a copy of Y:
// the free intercept of a linear iteration comes from running it on y and
// on 1 (see combineFree).
func withOnes(y *linalg.Dense, free bool) *linalg.Dense {
	if !free {
		return y.Clone()
	}
	return appendOnes(y)
}

// centerRows subtracts from each row of m its mean and returns the means,
// in means when it has room for them (it is then overwritten), else in a
// new slice. The rows are split over the goroutines (parallel.Team, chunks
// of 8 rows); each row is summed in order by one of them, so the result
// is the same for any GOMAXPROCS.
func centerRows(m *linalg.Dense, means []float64) []float64 {
	if cap(means) < m.Rows {
		means = make([]float64, m.Rows)
	}
	means = means[:m.Rows]
	p := parallel.Team(m.Rows, float64(m.Rows)*float64(m.Cols), 1<<15)
	chunks := parallel.NewChunks(m.Rows, p, 8)
	parallel.For(p, chunks.Count(), parallel.Func(func(_, c int) {
		lo, hi := chunks.Bounds(c)
		for j := lo; j < hi; j++ {
			row := m.Row(j)
			var sum float64
			for _, v := range row {
				sum += v
			}
			means[j] = sum / float64(len(row))
			for i := range row {
				row[i] -= means[j]
			}
		}
	}))
	return means
}

// zeroUpper sets the strict upper triangle of a to zero.
func zeroUpper(a *linalg.Dense) {
	for i := range a.Rows {
		clear(a.Row(i)[i+1:])
	}
}
