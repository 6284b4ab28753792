package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"rkhs/internal/cli"
	"slices"
	"strconv"
	"strings"
	"time"

	"rkhs/classify"
	"rkhs/dataset"
	"rkhs/internal/coding"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// classifyResult is the JSON object `rkhs classify -json` prints.
// Accuracies are fractions in [0, 1].
type classifyResult struct {
	Method        string          `json:"method"`
	Kernel        string          `json:"kernel"`
	Intercept     string          `json:"intercept,omitempty"` // all but knn
	NTrain        int             `json:"n_train"`             // rows fitted: those of -train less the NVal held out
	NTest         int             `json:"n_test"`
	Features      int             `json:"features"`
	Classes       []cli.JSONFloat `json:"classes"`
	Lambda        *cli.JSONFloat  `json:"lambda"`               // the λ used; null for perceptron and knn
	LambdaByLOO   bool            `json:"lambda_by_loo"`        // rls chose λ by leave-one-out
	LOOError      *cli.JSONFloat  `json:"loo_error,omitempty"`  // its leave-one-out misclassification rate
	K             int             `json:"k,omitempty"`          // knn
	Iterations    int             `json:"iterations,omitempty"` // passes (perceptron) or steps (logistic, svm)
	Converged     *bool           `json:"converged,omitempty"`  // perceptron, logistic
	TrainAccuracy *cli.JSONFloat  `json:"train_accuracy"`       // null with -skip-train-accuracy
	TestAccuracy  *cli.JSONFloat  `json:"test_accuracy"`        // null without -test
	FitSeconds    float64         `json:"fit_seconds"`
	NVal          int             `json:"n_val,omitempty"`        // falkon -val: rows of -train held out
	ValAccuracy   *cli.JSONFloat  `json:"val_accuracy,omitempty"` // and the accuracy on them
	Centers       int             `json:"centers,omitempty"`      // nystrom
	// With -sigma auto or -lambda auto (rls, nystrom): as in fit, and
	// loo_error above is the leave-one-out error rate at the pair.
	cli.SelectionFields

	Standardized bool `json:"standardized,omitempty"` // -standardize was on
}

// labelPredictor is what every fitted classifier offers.
type labelPredictor interface {
	Predict(*linalg.Dense) ([]float64, error)
}

type classifyFlags struct {
	ioFlags
	kf                kernelFlags
	method, intercept string
	lambda            cli.AutoValue
	k, iters          int
	maxClasses        int
	skipTrain         bool
	set               map[string]bool // flags given on the command line
	falkon            falkonFlags
	sel               selectFlags
	std               standardizeFlag
}

const classifyMethods = "rls, perceptron, knn, logistic, svm, falkon or nystrom"

