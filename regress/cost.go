package regress

import (
	"time"

	"rkhs/internal/memlimit"
	"rkhs/linalg"
)

// Cost is the estimate of a fit before it starts, for a caller to say
// how long and how large it will be: its floating-point work Flops,
// counted at the speed of a matrix product (divide by a measured Gemm
// rate for seconds), and its peak memory Bytes.
type Cost struct {
	Flops float64
	Bytes uint64
}

// ExactCost estimates an exact fit on n rows of d features: the Gram
// matrix, n²d, then, eigen false, a Cholesky factorization, n³/3, holding
// one n×n matrix (RLS); eigen true, the symmetric eigendecomposition with
// vectors (NewSpectral), 6n³ in all — 4n³/3 for the tridiagonal
// reduction, at about half the speed of a product since half of it is
// matrix-vector work, 2n³ for the back-transformation and up to 4n³/3 for
// divide and conquer — holding six n×n matrices.
func ExactCost(n, d int, eigen bool) Cost {
	nf := float64(n)
	if !eigen {
		return Cost{nf*nf*float64(d) + nf*nf*nf/3, memlimit.Floats(n, n)}
	}
	return Cost{nf*nf*float64(d) + 6*nf*nf*nf, memlimit.Floats(6, n, n)}
}

// FalkonCost estimates Falkon on n rows of d features with q outputs, m
// centres and iters iterations (0: DefaultFalkonIter): the
// preconditioner, K_mm (m²d) and two m×m Cholesky factorizations and a
// triangular product (about m³ in all), then one pass over the rows for
// the right-hand side and one an iteration, each 2nmd flops for the
// distances, nm kernel transforms (counted as 10 flops each) and 4nmq
// for the products; the memory is FalkonMemory.
func FalkonCost(n, d, m, q, iters int) Cost {
	if iters == 0 {
		iters = DefaultFalkonIter
	}
	nm, mf := float64(n)*float64(m), float64(m)
	pass := nm * (2*float64(d) + 10 + 4*float64(q))
	return Cost{mf*mf*float64(d) + mf*mf*mf + float64(iters+1)*pass, FalkonMemory(n, m, d, q)}
}

// Duration is the time c takes at rate flops a second (GemmRate's), to
// the nanosecond: c.Flops/rate seconds.
func (c Cost) Duration(rate float64) time.Duration {
	return time.Duration(c.Flops / rate * float64(time.Second))
}

// GemmRate measures this machine's speed of a matrix product, in flops a
// second, the rate a Cost's Flops are counted at: one 512×512 Gemm
// (linalg.Gemm, 2·512³ flops, 0.27 GFLOP) timed after one to warm up, a
// few milliseconds in all. It is a measurement, so it varies from call to
// call with the machine's load.
func GemmRate() float64 {
	const m = 512
	a := linalg.NewDense(m, m, nil)
	for i := range a.Data {
		a.Data[i] = float64(i%7) - 3
	}
	c := linalg.NewDense(m, m, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, a, a, 0, c) // warm up
	start := time.Now()
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, a, a, 0, c)
	return 2 * m * m * m / max(time.Since(start).Seconds(), 1e-6)
}
