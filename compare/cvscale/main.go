// Command cvscale measures streamed CV+ for a Nyström fit at scale
// (interval.FoldStats, FoldFits.Pass, CVPass.CV, CV.Predict): its time on
// top of the fit's own, its peak memory, and the coverage and mean width
// of its intervals on the test rows.
//
//	go run ./cvscale -n 1000000
//	GOEXPERIMENT=simd go run ./cvscale -n 200000
//
// Data: the synthetic problem of compare/falkon with noise that grows with
// the first feature (synthetic.RowsGrowing: standard deviation 0.05 to
// 0.25), -n training rows seeded (1, 2), -test test rows seeded (3, 4).
// -m centres drawn uniformly without replacement from the training rows
// (seeded (5, 6)); Gaussian σ = -sigma, λ = -lambda (K + nλI), a free
// intercept; -folds K folds drawn by interval.StreamFold with seed 1.
//
// Parts, in order, each with its wall time, the process's CPU time (user
// + system, synthetic.CPUSeconds) and its peak resident size (VmHWM,
// reset after each part):
//
//	fit:    regress.NystromStats.Add over every row and Solve — the fit
//	        alone, as a streamed Nyström fit makes it;
//	pass 1: interval.FoldStats.Add over every row (the statistics of each
//	        fold, whose merge is the fit's);
//	models: FoldStats.Models, the K fold models and the full fit;
//	pass 2: FoldFits.Pass and CVPass.Add over every row, CVPass.CV;
//	predict: CV.Predict of the test rows at -level.
//
// CV+ on top of the fit is pass 1 + models + pass 2 + predict − fit (its
// first pass is the fit's pass, split by folds). -skip-fit leaves the fit
// out (its part is then not measured).
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"runtime"
	"slices"
	"time"

	"rkhs/compare/internal/synthetic"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

var (
	n       = flag.Int("n", 1000000, "training rows")
	m       = flag.Int("m", 1000, "centres")
	tests   = flag.Int("test", 10000, "test rows")
	folds   = flag.Int("folds", 10, "folds K")
	sigma   = flag.Float64("sigma", 2.5, "Gaussian width σ")
	lambda  = flag.Float64("lambda", 1e-8, "λ (K + nλI)")
	level   = flag.Float64("level", 0.9, "level 1 − α")
	block   = flag.Int("block", 50000, "rows per Add call (as a stream reads them)")
	skipFit = flag.Bool("skip-fit", false, "do not measure the fit alone")
)

func main() {
	flag.Parse()
	log.SetFlags(0)
	xtr, ytr := synthetic.RowsGrowing(*n, 1, 2)
	xte, yte := synthetic.RowsGrowing(*tests, 3, 4)
	idx := rand.New(rand.NewPCG(5, 6)).Perm(xtr.Rows)[:min(*m, xtr.Rows)]
	slices.Sort(idx)
	centers := linalg.NewDense(len(idx), xtr.Cols, nil)
	for r, i := range idx {
		copy(centers.Row(r), xtr.Row(i))
	}
	k := kernels.Gaussian{Sigma: *sigma}
	rssData, stop, err := synthetic.Begin("")
	check(err)
	defer stop()
	fmt.Printf("cvscale: n=%d d=%d test=%d m=%d K=%d σ=%g λ=%g level=%g GOMAXPROCS=%d %s\n",
		xtr.Rows, xtr.Cols, xte.Rows, centers.Rows, *folds, *sigma, *lambda, *level, runtime.GOMAXPROCS(0), runtime.Version())
	fmt.Printf("rss_data %.0f MiB\n", rssData)
	peak := 0.0
	t0, c0 := time.Now(), synthetic.CPUSeconds()
	part := func(name string) (wall, cpuS float64) {
		hwm := synthetic.Status("VmHWM")
		peak = max(peak, hwm)
		synthetic.ResetPeak()
		t1, c1 := time.Now(), synthetic.CPUSeconds()
		wall, cpuS = t1.Sub(t0).Seconds(), c1-c0
		fmt.Printf("  %-8s %8.2f s wall %8.2f s cpu  peak RSS %.0f MiB\n", name, wall, cpuS, hwm)
		t0, c0 = t1, c1
		return
	}
	each := func(f func(x, y *linalg.Dense) error) {
		for i := 0; i < xtr.Rows; i += *block {
			j := min(i+*block, xtr.Rows)
			check(f(xtr.Slice(i, j, 0, xtr.Cols), ytr.Slice(i, j, 0, 1)))
		}
	}
	var fitCPU float64
	if !*skipFit {
		st, err := regress.NewNystromStats(k, centers)
		check(err)
		each(st.Add)
		fit, err := st.Solve(*lambda, regress.FreeIntercept)
		check(err)
		p, err := fit.Predict(xte)
		check(err)
		mse, err := regress.MSE(yte, p)
		check(err)
		st, fit = nil, nil
		_, fitCPU = part("fit")
		fmt.Printf("  fit test_mse=%.6g\n", mse)
		runtime.GC()
		synthetic.ResetPeak()
		t0, c0 = time.Now(), synthetic.CPUSeconds()
	}
	fs, err := interval.NewFoldStats([]kernels.Kernel{k}, centers, *folds, 1, 0)
	check(err)
	each(fs.Add)
	_, c1 := part("pass 1")
	fits, err := fs.Models(*lambda, regress.FreeIntercept)
	check(err)
	fs = nil
	_, c2 := part("models")
	pass, err := fits.Pass(0)
	check(err)
	each(pass.Add)
	cv, err := pass.CV()
	check(err)
	_, c3 := part("pass 2")
	iv, err := cv.Predict(xte, *level)
	check(err)
	_, c4 := part("predict")
	cover, width := iv.Coverage(yte)
	mse, err := regress.MSE(yte, iv.Prediction)
	check(err)
	cvCPU := c1 + c2 + c3 + c4
	fmt.Printf("cv+ test_mse=%.6g coverage=%.4f mean_width=%.4f\n", mse, cover, width)
	if !*skipFit {
		fmt.Printf("cpu: fit %.2f s, cv+ path %.2f s, on top of the fit %.2f s (%.2f× the fit)\n", fitCPU, cvCPU, cvCPU-fitCPU, (cvCPU-fitCPU)/fitCPU)
	}
	fmt.Printf("peak_rss %.0f MiB (data %.0f MiB)\n", max(peak, synthetic.Status("VmHWM")), rssData)
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
