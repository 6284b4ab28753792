package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"time"

	"rkhs/dataset"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// fitResult is the JSON object `rkhs fit -json` prints.
type fitResult struct {
	Method     string     `json:"method"`
	Kernel     string     `json:"kernel"`
	Intercept  string     `json:"intercept"`
	NTrain     int        `json:"n_train"` // rows fitted: those of -train less the NVal held out
	NTest      int        `json:"n_test"`
	Features   int        `json:"features"`
	Lambda     *jsonFloat `json:"lambda"` // null for cg, landweber and nu, which have no λ
	B          jsonFloat  `json:"b"`
	TrainMSE   jsonFloat  `json:"train_mse"`
	TestMSE    *jsonFloat `json:"test_mse"` // null without -test
	FitSeconds float64    `json:"fit_seconds"`
	Iterations int        `json:"iterations,omitempty"`
	Centers    int        `json:"centers,omitempty"`
	Jitter     float64    `json:"jitter,omitempty"`
	NVal       int        `json:"n_val,omitempty"`   // falkon -val: rows of -train held out
	ValMSE     *jsonFloat `json:"val_mse,omitempty"` // and their MSE

	Standardized bool `json:"standardized,omitempty"` // -standardize was on
}

// predictor is what every fitted model offers.
type predictor interface {
	Predict(*linalg.Dense) (*linalg.Dense, error)
}

type fitFlags struct {
	ioFlags
	kf                kernelFlags
	lambda            float64
	intercept, method string
	iters, centers    int
	seed              uint64
	set               map[string]bool // flags given on the command line
	falkon            falkonFlags
	std               standardizeFlag
}

// fitMethodFlags lists, for each method, the method-specific flags it
// reads; giving another method's flag is an error, so that no setting is
// silently ignored, as in classify.
var fitMethodFlags = map[string][]string{
	"cholesky":  {"lambda"},
	"eigen":     {"lambda"},
	"tikh":      {"lambda"},
	"tsvd":      {"lambda"},
	"cg":        {"iters"},
	"landweber": {"iters"},
	"nu":        {"iters"},
	"nystrom":   {"lambda", "centers", "seed"},
	"falkon":    {"lambda", "centers", "seed", "iters", "val"},
}

// checkMethodFlags rejects an unknown method, a flag the method does not
// use and a missing -lambda (or -centers), naming the flag.
func (f *fitFlags) checkMethodFlags() error {
	own, err := ownFlags(fitMethodFlags, f.method, f.set, "cholesky, eigen, tikh, cg, landweber, nu, tsvd, nystrom or falkon")
	if err != nil {
		return err
	}
	if slices.Contains(own, "lambda") && !f.set["lambda"] {
		return badInputf("-lambda is required by -method %s: λ of (K + nλI)c = y has no default (rkhs loo finds one by leave-one-out)", f.method)
	}
	if (f.method == "nystrom" || f.method == "falkon") && !f.set["centers"] {
		return badInputf("-centers is required by -method %s: the number of centres M", f.method)
	}
	if f.method == "falkon" && f.intercept == "penalized" {
		return badInputf("-intercept penalized is not offered by -method falkon: use none or free (-method nystrom offers penalized)")
	}
	return nil
}

