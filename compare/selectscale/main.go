// Command selectscale measures loo.SelectNystrom at scale: the choice of
// the Gaussian width σ and of λ of a Nyström fit by exact leave-one-out
// over every row, then the fit at the chosen pair and its test error —
// time, test MSE and peak memory.
//
//	go run ./selectscale -n 1000000
//	go run ./selectscale -n 100000 -csv /tmp/synth100k
//
// Data: the synthetic regression problem of compare/falkon (x uniform on
// [−1, 1]¹⁰, y = sin(πx₁) + x₂·cos(πx₃) + x₄²/2 − x₅x₆/2 +
// (x₇ + x₈ + x₉ + x₁₀)/4 + 0.1·ε, ε standard normal; -n training rows from
// a PCG generator seeded (1, 2), 10,000 test rows seeded (3, 4)); its
// features are on comparable scales, so they are used as they are.
//
// Selection: -m centres drawn uniformly without replacement from the
// training rows (seeded), σ = the median heuristic (loo.MedianDistance) times
// 1/4, 1/2, 1, 2 and 4, 50 values of λ log-spaced from 1e-9 to 1e-1 (the
// K + nλI convention), a free intercept, the leave-one-out MSE of every
// row, or with -loo-rows N of N rows drawn at random (seeded; an unbiased
// estimate of the same mean, SelectNystrom.Subset).
//
// -csv PREFIX also writes PREFIX.train.csv and PREFIX.test.csv (columns
// x1…x10, y: the label last) so that another program can run on the same
// data.
//
// Peak memory is the process's VmHWM (Linux /proc/self/status), reset
// after the data are generated, and the resident size at that point is
// printed beside it: their difference is what the selection added. With
// -v (the default) each pass's line also gives the time and the peak
// resident size of the part before it (the peak reset at each line), and a
// last line those of the last pass.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"time"

	"rkhs/compare/internal/synthetic"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

var (
	n       = flag.Int("n", 1000000, "training rows")
	m       = flag.Int("m", 1000, "centres")
	nl      = flag.Int("lambdas", 50, "values of λ")
	csvOut  = flag.String("csv", "", "also write the data as PREFIX.train.csv and PREFIX.test.csv")
	verbose = flag.Bool("v", true, "a line per pass")
	profile = flag.String("cpuprofile", "", "write a CPU profile of the selection to this file")
	looRows = flag.Int("loo-rows", 0, "the leave-one-out pass on this many rows drawn at random; 0: every row")
)

func main() {
	flag.Parse()
	log.SetFlags(0)
	xtr, ytr := synthetic.Rows(*n, 1, 2)
	xte, yte := synthetic.Rows(10000, 3, 4)
	if *csvOut != "" {
		writeCSV(*csvOut+".train.csv", xtr, ytr)
		writeCSV(*csvOut+".test.csv", xte, yte)
		fmt.Printf("wrote %s.{train,test}.csv\n", *csvOut)
	}
	rssData, stop, err := synthetic.Begin(*profile)
	check(err)
	defer stop()
	start := time.Now()
	med, err := loo.MedianDistance(xtr, loo.L2, 0, 1)
	check(err)
	var sigmas []float64
	for _, f := range []float64{0.25, 0.5, 1, 2, 4} {
		sigmas = append(sigmas, f*med)
	}
	lambdas := make([]float64, *nl)
	for j := range lambdas {
		lambdas[j] = math.Pow(10, -9+8*float64(j)/float64(max(*nl-1, 1)))
	}
	idx := rand.New(rand.NewPCG(5, 6)).Perm(xtr.Rows)[:min(*m, xtr.Rows)]
	slices.Sort(idx)
	centers := linalg.NewDense(len(idx), xtr.Cols, nil)
	for r, i := range idx {
		copy(centers.Row(r), xtr.Row(i))
	}
	fmt.Printf("synth: n=%d d=%d test=%d m=%d sigmas=%d lambdas=%d median σ=%.4g GOMAXPROCS=%d %s\n",
		xtr.Rows, xtr.Cols, xte.Rows, centers.Rows, len(sigmas), len(lambdas), med, runtime.GOMAXPROCS(0), runtime.Version())
	sn := loo.SelectNystrom{
		Kernel:    func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
		Centers:   centers,
		Sigmas:    sigmas,
		Lambdas:   lambdas,
		Subset:    *looRows,
		Seed:      1,
		Intercept: regress.FreeIntercept,
	}
	peak := 0.0 // the most of VmHWM over the parts, each part's read and reset at its end
	part := func() float64 {
		hwm := synthetic.Status("VmHWM")
		peak = max(peak, hwm)
		synthetic.ResetPeak()
		return hwm
	}
	last := start
	if *verbose {
		sn.Progress = func(pass, passes int, sigma float64) {
			what := fmt.Sprintf("σ = %.4g", sigma)
			if math.IsNaN(sigma) {
				what = "every σ"
			}
			now := time.Now()
			fmt.Printf("  pass %d of %d, %s: %.2f s (the part before: %.2f s, peak RSS %.0f MiB)\n",
				pass, passes, what, now.Sub(start).Seconds(), now.Sub(last).Seconds(), part())
			last = now
		}
	}
	sel, err := sn.Fit(xtr, ytr)
	check(err)
	elapsed := time.Since(start)
	if *verbose {
		fmt.Printf("  end of the last pass: %.2f s (the part before: %.2f s, peak RSS %.0f MiB)\n", elapsed.Seconds(), time.Since(last).Seconds(), part())
	}
	p, err := sel.Fit.Predict(xte)
	check(err)
	mse, err := regress.MSE(yte, p)
	check(err)
	se := sel.StdErr[slices.Index(sel.Scores.Sigmas, sel.Sigma)][slices.Index(sel.Scores.Lambdas, sel.Lambda)]
	fmt.Printf("chosen σ=%.4g λ=%.3g loo_mse=%.6g ± %.2g over %d rows\n", sel.Sigma, sel.Lambda, sel.Score, se, sel.LOORows)
	fmt.Printf("fit %.2fs test_mse=%.6g\n", elapsed.Seconds(), mse)
	hwm := max(peak, synthetic.Status("VmHWM"))
	fmt.Printf("rss_data %.0f MiB peak_rss %.0f MiB (selection added %.0f MiB)\n", rssData, hwm, hwm-rssData)
}

// writeCSV writes x and y as CSV with a header x1…xd, y, every value in
// the shortest form that reads back to the same float64.
func writeCSV(path string, x, y *linalg.Dense) {
	f, err := os.Create(path)
	check(err)
	w := bufio.NewWriter(f)
	for j := range x.Cols {
		fmt.Fprintf(w, "x%d,", j+1)
	}
	fmt.Fprintln(w, "y")
	buf := make([]byte, 0, 32)
	for i := range x.Rows {
		for _, v := range x.Row(i) {
			w.Write(strconv.AppendFloat(buf[:0], v, 'g', -1, 64))
			w.WriteByte(',')
		}
		w.Write(strconv.AppendFloat(buf[:0], y.At(i, 0), 'g', -1, 64))
		w.WriteByte('\n')
	}
	check(w.Flush())
	check(f.Close())
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
