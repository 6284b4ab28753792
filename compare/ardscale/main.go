// Command ardscale measures the descent of one length scale per feature
// (loo.SelectScales) at scale, after the grid of one σ it starts from
// (loo.SelectNystrom), as `rkhs fit -method nystrom -sigma ard -lambda
// auto` runs them: the time of each, the iterations, the test error and
// the peak memory.
//
//	go run ./ardscale -n 1000000
//
// Data: synthetic.Rows3, x uniform on [−1, 1]¹⁰ and
// y = sin(πx₁) + x₂·cos(πx₃) + 0.1·ε: three features matter, seven are
// noise; -n training rows seeded (1, 2), 10,000 test rows seeded (3, 4).
// The features are on one scale already and are used as they are.
//
// The grid: -m centres drawn uniformly without replacement from the
// training rows (seeded), σ = the median distance (loo.MedianDistance) × 1/4,
// 1/2, 1, 2, 4, 50 values of λ from 1e-9 to 1e-1, a free intercept, the
// leave-one-out MSE on the command's rows (every row up to 100,000 rows,
// 20,000 drawn above). The descent: from the grid's choice, on the same
// centres and leave-one-out rows, fitting on the command's -ard-rows
// (every row up to 100,000, 50,000 drawn above), at most -iters
// iterations; the final fit on every row.
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
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

var (
	n       = flag.Int("n", 1000000, "training rows")
	m       = flag.Int("m", 1000, "centres")
	iters   = flag.Int("iters", 0, "the descent's iterations at most (0: the library's default)")
	profile = flag.String("cpuprofile", "", "write a CPU profile to this file")
)

func main() {
	flag.Parse()
	log.SetFlags(0)
	xtr, ytr := synthetic.Rows3(*n, 1, 2)
	xte, yte := synthetic.Rows3(10000, 3, 4)
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
	idx := rand.New(rand.NewPCG(5, 6)).Perm(xtr.Rows)[:min(*m, xtr.Rows)]
	slices.Sort(idx)
	centers := linalg.NewDense(len(idx), xtr.Cols, nil)
	for r, i := range idx {
		copy(centers.Row(r), xtr.Row(i))
	}
	looRows, ardRows := 0, 0
	if *n > 100000 {
		looRows, ardRows = 20000, 50000
	}
	fmt.Printf("synth3: n=%d d=%d test=%d m=%d sigmas=%d lambdas=50 loo_rows=%d ard_rows=%d median σ=%.4g GOMAXPROCS=%d %s\n",
		xtr.Rows, xtr.Cols, xte.Rows, centers.Rows, len(sigmas), looRows, ardRows, med, runtime.GOMAXPROCS(0), runtime.Version())
	sel, err := loo.SelectNystrom{
		Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, Centers: centers,
		Sigmas: sigmas, Lambdas: loo.Geometric(1e-9, 1e-1, 50), Subset: looRows, Seed: 1, Intercept: regress.FreeIntercept,
	}.Fit(xtr, ytr)
	check(err)
	grid := time.Since(start)
	gridMSE := testMSE(sel.Fit.Model, xte, yte)
	fmt.Printf("grid: σ=%.4g λ=%.3g loo_mse=%.6g, %.1f s, test_mse=%.6g\n", sel.Sigma, sel.Lambda, sel.Score, grid.Seconds(), gridMSE)
	ss := loo.SelectScales{
		Objective: loo.ScaleObjective{Centers: centers, Intercept: regress.FreeIntercept, Subset: looRows, Seed: 1},
		Sigma:     sel.Sigma, Lambda: sel.Lambda, MaxIter: *iters, Rows: ardRows,
		Progress: func(iter int, objective, projGrad, seconds float64) {
			fmt.Printf("  iteration %d: loo_mse %.6g, projected gradient %.3g, %.1f s\n", iter, objective, projGrad, seconds)
		},
	}
	t0 := time.Now()
	sc, err := ss.Fit(xtr, ytr)
	check(err)
	descent := time.Since(t0)
	fmt.Printf("descent: %d iterations, %d evaluations, stop %v, loo_mse %.6g → %.6g, λ=%.3g, %.1f s\n",
		sc.Iterations, sc.Evaluations, sc.Stop, sc.Start, sc.Objective, sc.Lambda, descent.Seconds())
	fmt.Print("scales:")
	for _, j := range sc.Ranking() {
		fmt.Printf(" x%d %.3g", j+1, sc.Sigmas[j])
	}
	fmt.Println()
	fmt.Printf("total %.1f s (descent %.2f× the grid), test_mse grid %.6g → scales %.6g\n",
		time.Since(start).Seconds(), descent.Seconds()/grid.Seconds(), gridMSE, testMSE(sc.Fit.Model, xte, yte))
	fmt.Printf("rss_data %.0f MiB peak_rss %.0f MiB\n", rssData, synthetic.Status("VmHWM"))
}

func testMSE(m *regress.Model, x, y *linalg.Dense) float64 {
	p, err := m.Predict(x)
	check(err)
	e, err := regress.MSE(y, p)
	check(err)
	return e
}

func check(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