func runClassify(args []string, stdout, stderr io.Writer) error {
	var f classifyFlags
	fs := newFlagSet("classify", "fit a kernel classifier on -train and report its accuracy", stderr)
	f.ioFlags.register(fs, "; labels are class codes", "the fitted classifier", "the predicted test labels")
	fs.StringVar(&f.method, "method", "rls", "classifier: rls (regularized least squares, one-vs-all beyond two classes), perceptron, knn, logistic or svm (these three binary only), falkon (RLS classification by Nyström with preconditioned CG, for large n) or nystrom (RLS classification on -centers M Nyström centres, memory O(M² + nd); with -sigma auto and -lambda auto the rows are streamed and σ and λ chosen by the leave-one-out error rate)")
	f.kf.register(fs, sigmaAutoHelp)
	fs.Var(&f.lambda, "lambda", "regularization λ (K + nλI convention) of rls, logistic, svm, falkon and nystrom; rls chooses it by leave-one-out when it is not given"+lambdaAutoHelp+" (rls, nystrom, falkon)")
	fs.StringVar(&f.intercept, "intercept", "", "offset b: none, free (unpenalized) or penalized (the kernel k + 1); default free, penalized for svm (which has no free b), and perceptron has no penalized one; not for knn")
	fs.IntVar(&f.k, "k", 5, "knn: number of neighbours")
	fs.IntVar(&f.maxClasses, "max-classes", 0, "refuse more distinct labels than this; 0: at most max(20, n/10) for n training rows, fewer than 10 rows a class on average, beyond which the label is almost surely a continuous target for rkhs fit")
	fs.BoolVar(&f.skipTrain, "skip-train-accuracy", false, "do not compute the training accuracy (for knn it costs n² kernel evaluations, as much as predicting n test points)")
	fs.IntVar(&f.iters, "iters", 0, "perceptron: maximum passes (0: 100); logistic, svm: maximum gradient or subgradient steps (0: 1000, 2000); falkon: CG iterations (0: 20)")
	fs.IntVar(&f.falkon.centers, "centers", 0, "falkon, nystrom: number of Nyström centres m")
	fs.Uint64Var(&f.falkon.seed, "seed", 1, "falkon, nystrom: seed of the centres, of the -val split and of the samples of a selection")
	f.falkon.registerVal(fs)
	f.falkon.registerSelectCenters(fs)
	f.sel.register(fs, "λ candidates of the leave-one-out choice, `MIN:MAX:COUNT`, geometric (default: rls with a σ given, 25 values over the spectrum of K; otherwise 1e-10:1:51)")
	f.std.register(fs)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	f.set = map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	f.falkon.progress = stderr
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
	var k kernels.Kernel
	if !f.kf.sigma.Auto {
		var err error
		if k, err = f.kf.kernel(); err != nil {
			return err
		}
	}
	if f.intercept == "" {
		f.intercept = defaultIntercept[f.method] // checkMethodFlags knows the method
	}
	ic, err := parseIntercept(f.intercept)
	if err != nil {
		return err
	}
	var grid []float64
	if f.sel.lambdas != "" {
		if grid, err = cli.Grid("lambdas", f.sel.lambdas); err != nil {
			return err
		}
	}
	train, test, names, err := f.data.readTrainTest(f.train, f.test)
	if err != nil {
		return err
	}
	classes, err := f.checkClasses(train)
	if err != nil {
		return err
	}
	sets, err := splitTraining(&f.falkon, f.std.On(sigmaIsAuto(&f.kf)), train, names.features, stderr) // -val: falkon only (checkMethodFlags)
	if err != nil {
		return err
	}
	train, val := sets.train, sets.val

	res := classifyResult{Method: f.method, Kernel: f.kf.name, NTrain: train.X.Rows, Features: train.X.Cols, Standardized: sets.scale != nil}
	if val != nil {
		res.NVal = val.X.Rows
	}
	q := 1 // outputs of the fit: one per class with one-vs-all
	if classes > 2 {
		q = classes
	}
	start := time.Now()
	stop := func() {}
	switch f.method {
	case "rls":
		route := "eigen" // λ chosen by leave-one-out
		if f.set["lambda"] {
			route = "cholesky"
		}
		stop = announce(stderr, "classify -method rls", route, train.X.Rows, train.X.Cols)
	case "falkon":
		stop = announceCost(stderr, "classify -method falkon", train.X.Rows, falkonCost(train.X.Rows, train.X.Cols, f.falkon.centers, q, f.iters))
	}
	var (
		model labelPredictor
		sel   *cli.Selection
	)
	if f.method == "nystrom" || f.selectsRLS() || selectsFalkon(f.method, &f.kf, f.lambda) {
		model, sel, err = f.selectClassifier(k, ic, sets.fitTrain, sets.fitVal, &res, stderr, start)
	} else {
		model, err = f.fitClassifier(k, ic, grid, sets.fitTrain, sets.fitVal, &res)
	}
	stop()
	if err != nil {
		advice := cli.ExactAdvice
		if f.method == "falkon" {
			advice = cli.CentersAdvice(train.X.Rows, train.X.Cols, q, false)
		}
		return cli.TooLarge(err, "classify -method "+f.method, train.X.Rows, advice)
	}
	res.FitSeconds = time.Since(start).Seconds()
	if k != nil && f.kf.hasWidth() {
		// After the fit, so that a run that fails says one line.
		warnDegenerate(stderr, "classify", k, f.kf.sigma.V, featuresSeen(sets.fitTrain), f.method == "nystrom" || f.method == "falkon", f.falkon.centers, f.falkon.seed)
	}
	sel.WarnFacts(stderr, "rkhs classify")
	attachStandardization(model, sets.scale) // the model now takes the raw rows

	var pt []float64
	scored := train
	if f.skipTrain {
		scored = nil
	}
	var trainAcc cli.JSONFloat
	if trainAcc, res.TestAccuracy, pt, err = evaluate(model.Predict, classify.Accuracy, scored, test); err != nil {
		return err
	}
	if !f.skipTrain {
		res.TrainAccuracy = &trainAcc
	}
	if val != nil {
		if _, res.ValAccuracy, _, err = evaluate(model.Predict, classify.Accuracy, nil, val); err != nil {
			return err
		}
	}
	var files []pendingFile
	if test != nil {
		res.NTest = test.X.Rows
		files = append(files, pendingFile{f.predictions, labelLines(pt)})
	}
	files = report(sel, &res.Lambda, &res.SelectionFields, f.sel.plot, titleOf("classify -method "+f.method, f.train, res.NTrain), files)
	names.set(model)
	return finish(stdout, files, model, f.model, res, f.json, func() {
		if sel != nil {
			sel.PrintTable(stdout)
		}
		fmt.Fprintf(stdout, "method %s, kernel %s, %d classes %s\n", res.Method, res.Kernel, len(res.Classes), classList(res.Classes))
		switch {
		case sel != nil && sel.Table.Criterion == loo.GCV:
			fmt.Fprintf(stdout, "σ = %.4g, λ = %.4g, chosen by GCV (%.6g)\n", sel.Choice.Sigma, sel.Choice.Lambda, sel.Choice.Score)
		case sel != nil:
			fmt.Fprintf(stdout, "σ = %.4g, λ = %.4g, chosen by leave-one-out (LOO error %.4f)\n", sel.Choice.Sigma, sel.Choice.Lambda, sel.Choice.Score)
		case res.LambdaByLOO:
			fmt.Fprintf(stdout, "λ = %.4g, chosen by leave-one-out (LOO error %.4f)\n", float64(*res.Lambda), float64(*res.LOOError))
		case res.Lambda != nil:
			fmt.Fprintf(stdout, "λ = %g\n", float64(*res.Lambda))
		}
		if res.TrainAccuracy != nil {
			fmt.Fprintf(stdout, "n_train %d, train accuracy %.4f, fit %.3f s\n", res.NTrain, float64(*res.TrainAccuracy), res.FitSeconds)
		} else {
			fmt.Fprintf(stdout, "n_train %d, fit %.3f s\n", res.NTrain, res.FitSeconds)
		}
		if res.ValAccuracy != nil {
			fmt.Fprintf(stdout, "n_val %d (held out of -train by -val), validation accuracy %.4f\n", res.NVal, float64(*res.ValAccuracy))
		}
		if res.Converged != nil && !*res.Converged {
			fmt.Fprintf(stdout, "not converged: stopped at the limit of %s (-iters)\n", cli.Count(res.Iterations, "iteration"))
		}
		if res.TestAccuracy != nil {
			fmt.Fprintf(stdout, "n_test %d, test accuracy %.4f\n", res.NTest, float64(*res.TestAccuracy))
		}
	})
}

