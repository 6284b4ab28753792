package linalg

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"rkhs/internal/testmat"
)

// gebd2Ref is the naive twin of bidiagonalize (LAPACK's dgebd2): one
// reflector at a time, each applied to the whole rest of the matrix at
// once, with the same storage of the result.
func gebd2Ref(a Dense, d, e, tauq, taup []float64) {
	m, n := a.Rows, a.Cols
	at := func(i, j int) *float64 { return &a.Data[i*a.Stride+j] }
	x := make([]float64, max(m, n))
	for j := 0; j < n; j++ {
		// H_j from column j, rows j…, applied to columns j+1….
		c := x[:m-j]
		for r := range c {
			c[r] = *at(j+r, j)
		}
		beta, tau := householder(c)
		c[0] = 1
		d[j], tauq[j] = beta, tau
		for k := j + 1; k < n; k++ {
			var s float64
			for r := range c {
				s += c[r] * *at(j+r, k)
			}
			for r := range c {
				*at(j+r, k) -= tau * s * c[r]
			}
		}
		for r := 1; r < len(c); r++ {
			*at(j+r, j) = c[r]
		}
		if j == n-1 {
			break
		}
		// G_j from row j, columns j+1…, applied to rows j+1….
		row := a.Data[j*a.Stride+j+1 : j*a.Stride+n]
		beta, tau = householder(row)
		e[j], taup[j] = beta, tau
		u := append([]float64{1}, row[1:]...)
		for i := j + 1; i < m; i++ {
			ri := a.Data[i*a.Stride+j+1 : i*a.Stride+n]
			s := tau * dot(ri, u)
			axpy(-s, u, ri)
		}
	}
}

// bidiagFactors returns Q (m×m) and P (n×n) of a reduced matrix, formed by
// applying the stored reflectors to identities.
func bidiagFactors(a Dense, tauq, taup []float64) (q, p testmat.Matrix) {
	m, n := a.Rows, a.Cols
	q, p = testmat.Identity(m), testmat.Identity(n)
	applyBidiagQ(a, tauq, Dense(q))
	applyRowReflectors(a, taup, Dense(p))
	return q, p
}

// TestBidiagonalize checks the blocked reduction on shapes that straddle the
// panel width (with bidiagNB = 8 and the default) and padded strides, on
// random matrices and matrices with chosen singular values: the backward
// error ‖A − Q·B·Pᵀ‖/(max(m,n)·ε·‖A‖) and the orthogonality of Q and P
// (LAPACK ratios below 30), and d and e against the naive twin gebd2Ref.
func TestBidiagonalize(t *testing.T) {
	defer func(nb int) { bidiagNB = nb }(bidiagNB)
	shapes := [][2]int{{1, 1}, {2, 2}, {5, 3}, {9, 8}, {17, 16}, {33, 31}, {64, 64}, {65, 65}, {100, 37}, {130, 129}}
	if testing.Short() {
		shapes = [][2]int{{1, 1}, {5, 3}, {17, 16}, {65, 65}, {100, 37}}
	}
	rnd := testmat.NewRand(3)
	for _, nb := range []int{8, 32} {
		bidiagNB = nb
		for _, sh := range shapes {
			m, n := sh[0], sh[1]
			for _, kind := range []string{"random", "geometric"} {
				t.Run(fmt.Sprintf("nb=%d/%dx%d/%s", nb, m, n, kind), func(t *testing.T) {
					var a0 testmat.Matrix
					if kind == "random" {
						a0 = testmat.Random(rnd, m, n, 3)
					} else {
						a0 = testmat.WithSingularValues(rnd, m, n, testmat.GeometricSpectrum(n, 1e14), 3)
					}
					a := a0.Clone()
					d, e := make([]float64, n), make([]float64, n-1)
					tq, tp := make([]float64, n), make([]float64, n-1)
					bidiagonalize(Dense(a), d, e, tq, tp)
					if !testmat.PaddingIntact(a) {
						t.Errorf("bidiagonalize wrote into the padding")
					}
					q, p := bidiagFactors(Dense(a), tq, tp)
					b := testmat.New(m, n, 0)
					for i := 0; i < n; i++ {
						b.Set(i, i, d[i])
						if i < n-1 {
							b.Set(i, i+1, e[i])
						}
					}
					r := testmat.Sub(a0, testmat.Mul(testmat.Mul(q, b), testmat.T(p)))
					res := testmat.NormOne(r) / (float64(m) * testmat.Eps * testmat.NormOne(a0))
					oq, op := testmat.Orthogonality(q), testmat.Orthogonality(p)
					if res > 30 || oq > 30 || op > 30 {
						t.Errorf("residual %.3g, ‖QᵀQ−I‖ %.3g, ‖PᵀP−I‖ %.3g (ratios), want < 30", res, oq, op)
					}
					if kind != "random" {
						return
					}
					ar := a0.Clone()
					dr, er := make([]float64, n), make([]float64, n-1)
					gebd2Ref(Dense(ar), dr, er, make([]float64, n), make([]float64, n-1))
					scale := testmat.NormMax(a0) * float64(m) * 1e-12
					for i := range d {
						if math.Abs(d[i]-dr[i]) > scale || (i < n-1 && math.Abs(e[i]-er[i]) > scale) {
							t.Fatalf("d[%d], e[%d] = %v, %v; gebd2Ref: %v, %v", i, i, d[i], e[min(i, n-2)], dr[i], er[min(i, n-2)])
						}
					}
				})
			}
		}
	}
}

// TestBidiagonalizeDeterministic: the reduced matrix, d, e and the scalars
// are bit-identical whatever the number of goroutines, on shapes whose
// passes split into several blocks of rows and several ranges of columns
// (the panel's corrections run in those splits).
func TestBidiagonalizeDeterministic(t *testing.T) {
	for _, sh := range [][2]int{{400, 300}, {700, 650}} {
		m, n := sh[0], sh[1]
		a0 := testmat.Random(testmat.NewRand(9), m, n, 0)
		var first []float64
		for _, procs := range []int{1, 2, 3, 8} {
			a := a0.Clone()
			d, e := make([]float64, n), make([]float64, n-1)
			tq, tp := make([]float64, n), make([]float64, n-1)
			withProcs(t, procs, func() { bidiagonalize(Dense(a), d, e, tq, tp) })
			all := slices.Concat(a.Data, d, e, tq, tp)
			if first == nil {
				first = all
			} else if !slices.Equal(all, first) {
				t.Errorf("%dx%d: GOMAXPROCS=%d gives a different result from GOMAXPROCS=1", m, n, procs)
			}
		}
	}
}

// TestAxpy2x2: the four-row sum of the fused pass (scalar) is, to the bit, two
// calls of axpy2Scalar, for every length through a step and its remainder.
func TestAxpy2x2(t *testing.T) {
	rng := testmat.NewRand(9)
	for n := 0; n <= 9; n++ {
		d := testmat.Random(rng, 5, n, 0).Data
		r0, r1, r2, r3, y := d[:n], d[n:2*n], d[2*n:3*n], d[3*n:4*n], d[4*n:]
		want := append([]float64(nil), y...)
		axpy2Scalar(0.3, -1.7, r0, r1, want)
		axpy2Scalar(2.9, 0.11, r2, r3, want)
		got := append([]float64(nil), y...)
		axpy2x2Scalar(0.3, -1.7, 2.9, 0.11, r0, r1, r2, r3, got)
		for k := range got {
			if got[k] != want[k] {
				t.Errorf("n=%d: y[%d] = %v, two axpy2 calls give %v", n, k, got[k], want[k])
			}
		}
	}
}
