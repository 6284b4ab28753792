package main

import (
	"flag"
	"fmt"
	"io"
	"rkhs/internal/cli"
	"slices"
	"time"

	"rkhs/dataset"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// fitResult is the JSON object `rkhs fit -json` prints.
type fitResult struct {
	Method              string         `json:"method"`
	Kernel              string         `json:"kernel"`
	Intercept           string         `json:"intercept"`
	NTrain              int            `json:"n_train"` // rows fitted: those of -train less the NVal held out
	NTest               int            `json:"n_test"`
	Features            int            `json:"features"`
	Lambda              *cli.JSONFloat `json:"lambda"` // null for cg, landweber and nu, which have no λ
	B                   cli.JSONFloat  `json:"b"`
	TrainMSE            cli.JSONFloat  `json:"train_mse"`
	TestMSE             *cli.JSONFloat `json:"test_mse"` // null without -test
	FitSeconds          float64        `json:"fit_seconds"`
	Iterations          int            `json:"iterations,omitempty"`
	Centers             int            `json:"centers,omitempty"`
	Jitter              float64        `json:"jitter,omitempty"`
	NVal                int            `json:"n_val,omitempty"`   // falkon -val: rows of -train held out
	ValMSE              *cli.JSONFloat `json:"val_mse,omitempty"` // and their MSE
	cli.SelectionFields                // with -sigma auto or -lambda auto
	Standardized        bool           `json:"standardized,omitempty"` // -standardize was on
}

// predictor is what every fitted model offers.
type predictor interface {
	Predict(*linalg.Dense) (*linalg.Dense, error)
}

type fitFlags struct {
	ioFlags
	kf                kernelFlags
	lambda            cli.AutoValue
	intercept, method string
	iters, centers    int
	seed              uint64
	set               map[string]bool // flags given on the command line
	falkon            falkonFlags
	sel               selectFlags
	std               standardizeFlag
}

// fitMethodFlags lists, for each method, the method-specific flags it
// reads; giving another method's flag is an error, so that no setting is
// silently ignored, as in classify.
var fitMethodFlags = map[string][]string{
	"cholesky":  {"lambda", "sigmas", "lambdas", "plot"},
	"eigen":     {"lambda", "sigmas", "lambdas", "plot"},
	"tikh":      {"lambda"},
	"tsvd":      {"lambda"},
	"cg":        {"iters"},
	"landweber": {"iters"},
	"nu":        {"iters"},
	"nystrom":   {"lambda", "centers", "seed", "sigmas", "lambdas", "plot", "criterion", "loo-rows"},
	"falkon":    {"lambda", "centers", "seed", "iters", "val", "sigmas", "lambdas", "plot", "criterion", "loo-rows", "select-centers"},
}

// checkMethodFlags rejects an unknown method, a flag the method does not
// use, a missing -lambda (or -centers) and a selection the method does not
// offer, naming the flag.
func (f *fitFlags) checkMethodFlags() error {
	own, err := ownFlags(fitMethodFlags, f.method, f.set, "cholesky, eigen, tikh, cg, landweber, nu, tsvd, nystrom or falkon")
	if err != nil {
		return err
	}
	if err := checkSelectFlags(&f.kf, &f.sel, &f.lambda, f.set); err != nil {
		return err
	}
	selects := f.method == "cholesky" || f.method == "eigen" || f.method == "nystrom" || f.method == "falkon"
	switch {
	case f.kf.sigma.Auto && !selects:
		return cli.BadInputf("-sigma auto is offered by -method cholesky, eigen, nystrom and falkon, not %s", f.method)
	case f.lambda.Auto && !selects:
		return cli.BadInputf("-lambda auto is offered by -method cholesky, eigen, nystrom and falkon, not %s", f.method)
	case (f.set["criterion"] || f.set["loo-rows"]) && !f.kf.sigma.Auto && !f.lambda.Auto:
		return cli.BadInputf("-criterion and -loo-rows set a selection: give -sigma auto or -lambda auto")
	}
	if err := f.falkon.checkSelectCenters(f.kf.sigma.Auto || f.lambda.Auto, f.set); err != nil {
		return err
	}
	if slices.Contains(own, "lambda") && !f.set["lambda"] && !f.lambda.Auto {
		return cli.BadInputf("-lambda is required by -method %s: λ of (K + nλI)c = y has no default (-lambda auto, or rkhs loo, finds one by leave-one-out)", f.method)
	}
	if (f.method == "nystrom" || f.method == "falkon") && !f.set["centers"] {
		return cli.BadInputf("-centers is required by -method %s: the number of centres M", f.method)
	}
	if f.method == "falkon" && f.intercept == "penalized" {
		return cli.BadInputf("-intercept penalized is not offered by -method falkon: use none or free (-method nystrom offers penalized)")
	}
	return nil
}

func runFit(args []string, stdout, stderr io.Writer) error {
	var f fitFlags
	fs := newFlagSet("fit", "fit kernel RLS (or a relative) on -train and report its errors", stderr)
	f.ioFlags.register(fs, "", "the fitted model", "the test predictions")
	f.kf.register(fs, sigmaAutoHelp)
	fs.Var(&f.lambda, "lambda", "regularization λ in (K + nλI)c = y, n = training rows"+lambdaAutoHelp+" (cholesky, eigen, nystrom, falkon)")
	fs.StringVar(&f.intercept, "intercept", "free", "intercept: none, free (unpenalized b) or penalized")
	fs.StringVar(&f.method, "method", "cholesky", "method: cholesky (RLS), eigen (RLS via the eigendecomposition), tikh (Tikhonov on the augmented matrix [K 1]), cg (CGLS on [K 1]), landweber, nu (ν-method), tsvd (truncated spectrum, eigenvalues below nλ dropped), nystrom, or falkon (Nyström with preconditioned CG, for large n: memory O(m² + n·d)). cholesky, eigen, tikh and tsvd form n×n matrices and refuse, before allocating, a problem larger than the memory; cg, landweber and nu store K when it fits in memory and stream it a block of rows at a time otherwise")
	fs.IntVar(&f.iters, "iters", 0, "iterations: of cg, landweber and nu, their regularization parameter (-lambda is not used), 50 if not given, and cg stops earlier if it converges to rounding level; of falkon's conjugate gradient, 20 if not given")
	fs.IntVar(&f.centers, "centers", 0, "number of Nyström centres m (nystrom, falkon)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of random choices (Nyström centres, the -val split)")
	f.falkon.registerVal(fs)
	f.falkon.registerSelectCenters(fs)
	f.sel.register(fs, "λ grid of -lambda auto, `MIN:MAX:COUNT`, geometric (default: 1e-10:1:51); implies -lambda auto")
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
	if err := cli.CheckOutputs([]cli.Input{{Flag: "train", Value: f.train}, {Flag: "test", Value: f.test}},
		[]cli.Output{{Flag: "model", Path: f.model}, {Flag: "predictions", Path: f.predictions}, {Flag: "plot", Path: f.sel.plot}}); err != nil {
		return err
	}
	if err := f.checkMethodFlags(); err != nil {
		return err
	}
	selecting := f.kf.sigma.Auto || f.lambda.Auto
	var k kernels.Kernel
	if !f.kf.sigma.Auto {
		var err error
		if k, err = f.kf.kernel(); err != nil {
			return err
		}
	}
	ic, err := parseIntercept(f.intercept)
	if err != nil {
		return err
	}
	train, test, names, err := f.data.readTrainTest(f.train, f.test)
	if err != nil {
		return err
	}
	sets, err := splitTraining(&f.falkon, f.std.On(sigmaIsAuto(&f.kf)), train, names.features, stderr) // -val: falkon only (checkMethodFlags)
	if err != nil {
		return err
	}
	train, val := sets.train, sets.val

	res := fitResult{Method: f.method, Kernel: f.kf.name, Intercept: ic.String(), NTrain: train.X.Rows, Features: train.X.Cols, Standardized: sets.scale != nil}
	if val != nil {
		res.NVal = val.X.Rows
	}
	if f.set["lambda"] && !f.lambda.Auto {
		res.Lambda = new(cli.JSONFloat)
		*res.Lambda = cli.JSONFloat(f.lambda.V)
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
	var (
		model predictor
		sel   *cli.Selection
	)
	if selecting {
		model, sel, err = f.selectAndFit(ic, sets.fitTrain, sets.fitVal, &res, stderr, start)
	} else {
		model, err = fitMethod(&f, k, ic, sets.fitTrain, sets.fitVal, &res)
	}
	stop()
	if err != nil {
		advice := cli.ExactAdvice
		if f.method == "falkon" || f.method == "nystrom" {
			advice = cli.CentersAdvice(train.X.Rows, train.X.Cols, 1, f.method == "nystrom")
		}
		return cli.TooLarge(err, "fit -method "+f.method, train.X.Rows, advice)
	}
	res.FitSeconds = time.Since(start).Seconds()
	if k != nil && f.kf.hasWidth() {
		// After the fit, so that a run that fails says one line.
		warnDegenerate(stderr, "fit", k, f.kf.sigma.V, featuresSeen(sets.fitTrain), f.method == "nystrom" || f.method == "falkon", f.centers, f.seed)
	}
	sel.WarnFacts(stderr, "rkhs fit")
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
	files = report(sel, &res.Lambda, &res.SelectionFields, f.sel.plot, titleOf("fit -method "+f.method, f.train, res.NTrain), files)
	names.set(model)
	return finish(stdout, files, model, f.model, res, f.json, func() {
		if sel != nil {
			sel.PrintTable(stdout)
			fmt.Fprintf(stdout, "method %s, kernel %s, intercept %s, σ = %.4g, λ = %.4g\n", res.Method, res.Kernel, res.Intercept, sel.Choice.Sigma, sel.Choice.Lambda)
		} else if res.Lambda != nil {
			fmt.Fprintf(stdout, "method %s, kernel %s, intercept %s, λ = %g\n", res.Method, res.Kernel, res.Intercept, f.lambda.V)
		} else {
			fmt.Fprintf(stdout, "method %s, kernel %s, intercept %s, %s\n", res.Method, res.Kernel, res.Intercept, cli.Count(res.Iterations, "iteration"))
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
		m, err := regress.RLS{Kernel: k, Lambda: f.lambda.V, Intercept: ic}.Fit(&train.X, y)
		if err != nil {
			return nil, err
		}
		res.B = cli.JSONFloat(m.Intercept[0])
		return m, nil
	case "nystrom":
		m, err := regress.Nystrom{Kernel: k, Lambda: f.lambda.V, Intercept: ic, Centers: f.centers, Seed: f.seed}.Fit(&train.X, y)
		if err != nil {
			return nil, err
		}
		res.B, res.Centers, res.Jitter = cli.JSONFloat(m.Intercept[0]), m.Coef.Rows, m.Jitter
		return m.Model, nil
	case "falkon":
		return fitFalkon(&f.falkon, k, f.lambda.V, ic, train, val, res)
	case "eigen", "tsvd", "tikh":
		s, err := regress.NewSpectral(k, &train.X, y)
		if err != nil {
			return nil, err
		}
		var m *regress.Model
		switch f.method {
		case "eigen":
			m, err = s.Fit(regress.TikhonovFilter{Lambda: f.lambda.V}, ic)
		case "tsvd":
			m, err = s.Fit(regress.TruncatedSVDFilter{Lambda: f.lambda.V}, ic)
		case "tikh":
			if ic != regress.FreeIntercept {
				return nil, cli.BadInputf("-method tikh is Tikhonov on [K 1], whose b is always free: use -intercept free")
			}
			m, err = s.FitAugmented(f.lambda.V)
		}
		if err != nil {
			return nil, err
		}
		res.B = cli.JSONFloat(m.Intercept[0])
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
		res.B, res.Iterations = cli.JSONFloat(fit.Intercept[0]), fit.Iterations
		return fit.Model, nil
	}
	panic("unreachable: checkMethodFlags knows the methods")
}

// selectAndFit chooses σ and λ by leave-one-out (or GCV) over the grids
// and fits the chosen pair: -method nystrom by loo.SelectNystrom, the
// centres drawn once (drawCenters) and shared by every σ, the fit solved
// from the chosen σ's statistics; -method falkon the same on at most
// -select-centers of its centres, then falkon on all of them (with the
// progress lines of val, nil without -val) when -centers asks for more
// (see selectsFalkon); cholesky and eigen by loo.SelectRLS, one
// eigendecomposition per σ, then the method's own fit at the pair.
func (f *fitFlags) selectAndFit(ic regress.Intercept, train, val *dataset.Data, res *fitResult, stderr io.Writer, start time.Time) (predictor, *cli.Selection, error) {
	x, y := featuresSeen(train), column(train.Y)
	sigmas, lambdas, kernel, sel, err := prepare(&f.kf, &f.sel, f.lambda, nil, x, f.seed)
	if err != nil {
		return nil, nil, err
	}
	what := "fit -method " + f.method
	if f.method == "nystrom" || f.method == "falkon" {
		centers, err := f.falkon.selectionCenters(f.method, x)
		if err != nil {
			return nil, nil, err
		}
		crit, sub := criterionOf(f.sel.criterion, false), f.sel.subset(x.Rows)
		s, err := loo.SelectNystrom{Kernel: kernel, Centers: centers, Sigmas: sigmas, Lambdas: lambdas, Intercept: ic,
			Criterion: crit, Subset: sub, Seed: f.seed, Progress: progressLine(stderr, what, start, nystromPasses(crit, sub, x.Rows)...)}.Fit(x, y)
		if err != nil {
			return nil, nil, err
		}
		*sel = *cli.FromNystrom(s, sel.Median, x.Rows)
		if f.falkon.falkonAfterSelection(f.method, centers.Rows) {
			model, err := fitFalkon(&f.falkon, kernel(s.Sigma), s.Lambda, ic, train, val, res)
			return model, sel, err
		}
		res.B, res.Centers, res.Jitter = cli.JSONFloat(s.Fit.Intercept[0]), s.Fit.Coef.Rows, s.Fit.Jitter
		return s.Fit.Model, sel, nil
	}
	pass, progress := 0, progressLine(stderr, what, start, "eigendecomposition and leave-one-out")
	choice, table, err := loo.SelectRLS(func(s float64) kernels.Kernel {
		pass++ // SelectRLS asks for each σ's kernel once, before its eigendecomposition
		progress(pass, len(sigmas), s)
		return kernel(s)
	}, x, y, sigmas, lambdas, ic)
	if err != nil {
		return nil, nil, err
	}
	sel.Table, sel.Choice, sel.LOOMSE, sel.LOORows = table, choice, choice.Score, x.Rows
	f.lambda = cli.AutoValue{V: choice.Lambda}
	model, err := fitMethod(f, kernel(choice.Sigma), ic, train, nil, res)
	return model, sel, err
}