// methodFlags lists, for each method, the method-specific flags it reads;
// giving another method's flag is an error, so that no setting is silently
// ignored.
var methodFlags = map[string][]string{
	"rls":        {"lambda", "lambdas", "intercept", "sigmas", "plot"},
	"nystrom":    {"lambda", "lambdas", "intercept", "centers", "seed", "sigmas", "plot", "criterion", "loo-rows"},
	"perceptron": {"intercept", "iters"},
	"knn":        {"k"},
	"logistic":   {"lambda", "intercept", "iters"},
	"svm":        {"lambda", "intercept", "iters"},
	"falkon":     {"lambda", "intercept", "iters", "centers", "seed", "val", "lambdas", "sigmas", "plot", "criterion", "loo-rows", "select-centers"},
}

// defaultIntercept is each method's intercept when -intercept is not
// given: free, except for the SVM, whose b is penalized (see
// classify.SVM).
var defaultIntercept = map[string]string{
	"rls": "free", "perceptron": "free", "knn": "none", "logistic": "free", "svm": "penalized", "falkon": "free", "nystrom": "free",
}

func (f *classifyFlags) checkMethodFlags() error {
	if _, err := ownFlags(methodFlags, f.method, f.set, classifyMethods); err != nil {
		return err
	}
	if err := checkSelectFlags(&f.kf, &f.sel, &f.lambda, f.set); err != nil {
		return err
	}
	if err := f.falkon.checkSelectCenters(f.kf.sigma.Auto || f.lambda.Auto, f.set); err != nil {
		return err
	}
	selects := f.method == "rls" || f.method == "nystrom" || f.method == "falkon"
	switch {
	case f.set["lambda"] && !f.lambda.Auto && !(f.lambda.V > 0):
		return cli.BadInputf("-lambda %v: want λ > 0", f.lambda.V)
	case f.kf.sigma.Auto && !selects:
		return cli.BadInputf("-sigma auto is offered by -method rls, nystrom and falkon, not %s", f.method)
	case f.lambda.Auto && !selects:
		return cli.BadInputf("-lambda auto is offered by -method rls, nystrom and falkon, not %s", f.method)
	case (f.method == "logistic" || f.method == "svm") && !f.set["lambda"]:
		return cli.BadInputf("-method %s needs -lambda (only rls chooses λ by leave-one-out)", f.method)
	case (f.method == "nystrom" || f.method == "falkon") && !f.set["lambda"] && !f.lambda.Auto:
		return cli.BadInputf("-method %s needs -lambda: a number, or auto", f.method)
	case (f.method == "nystrom" || f.method == "falkon") && (f.kf.sigma.Auto || f.lambda.Auto) && !f.set["centers"]:
		return cli.BadInputf("-centers is required by -method %s: the number of centres M", f.method)
	case f.method == "nystrom" && !f.set["centers"]:
		return cli.BadInputf("-centers is required by -method nystrom: the number of centres M")
	case (f.set["criterion"] || f.set["loo-rows"]) && !f.kf.sigma.Auto && !f.lambda.Auto:
		return cli.BadInputf("-criterion and -loo-rows set a selection: give -sigma auto or -lambda auto")
	case f.iters < 0:
		return cli.BadInputf("-iters %d: want ≥ 0 (0 selects the method's default)", f.iters)
	case f.maxClasses < 0:
		return cli.BadInputf("-max-classes %d: want ≥ 0 (0 selects max(20, n/10))", f.maxClasses)
	case f.method == "falkon" && f.intercept == "penalized":
		return cli.BadInputf("-intercept penalized is not offered by -method falkon: use none or free (-method rls offers penalized)")
	}
	return nil
}

