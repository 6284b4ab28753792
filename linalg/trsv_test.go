package linalg

import (
	"math"
	"testing"

	"rkhs/internal/testmat"
)

// trsvUnsplit is the substitution of trsv for a lower triangle without the
// split into blocks: the oracle of the split solves.
func trsvUnsplit(t Op, a Dense, x []float64) {
	n := len(x)
	row := func(i int) []float64 { return a.Data[i*a.Stride : i*a.Stride+n] }
	if t == NoTrans {
		for i := 0; i < n; i++ {
			r := row(i)
			x[i] = (x[i] - dot(r[:i], x[:i])) / r[i]
		}
		return
	}
	for i := n - 1; i >= 0; i-- {
		r := row(i)
		x[i] /= r[i]
		axpy(-x[i], r[:i], x[:i])
	}
}

// TestTrsvSplit: the lower-triangular solves of order above trsvBlock,
// split into blocks and over goroutines when there are several, give the
// unsplit substitution's result bit for bit at GOMAXPROCS 1, 2 and 8, for orders that are and are
// not multiples of the block and of 4, with a row stride wider than n; the
// upper triangle (NaN) is not read; and the residual of L·x = b is small.
func TestTrsvSplit(t *testing.T) {
	rnd := testmat.NewRand(11)
	for _, n := range []int{2*trsvBlock + 1, 2*trsvBlock + 3, 3 * trsvBlock, 3*trsvBlock + 130} {
		a := randomTriangular(rnd, Lower, n, 3)
		da := Dense(a)
		b := make([]float64, n)
		for i := range b {
			b[i] = 2*rnd.Float64() - 1
		}
		for _, op := range []Op{NoTrans, Trans} {
			want := append([]float64(nil), b...)
			trsvUnsplit(op, da, want)
			for _, procs := range []int{1, 2, 8} {
				x := append([]float64(nil), b...)
				split := false
				withProcs(t, procs, func() {
					split = teamSize(n, float64(n)*float64(n)) > 1
					Trsv(Lower, op, &da, x)
				})
				if split != (procs > 1) {
					t.Fatalf("n=%d GOMAXPROCS=%d: split %v", n, procs, split)
				}
				for i := range x {
					if math.Float64bits(x[i]) != math.Float64bits(want[i]) {
						t.Fatalf("n=%d %s GOMAXPROCS=%d: x[%d] = %v, the unsplit solve gives %v", n, opName(op), procs, i, x[i], want[i])
					}
				}
			}
			// The residual of op(L)·x = b, elementwise against |op(L)|·|x|.
			for i := range n {
				s, bound := triangularRow(a, Lower, op, i, func(j int) float64 { return want[j] })
				if e := math.Abs(s - b[i]); !(e <= 30*float64(n)*0x1p-52*bound) {
					t.Fatalf("n=%d %s: residual %g in row %d, bound %g", n, opName(op), e, i, bound)
				}
			}
		}
	}
}
