package kernels

import (
	"flag"
	"fmt"
	"testing"
	"time"

	"rkhs/linalg"
)

var calibrate = flag.Bool("calibrate", false, "sweep the block size of streamed products and report the time of each (slow)")

// TestCalibrateStream times one NormalMulTo (n = 50,000 points, m = 4000
// centres, d = 10, q = 1, Gaussian) for blocks of 2¹⁵ … 2²⁰ elements, best
// of three, to choose streamBlockElems. Run it alone on an idle machine.
func TestCalibrateStream(t *testing.T) {
	if !*calibrate {
		t.Skip("-calibrate not set")
	}
	defer func(e int) { streamBlockElems = e }(streamBlockElems)
	const n, m, q = 50000, 4000, 1
	x, c, v := benchData(1, n), benchData(2, m), benchData(3, m).Slice(0, m, 0, q)
	r, err := NewRows(Gaussian{Sigma: 1}, x, c)
	if err != nil {
		t.Fatal(err)
	}
	out := linalg.NewDense(m, q, nil)
	for e := 1 << 15; e <= 1<<20; e *= 2 {
		streamBlockElems = e
		best := time.Duration(1 << 62)
		for range 3 {
			t0 := time.Now()
			r.NormalMulTo(out, v)
			best = min(best, time.Since(t0))
		}
		fmt.Printf("block %7d elements (%4d rows): %v\n", e, streamRows(m), best)
	}
}
