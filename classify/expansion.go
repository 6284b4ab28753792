package classify

import (
	"rkhs/internal/parallel"
	"rkhs/kernels"
	"rkhs/linalg"
)

// minParallelWork is the number of multiply-adds below which a matrix–
// vector product runs on the calling goroutine (starting goroutines costs
// microseconds, the time of a few 10⁴ multiply-adds).
const minParallelWork = 1 << 15

// expansionScores returns f(x) = Σⱼ coef[j]·k(x, centers[j]) + bias at the
// rows of x, from kernels.Rows: the cross-kernel matrix is built a block
// of rows at a time (by one Gemm for the kernels of package kernels) and
// multiplied by coef, bit-identically for any GOMAXPROCS. x must have been
// checked; the kernel was validated when the model was fitted.
func expansionScores(op string, k kernels.Kernel, centers *linalg.Dense, coef []float64, bias float64, x *linalg.Dense) (*linalg.Dense, error) {
	out := linalg.NewDense(x.Rows, 1, nil)
	if x.Rows == 0 {
		return out, nil
	}
	if centers.Rows > 0 {
		r, err := kernels.NewRows(k, x, centers)
		if err != nil {
			return nil, kernelError(op, err)
		}
		r.MulVecTo(out.Data, coef)
	}
	for i := range out.Data {
		out.Data[i] += bias
	}
	return out, nil
}

// support returns the rows of x whose coefficient is nonzero and those
// coefficients, in training order: the centres a model has to keep.
func support(x *linalg.Dense, coef []float64) (*linalg.Dense, []float64) {
	m := 0
	for _, c := range coef {
		if c != 0 {
			m++
		}
	}
	centers := linalg.NewDense(m, x.Cols, nil)
	kept := make([]float64, 0, m)
	for i, c := range coef {
		if c != 0 {
			copy(centers.Row(len(kept)), x.Row(i))
			kept = append(kept, c)
		}
	}
	return centers, kept
}

// mulVec computes dst = A·v for a square or rectangular A, one dot
// product per output element in index order, rows split over goroutines:
// the result is bit-identical for any GOMAXPROCS. dst must not alias v.
func mulVec(dst []float64, a *linalg.Dense, v []float64) {
	n := a.Rows
	p := parallel.Team(n, float64(n)*float64(a.Cols), minParallelWork)
	chunks := parallel.NewChunks(n, p, 1)
	parallel.For(p, chunks.Count(), parallel.Func(func(_, c int) {
		lo, hi := chunks.Bounds(c)
		for i := lo; i < hi; i++ {
			row := a.Row(i)
			row = row[:len(v)] // one bounds check for the loop below
			var s float64
			for j, aij := range row {
				s += aij * v[j]
			}
			dst[i] = s
		}
	}))
}

func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s float64
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// addOnes adds 1 to every element of the square matrix g: the Gram
// matrix of the kernel k + 1, whose expansions Σ cᵢ(k(·, xᵢ) + 1) carry
// the bias b = Σ cᵢ (a constant feature of value 1).
func addOnes(g *linalg.Dense) {
	for i := 0; i < g.Rows; i++ {
		row := g.Row(i)
		for j := range row {
			row[j]++
		}
	}
}
