package linalg

import (
	"flag"
	"fmt"
	"testing"
)

var calibrate = flag.Bool("calibrate", false, "sweep the block sizes and report the speed of each (slow)")

// TestCalibrate sweeps the block sizes of GEMM (JB, KC, MC), of the blocked
// Cholesky factorization (cholNB) and of the triangular solves (trsmNB) and
// logs GFLOP/s for each, so that the values in gemm.go, cholesky.go and
// trsm.go can be re-derived on another machine:
//
//	go test ./linalg -run Calibrate -calibrate -v
//
// It is skipped unless -calibrate is given.
func TestCalibrate(t *testing.T) {
	if !*calibrate {
		t.Skip("block-size calibration runs only with -calibrate")
	}
	defer func(kc, mc, cb, tb int) { gemmKC, gemmMC, cholNB, trsmNB = kc, mc, cb, tb }(gemmKC, gemmMC, cholNB, trsmNB)

	const n = 2048
	x := benchSPD(n)
	y := benchSPD(n)
	z := NewDense(n, n, nil)
	rate := func(flops float64, f func()) float64 {
		r := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				f()
			}
		})
		return flops * float64(r.N) / r.T.Seconds() / 1e9
	}

	gemmFlops := 2 * float64(n) * float64(n) * float64(n)
	t.Logf("micro-kernel %s", kern.name)
	// JB = NR is the loop order of BLIS (jr outside ir).
	for _, jb := range []int{kern.nr, 128, 256, 512} {
		for _, kc := range []int{128, 256, 384, 512, 768} {
			for _, mc := range []int{64, 128, 256} {
				gemmJB, gemmKC, gemmMC = jb, kc, mc
				g := rate(gemmFlops, func() { Gemm(NoTrans, NoTrans, 1, x, y, 0, z) })
				t.Logf("GEMM n=%d JB=%d KC=%d MC=%d: %.2f GFLOP/s", n, jb, kc, mc, g)
			}
		}
	}
	// The trailing update of a blocked Cholesky factorization: k = 128.
	xk, yk := x.Slice(0, n, 0, 128), y.Slice(0, 128, 0, n)
	for _, jb := range []int{kern.nr, 128, 256, 512} {
		for _, mc := range []int{64, 128, 256} {
			gemmJB, gemmKC, gemmMC = jb, kern.kc, mc
			g := rate(gemmFlops/16, func() { Gemm(NoTrans, NoTrans, -1, xk, yk, 1, z) })
			t.Logf("GEMM n=%d k=128 JB=%d MC=%d: %.2f GFLOP/s", n, jb, mc, g)
		}
	}
	gemmJB = 256
	gemmKC, gemmMC = kern.kc, kern.mc

	var ch Cholesky
	for _, nb := range []int{64, 96, 128, 192, 256} {
		cholNB = nb
		g := rate(float64(n)*float64(n)*float64(n)/3, func() {
			if err := ch.Factorize(x); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("Cholesky n=%d NB=%d: %.2f GFLOP/s", n, nb, g)
	}
	cholNB = 128

	if err := ch.Factorize(x); err != nil {
		t.Fatal(err)
	}
	l := ch.LTo(nil)
	for _, nb := range []int{32, 64, 96, 128, 256} {
		trsmNB = nb
		for _, k := range []int{1, 8, 256} {
			rhs := NewDense(n, k, nil)
			g := rate(float64(n)*float64(n)*float64(k), func() { Trsm(Lower, NoTrans, l, rhs) })
			t.Logf("Trsm n=%d k=%d NB=%d: %s GFLOP/s", n, k, nb, fmt.Sprintf("%.2f", g))
		}
	}
}
