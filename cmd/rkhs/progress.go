package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"rkhs/internal/memlimit"
	"rkhs/linalg"
)

// Exact methods cost O(n³) time, and Falkon with many centres O(M³ +
// T·nMd): before a long run the command says how long and how much memory
// it will take, and prints a progress line while it runs (on standard
// error, as rkhs paper does).

// cost is the estimate of a run: its floating-point work, counted at the
// speed of a matrix product, its peak memory, the order of its work and
// what would be faster ("" if nothing).
type cost struct {
	flops  float64
	bytes  uint64
	order  string
	faster string
}

// exactCost returns the floating-point work of an exact method on n
// points of d features, counted at the speed of a matrix product, and its
// peak memory. route is "cholesky" (the Gram matrix, n²d, and the
// factorization, n³/3) or "eigen" (the Gram matrix and the symmetric
// eigendecomposition with vectors: 4n³/3 for the tridiagonal reduction, at
// about half the speed of a product since half of it is matrix-vector
// work, 2n³ for the back-transformation and up to 4n³/3 for divide and
// conquer: 6n³ in all).
func exactCost(route string, n, d int) (flops float64, bytes uint64) {
	nf := float64(n)
	switch route {
	case "cholesky":
		return nf*nf*float64(d) + nf*nf*nf/3, memlimit.Floats(n, n)
	default:
		return nf*nf*float64(d) + 6*nf*nf*nf, memlimit.Floats(6, n, n)
	}
}

// productRate measures this machine's speed of a matrix product, in flops
// a second: one 512×512 Gemm, 0.27 GFLOP, a few milliseconds. A variable
// so that tests can fix it.
var productRate = func() float64 {
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

// longRunThreshold is the estimated time above which a run is announced,
// and minAnnounced the smallest n for which it is estimated at all (below
// it even the eigen route takes a few seconds).
const (
	longRunThreshold = 10 * time.Second
	minAnnounced     = 3000
)

// progressEvery is the interval of the progress lines.
var progressEvery = 30 * time.Second

// announce estimates an exact run (route, see exactCost) on n points of d
// features and announces it (announceCost) with what would be faster.
func announce(w io.Writer, what, route string, n, d int) (stop func()) {
	if n < minAnnounced {
		return func() {}
	}
	flops, bytes := exactCost(route, n, d)
	return announceCost(w, what, n, cost{flops, bytes, "O(n³) work",
		"; -method falkon -centers M, with M a few thousand centres, takes O(M² + nd) memory and far less time"})
}

// nystromSelectionCost estimates loo.SelectNystrom on n rows of d
// features with q outputs, m centres, s values of σ and l of λ, its
// leave-one-out pass on looRows rows (0 with GCV, which has none). For
// each σ: the statistics pass, 2nmd flops for the distances, nm kernel
// transforms (10 flops each) and nm² for the moments, and the λ path's
// eigendecomposition, 6m³; then, for each row of the leave-one-out pass
// and each λ, the exact residuals of the q outputs, about 10(m + 20)q
// flops at the speed of a product (measured: 44 ns a row and λ at m = 20
// on a core whose product runs at 10¹⁰ flops a second). Its memory is the
// λ path of each σ, m(2m + l(q + 1) + 2q + d + 3) floats, with one m×m
// eigendecomposition's 5m²: the paths of every σ together when they fit
// (the passes then serve every σ at once), of one σ otherwise.
func nystromSelectionCost(n, d, q, m, s, l, looRows int) cost {
	nf, mf := float64(n), float64(m)
	perSigma := 2*nf*mf*float64(d) + 10*nf*mf + nf*mf*mf + 6*mf*mf*mf + float64(looRows)*float64(l)*10*(mf+20)*float64(q)
	one := memlimit.Floats(m, 2*m+l*(q+1)+2*q+d+3)
	bytes := memlimit.Sum(memlimit.Floats(s, m, 2*m+l*(q+1)+2*q+d+3), memlimit.Floats(m, 5*m))
	if memlimit.Check("", bytes) != nil {
		bytes = memlimit.Sum(one, memlimit.Floats(m, 5*m))
	}
	return cost{float64(s) * perSigma, bytes, fmt.Sprintf("%d σ × %d λ", s, l),
		"; fewer values of -sigmas or -lambdas, or -loo-rows R (an estimate on R rows), take less"}
}

// announceCost says on w, when a run on n rows estimated at c will take
// longer than longRunThreshold, how long and how much memory, with what
// would be faster, and prints a progress line every progressEvery until
// the returned stop is called. what names the run ("fit -method
// cholesky"). Runs the memory check will refuse at once are not
// announced.
func announceCost(w io.Writer, what string, n int, c cost) (stop func()) {
	if w == nil {
		return func() {}
	}
	if memlimit.Check("", c.bytes) != nil {
		return func() {} // refused at once by the memory check
	}
	est := time.Duration(c.flops / productRate() * float64(time.Second))
	if est < longRunThreshold {
		return func() {}
	}
	fmt.Fprintf(w, "rkhs %s on %d rows: about %s and %s of memory (%s)%s\n",
		what, n, roundDuration(est), linalg.FormatBytes(c.bytes), c.order, c.faster)
	start := time.Now()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(progressEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				fmt.Fprintf(w, "rkhs %s: %s elapsed of about %s\n", what, roundDuration(time.Since(start)), roundDuration(est))
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}

// roundDuration rounds d for a message: to the second below an hour, to
// the minute above.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Hour {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}
