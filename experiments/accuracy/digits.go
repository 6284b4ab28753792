package main

import (
	"fmt"
	"math"
	"path/filepath"
	"time"

	"rkhs/datasets"
)

// digits reports the hold-out accuracy of RLS one-vs-all on digits.
func (c *config) digits() (times []string, err error) {
	start := time.Now()
	d := datasets.MustLoad("digits")
	if c.g.digits > 0 {
		d = d.Subset(seq(c.g.digits))
	}
	train, test := d.Split(1-holdOut, c.seed)
	m, err := medianDistance(train, c.seed)
	if err != nil {
		return nil, err
	}
	ch, model, err := selectRLS(train, scaled(c.g.rlsSigma, m))
	if err != nil {
		return nil, err
	}
	acc, err := accuracy(model, test)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(c.out, "## Hold-out on digits: RLS one-vs-all, Gaussian kernel\n\n")
	fmt.Fprintf(c.out, "σ from %s × m and, for each σ, λ from 25 values over the spectrum of K, by exact leave-one-out on the training part (fewest LOO misclassifications, ties to the smaller LOO squared error); free intercept; ten ±1 columns sharing one kernel matrix.\n\n", list(c.g.rlsSigma))
	fmt.Fprintf(c.out, "| data set | classes | train / test | m | σ chosen | λ chosen | LOO error | hold-out accuracy | target |\n")
	fmt.Fprintf(c.out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(c.out, "| digits | %d | %d / %d | %.4g | %.4g | %.3g | %.2f%% | **%.2f%%** (%d/%d) | ≥ 98%% |\n\n",
		len(model.Classes), train.X.Rows, test.X.Rows, m, ch.sigma, ch.lambda, 100*ch.looErr, 100*acc, int(math.Round(acc*float64(test.X.Rows))), test.X.Rows)
	if c.splits != "" {
		tr, te := filepath.Join(c.splits, "digits-train.csv"), filepath.Join(c.splits, "digits-test.csv")
		if err := writeSplit(tr, te, train, test, true); err != nil {
			return nil, err
		}
		fmt.Fprintf(c.out, "Check from outside (expect λ = %v and test_accuracy %v):\n\n    go run ./cmd/rkhs classify -train %s -test %s -method rls -kernel gaussian -sigma %s -json\n\n", ch.lambda, acc, tr, te, fmt.Sprint(ch.sigma))
	}
	return []string{fmt.Sprintf("- digits hold-out: %.1f s", time.Since(start).Seconds())}, nil
}
