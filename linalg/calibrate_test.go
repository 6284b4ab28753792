package linalg

import (
	"flag"
	"fmt"
	"testing"

	"rkhs/internal/cpuinfo"
)

var calibrate = flag.Bool("calibrate", false, "sweep the block sizes and report the speed of each (slow)")

// TestCalibrate sweeps the block sizes of GEMM (KC, MC, JB and NC, around
// the values blockingFor derived for this CPU), of the blocked Cholesky
// factorization (cholNB) and of the triangular solves (trsmNB) and logs
// GFLOP/s for each, so that the values in gemm_kernel*.go, cholesky.go and
// trsm.go can be re-derived on another machine:
//
//	go test ./linalg -run Calibrate -calibrate -v
//
// (with GOEXPERIMENT=simd for the SIMD kernels). It logs the CPU and the
// derived blocking first; a kernel's calibrated kc, mc and jb are those of
// the best run on the reference machine of gemm_blocking.go. It is
// skipped unless -calibrate is given.
func TestCalibrate(t *testing.T) {
	if !*calibrate {
		t.Skip("block-size calibration runs only with -calibrate")
	}
	derived := blocking{gemmKC, gemmMC, gemmJB, gemmNC}
	defer func(cb, tb int) { cholNB, trsmNB = cb, tb }(cholNB, trsmNB)

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
	gemmRate := func(bl blocking) float64 {
		var g float64
		withBlocking(bl, func() { g = rate(gemmFlops, func() { Gemm(NoTrans, NoTrans, 1, x, y, 0, z) }) })
		return g
	}
	t.Logf("CPU: %v", cpuinfo.Detect())
	t.Logf("micro-kernel %s (calibrated KC=%d MC=%d JB=%d); derived for this CPU: KC=%d MC=%d JB=%d NC=%d",
		kern.name, kern.kc, kern.mc, kern.jb, derived.kc, derived.mc, derived.jb, derived.nc)

	// KC × MC around the derived values, JB and NC as derived.
	best, bestRate := derived, 0.0
	for _, kc := range []int{derived.kc / 2, derived.kc * 3 / 4, derived.kc, derived.kc * 5 / 4} {
		for _, mc := range []int{derived.mc / 2, derived.mc, derived.mc * 3 / 2} {
			bl := derived
			bl.kc, bl.mc = max(16, kc/16*16), max(kern.mr, mc/kern.mr*kern.mr)
			g := gemmRate(bl)
			t.Logf("GEMM n=%d KC=%d MC=%d JB=%d NC=%d: %.2f GFLOP/s", n, bl.kc, bl.mc, bl.jb, bl.nc, g)
			if g > bestRate {
				best, bestRate = bl, g
			}
		}
	}
	// JB (JB = NR is the loop order of BLIS, jr outside ir) and NC, with
	// the best KC and MC.
	for _, jb := range []int{kern.nr, derived.jb / 2, derived.jb * 2} {
		bl := best
		bl.jb = max(kern.nr, jb/kern.nr*kern.nr)
		bl.nc = max(bl.jb, bl.nc/bl.jb*bl.jb)
		t.Logf("GEMM n=%d KC=%d MC=%d JB=%d NC=%d: %.2f GFLOP/s", n, bl.kc, bl.mc, bl.jb, bl.nc, gemmRate(bl))
	}
	for _, nc := range []int{best.jb, n / 2} {
		bl := best
		bl.nc = max(bl.jb, nc/bl.jb*bl.jb)
		t.Logf("GEMM n=%d KC=%d MC=%d JB=%d NC=%d: %.2f GFLOP/s", n, bl.kc, bl.mc, bl.jb, bl.nc, gemmRate(bl))
	}
	t.Logf("best of the KC × MC sweep: KC=%d MC=%d (%.2f GFLOP/s)", best.kc, best.mc, bestRate)

	// The trailing update of a blocked Cholesky factorization: k = 128.
	xk, yk := x.Slice(0, n, 0, 128), y.Slice(0, 128, 0, n)
	for _, mc := range []int{derived.mc / 2, derived.mc, derived.mc * 2} {
		bl := derived
		bl.mc = max(kern.mr, mc/kern.mr*kern.mr)
		var g float64
		withBlocking(bl, func() { g = rate(gemmFlops/16, func() { Gemm(NoTrans, NoTrans, -1, xk, yk, 1, z) }) })
		t.Logf("GEMM n=%d k=128 MC=%d: %.2f GFLOP/s", n, bl.mc, g)
	}

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
