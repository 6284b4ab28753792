package linalg

import (
	"fmt"
	"testing"

	"rkhs/internal/testmat"
)

// svdBenchShapes are the shapes of the QR and SVD benchmarks: the square
// size compared with gonum, a moderately tall one, and the tall, thin shape
// of a kernel method's feature matrix (n samples of 50 features).
var svdBenchShapes = []struct {
	name string
	m, n int
}{
	{"n=1000", 1000, 1000},
	{"2000x500", 2000, 500},
	{"100000x50", 100000, 50},
}

func BenchmarkQR(b *testing.B) {
	for _, sh := range svdBenchShapes {
		b.Run(sh.name, func(b *testing.B) {
			a := Dense(testmat.Random(testmat.NewRand(1), sh.m, sh.n, 0))
			var qr QR
			b.ReportAllocs()
			for b.Loop() {
				if err := qr.Factorize(&a); err != nil {
					b.Fatal(err)
				}
			}
			m, n := float64(sh.m), float64(sh.n)
			reportGFLOPs(b, 2*m*n*n-2*n*n*n/3)
		})
	}
}

func BenchmarkQRTo(b *testing.B) {
	for _, sh := range svdBenchShapes {
		b.Run(sh.name, func(b *testing.B) {
			a := Dense(testmat.Random(testmat.NewRand(1), sh.m, sh.n, 0))
			var qr QR
			if err := qr.Factorize(&a); err != nil {
				b.Fatal(err)
			}
			q := NewDense(sh.m, sh.n, nil)
			b.ReportAllocs()
			for b.Loop() {
				qr.QTo(q)
			}
		})
	}
}

// BenchmarkGeqr compares the unblocked factorization of a chunk of the
// tall-skinny mode (50 columns of 2048 rows, stored as 50 rows of W) one
// reflector at a time and four at a time, on one goroutine.
func BenchmarkGeqr(b *testing.B) {
	n, l := 50, tsqrChunk
	src := Dense(testmat.Random(testmat.NewRand(1), n, l, 0))
	q := &QR{y: *NewDense(n, l, nil), r: *NewDense(n, n, nil), t: *NewDense(n, n, nil), nb: n, serial: true}
	for _, alg := range []struct {
		name string
		f    func(p, t Dense, g0 int)
	}{{"geqr2", q.geqr2}, {"geqrt4", q.geqrt4}} {
		b.Run(alg.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				q.y.Copy(&src)
				alg.f(q.y, q.t, 0)
			}
			reportGFLOPs(b, 2*float64(n*n)*float64(l))
		})
	}
}

// BenchmarkSVD computes the thin SVD (values and both factors, copied out)
// by the route Factorize chooses, and for the square size by each route;
// BenchmarkSVDValues the singular values alone.
func BenchmarkSVD(b *testing.B) {
	for _, sh := range svdBenchShapes {
		kinds := []SVDKind{SVDThin}
		if sh.m == sh.n {
			kinds = append(kinds, SVDJacobi, SVDBidiagonal)
		}
		for _, kind := range kinds {
			b.Run(sh.name+"/"+routeName(kind), func(b *testing.B) {
				a := Dense(testmat.Random(testmat.NewRand(1), sh.m, sh.n, 0))
				var svd SVD
				k := min(sh.m, sh.n)
				u := NewDense(sh.m, k, nil)
				v := NewDense(sh.n, k, nil)
				b.ReportAllocs()
				for b.Loop() {
					if err := svd.Factorize(&a, kind); err != nil {
						b.Fatal(err)
					}
					svd.UTo(u)
					svd.VTo(v)
				}
			})
		}
	}
}

