package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"rkhs/loo"
	"rkhs/regress"
)

// looResult is the JSON object `rkhs loo -json` prints.
type looResult struct {
	Kernel     string      `json:"kernel"`
	Intercept  string      `json:"intercept"`
	NTrain     int         `json:"n_train"`
	Lambdas    []jsonFloat `json:"lambdas"`
	LooMSE     []jsonFloat `json:"loo_mse"`
	BestLambda jsonFloat   `json:"best_lambda"`
	BestMSE    jsonFloat   `json:"best_loo_mse"`
	Seconds    float64     `json:"seconds"`
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
		return badInputf("-train is required")
	}
	if err := df.check(); err != nil {
		return err
	}
	grid, err := parseRange("lambdas", *lambdas)
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
		return tooLarge(err, "loo", d.X.Rows, looAdvice(d.X.Rows))
	}
	p, err := loo.RLS(s, grid, ic)
	if err != nil {
		return err
	}
	best := p.Best()
	res := looResult{Kernel: kf.name, Intercept: ic.String(), NTrain: d.X.Rows, BestLambda: jsonFloat(grid[best]), BestMSE: jsonFloat(p.MSE[best]), Seconds: time.Since(start).Seconds()}
	for j := range grid {
		res.Lambdas = append(res.Lambdas, jsonFloat(grid[j]))
		res.LooMSE = append(res.LooMSE, jsonFloat(p.MSE[j]))
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
	fmt.Fprintf(stdout, "best λ = %.4g, LOO MSE %.6g (%s, %.2f s)\n", grid[best], p.MSE[best], count(d.X.Rows, "point"), res.Seconds)
	return nil
}

// parseRange reads MIN:MAX:COUNT, the value of the flag -name, into a
// geometric grid.
func parseRange(name, s string) ([]float64, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return nil, badInputf("-%s %q: want MIN:MAX:COUNT", name, s)
	}
	lo, err1 := strconv.ParseFloat(parts[0], 64)
	hi, err2 := strconv.ParseFloat(parts[1], 64)
	count, err3 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || err3 != nil || !(lo > 0) || !(hi >= lo) || count < 1 || hi > 1e300 {
		return nil, badInputf("-%s %q: want 0 < MIN ≤ MAX and COUNT ≥ 1", name, s)
	}
	return loo.Geometric(lo, hi, count), nil
}
