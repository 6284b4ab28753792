package linalg

import (
	"sync"

	"rkhs/internal/avx"
)

// gemvMaxCols is the widest C that Gemm computes as matrix–vector products
// instead of through packing and the micro-kernel. With one or two columns
// a product reads A once and does at most four flops per element of A, so
// it is bound by memory bandwidth, and packing A (and padding C to the
// kernel's NR columns, 16 in the AVX-512 build) only adds traffic and
// wasted flops: at n = 8192 on 2 cores one product K·v took 50 ms packed
// against 29 ms here, and Kᵀ·v 167 ms against 24 ms (BenchmarkGemv,
// compare/results/gemv.txt).
const gemvMaxCols = 2

// gemvRows is the number of rows of C in one unit of parallel work in the
// NoTrans case; gemvCols the number of rows of C (columns of A) in one unit
// of the Trans case, whose accumulators (gemvCols·q values) stay in L1.
const (
	gemvRows = 32
	gemvCols = 1024
)

// gemvPacked and gemvAcc pool the packed columns of op(B) (when they are
// not contiguous in B) and the accumulators of a unit of the Trans case.
var gemvPacked, gemvAcc = newFloatPool(), newFloatPool()

func newFloatPool() *sync.Pool { return &sync.Pool{New: func() any { return new([]float64) }} }

// getFloats returns a pooled slice of length n (contents unspecified).
func getFloats(p *sync.Pool, n int) *[]float64 {
	s := p.Get().(*[]float64)
	if cap(*s) < n {
		*s = make([]float64, n)
	}
	*s = (*s)[:n]
	return s
}

// gemv computes C = α·op(A)·op(B) + β·C for a C of one or two columns (n =
// c.Cols ≤ gemvMaxCols), shapes already checked, m, n, k > 0 and α ≠ 0.
//
// The columns of op(B) are first made contiguous (copied only when B's
// layout does not already give that). Then:
//
//   - op(A) = A (m×k): C[i, j] is the dot product of row i of A with column
//     j, as four interleaved partial sums combined as (s0+s1)+(s2+s3) (dot).
//   - op(A) = Aᵀ (A is k×m): C[i, j] = Σₗ A[l, i]·op(B)[l, j], running over
//     the rows of A (contiguous) four at a time with one accumulator per
//     element: s += (b_l·A[l, i] + b_{l+1}·A[l+1, i]) + (b_{l+2}·A[l+2, i] +
//     b_{l+3}·A[l+3, i]) for l = 0, 4, 8, …, then one row at a time.
//
// C = α·s + β·C, with C not read when β is 0. Units of rows of C are spread
// over goroutines; each element is computed by the same code in the same
// order whatever the split, so the result is bit-identical for any
// GOMAXPROCS. The cost is 2mkn flops and one pass over A in memory (with
// two columns and op(A) = A each row is read a second time, from L2).
func gemv(tA, tB Op, alpha float64, a, b Dense, beta float64, c Dense) {
	m, n := c.Rows, c.Cols
	_, k := tA.dims(a)
	// Contiguous columns of op(B): rows of B when tB is Trans, a column of
	// B when its stride is 1, otherwise a packed copy.
	var cols [gemvMaxCols][]float64
	var packed *[]float64
	switch {
	case tB == Trans:
		for j := range n {
			cols[j] = b.Data[j*b.Stride : j*b.Stride+k]
		}
	case n == 1 && b.Stride == 1:
		cols[0] = b.Data[:k]
	default:
		packed = getFloats(gemvPacked, n*k)
		for j := range n {
			col := (*packed)[j*k : (j+1)*k]
			for l := range col {
				col[l] = b.Data[l*b.Stride+j]
			}
			cols[j] = col
		}
		defer gemvPacked.Put(packed)
	}
	job := gemvJobs.Get().(*gemvJob)
	*job = gemvJob{tA: tA, alpha: alpha, beta: beta, a: a, c: c, k: k, cols: cols}
	flops := 2 * float64(m) * float64(n) * float64(k)
	units := (m + gemvRows - 1) / gemvRows
	if tA == Trans {
		units = (m + gemvCols - 1) / gemvCols
	}
	forEach(teamSize(units, flops), units, job)
	*job = gemvJob{}
	gemvJobs.Put(job)
}

// gemvJob is one call of gemv, shared by its goroutines; pooled so that a
// call allocates nothing in the steady state.
type gemvJob struct {
	tA          Op
	alpha, beta float64
	a, c        Dense
	k           int
	cols        [gemvMaxCols][]float64
}

var gemvJobs = sync.Pool{New: func() any { return new(gemvJob) }}

// Run computes unit u: gemvRows rows of C (NoTrans) or gemvCols rows of C
// (Trans).
func (j *gemvJob) Run(_, u int) {
	a, c, k, n := j.a, j.c, j.k, j.c.Cols
	alpha, beta, cols := j.alpha, j.beta, j.cols
	if j.tA == NoTrans {
		for i := u * gemvRows; i < min(c.Rows, (u+1)*gemvRows); i++ {
			row := a.Data[i*a.Stride : i*a.Stride+k]
			crow := c.Data[i*c.Stride : i*c.Stride+n]
			// With two columns the second dot reads the row from L2: faster
			// here than one pass with eight partial sums.
			for jj := range n {
				crow[jj] = scaleAdd(alpha, dot(row, cols[jj]), beta, crow[jj])
			}
			avx.ClearUpper() // see package avx: a row is a few µs of SSE code
		}
		return
	}
	i0, i1 := u*gemvCols, min(c.Rows, (u+1)*gemvCols)
	w := i1 - i0
	accp := getFloats(gemvAcc, n*w)
	acc := *accp
	clear(acc)
	accs := [gemvMaxCols][]float64{acc[:w], acc[w:]}
	l := 0
	for ; l+4 <= k; l += 4 {
		r0 := a.Data[l*a.Stride+i0 : l*a.Stride+i1]
		r1 := a.Data[(l+1)*a.Stride+i0 : (l+1)*a.Stride+i1]
		r2 := a.Data[(l+2)*a.Stride+i0 : (l+2)*a.Stride+i1]
		r3 := a.Data[(l+3)*a.Stride+i0 : (l+3)*a.Stride+i1]
		for jj := range n {
			acc := accs[jj]
			b := cols[jj]
			axpy4(b[l], b[l+1], b[l+2], b[l+3], r0, r1, r2, r3, acc)
		}
		if l%64 == 60 {
			avx.ClearUpper()
		}
	}
	for ; l < k; l++ {
		row := a.Data[l*a.Stride+i0 : l*a.Stride+i1]
		for jj := range n {
			acc := accs[jj]
			axpy(cols[jj][l], row, acc)
		}
	}
	for i := i0; i < i1; i++ {
		crow := c.Data[i*c.Stride : i*c.Stride+n]
		for jj := range n {
			crow[jj] = scaleAdd(alpha, acc[jj*w+i-i0], beta, crow[jj])
		}
	}
	gemvAcc.Put(accp)
}

// scaleAdd returns α·s + β·c, without reading c when β is 0.
func scaleAdd(alpha, s, beta, c float64) float64 {
	if beta == 0 {
		return alpha * s
	}
	return alpha*s + beta*c
}