func runFit(args []string, stdout, stderr io.Writer) error {
	var f fitFlags
	fs := newFlagSet("fit", "fit kernel RLS (or a relative) on -train and report its errors", stderr)
	f.ioFlags.register(fs, "", "the fitted model", "the test predictions")
	f.kf.register(fs)
	fs.Float64Var(&f.lambda, "lambda", 0, "regularization λ in (K + nλI)c = y, n = training rows")
	fs.StringVar(&f.intercept, "intercept", "free", "intercept: none, free (unpenalized b) or penalized")
	fs.StringVar(&f.method, "method", "cholesky", "method: cholesky (RLS), eigen (RLS via the eigendecomposition), tikh (Tikhonov on the augmented matrix [K 1]), cg (CGLS on [K 1]), landweber, nu (ν-method), tsvd (truncated spectrum, eigenvalues below nλ dropped), nystrom, or falkon (Nyström with preconditioned CG, for large n: memory O(m² + n·d)). cholesky, eigen, tikh and tsvd form n×n matrices and refuse, before allocating, a problem larger than the memory; cg, landweber and nu store K when it fits in memory and stream it a block of rows at a time otherwise")
	fs.IntVar(&f.iters, "iters", 0, "iterations: of cg, landweber and nu, their regularization parameter (-lambda is not used), 50 if not given, and cg stops earlier if it converges to rounding level; of falkon's conjugate gradient, 20 if not given")
	fs.IntVar(&f.centers, "centers", 0, "number of Nyström centres m (nystrom, falkon)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of random choices (Nyström centres, the -val split)")
	f.falkon.registerVal(fs)
	f.std.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	f.falkon.centers, f.falkon.seed, f.falkon.progress = f.centers, f.seed, stderr
	if f.set["iters"] {
		f.falkon.iters = f.iters
	} else {
		f.iters = 50 // cg, landweber and nu; falkon's default is regress's
	}
	if err := f.ioFlags.check(); err != nil {
		return err
	}
	if err := f.checkMethodFlags(); err != nil {
		return err
	}
	k, err := f.kf.kernel()
	if err != nil {
		return err
	}
	ic, err := parseIntercept(f.intercept)
	if err != nil {
		return err
	}
	train, test, names, err := f.data.readTrainTest(f.train, f.test)
	if err != nil {
		return err
	}
	sets, err := splitTraining(&f.falkon, f.std.on(sigmaIsAuto(&f.kf)), train, names.features, stderr) // -val: falkon only (checkMethodFlags)
	if err != nil {
		return err
	}
	train, val := sets.train, sets.val

	res := fitResult{Method: f.method, Kernel: f.kf.name, Intercept: ic.String(), NTrain: train.X.Rows, Features: train.X.Cols, Standardized: sets.scale != nil}
	if val != nil {
		res.NVal = val.X.Rows
	}
	if f.set["lambda"] {
		res.Lambda = new(jsonFloat)
		*res.Lambda = jsonFloat(f.lambda)
	}
	start := time.Now()
	var stop func()
	switch f.method {
	case "cholesky":
		stop = announce(stderr, "fit -method "+f.method, "cholesky", train.X.Rows, train.X.Cols)
	case "eigen", "tikh", "tsvd":
		stop = announce(stderr, "fit -method "+f.method, "eigen", train.X.Rows, train.X.Cols)
	case "falkon":
		stop = announceCost(stderr, "fit -method falkon", train.X.Rows, falkonCost(train.X.Rows, train.X.Cols, f.centers, 1, f.falkon.iters))
	default:
		stop = func() {}
	}
	model, err := fitMethod(&f, k, ic, sets.fitTrain, sets.fitVal, &res)
	stop()
	if err != nil {
		advice := exactAdvice
		if f.method == "falkon" || f.method == "nystrom" {
			advice = centresAdvice(train.X.Rows, train.X.Cols, 1, f.method == "nystrom")
		}
		return tooLarge(err, "fit -method "+f.method, train.X.Rows, advice)
	}
	res.FitSeconds = time.Since(start).Seconds()
	attachStandardization(model, sets.scale) // the model now takes the raw rows

	var pt *linalg.Dense
	if res.TrainMSE, res.TestMSE, pt, err = evaluate(model.Predict, mse, train, test); err != nil {
		return err
	}
	if val != nil {
		if _, res.ValMSE, _, err = evaluate(model.Predict, mse, nil, val); err != nil {
			return err
		}
	}
	var files []pendingFile
	if test != nil {
		res.NTest = test.X.Rows
		files = append(files, pendingFile{f.predictions, predictionLines(pt)})
	}
	names.set(model)
	return finish(stdout, files, model, f.model, res, f.json, func() {
		if res.Lambda != nil {
			fmt.Fprintf(stdout, "method %s, kernel %s, intercept %s, λ = %g\n", res.Method, res.Kernel, res.Intercept, f.lambda)
		} else {
			fmt.Fprintf(stdout, "method %s, kernel %s, intercept %s, %s\n", res.Method, res.Kernel, res.Intercept, count(res.Iterations, "iteration"))
		}
		fmt.Fprintf(stdout, "n_train %d, b = %.6g, train MSE %.6g, fit %.3f s\n", res.NTrain, float64(res.B), float64(res.TrainMSE), res.FitSeconds)
		if res.ValMSE != nil {
			fmt.Fprintf(stdout, "n_val %d (held out of -train by -val), validation MSE %.6g\n", res.NVal, float64(*res.ValMSE))
		}
		if res.TestMSE != nil {
			fmt.Fprintf(stdout, "n_test %d, test MSE %.6g\n", res.NTest, float64(*res.TestMSE))
		}
	})
}

