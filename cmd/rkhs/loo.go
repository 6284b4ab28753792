package main

import (
	"encoding/json"
	"fmt"
	"io"
	"rkhs/internal/cli"
	"time"

	"rkhs/loo"
	"rkhs/regress"
)

// looResult is the JSON object `rkhs loo -json` prints.
type looResult struct {
	Kernel     string          `json:"kernel"`
	Intercept  string          `json:"intercept"`
	NTrain     int             `json:"n_train"`
	Lambdas    []cli.JSONFloat `json:"lambdas"`
	LooMSE     []cli.JSONFloat `json:"loo_mse"`
	BestLambda cli.JSONFloat   `json:"best_lambda"`
	BestMSE    cli.JSONFloat   `json:"best_loo_mse"`
	Seconds    float64         `json:"seconds"`
}

func runLOO(args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("loo", "exact leave-one-out errors of kernel RLS for a geometric range of λ, from one eigendecomposition", stderr)
	train := fs.String("train", "", "training data `file`")
	var kf kernelFlags
	kf.register(fs, "")
	lambdas := fs.String("lambdas", "1e-10:1e5:100", "λ range `MIN:MAX:COUNT`, geometric, K + nλI convention")
	intercept := fs.String("intercept", "free", "intercept: none, free or penalized")
	asJSON := fs.Bool("json", false, "print the result as one JSON object")
	var df dataFlags
	df.register(fs, false)
	var std standardizeFlag
	std.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *train == "" {
		return cli.BadInputf("-train is required")
	}
	if err := df.check(); err != nil {
		return err
	}
	grid, err := cli.Grid("lambdas", *lambdas)
	if err != nil {
		return err
	}
	k, err := kf.kernel()
	if err != nil {
		return err
	}
	ic, err := parseIntercept(*intercept)
	if err != nil {
		return err
	}
	d, info, err := df.readData(*train)
	if err != nil {
		return err
	}
	var features []string
	if info != nil {
		features, _ = info.Names()
	}
	if d, err = standardizeAll(std.On(sigmaIsAuto(&kf)), d, features, stderr); err != nil {
		return err
	}
	start := time.Now()
	stop := announce(stderr, "loo", "eigen", d.X.Rows, d.X.Cols)
	s, err := regress.NewSpectral(k, &d.X, column(d.Y))
	stop()
	if err != nil {
		return cli.TooLarge(err, "loo", d.X.Rows, cli.LOOAdvice(d.X.Rows))
	}
	p, err := loo.RLS(s, grid, ic)
	if err != nil {
		return err
	}
	best := p.Best()
	res := looResult{Kernel: kf.name, Intercept: ic.String(), NTrain: d.X.Rows, BestLambda: cli.JSONFloat(grid[best]), BestMSE: cli.JSONFloat(p.MSE[best]), Seconds: time.Since(start).Seconds()}
	for j := range grid {
		res.Lambdas = append(res.Lambdas, cli.JSONFloat(grid[j]))
		res.LooMSE = append(res.LooMSE, cli.JSONFloat(p.MSE[j]))
	}
	if *asJSON {
		b, err := json.Marshal(res)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", b)
		return nil
	}
	fmt.Fprintf(stdout, "%-12s %s\n", "lambda", "loo_mse")
	for j := range grid {
		fmt.Fprintf(stdout, "%-12.4g %.6g\n", grid[j], p.MSE[j])
	}
	fmt.Fprintf(stdout, "best λ = %.4g, LOO MSE %.6g (%s, %.2f s)\n", grid[best], p.MSE[best], cli.Count(d.X.Rows, "point"), res.Seconds)
	return nil
}
