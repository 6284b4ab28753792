package linalg

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"rkhs/internal/testmat"
)

// qrResidual returns ‖A − Q·R‖₁ / (m·ε·‖A‖₁), the LAPACK test ratio of a QR
// factorization (1 when ‖A‖ is 0).
func qrResidual(a, q, r testmat.Matrix) float64 {
	m := a.Rows
	if m == 0 || a.Cols == 0 {
		return 0
	}
	na := testmat.NormOne(a)
	if na == 0 {
		na = 1
	}
	return testmat.NormOne(testmat.Sub(a, testmat.Mul(q, r))) / (float64(m) * testmat.Eps * na)
}

// lowerMax returns the largest |R_ij| below the diagonal.
func lowerMax(r testmat.Matrix) float64 {
	var w float64
	for i := 0; i < r.Rows; i++ {
		for j := 0; j < i && j < r.Cols; j++ {
			w = math.Max(w, math.Abs(r.At(i, j)))
		}
	}
	return w
}

// qrUnblocked is the naive twin of QR.Factorize: the same reflectors,
// generated and applied one column at a time by geqr2 on the whole matrix.
func qrUnblocked(a testmat.Matrix) *QR {
	m, n := a.Rows, a.Cols
	q := &QR{y: *NewDense(n, m, nil), r: *NewDense(n, n, nil), t: *NewDense(n, max(n, 1), nil), nb: max(n, 1)}
	copyScan(q.y, Dense(a), true)
	q.geqr2(q.y, q.t.view(0, n, 0, n), 0)
	q.ok = true
	return q
}

// qrShapes straddle the leaf (4), the panel width (qrNB = 32), the single
// panel limit (qrWide = 96) and the GEMM blocks (MC = 64, KC = 384), with
// m = n, 2n and 1000; the tall ones at the end use the chunked (TSQR) mode,
// with a short last chunk (4100 = 2·2048 + 4) or a long one.
var qrShapes = func() (s []struct{ m, n int }) {
	for _, n := range []int{1, 2, 3, 5, 31, 32, 33, 63, 64, 65, 96, 97, 129} {
		for _, m := range []int{n, 2 * n, 1000} {
			if m >= n {
				s = append(s, struct{ m, n int }{m, n})
			}
		}
	}
	return append(s, []struct{ m, n int }{{4096, 1}, {4100, 33}, {3*2048 + 2047, 96}, {4096, 97}}...)
}()

func TestQRFactorize(t *testing.T) {
	rnd := testmat.NewRand(40)
	for _, sz := range qrShapes {
		m, n := sz.m, sz.n
		if testing.Short() && m*n > 40000 {
			continue
		}
		pad := (m + n) % 3
		t.Run(fmt.Sprintf("m=%d/n=%d/pad=%d", m, n, pad), func(t *testing.T) {
			a := testmat.Random(rnd, m, n, pad)
			a0 := a.Clone()
			da := Dense(a)
			var qr QR
			if err := qr.Factorize(&da); err != nil {
				t.Fatalf("Factorize: %v", err)
			}
			if !testmat.Identical(a, a0) {
				t.Fatalf("Factorize modified its input (or its padding)")
			}
			// Destinations with padding, to check that the To methods
			// leave it alone.
			qd := Dense(testmat.New(m, n, 2))
			rd := Dense(testmat.New(n, n, 1))
			q := testmat.Matrix(*qr.QTo(&qd))
			r := testmat.Matrix(*qr.RTo(&rd))
			if !testmat.PaddingIntact(q) || !testmat.PaddingIntact(r) {
				t.Errorf("QTo or RTo wrote into the padding of dst")
			}
			if res := qrResidual(a, q, r); res > 30 {
				t.Errorf("‖A − QR‖/(mε‖A‖) = %.3g, want < 30", res)
			}
			if o := testmat.Orthogonality(q); o > 30 {
				t.Errorf("‖QᵀQ − I‖/(mε) = %.3g, want < 30", o)
			}
			if w := lowerMax(r); w != 0 {
				t.Errorf("R has %v below the diagonal, want 0", w)
			}
			// The naive twin computes the same R up to the signs of its
			// rows (the chunked mode may flip them): compare sign(r_ii)·R
			// entry by entry, relative to the norm of the column.
			ru := testmat.Matrix(*qrUnblocked(a).RTo(nil))
			for j := 0; j < n; j++ {
				var cn float64
				for i := 0; i <= j; i++ {
					cn = math.Hypot(cn, ru.At(i, j))
				}
				for i := 0; i <= j; i++ {
					got := math.Copysign(1, r.At(i, i)) * r.At(i, j)
					want := math.Copysign(1, ru.At(i, i)) * ru.At(i, j)
					if d := math.Abs(got - want); d > 30*float64(m)*testmat.Eps*cn {
						t.Fatalf("R[%d,%d] = %v, unblocked gives %v", i, j, r.At(i, j), ru.At(i, j))
					}
				}
			}
		})
	}
}

