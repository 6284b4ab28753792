package linalg

import (
	"fmt"
	"math"
	"testing"

	"rkhs/internal/testmat"
)

// tridiagonalizeFull runs tridiagonalize on a copy of the symmetric matrix
// a and returns T as a full matrix and Q formed by applying Q to I.
func tridiagonalizeFull(a testmat.Matrix) (t, q testmat.Matrix) {
	n := a.Rows
	w := Dense(symmetrize(a)) // both triangles, compact
	d, e, tau := make([]float64, n), make([]float64, max(n-1, 0)), make([]float64, max(n-1, 0))
	tridiagonalize(w, d, e, tau)
	t = testmat.New(n, n, 0)
	for i := 0; i < n; i++ {
		t.Set(i, i, d[i])
		if i+1 < n {
			t.Set(i, i+1, e[i])
			t.Set(i+1, i, e[i])
		}
	}
	q = testmat.Identity(n)
	applyRowReflectors(w, tau, Dense(q))
	return t, q
}

// TestTridiagonalize: ‖A − Q·T·Qᵀ‖/(n·ε·‖A‖) < 30 and ‖QᵀQ − I‖/(n·ε) < 30
// on sizes that straddle the panel width.
func TestTridiagonalize(t *testing.T) {
	rnd := testmat.NewRand(20)
	nb := tridiagNB
	for _, n := range []int{1, 2, 3, 4, nb - 1, nb, nb + 1, nb + 2, 2*nb - 1, 2 * nb, 2*nb + 1, 100, 3*nb + 5, 200} {
		for _, kind := range []string{"random", "spectrum"} {
			t.Run(fmt.Sprintf("%s/n=%d", kind, n), func(t *testing.T) {
				var a testmat.Matrix
				if kind == "random" {
					a = symmetrize(testmat.Random(rnd, n, n, 0))
				} else {
					a = testmat.WithSpectrum(rnd, testmat.GeometricSpectrum(n, 1e10), 0)
				}
				tm, q := tridiagonalizeFull(a)
				qtq := testmat.Mul(testmat.Mul(q, tm), testmat.T(q))
				if r := testmat.NormOne(testmat.Sub(a, qtq)) / (float64(n) * testmat.Eps * testmat.NormOne(a)); r > 30 {
					t.Errorf("‖A − QTQᵀ‖/(nε‖A‖) = %.3g, want < 30", r)
				}
				if r := testmat.Orthogonality(q); r > 30 {
					t.Errorf("‖QᵀQ − I‖/(nε) = %.3g, want < 30", r)
				}
			})
		}
	}
}

// TestTridiagonalizeDeterministic: T and Q are the same bits for
// GOMAXPROCS 1, 2, 3 and 8 (an odd count deals the product's row ranges
// unevenly over the goroutines).
func TestTridiagonalizeDeterministic(t *testing.T) {
	a := symmetrize(testmat.Random(testmat.NewRand(21), 500, 500, 0))
	var t1, q1 testmat.Matrix
	for _, procs := range []int{1, 2, 3, 8} {
		var tm, q testmat.Matrix
		withProcs(t, procs, func() { tm, q = tridiagonalizeFull(a) })
		if procs == 1 {
			t1, q1 = tm, q
		} else if !testmat.Identical(tm, t1) || !testmat.Identical(q, q1) {
			t.Errorf("GOMAXPROCS=%d: T or Q differs from GOMAXPROCS=1", procs)
		}
	}
}

// TestApplyReflectorsBlocks: applying the n−1 reflectors of a tridiagonal
// reduction (n = 300) to a random 300×50 matrix in compact WY blocks of 7,
// 64, 128 (householderWideNB of the SIMD kernels) and 300 reflectors gives
// the product of applying them one at a time (blocks of one, T = τ), to
// 30·n·ε·‖Z‖₁ in every element.
func TestApplyReflectorsBlocks(t *testing.T) {
	defer func(a, b int) { householderNB, householderWideNB = a, b }(householderNB, householderWideNB)
	const n, k = 300, 50
	rnd := testmat.NewRand(22)
	w := Dense(symmetrize(testmat.Random(rnd, n, n, 0)))
	d, e, tau := make([]float64, n), make([]float64, n-1), make([]float64, n-1)
	tridiagonalize(w, d, e, tau)
	z0 := testmat.Random(rnd, n, k, 0)
	apply := func(nb int) testmat.Matrix {
		householderNB, householderWideNB = nb, nb
		z := z0.Clone()
		applyRowReflectors(w, tau, Dense(z))
		return z
	}
	want := apply(1)
	bound := 30 * n * testmat.Eps * testmat.NormOne(z0)
	for _, nb := range []int{7, 64, 128, n} {
		got := apply(nb)
		for i := range got.Data {
			if e := math.Abs(got.Data[i] - want.Data[i]); !(e <= bound) {
				t.Fatalf("blocks of %d: element %d = %v, one at a time %v", nb, i, got.Data[i], want.Data[i])
			}
		}
	}
}
