package main

import (
	"fmt"
	"io"
	"time"

	"rkhs/internal/cli"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
	"rkhs/report"
)

// looResult is the JSON object `rkhs loo -json` prints.
type looResult struct {
	Kernel     string             `json:"kernel"`
	Intercept  string             `json:"intercept"`
	NTrain     int                `json:"n_train"`
	Lambdas    []report.JSONFloat `json:"lambdas"`
	LooMSE     []report.JSONFloat `json:"loo_mse"`
	BestLambda report.JSONFloat   `json:"best_lambda"`
	BestMSE    report.JSONFloat   `json:"best_loo_mse"`
	Seconds    float64            `json:"seconds"`
}

// setupLOO registers the flags of rkhs loo and returns its run: the exact
// leave-one-out MSE of RLS along a λ grid from one eigendecomposition
// (loo.RLS), the choice by loo.Table's rule on a table of one σ, and the
// warnings fit and classify print: a degenerate σ, a choice at an edge of
// the grid, a flat table.
func setupLOO(fs *flagSet) func(stdout, stderr io.Writer) error {
	var train, lambdas, intercept string
	var asJSON bool
	var kf kernelFlags
	var df dataFlags
	var std cli.Standardize
	fs.file(&train, inputFlag, "train", "", "training data `file` (LIBSVM, or CSV if it ends in .csv, see -format)")
	kf.register(fs, "")
	fs.StringVar(&lambdas, "lambdas", "1e-10:1e5:100", "λ grid `MIN:MAX:COUNT`, geometric, K + nλI convention")
	fs.StringVar(&intercept, "intercept", "free", "intercept: none, free or penalized")
	fs.BoolVar(&asJSON, "json", false, "print the result as one JSON object")
	df.register(fs, false)
	registerStandardize(fs, &std, false)
	return func(stdout, stderr io.Writer) error {
		if train == "" {
			return cli.BadInputf("-train is required")
		}
		if err := df.check(); err != nil {
			return err
		}
		grid, err := cli.Grid("lambdas", lambdas)
		if err != nil {
			return err
		}
		if kf.sigma.Auto {
			return cli.BadInputf("-sigma %s: loo takes a number (fit and classify choose σ)", &kf.sigma)
		}
		k, err := kf.kernelAt(kf.sigma.V)
		if err != nil {
			return err
		}
		ic, err := cli.Intercept(intercept)
		if err != nil {
			return err
		}
		df.stderr = stderr
		d, names, err := df.readTraining(train)
		if err != nil {
			return err
		}
		sets, err := splitTraining(0, 0, std.On(false), d, names, "loo", stderr)
		if err != nil {
			return err
		}
		d = sets.fitTrain
		start := time.Now()
		stop := announce(stderr, "loo", "eigen", d.X.Rows, d.X.Cols)
		s, err := regress.NewSpectral(k, &d.X, d.Labels())
		stop()
		if err != nil {
			return cli.TooLarge(err, "loo", d.X.Rows, func(me *linalg.MemoryError) string { return report.LOOAdvice(d.X.Rows, me) })
		}
		p, err := loo.RLS(s, grid, ic)
		if err != nil {
			return err
		}
		table := &loo.Table{Criterion: loo.LOOMSE, Sigmas: []float64{kf.sigma.V}, Lambdas: grid, Scores: [][]float64{p.MSE}}
		best, ok := table.Best()
		if !ok {
			return fmt.Errorf("no finite leave-one-out MSE on the grid of λ")
		}
		if kf.hasWidth() {
			c, _ := loo.CheckWidth(k, &d.X, 0, 1) // nil, and no warning, where it cannot judge
			report.WarnWidth(stderr, "rkhs loo", kf.sigma.V, c)
		}
		report.WarnTiny(stderr, "rkhs loo", d.X.Rows)
		report.WarnFacts(stderr, "rkhs loo", table, best)
		res := looResult{Kernel: kf.name, Intercept: ic.String(), NTrain: d.X.Rows, Lambdas: report.JSONFloats(grid), LooMSE: report.JSONFloats(p.MSE),
			BestLambda: report.JSONFloat(best.Lambda), BestMSE: report.JSONFloat(best.Score), Seconds: time.Since(start).Seconds()}
		if asJSON {
			return printJSON(stdout, res)
		}
		fmt.Fprintf(stdout, "%-12s %s\n", "lambda", "loo_mse")
		for j := range grid {
			fmt.Fprintf(stdout, "%-12.4g %.6g\n", grid[j], p.MSE[j])
		}
		fmt.Fprintf(stdout, "best λ = %.4g, LOO MSE %.6g (%s, %.2f s)\n", best.Lambda, best.Score, report.Count(d.X.Rows, "point"), res.Seconds)
		return nil
	}
}