// TestQRSpecial: matrices whose columns are zero, dependent, tiny or huge,
// where a careless reflector divides by zero or overflows.
func TestQRSpecial(t *testing.T) {
	rnd := testmat.NewRand(41)
	for _, tc := range []struct {
		name  string
		m, n  int
		build func(a testmat.Matrix)
	}{
		{"zero", 7, 4, func(a testmat.Matrix) {}},
		{"zero column", 40, 40, func(a testmat.Matrix) {
			fill(rnd, a, 1)
			for i := 0; i < a.Rows; i++ {
				a.Set(i, 5, 0)
			}
		}},
		{"rank one", 50, 37, func(a testmat.Matrix) {
			for i := 0; i < a.Rows; i++ {
				for j := 0; j < a.Cols; j++ {
					a.Set(i, j, float64(i+1)*float64(j%5-2))
				}
			}
		}},
		{"tiny", 33, 20, func(a testmat.Matrix) { fill(rnd, a, 1e-310) }},
		{"huge", 33, 20, func(a testmat.Matrix) { fill(rnd, a, 1e300) }},
		{"graded columns", 60, 30, func(a testmat.Matrix) {
			fill(rnd, a, 1)
			for i := 0; i < a.Rows; i++ {
				for j := 0; j < a.Cols; j++ {
					a.Set(i, j, a.At(i, j)*math.Pow(1e-10, float64(j)))
				}
			}
		}},
		{"already triangular", 20, 20, func(a testmat.Matrix) {
			for i := 0; i < a.Rows; i++ {
				for j := i; j < a.Cols; j++ {
					a.Set(i, j, float64(1+i+j))
				}
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := testmat.New(tc.m, tc.n, 1)
			tc.build(a)
			da := Dense(a)
			var qr QR
			if err := qr.Factorize(&da); err != nil {
				t.Fatalf("Factorize: %v", err)
			}
			q := testmat.Matrix(*qr.QTo(nil))
			r := testmat.Matrix(*qr.RTo(nil))
			if res := qrResidual(a, q, r); res > 30 || math.IsNaN(res) {
				t.Errorf("‖A − QR‖/(mε‖A‖) = %.3g, want < 30", res)
			}
			if o := testmat.Orthogonality(q); o > 30 || math.IsNaN(o) {
				t.Errorf("‖QᵀQ − I‖/(mε) = %.3g, want < 30", o)
			}
		})
	}
}

// fill sets every element of a to scale times a uniform value in [−1, 1).
func fill(rnd interface{ Float64() float64 }, a testmat.Matrix, scale float64) {
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < a.Cols; j++ {
			a.Set(i, j, scale*(2*rnd.Float64()-1))
		}
	}
}

func TestQRNotFinite(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		// The second shape uses the chunked mode, with the bad element in
		// the last chunk.
		for _, tc := range []struct{ m, n, i, j int }{{9, 4, 6, 2}, {2*tsqrChunk + 5, 6, 2*tsqrChunk + 1, 4}} {
			a := testmat.Random(testmat.NewRand(42), tc.m, tc.n, 1)
			a.Set(tc.i, tc.j, bad)
			a0 := a.Clone()
			da := Dense(a)
			var qr QR
			err := qr.Factorize(&da)
			var fe *NotFiniteError
			if !errors.Is(err, ErrNotFinite) || !errors.As(err, &fe) || fe.Row != tc.i || fe.Col != tc.j {
				t.Errorf("%d×%d, element (%d,%d) = %v: err = %v, want a *NotFiniteError there", tc.m, tc.n, tc.i, tc.j, bad, err)
			}
			if !testmat.Identical(a, a0) {
				t.Errorf("Factorize modified a matrix it rejected")
			}
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("RTo after a failed factorization did not panic")
					}
				}()
				qr.RTo(nil)
			}()
		}
	}
}