// checkClasses counts the distinct labels of train and refuses, with one
// line each:
//   - more than -max-classes, by default more than max(20, n/10) for n
//     rows: fewer than 10 examples a class on average is the mark of a
//     continuous target (house prices, temperatures), which rkhs fit
//     regresses, rather than of class codes; 20 keeps small data sets
//     with a few rows a class;
//   - one-vs-all targets and coefficients, n values for each class each,
//     that alone exceed the memory there is (internal/memlimit), before
//     anything of that size is allocated.
func (f *classifyFlags) checkClasses(train *dataset.Data) (int, error) {
	labels := slices.Clone(train.Y)
	for i := range labels {
		labels[i] += 0 // −0 and 0 are one class, as in package classify
	}
	slices.Sort(labels)
	classes := len(slices.Compact(labels))
	n := train.X.Rows
	limit := f.maxClasses
	if limit == 0 {
		limit = max(20, n/10)
	}
	if classes > limit {
		return 0, cli.BadInputf("%d distinct labels in %s, more than %d: this looks like a continuous target; run rkhs fit for regression (or raise -max-classes if these are classes)",
			classes, cli.Count(n, "row"), limit)
	}
	if classes > 2 {
		if err := memlimit.Check("classify: one-vs-all", memlimit.Floats(2, n, classes)); err != nil {
			var me *linalg.MemoryError
			errors.As(err, &me)
			return 0, cli.Explained{Msg: fmt.Sprintf("classify on %s with %d classes needs %s of memory for one-vs-all alone (±1 targets and coefficients, 2 values per row and class), more than the %s of %s: fewer classes fit (merge the rare ones), or fewer rows",
				cli.Count(n, "row"), classes, linalg.FormatBytes(me.Need), linalg.FormatBytes(me.Limit), me.Source), Err: err}
		}
	}
	return classes, nil
}

