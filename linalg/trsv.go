package linalg

import "fmt"

// Trsv solves op(A)·x = b for one right-hand side, where A is an n×n
// triangular matrix (the triangle ul; the other triangle is not read) with a
// nonzero diagonal and op(A) is A or Aᵀ as t says. On entry x holds b; on
// return it holds the solution. A is not modified. There is no test for
// singularity. The cost is n² flops.
//
// Rows of a row-major triangle are contiguous, so op(A) = A is solved by
// dot products with the rows (x_i = (b_i − A[i,·]·x) / A[i,i]) and
// op(A) = Aᵀ by subtracting multiples of the rows once x_i is known.
//
// With more than one goroutine to use, a lower triangle of order above
// trsvBlock is solved in diagonal blocks of trsvBlock rows, and the
// products with the part of x already solved are split over the goroutines
// (by rows for L·x = b, by columns for Lᵀx = b); the diagonal blocks run on
// the calling goroutine. Each element is computed with the same operations
// in the same order as by the unsplit solve, so the result is bit-identical
// to it, and so the same for any number of goroutines. On one goroutine,
// and for an upper triangle, the solve is not split (for Lᵀx = b the split
// reads each row in pieces, which cost one core 4–16% at n = 4000 on an
// AMD EPYC).
//
// Trsv panics if A is not square, len(x) is not n or ul is All.
func Trsv(ul Uplo, t Op, a *Dense, x []float64) {
	ul.checkTriangle("Trsv")
	a.check("Trsv")
	if a.Rows != a.Cols || len(x) != a.Rows {
		panic(fmt.Sprintf("linalg: Trsv: A is %d×%d, len(x) is %d", a.Rows, a.Cols, len(x)))
	}
	trsv(ul, t, *a, x)
}

func trsv(ul Uplo, t Op, a Dense, x []float64) {
	n := len(x)
	row := func(i int) []float64 { return a.Data[i*a.Stride : i*a.Stride+n] }
	switch {
	case ul == Lower && n > trsvBlock && teamSize(n, float64(n)*float64(n)) > 1:
		if t == NoTrans {
			trsvLowerSplit(a, x)
		} else {
			trsvLowerTransSplit(a, x)
		}
	case ul == Lower && t == NoTrans: // forward, x_i = (b_i − L[i,:i]·x[:i]) / L_ii
		for i := 0; i < n; i++ {
			r := row(i)
			x[i] = (x[i] - dot(r[:i], x[:i])) / r[i]
		}
	case ul == Upper && t == NoTrans: // backward, x_i = (b_i − U[i,i+1:]·x[i+1:]) / U_ii
		for i := n - 1; i >= 0; i-- {
			r := row(i)
			x[i] = (x[i] - dot(r[i+1:], x[i+1:])) / r[i]
		}
	case ul == Lower: // Lᵀx = b, backward: once x_i is known, b[:i] −= x_i·L[i,:i]
		for i := n - 1; i >= 0; i-- {
			r := row(i)
			x[i] /= r[i]
			axpy(-x[i], r[:i], x[:i])
		}
	default: // Uᵀx = b, forward: once x_i is known, b[i+1:] −= x_i·U[i,i+1:]
		for i := 0; i < n; i++ {
			r := row(i)
			x[i] /= r[i]
			axpy(-x[i], r[i+1:], x[i+1:])
		}
	}
}

// trsvBlock is the order of the diagonal blocks of the split solves, a
// multiple of 4 so that the dot products of trsvLowerSplit resume exactly
// (dotLanes); trsvRows and trsvCols are the rows and columns of a unit of
// their parallel loops, several per goroutine at 16 goroutines.
const (
	trsvBlock = 256
	trsvRows  = 8
	trsvCols  = 128
)

// trsvLowerSplit solves L·x = b as trsv does, a block of trsvBlock rows
// [i0, i1) at a time: first, over goroutines, the partial sums of each
// row's dot product with the solved x[:i0]; then, on the calling
// goroutine, the block's rows in order, each dot product resumed over
// x[i0:i]. Cost n² flops, of which n·trsvBlock serial.
func trsvLowerSplit(a Dense, x []float64) {
	n := len(x)
	sums := make([][4]float64, trsvBlock)
	for i0 := 0; i0 < n; i0 += trsvBlock {
		i1 := min(n, i0+trsvBlock)
		rows := i1 - i0
		units := (rows + trsvRows - 1) / trsvRows
		forEach(teamSize(units, 2*float64(rows)*float64(i0)), units, taskFunc(func(_, u int) {
			for i := i0 + u*trsvRows; i < min(i1, i0+(u+1)*trsvRows); i++ {
				s := &sums[i-i0]
				*s = [4]float64{}
				dotLanes(a.Data[i*a.Stride:i*a.Stride+i0], x[:i0], s)
			}
		}))
		for i := i0; i < i1; i++ {
			r := a.Data[i*a.Stride : i*a.Stride+i+1]
			x[i] = (x[i] - dotLanes(r[i0:i], x[i0:i], &sums[i-i0])) / r[i]
		}
	}
}

// trsvLowerTransSplit solves Lᵀx = b as trsv does, a block of trsvBlock
// rows [j0, j1) at a time from the last: on the calling goroutine the
// block's x_i, each subtracted from x[j0:i] once known; then, over
// goroutines by columns, x[:j0] −= x_i·L[i, :j0] for i from j1−1 down to
// j0, the order in which the unsplit solve subtracts them.
func trsvLowerTransSplit(a Dense, x []float64) {
	n := len(x)
	for j1 := n; j1 > 0; {
		j0 := (j1 - 1) / trsvBlock * trsvBlock
		for i := j1 - 1; i >= j0; i-- {
			r := a.Data[i*a.Stride : i*a.Stride+i+1]
			x[i] /= r[i]
			axpy(-x[i], r[j0:i], x[j0:i])
		}
		units := (j0 + trsvCols - 1) / trsvCols
		forEach(teamSize(units, 2*float64(j1-j0)*float64(j0)), units, taskFunc(func(_, u int) {
			k0, k1 := u*trsvCols, min(j0, (u+1)*trsvCols)
			for i := j1 - 1; i >= j0; i-- {
				axpy(-x[i], a.Data[i*a.Stride+k0:i*a.Stride+k1], x[k0:k1])
			}
		}))
		j1 = j0
	}
}
