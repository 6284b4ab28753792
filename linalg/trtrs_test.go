package linalg

import (
	"math"
	"math/rand/v2"
	"testing"

	"rkhs/internal/testmat"
)

// TestTrtrs checks Trtrs against its definition for both triangles, both
// ops, one and several right-hand sides and a strided single column, at
// sizes on both sides of the block size of Trsm: the residual
// ‖op(A)·X − B‖ is below 30·n·ε·‖|op(A)|·|X|‖ elementwise, the other
// triangle of A (NaN) is not read, and the route is Trsv for a unit-stride
// column and Trsm otherwise, bit for bit.
func TestTrtrs(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, ul := range []Uplo{Lower, Upper} {
		for _, op := range []Op{NoTrans, Trans} {
			for _, n := range []int{1, 5, trsmNB - 1, trsmNB + 1, 2*trsmNB + 7} {
				a := randomTriangular(rnd, ul, n, 0)
				ad := &Dense{Rows: n, Cols: n, Stride: a.Stride, Data: a.Data}
				for _, k := range []int{1, 3, 20} {
					for _, stride := range []int{k, k + 2} {
						b := NewDense(n, stride, nil)
						for i := range b.Data {
							b.Data[i] = 2*rnd.Float64() - 1
						}
						b = b.Slice(0, n, 0, k)
						x := b.Clone()
						if stride != k {
							x = NewDense(n, stride, nil).Slice(0, n, 0, k)
							x.Copy(b)
						}
						Trtrs(ul, op, ad, x)
						// The route: Trsv for one unit-stride column, else Trsm.
						ref := b.Clone()
						if k == 1 && x.Stride == 1 {
							Trsv(ul, op, ad, ref.Data)
						} else {
							Trsm(ul, op, ad, ref)
						}
						for i := range n {
							for c := range k {
								if math.Float64bits(x.At(i, c)) != math.Float64bits(ref.At(i, c)) {
									t.Fatalf("%v %v n=%d k=%d stride=%d: not the route's bits", ul, op, n, k, stride)
								}
							}
						}
						// The residual.
						for i := range n {
							for c := range k {
								s, bound := triangularRow(a, ul, op, i, func(j int) float64 { return x.At(j, c) })
								if e := math.Abs(s - b.At(i, c)); !(e <= 30*float64(n)*0x1p-52*bound) {
									t.Fatalf("%v %v n=%d k=%d: residual %g at (%d,%d), bound %g", ul, op, n, k, e, i, c, bound)
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestTrtrsPanics: shapes that do not match and All are programming
// errors.
func TestTrtrsPanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		ul   Uplo
		a, b *Dense
	}{
		{"A not square", Lower, NewDense(2, 3, nil), NewDense(2, 1, nil)},
		{"B rows", Lower, NewDense(3, 3, nil), NewDense(2, 1, nil)},
		{"All", All, NewDense(2, 2, nil), NewDense(2, 1, nil)},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tc.name)
				}
			}()
			Trtrs(tc.ul, NoTrans, tc.a, tc.b)
		}()
	}
}

// triangularRow returns row i of op(A)·x for the triangle ul of A (the
// other triangle is not read) and the same sum of absolute values, the
// scale of a residual check; x(j) is the j-th entry of x.
func triangularRow(a testmat.Matrix, ul Uplo, op Op, i int, x func(j int) float64) (s, abs float64) {
	for j := range a.Rows {
		aij := a.At(i, j)
		if op == Trans {
			aij = a.At(j, i)
		}
		if i != j && (ul == Lower) == (op == NoTrans) != (j < i) {
			continue
		}
		s += aij * x(j)
		abs += math.Abs(aij * x(j))
	}
	return s, abs
}