// ownFlags returns the method-specific flags of method in table, or an
// error for an unknown method (want lists the known ones) or for a flag
// given (set) that belongs to another method only.
func ownFlags(table map[string][]string, method string, set map[string]bool, want string) ([]string, error) {
	own, ok := table[method]
	if !ok {
		return nil, cli.BadInputf("-method %q: want %s", method, want)
	}
	var all []string
	for _, flags := range table {
		all = append(all, flags...)
	}
	slices.Sort(all)
	for _, name := range slices.Compact(all) {
		if set[name] && !slices.Contains(own, name) {
			return nil, cli.BadInputf("-%s is not used by -method %s", name, method)
		}
	}
	return own, nil
}

// fitClassifier fits the classifier of -method and records in res what
// the JSON reports about the fit (classes, λ, iterations).
func (f *classifyFlags) fitClassifier(k kernels.Kernel, ic regress.Intercept, grid []float64, train, val *dataset.Data, res *classifyResult) (labelPredictor, error) {
	x, y := train.X, train.Y
	var (
		model   labelPredictor
		classes []float64
		lambda  = f.lambda.V
	)
	switch f.method {
	case "rls":
		// Without -lambda, rls chooses λ by leave-one-out.
		m, err := classify.RLS{Kernel: k, Lambda: f.lambda.V, ChooseLambda: !f.set["lambda"], Lambdas: grid, Intercept: ic}.Fit(&x, y)
		if err != nil {
			return nil, err
		}
		model, classes, lambda = m, m.Classes, m.Lambda
		if m.LOOErrors != nil {
			res.LambdaByLOO = true
			for j, l := range m.LOOLambdas {
				if l == m.Lambda {
					e := cli.JSONFloat(m.LOOErrors[j])
					res.LOOError = &e
					break
				}
			}
		}
	case "perceptron":
		m, err := classify.Perceptron{Kernel: k, Intercept: ic, MaxPasses: f.iters}.Fit(&x, y)
		if err != nil {
			return nil, err
		}
		model, classes, lambda = m, m.Classes, 0
		res.Iterations, res.Converged = m.Passes, &m.Converged
	case "knn":
		m, err := classify.KNN{Kernel: k, K: f.k}.Fit(&x, y)
		if err != nil {
			return nil, err
		}
		model, classes, lambda = m, m.Classes, 0
		res.K = f.k
	case "logistic":
		m, err := classify.Logistic{Kernel: k, Lambda: f.lambda.V, Intercept: ic, MaxIter: f.iters}.Fit(&x, y)
		if err != nil {
			return nil, err
		}
		model, classes = m, m.Classes
		res.Iterations, res.Converged = m.Iterations, &m.Converged
	case "falkon":
		f.falkon.iters = f.iters
		m, err := classifyFalkon(&f.falkon, k, f.lambda.V, ic, train, val, res)
		if err != nil {
			return nil, err
		}
		model, classes = m, m.Classes
	case "svm":
		m, err := classify.SVM{Kernel: k, Lambda: f.lambda.V, Intercept: ic, MaxIter: f.iters}.Fit(&x, y)
		if err != nil {
			return nil, err
		}
		model, classes = m, m.Classes
		res.Iterations = len(m.History) - 1
	}
	if f.method != "knn" {
		res.Intercept = ic.String()
	}
	for _, c := range classes {
		res.Classes = append(res.Classes, cli.JSONFloat(c))
	}
	if lambda > 0 {
		l := cli.JSONFloat(lambda)
		res.Lambda = &l
	}
	return model, nil
}