// fitMethod fits with the method of -method and records what the result
// needs (b, iterations, centres).
func fitMethod(f *fitFlags, k kernels.Kernel, ic regress.Intercept, train, val *dataset.Data, res *fitResult) (predictor, error) {
	y := column(train.Y)
	switch f.method {
	case "cholesky":
		m, err := regress.RLS{Kernel: k, Lambda: f.lambda, Intercept: ic}.Fit(&train.X, y)
		if err != nil {
			return nil, err
		}
		res.B = jsonFloat(m.Intercept[0])
		return m, nil
	case "nystrom":
		m, err := regress.Nystrom{Kernel: k, Lambda: f.lambda, Intercept: ic, Centers: f.centers, Seed: f.seed}.Fit(&train.X, y)
		if err != nil {
			return nil, err
		}
		res.B, res.Centers, res.Jitter = jsonFloat(m.Intercept[0]), m.Coef.Rows, m.Jitter
		return m.Model, nil
	case "falkon":
		return fitFalkon(&f.falkon, k, f.lambda, ic, train, val, res)
	case "eigen", "tsvd", "tikh":
		s, err := regress.NewSpectral(k, &train.X, y)
		if err != nil {
			return nil, err
		}
		var m *regress.Model
		switch f.method {
		case "eigen":
			m, err = s.Fit(regress.TikhonovFilter{Lambda: f.lambda}, ic)
		case "tsvd":
			m, err = s.Fit(regress.TruncatedSVDFilter{Lambda: f.lambda}, ic)
		case "tikh":
			if ic != regress.FreeIntercept {
				return nil, badInputf("-method tikh is Tikhonov on [K 1], whose b is always free: use -intercept free")
			}
			m, err = s.FitAugmented(f.lambda)
		}
		if err != nil {
			return nil, err
		}
		res.B = jsonFloat(m.Intercept[0])
		return m, nil
	case "cg", "landweber", "nu":
		// Matrix-free: K is stored when it fits in memory, streamed a
		// block of rows at a time otherwise.
		// Only the last residual is kept, so a huge -iters costs no
		// memory; cg (CGLS) stops once ‖K̃ᵀr‖ is at the rounding level
		// (2⁻⁵⁰ of its start), after which iterating changes nothing.
		it := regress.Iterative{MaxIter: f.iters, LastResidual: true,
			Stream: memlimit.CheckSquares("", train.X.Rows, 2, train.X.Cols) != nil}
		if f.method == "cg" {
			it.Tol = 0x1p-50
		}
		var fit *regress.IterFit
		var err error
		switch f.method {
		case "cg":
			fit, err = regress.CGLS{Kernel: k, Intercept: ic, Iterative: it}.Fit(&train.X, y)
		case "landweber":
			fit, err = regress.Landweber{Kernel: k, Intercept: ic, Iterative: it}.Fit(&train.X, y)
		case "nu":
			fit, err = regress.NuMethod{Kernel: k, Intercept: ic, Iterative: it}.Fit(&train.X, y)
		}
		if err != nil {
			return nil, err
		}
		res.B, res.Iterations = jsonFloat(fit.Intercept[0]), fit.Iterations
		return fit.Model, nil
	}
	panic("unreachable: checkMethodFlags knows the methods")
}