// TestQRPaddingNaN: NaN in the padding of A is not read, so it is not an
// error — in either mode.
func TestQRPaddingNaN(t *testing.T) {
	for _, sz := range [][2]int{{40, 30}, {2*tsqrChunk + 3, 20}} {
		a := testmat.Random(testmat.NewRand(45), sz[0], sz[1], 2)
		for i := 0; i < a.Rows; i++ {
			a.Data[i*a.Stride+a.Cols] = math.NaN()
		}
		da := Dense(a)
		var qr QR
		if err := qr.Factorize(&da); err != nil {
			t.Errorf("%v with NaN padding: %v", sz, err)
		}
	}
}

func TestQRShapes(t *testing.T) {
	// Empty shapes are valid: m×0 has an m×0 Q and a 0×0 R.
	for _, sz := range [][2]int{{0, 0}, {5, 0}, {5000, 0}} {
		var qr QR
		if err := qr.Factorize(NewDense(sz[0], sz[1], nil)); err != nil {
			t.Fatalf("%d×%d: %v", sz[0], sz[1], err)
		}
		q, r := qr.QTo(nil), qr.RTo(nil)
		if q.Rows != sz[0] || q.Cols != 0 || r.Rows != 0 {
			t.Errorf("%d×%d: Q is %d×%d, R is %d×%d", sz[0], sz[1], q.Rows, q.Cols, r.Rows, r.Cols)
		}
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Factorize of a 2×3 matrix did not panic")
		}
	}()
	var qr QR
	qr.Factorize(NewDense(2, 3, nil))
}

// TestQRApplyQ checks the internal product Q·[X; 0] that the SVD uses
// against the explicit Q, in both the blocked and the tall-skinny mode.
func TestQRApplyQ(t *testing.T) {
	rnd := testmat.NewRand(43)
	for _, sz := range []struct{ m, n, k int }{{50, 10, 3}, {300, 130, 17}, {97, 97, 5}, {2*tsqrChunk + 7, 20, 6}} {
		a := Dense(testmat.Random(rnd, sz.m, sz.n, 0))
		var qr QR
		if err := qr.Factorize(&a); err != nil {
			t.Fatal(err)
		}
		q := testmat.Matrix(*qr.QTo(nil))
		x := testmat.Random(rnd, sz.n, sz.k, 0)
		want := testmat.Mul(q, x)
		got := testmat.Random(rnd, sz.m, sz.k, 1) // rows n… must not be read
		for i := 0; i < sz.n; i++ {
			for j := 0; j < sz.k; j++ {
				got.Set(i, j, x.At(i, j))
			}
		}
		qr.applyQ(Dense(got))
		if d := testmat.NormMax(testmat.Sub(got, want)); d > 30*float64(sz.m)*testmat.Eps*testmat.NormMax(x) {
			t.Errorf("%v: Q·[X;0] is off by %v", sz, d)
		}
		if !testmat.PaddingIntact(got) {
			t.Errorf("%v: applyQ wrote into the padding", sz)
		}
	}
}

func TestQRDeterministic(t *testing.T) {
	rnd := testmat.NewRand(44)
	for _, sz := range [][2]int{{3000, 50}, {400, 300}} {
		a := testmat.Random(rnd, sz[0], sz[1], 1)
		var firstQ, firstR testmat.Matrix
		for _, procs := range []int{1, 2, 8} {
			var q, r testmat.Matrix
			withProcs(t, procs, func() {
				da := Dense(a)
				var qr QR
				if err := qr.Factorize(&da); err != nil {
					t.Fatal(err)
				}
				q, r = testmat.Matrix(*qr.QTo(nil)), testmat.Matrix(*qr.RTo(nil))
			})
			if procs == 1 {
				firstQ, firstR = q, r
			} else if !testmat.Identical(q, firstQ) || !testmat.Identical(r, firstR) {
				t.Errorf("%v: GOMAXPROCS=%d differs from GOMAXPROCS=1", sz, procs)
			}
		}
	}
}
