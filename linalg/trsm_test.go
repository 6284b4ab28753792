package linalg

import (
	"fmt"
	"math"
	"testing"

	"rkhs/internal/testmat"
)

// randomTriangular returns an n×n matrix whose triangle ul is diagonally
// dominant (off-diagonal entries of size at most 1/n, diagonal in [1, 2)),
// hence well conditioned, and whose other triangle is NaN: the solves must
// not read it.
func randomTriangular(rnd interface{ Float64() float64 }, ul Uplo, n, pad int) testmat.Matrix {
	a := testmat.New(n, n, pad)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			switch {
			case i == j:
				a.Set(i, j, 1+rnd.Float64())
			case (ul == Lower) == (j < i):
				a.Set(i, j, (2*rnd.Float64()-1)/float64(n))
			default:
				a.Set(i, j, math.NaN())
			}
		}
	}
	return a
}

// opTriangle returns op(A) as a full matrix with zeros outside the triangle.
func opTriangle(a testmat.Matrix, ul Uplo, t Op) testmat.Matrix {
	n := a.Rows
	m := testmat.New(n, n, 0)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if i == j || (ul == Lower) == (j < i) {
				m.Set(i, j, a.At(i, j))
			}
		}
	}
	if t == Trans {
		return testmat.T(m)
	}
	return m
}

// solveRatio returns ‖op(A)·X − B‖₁ / (n·ε·‖op(A)‖₁·‖X‖₁).
func solveRatio(opA, x, b testmat.Matrix) float64 {
	n := opA.Rows
	if n == 0 || x.Cols == 0 {
		return 0
	}
	res := testmat.NormOne(testmat.Sub(testmat.Mul(opA, x), compact(b)))
	return res / (float64(n) * testmat.Eps * testmat.NormOne(opA) * testmat.NormOne(compact(x)))
}

func TestTrsm(t *testing.T) {
	rnd := testmat.NewRand(6)
	sizes := []struct{ n, k int }{
		{0, 3}, {3, 0}, {1, 1}, {5, 1}, {trsmNB - 1, 3}, {trsmNB, 17}, {trsmNB + 1, 33},
		{2*trsmNB + 1, 64}, {129, 129}, {200, 5}, {300, 70},
		// A last diagonal block of an inner block and a few rows.
		{trsmNB + trsmInnerNB + 5, 9}, {trsmNB + trsmInnerNB + 5, 40},
	}
	for si, sz := range sizes {
		for _, ul := range []Uplo{Lower, Upper} {
			for _, tr := range []Op{NoTrans, Trans} {
				t.Run(fmt.Sprintf("%s%s/n=%d/k=%d", uploName(ul), opName(tr), sz.n, sz.k), func(t *testing.T) {
					a := randomTriangular(rnd, ul, sz.n, si%2)
					b := testmat.Random(rnd, sz.n, sz.k, si%3)
					a0, b0 := a.Clone(), b.Clone()
					da, dx := Dense(a), Dense(b.Clone())
					Trsm(ul, tr, &da, &dx)
					x := testmat.Matrix(dx)
					if r := solveRatio(opTriangle(a, ul, tr), x, b0); r > 30 || math.IsNaN(r) {
						t.Errorf("residual ratio %.3g, want < 30", r)
					}
					if !testmat.Identical(a, a0) {
						t.Errorf("A was modified")
					}
					if !testmat.PaddingIntact(x) {
						t.Errorf("padding of B was written")
					}
					// Each column again through Trsv: one right-hand side.
					for c := 0; c < sz.k; c++ {
						v := make([]float64, sz.n)
						for i := range v {
							v[i] = b0.At(i, c)
						}
						Trsv(ul, tr, &da, v)
						for i := range v {
							if d := math.Abs(v[i] - x.At(i, c)); d > 1e-13*(1+math.Abs(v[i])) {
								t.Fatalf("Trsv column %d row %d: %v, Trsm gives %v", c, i, v[i], x.At(i, c))
							}
						}
					}
				})
			}
		}
	}
}

func TestTrsmDeterministic(t *testing.T) {
	rnd := testmat.NewRand(7)
	n := 300
	for _, k := range []int{3, 77, 200} {
		for _, ul := range []Uplo{Lower, Upper} {
			for _, tr := range []Op{NoTrans, Trans} {
				a := randomTriangular(rnd, ul, n, 1)
				b := testmat.Random(rnd, n, k, 0)
				var first testmat.Matrix
				for _, procs := range []int{1, 2, 8} {
					x := b.Clone()
					da, dx := Dense(a), Dense(x)
					withProcs(t, procs, func() { Trsm(ul, tr, &da, &dx) })
					if procs == 1 {
						first = x
					} else if !testmat.Identical(x, first) {
						t.Errorf("%s%s k=%d: GOMAXPROCS=%d differs from GOMAXPROCS=1", uploName(ul), opName(tr), k, procs)
					}
				}
			}
		}
	}
}