func BenchmarkSVDValues(b *testing.B) {
	for _, n := range []int{1000, 2000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			a := Dense(testmat.Random(testmat.NewRand(1), n, n, 0))
			var svd SVD
			b.ReportAllocs()
			for b.Loop() {
				if err := svd.Factorize(&a, SVDValues); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCopyScan measures the transposing copy (with the scan for the
// largest element and NaN/Inf) that loads A into a QR.
func BenchmarkCopyScan(b *testing.B) {
	for _, sh := range svdBenchShapes {
		b.Run(fmt.Sprintf("%dx%d", sh.m, sh.n), func(b *testing.B) {
			a := Dense(testmat.Random(testmat.NewRand(1), sh.m, sh.n, 0))
			t := NewDense(sh.n, sh.m, nil)
			for b.Loop() {
				copyScan(*t, a, true)
			}
		})
	}
}

// TestCalibrateSVD sweeps the tuning constants of the QR and the SVD and
// logs the time of each setting, so that the values in qr.go, svd.go,
// svd_bidiag.go, svd_jacobi.go and bidiag_dc.go can be re-derived on
// another machine:
//
//	go test ./linalg -run CalibrateSVD -calibrate -v
//
// It is skipped unless -calibrate is given (the flag of TestCalibrate).
func TestCalibrateSVD(t *testing.T) {
	if !*calibrate {
		t.Skip("block-size calibration runs only with -calibrate")
	}
	defer func(nb, wide, leaf, chunk, jb, ratio, jmax, cut int, qrr float64) {
		qrNB, qrWide, qrLeaf, tsqrChunk, jacobiBlock, svdTallRatio, svdJacobiMax, bdsdcCutoff, svdQRRatio = nb, wide, leaf, chunk, jb, ratio, jmax, cut, qrr
	}(qrNB, qrWide, qrLeaf, tsqrChunk, jacobiBlock, svdTallRatio, svdJacobiMax, bdsdcCutoff, svdQRRatio)
	best := func(f func()) float64 {
		r := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				f()
			}
		})
		return float64(r.T.Microseconds()) / 1e3 / float64(r.N)
	}
	square := Dense(testmat.Random(testmat.NewRand(1), 1000, 1000, 0))
	tall := Dense(testmat.Random(testmat.NewRand(1), 100000, 50, 0))
	var qr QR
	for _, nb := range []int{16, 24, 32, 48, 64} {
		for _, leaf := range []int{2, 4, 8} {
			qrNB, qrLeaf = nb, leaf
			t.Logf("QR 1000×1000 qrNB=%d qrLeaf=%d: %.1f ms", nb, leaf, best(func() { qr.Factorize(&square) }))
		}
	}
	for _, chunk := range []int{1024, 2048, 4096, 8192} {
		tsqrChunk = chunk
		t.Logf("QR 100000×50 tsqrChunk=%d: %.1f ms", chunk, best(func() { qr.Factorize(&tall) }))
	}
	var s SVD
	mid := Dense(testmat.Random(testmat.NewRand(1), 500, 500, 0))
	for _, jb := range []int{8, 16, 32, 64} {
		jacobiBlock = jb
		t.Logf("SVD 500×500 jacobiBlock=%d: %.1f ms", jb, best(func() { s.Factorize(&mid, SVDJacobi) }))
	}
	for _, n := range []int{50, 200} {
		for _, r := range []int{2, 4, 8} {
			b := Dense(testmat.Random(testmat.NewRand(1), r*n, n, 0))
			svdTallRatio = 1
			acc := best(func() { s.Factorize(&b, SVDJacobi) })
			svdTallRatio = 1 << 30
			qrbv := best(func() { s.Factorize(&b, SVDJacobi) })
			t.Logf("SVD %d×%d: accumulate %.1f ms, QR of B·V %.1f ms", r*n, n, acc, qrbv)
		}
	}
	svdTallRatio = 4
	// The default route: Jacobi against bidiagonal, square and tall.
	for _, n := range []int{32, 48, 64, 96, 128} {
		for _, r := range []int{1, 4, 100} {
			b := Dense(testmat.Random(testmat.NewRand(1), r*n, n, 0))
			jac := best(func() { s.Factorize(&b, SVDJacobi) })
			bid := best(func() { s.Factorize(&b, SVDBidiagonal) })
			t.Logf("SVD %d×%d: Jacobi %.2f ms, bidiagonal %.2f ms", r*n, n, jac, bid)
		}
	}
	// The QR before the bidiagonalization.
	for _, r := range []float64{1.2, 1.5, 2, 3} {
		n := 500
		b := Dense(testmat.Random(testmat.NewRand(1), int(r*float64(n)), n, 0))
		svdQRRatio = 100
		direct := best(func() { s.Factorize(&b, SVDBidiagonal) })
		svdQRRatio = 1
		withQR := best(func() { s.Factorize(&b, SVDBidiagonal) })
		t.Logf("SVD %d×%d: direct %.1f ms, QR first %.1f ms", b.Rows, n, direct, withQR)
	}
	// The leaves of the bidiagonal divide and conquer.
	for _, n := range []int{500, 2000} {
		w := Dense(testmat.Random(testmat.NewRand(1), n, n, 0))
		d0, e0 := make([]float64, n), make([]float64, n-1)
		bidiagonalize(w, d0, e0, make([]float64, n), make([]float64, n-1))
		u, v := NewDense(n, n, nil), NewDense(n, n, nil)
		d, e := make([]float64, n), make([]float64, n-1)
		for _, c := range []int{16, 24, 32, 48, 64, 96} {
			bdsdcCutoff = c
			ms := best(func() {
				copy(d, d0)
				copy(e, e0)
				if err := bdsdc(d, e, *u, *v); err != nil {
					t.Fatal(err)
				}
			})
			t.Logf("bdsdc n=%d cut-off %d: %.1f ms", n, c, ms)
		}
	}
}