// labelLines formats one label per line, as the shortest decimal that
// reads back as the same value.
func labelLines(labels []float64) []byte {
	var b bytes.Buffer
	for _, v := range labels {
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// classList prints classes as {a, b, …}.
func classList(cs []cli.JSONFloat) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = strconv.FormatFloat(float64(c), 'g', -1, 64)
	}
	return "{" + strings.Join(s, ", ") + "}"
}

// selectsRLS reports whether -method rls runs a selection with a table:
// -sigma auto, or -lambda auto given. rls without -lambda chooses λ by
// leave-one-out as it always has, without a table.
func (f *classifyFlags) selectsRLS() bool {
	return f.method == "rls" && (f.kf.sigma.Auto || f.set["lambda"] && f.lambda.Auto)
}

// selectClassifier fits -method nystrom, and rls and falkon with a
// selection: RLS classification on ±1 codings of the labels (one column
// for two classes, one per class beyond), σ and λ chosen by the
// leave-one-out error rate (ties to the smaller leave-one-out squared
// error) or, for nystrom and falkon, GCV. nystrom: loo.SelectNystrom, rows
// streamed, the centres drawn once; or, with σ and λ given,
// regress.Nystrom. falkon: the same on at most -select-centers of its
// centres, then classify.Falkon on all of them (with the progress lines
// of val, nil without -val) when -centers asks for more (see
// selectsFalkon). rls: classify.RLS choosing λ for each σ (one
// eigendecomposition each). k is the kernel when σ is given. The
// selection is nil when nothing was chosen.
func (f *classifyFlags) selectClassifier(k kernels.Kernel, ic regress.Intercept, train, val *dataset.Data, res *classifyResult, stderr io.Writer, start time.Time) (labelPredictor, *cli.Selection, error) {
	x := featuresSeen(train)
	selecting := f.kf.sigma.Auto || f.lambda.Auto
	var lambdaDefault []float64
	if f.method == "rls" && !f.kf.sigma.Auto && f.sel.lambdas == "" {
		lambdaDefault = []float64{} // classify.RLS's own: 25 values over the spectrum of K
	}
	sigmas, lambdas, kernel, sel, err := prepare(&f.kf, &f.sel, f.lambda, lambdaDefault, x, f.falkon.seed)
	if err != nil {
		return nil, nil, err
	}
	what := "classify -method " + f.method
	if f.method == "rls" {
		rs, err := classify.SelectRLS{Kernel: kernel, Sigmas: sigmas, Lambdas: lambdas, Intercept: ic,
			Progress: progressLine(stderr, what, start, "eigendecomposition and leave-one-out")}.Fit(x, train.Y)
		if err != nil {
			return nil, nil, err
		}
		a, j, _ := rs.Scores.BestAt()
		sel.Table, sel.Choice, sel.LOOMSE, sel.LOORows = rs.Scores, rs.Choice, rs.Scores.Ties[a][j], x.Rows
		res.LambdaByLOO, res.LOOError = true, cli.JSONPtr(sel.Choice.Score)
		return rs.Model, sel, f.recordClasses(rs.Model, ic, res)
	}
	classes := classesOf(train.Y)
	if len(classes) < 2 {
		// As classify.RLS and classify.Falkon say it, before any pass.
		return nil, nil, cli.BadInputf("-method %s: the labels have only one class (%g); need two or more", f.method, classes[0])
	}
	y := codeTargets(train.Y, classes)
	var fit *regress.NystromFit
	if !selecting {
		fit, err = regress.Nystrom{Kernel: k, Lambda: f.lambda.V, Intercept: ic, Centers: f.falkon.centers, Seed: f.falkon.seed}.Fit(x, y)
		if err != nil {
			return nil, nil, err
		}
		sel = nil
	} else {
		centers, err := f.falkon.selectionCenters(f.method, x)
		if err != nil {
			return nil, nil, err
		}
		crit, sub := criterionOf(f.sel.criterion, true), f.sel.subset(x.Rows)
		s, err := loo.SelectNystrom{Kernel: kernel, Centers: centers, Sigmas: sigmas, Lambdas: lambdas, Intercept: ic,
			Criterion: crit, Subset: sub, Seed: f.falkon.seed, Progress: progressLine(stderr, what, start, nystromPasses(crit, sub, x.Rows)...)}.Fit(x, y)
		if err != nil {
			return nil, nil, err
		}
		*sel = *cli.FromNystrom(s, sel.Median, x.Rows)
		fit = s.Fit
		if s.Criterion == loo.LOOErrorRate {
			res.LambdaByLOO, res.LOOError = true, cli.JSONPtr(s.Score)
		}
		if f.falkon.falkonAfterSelection(f.method, centers.Rows) {
			f.falkon.iters = f.iters
			m, err := classifyFalkon(&f.falkon, kernel(s.Sigma), s.Lambda, ic, train, val, res)
			if err != nil {
				return nil, nil, err
			}
			res.Centers = m.Model.Coef.Rows
			return m, sel, f.recordClasses(m.RLSModel, ic, res)
		}
	}
	res.Centers = fit.Coef.Rows
	m := &classify.RLSModel{Classes: classes, OneVsAll: len(classes) > 2, Lambda: f.lambda.V, Model: fit.Model}
	if sel != nil {
		m.Lambda = sel.Choice.Lambda
	}
	return m, sel, f.recordClasses(m, ic, res)
}

// recordClasses records the classes, the intercept and λ of an RLS model.
func (f *classifyFlags) recordClasses(m *classify.RLSModel, ic regress.Intercept, res *classifyResult) error {
	res.Intercept = ic.String()
	for _, c := range m.Classes {
		res.Classes = append(res.Classes, cli.JSONFloat(c))
	}
	res.Lambda = cli.JSONPtr(m.Lambda)
	return nil
}

// classesOf returns the distinct labels in ascending order, −0 as +0 (as
// package classify counts them).
func classesOf(labels []float64) []float64 {
	c := make([]float64, len(labels))
	for i, v := range labels {
		c[i] = v + 0
	}
	slices.Sort(c)
	return slices.Compact(c)
}

// codeTargets returns the ±1 codings of RLS classification, as
// classify.RLS codes them: for two classes one column, −1 for the smaller
// label and +1 for the larger; beyond, one column per class, +1 on its
// rows and −1 elsewhere (the memory was checked by checkClasses).
func codeTargets(labels, classes []float64) *linalg.Dense {
	q := len(classes)
	if q == 2 {
		q = 1
	}
	y := linalg.NewDense(len(labels), q, nil)
	coding.Targets(y, labels, classes) // classes are the labels' own
	return y
}
