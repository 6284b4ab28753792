package linalg

import (
	"fmt"
	"math"
	"testing"

	"rkhs/internal/testmat"
)

func TestSyrk(t *testing.T) {
	rnd := testmat.NewRand(4)
	// Sizes straddle the block edges of the kernel and blocking in use.
	sizes := []struct{ n, k int }{
		{0, 3}, {1, 1}, {3, 0}, {kern.mr - 1, 2}, {kern.mr + 1, gemmKC + 1}, {kern.nr + 1, 5},
		{63, 64}, {64, 65}, {65, 63}, {gemmMC + 1, 40}, {gemmMC - 1, gemmKC - 1}, {129, 300}, {2*gemmMC + 3, 9},
	}
	if gemmNC <= 1024 {
		sizes = append(sizes, struct{ n, k int }{gemmNC - 1, 3}, struct{ n, k int }{gemmNC + 1, gemmKC + 1}, struct{ n, k int }{2*gemmNC + kern.nr + 1, 2})
	}
	scalars := []struct{ alpha, beta float64 }{{1, 0}, {-1, 1}, {0.5, -2}, {0, 3}}
	for si, sz := range sizes {
		for _, ul := range []Uplo{Lower, Upper} {
			for _, tr := range []Op{NoTrans, Trans} {
				sc := scalars[(si+int(ul))%len(scalars)]
				name := fmt.Sprintf("%s%s/n=%d/k=%d/alpha=%g/beta=%g", uploName(ul), opName(tr), sz.n, sz.k, sc.alpha, sc.beta)
				t.Run(name, func(t *testing.T) {
					ar, ac := stored(tr, sz.n, sz.k)
					a := testmat.Random(rnd, ar, ac, 1)
					c := testmat.Random(rnd, sz.n, sz.n, 2)
					inTri := func(i, j int) bool { return (ul == Lower && j <= i) || (ul == Upper && j >= i) }
					if sc.beta == 0 {
						for i := 0; i < sz.n; i++ {
							for j := 0; j < sz.n; j++ {
								if inTri(i, j) {
									c.Set(i, j, math.NaN()) // must not be read
								}
							}
						}
					}
					a0, c0 := a.Clone(), c.Clone()
					want := c.Clone()
					bound := gemmRef(tr, !tr, sc.alpha, a, a, sc.beta, want)

					da, dc := Dense(a), Dense(c)
					Syrk(ul, tr, sc.alpha, &da, sc.beta, &dc)

					for i := 0; i < sz.n; i++ {
						for j := 0; j < sz.n; j++ {
							if !inTri(i, j) {
								if math.Float64bits(c.At(i, j)) != math.Float64bits(c0.At(i, j)) {
									t.Fatalf("element (%d,%d) outside the triangle was written", i, j)
								}
								// Compare only the triangle below.
								want.Set(i, j, c.At(i, j))
							}
						}
					}
					if r := componentRatio(c, want, bound, sz.k); r > 30 {
						t.Errorf("error ratio %.3g, want < 30", r)
					}
					if !testmat.Identical(a, a0) {
						t.Errorf("A was modified")
					}
					if !testmat.PaddingIntact(c) {
						t.Errorf("padding of C was written")
					}
				})
			}
		}
	}
}

// TestSyrkDeterministic: bit-identical results with 1 to 16 goroutines,
// with the blocking in use and with tinyBlocking (many pieces, odd shapes).
func TestSyrkDeterministic(t *testing.T) {
	rnd := testmat.NewRand(5)
	for _, tc := range []struct {
		bl    blocking
		sizes []struct{ n, k int }
	}{
		{blocking{gemmKC, gemmMC, gemmJB, gemmNC}, []struct{ n, k int }{{333, 270}}},
		{tinyBlocking(), []struct{ n, k int }{{101, 70}, {67, 25}, {130, 3}}},
	} {
		withBlocking(tc.bl, func() {
			for _, sz := range tc.sizes {
				for _, tr := range []Op{NoTrans, Trans} {
					for _, ul := range []Uplo{Lower, Upper} {
						ar, ac := stored(tr, sz.n, sz.k)
						a := testmat.Random(rnd, ar, ac, 0)
						c0 := testmat.Random(rnd, sz.n, sz.n, 1)
						var first testmat.Matrix
						for _, procs := range detProcs {
							c := c0.Clone()
							da, dc := Dense(a), Dense(c)
							withProcs(t, procs, func() { Syrk(ul, tr, -1, &da, 1, &dc) })
							if procs == 1 {
								first = c
							} else if !testmat.Identical(c, first) {
								t.Errorf("%+v %s%s %v: GOMAXPROCS=%d differs from GOMAXPROCS=1", tc.bl, uploName(ul), opName(tr), sz, procs)
							}
						}
					}
				}
			}
		})
	}
}

func uploName(ul Uplo) string {
	if ul == Upper {
		return "U"
	}
	return "L"
}
