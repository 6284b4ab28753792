package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"rkhs/internal/memlimit"
	"rkhs/linalg"
	"rkhs/regress"
)

// Exact methods cost O(n³) time, and Falkon with many centres O(M³ +
// T·nMd): before a long run the command says how long and how much memory
// it will take, and prints a progress line while it runs (on standard
// error, as rkhs paper does).

// cost is the estimate of a run (regress.Cost), the order of its work
// and what would be faster ("" if nothing).
type cost struct {
	regress.Cost
	order, faster string
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

// announce estimates an exact run (route "cholesky" or "eigen":
// regress.ExactCost) on n points of d
// features and announces it (announceCost) with what would be faster.
func announce(w io.Writer, what, route string, n, d int) (stop func()) {
	if n < minAnnounced {
		return func() {}
	}
	return announceCost(w, what, n, cost{regress.ExactCost(n, d, route != "cholesky"), "O(n³) work",
		"; -method falkon -centers M, with M a few thousand centres, takes O(M² + nd) memory and far less time"})
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
	if memlimit.Check("", c.Bytes) != nil {
		return func() {} // refused at once by the memory check
	}
	est := time.Duration(c.Flops / productRate() * float64(time.Second))
	if est < longRunThreshold {
		return func() {}
	}
	fmt.Fprintf(w, "rkhs %s on %d rows: about %s and %s of memory (%s)%s\n",
		what, n, roundDuration(est), linalg.FormatBytes(c.Bytes), c.order, c.faster)
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
