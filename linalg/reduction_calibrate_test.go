package linalg

import (
	"testing"

	"rkhs/internal/testmat"
)

// TestCalibrateReduction times the Householder reductions and their
// back-transformations for a sweep of their block sizes — tridiagNB
// (tridiagonalize), bidiagNB (bidiagonalize) and householderNB and
// householderWideNB together (applyReflectors, through applyRowReflectors
// and applyBidiagQ) — and logs the best of three runs of each, so that the
// values in tridiag.go, bidiag.go and householder.go can be re-derived on
// another machine:
//
//	go test ./linalg -run CalibrateReduction -calibrate -v
//
// It is skipped unless -calibrate is given (the flag of TestCalibrate).
func TestCalibrateReduction(t *testing.T) {
	if !*calibrate {
		t.Skip("block-size calibration runs only with -calibrate")
	}
	defer func(a, b, c, d int) { tridiagNB, bidiagNB, householderNB, householderWideNB = a, b, c, d }(tridiagNB, bidiagNB, householderNB, householderWideNB)
	best := func(f func()) float64 {
		r := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				f()
			}
		})
		return float64(r.T.Microseconds()) / 1e3 / float64(r.N)
	}
	for _, n := range []int{500, 1000, 2000} {
		a := testmat.Random(testmat.NewRand(1), n, n, 0)
		s := symmetrize(a)
		w := Dense(a.Clone())
		d, e := make([]float64, n), make([]float64, n-1)
		tq, tp := make([]float64, n), make([]float64, n-1)
		for _, nb := range []int{16, 24, 32, 48, 64} {
			tridiagNB = nb
			ms := best(func() { copy(w.Data, s.Data); tridiagonalize(w, d, e, tp) })
			t.Logf("tridiagonalize n=%d tridiagNB=%d: %.1f ms", n, nb, ms)
		}
		for _, nb := range []int{16, 24, 32, 48, 64} {
			bidiagNB = nb
			ms := best(func() { copy(w.Data, a.Data); bidiagonalize(w, d, e, tq, tp) })
			t.Logf("bidiagonalize n=%d bidiagNB=%d: %.1f ms", n, nb, ms)
		}
		z := Dense(testmat.Identity(n))
		for _, nb := range []int{64, 96, 128, 192, 256} {
			householderNB, householderWideNB = nb, nb
			ms := best(func() { applyBidiagQ(w, tq, z) })
			t.Logf("applyBidiagQ n=%d householderNB=%d: %.1f ms", n, nb, ms)
		}
	}
}