// TestTrsmRightLowerTrans: the panel solve of Cholesky (eight rows at a time
// in a SIMD build with AVX-512) gives the rows bit-identical to the scalar
// substitution, row by row, for orders on both sides of the four-way split
// of dot and numbers of rows on both sides of eight; the solution also
// satisfies L·yᵀ = xᵀ to a small residual.
func TestTrsmRightLowerTrans(t *testing.T) {
	rnd := testmat.NewRand(6)
	for _, k := range []int{1, 3, 4, 5, 8, 17, 128, 130} {
		l := testmat.Random(rnd, k, k, 1)
		for i := 0; i < k; i++ {
			l.Set(i, i, 2+math.Abs(l.At(i, i))) // well conditioned
		}
		for _, m := range []int{1, 7, 8, 9, 23, 64} {
			x0 := testmat.Random(rnd, m, k, 2)
			got, want := x0.Clone(), x0.Clone()
			trsmRightLowerTrans(Dense(l), Dense(got))
			for r := 0; r < m; r++ {
				trsmRowLowerTrans(Dense(l), want.Data[r*want.Stride:r*want.Stride+k])
			}
			if !testmat.Identical(got, want) {
				t.Errorf("k=%d m=%d: rows differ from the scalar substitution", k, m)
			}
			if !testmat.PaddingIntact(got) {
				t.Errorf("k=%d m=%d: padding of X was written", k, m)
			}
			// Residual of L·yᵀ = xᵀ, row by row, relative to |L|·|y| + |x|.
			var worst float64
			for r := 0; r < m; r++ {
				for i := 0; i < k; i++ {
					s, bound := x0.At(r, i), math.Abs(x0.At(r, i))
					for j := 0; j <= i; j++ {
						s -= l.At(i, j) * got.At(r, j)
						bound += math.Abs(l.At(i, j) * got.At(r, j))
					}
					worst = math.Max(worst, math.Abs(s)/(float64(k+2)*testmat.Eps*bound))
				}
			}
			if worst > 30 {
				t.Errorf("k=%d m=%d: residual ratio %.3g, want < 30", k, m, worst)
			}
		}
	}
}

// TestTrsmUnblockedBitwise: the substitution on diagonal blocks (eight
// columns per vector in a SIMD build with AVX-512, four per register
// group otherwise) gives every element bit-identical to the row-by-row
// reference below, one axpy per solved row and then a division, for both
// triangles, both operations, numbers of columns on both sides of 8 and 32,
// a padded stride, and a residual that says the reference itself solves
// the system.
func TestTrsmUnblockedBitwise(t *testing.T) {
	rnd := testmat.NewRand(11)
	for _, n := range []int{1, 5, 37, 128} {
		for _, k := range []int{1, 7, 8, 13, 32, 45, 100} {
			for _, ul := range []Uplo{Lower, Upper} {
				for _, tr := range []Op{NoTrans, Trans} {
					a := randomTriangular(rnd, ul, n, 3)
					b := testmat.Random(rnd, n, k, 5)
					got, want := b.Clone(), b.Clone()
					trsmUnblocked(ul, tr, Dense(a), Dense(got))
					trsmUnblockedReference(ul, tr, Dense(a), Dense(want))
					name := fmt.Sprintf("%s%s n=%d k=%d", uploName(ul), opName(tr), n, k)
					if !testmat.Identical(got, want) {
						t.Errorf("%s: differs from the row-by-row substitution", name)
					}
					if r := solveRatio(opTriangle(a, ul, tr), want, b); r > 30 {
						t.Errorf("%s: reference residual ratio %.3g", name, r)
					}
				}
			}
		}
	}
}

// trsmUnblockedReference is the substitution written the plain way: for
// each row in order, an axpy with every solved row (each product rounded
// before it is added), then the division.
func trsmUnblockedReference(ul Uplo, t Op, a, b Dense) {
	n := b.Rows
	forward := (ul == Lower) == (t == NoTrans)
	for s := 0; s < n; s++ {
		i := s
		if !forward {
			i = n - 1 - s
		}
		xi := b.Data[i*b.Stride : i*b.Stride+b.Cols]
		jlo, jhi := 0, i
		if !forward {
			jlo, jhi = i+1, n
		}
		for j := jlo; j < jhi; j++ {
			v := a.Data[i*a.Stride+j]
			if t == Trans {
				v = a.Data[j*a.Stride+i]
			}
			for c, x := range b.Data[j*b.Stride : j*b.Stride+b.Cols] {
				xi[c] += float64(-v * x) // rounded, never fused
			}
		}
		for c := range xi {
			xi[c] /= a.Data[i*a.Stride+i]
		}
	}
}
