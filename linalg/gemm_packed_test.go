package linalg

import (
	"testing"

	"rkhs/internal/testmat"
)

// TestPackedABound: with the band of packed A shrunk to one or two block
// rows, so that products on several goroutines take many bands, and with
// bands of every block row, more goroutines than block rows (every slot of
// the band in use), Gemm, Syrk and Trsm give the bits they give on one
// goroutine.
func TestPackedABound(t *testing.T) {
	for _, m := range []int{301, 3*8*kern.mr + 5} {
		packedABound(t, m)
	}
}

func packedABound(t *testing.T, m int) {
	rnd := testmat.NewRand(11)
	const n, k = 277, 2*64 + 13
	a := Dense(testmat.Random(rnd, m, k, 1))
	b := Dense(testmat.Random(rnd, k, n, 0))
	c0 := testmat.Random(rnd, m, n, 3)
	l := Dense(testmat.Random(rnd, m, m, 0))
	for i := range m {
		l.Data[i*m+i] = 4 + float64(i%7) // a well conditioned triangle
	}
	bt := testmat.Random(rnd, m, 130, 2)
	type result struct{ gemm, syrk, trsm testmat.Matrix }
	run := func() result {
		c, s, x := c0.Clone(), testmat.New(m, m, 0), bt.Clone()
		dc, ds, dx := Dense(c), Dense(s), Dense(x)
		Gemm(NoTrans, NoTrans, 0.5, &a, &b, 1.5, &dc)
		Syrk(Lower, NoTrans, 1, &a, 0, &ds)
		Trsm(Lower, NoTrans, &l, &dx)
		return result{c, s, x}
	}
	bl := blocking{kc: 64, mc: 8 * kern.mr, jb: 2 * kern.nr, nc: 16 * kern.nr}
	var want result
	withBlocking(bl, func() {
		withProcs(t, 1, func() { want = run() })
		saved := gemmPackedA
		defer func() { gemmPackedA = saved }()
		for _, bound := range []int{1, 2 * bl.mc * bl.kc, 5 * bl.mc * bl.kc, saved} {
			gemmPackedA = bound
			for _, procs := range []int{8, 16} {
				withProcs(t, procs, func() {
					for range 3 {
						got := run()
						for _, r := range []struct {
							name      string
							got, want testmat.Matrix
						}{{"Gemm", got.gemm, want.gemm}, {"Syrk", got.syrk, want.syrk}, {"Trsm", got.trsm, want.trsm}} {
							if !testmat.Identical(r.got, r.want) {
								t.Errorf("m=%d, bands of %d values, GOMAXPROCS=%d: %s differs from GOMAXPROCS=1", m, bound, procs, r.name)
							}
						}
					}
				})
			}
		}
	})
}

// TestWorkspaceShared: the packing buffers of a product are the same at
// 2 and at 16 goroutines: one block of B, one band of A.
func TestWorkspaceShared(t *testing.T) {
	rnd := testmat.NewRand(12)
	const n = 700
	a := Dense(testmat.Random(rnd, n, n, 0))
	c := Dense(testmat.New(n, n, 0))
	var sizes []int
	for _, procs := range []int{2, 16} {
		withProcs(t, procs, func() {
			for ws := workspaces.Get(func(*workspace) bool { return true }); ws != nil; ws = workspaces.Get(func(*workspace) bool { return true }) {
			} // an empty pool
			Syrk(Lower, NoTrans, 1, &a, 0, &c)
			ws := workspaces.Get(func(*workspace) bool { return true })
			if ws == nil {
				t.Skip("the pool lost the workspace to a collection")
			}
			sizes = append(sizes, cap(ws.a)+cap(ws.b))
		})
	}
	if want := roundUp(n, gemmMC)*min(n, gemmKC) + roundUp(n, kern.nr)*min(n, gemmKC); sizes[0] != want || sizes[1] != want {
		t.Errorf("packing buffers of %v values at GOMAXPROCS 2 and 16, want %d each", sizes, want)
	}
}
