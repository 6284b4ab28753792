package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"rkhs/internal/memlimit"
	"rkhs/linalg"
	"rkhs/regress"
	"rkhs/report"
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

// productRate is this machine's speed of a matrix product
// (regress.GemmRate), a variable so that tests can fix it.
var productRate = regress.GemmRate

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
	est := c.Duration(productRate())
	if est < longRunThreshold {
		return func() {}
	}
	fmt.Fprintf(w, "rkhs %s on %d rows: about %s and %s of memory (%s)%s\n",
		what, n, report.RoundDuration(est), linalg.FormatBytes(c.Bytes), c.order, c.faster)
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
				fmt.Fprintf(w, "rkhs %s: %s elapsed of about %s\n", what, report.RoundDuration(time.Since(start)), report.RoundDuration(est))
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
