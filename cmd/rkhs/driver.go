package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"rkhs/classify"
	"rkhs/dataset"
	"rkhs/internal/cli"
	"rkhs/internal/memlimit"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/model"
	"rkhs/regress"
	"rkhs/report"
)

// fit and classify are one driver (modelFlags.run) over their rows of the
// method table: parse, check the flags against the method's row, check
// the outputs, read the training file and the test file (by the training
// file's column names), hold out -val and standardize, fit or choose σ and
// λ, evaluate, write the files, report. What differs is the scoring (the
// mean squared error, or the accuracy of labels) and a few fields of the
// result.

// modelFlags are the flags of fit and classify.
type modelFlags struct {
	verb                                  string // "fit" or "classify"
	train, test, model, predictions, plot string
	json                                  bool
	data                                  dataFlags
	kf                                    kernelFlags
	method, intercept                     string
	lambda, looRows                       cli.AutoValue
	ard                                   cli.ARDFlags
	sigmas, lambdas, criterion            string
	iters, centers, selectCenters         int
	k, maxClasses                         int // classify
	seed                                  uint64
	val                                   float64
	skipTrain                             bool // classify
	std                                   cli.Standardize
	iv                                    intervalFlags
	set                                   map[string]bool // the flags given
	fs                                    *flagSet
}

// classes reports whether the labels are classes (classify).
func (o *modelFlags) classes() bool { return o.verb == "classify" }

// setupModel returns the setup of fit or classify (verb).
func setupModel(verb string) func(fs *flagSet) func(stdout, stderr io.Writer) error {
	return func(fs *flagSet) func(stdout, stderr io.Writer) error {
		o := &modelFlags{verb: verb, set: fs.set, fs: fs}
		o.register(fs)
		return o.run
	}
}

// register adds the flags of the verb, their help read from the method
// table.
func (o *modelFlags) register(fs *flagSet) {
	ms := methodsOf(o.verb)
	var list, selecting, intercepts []string
	for _, m := range ms {
		item := m.name + " (" + m.help
		if len(m.flags) > 0 {
			item += "; -" + strings.Join(m.flags, ", -")
		}
		item += []string{"", "; chooses σ and λ by one eigendecomposition a σ", "; chooses σ and λ streaming the rows, or σ per feature (-sigma ard)", "; chooses σ and λ, or σ per feature (-sigma ard), on -select-centers of its centres"}[m.selects]
		list = append(list, item+")")
		if m.selects != noSelection {
			selecting = append(selecting, m.name)
		}
		if len(m.intercepts) < len(everyIntercept) && m.intercepts != nil {
			intercepts = append(intercepts, m.name+": "+strings.Join(m.intercepts, " or "))
		}
	}
	what, pred, labels := "the fitted model", "the test predictions", ""
	if o.classes() {
		what, pred, labels = "the fitted classifier", "the predicted test labels", "; labels are class codes"
	}
	fs.file(&o.train, inputFlag, "train", "", "training data `file` (LIBSVM, or CSV if it ends in .csv, see -format)"+labels)
	fs.file(&o.test, besideFlag, "test", "", "test data `file`: read by the column names of -train when both have a header (in any order, other columns not read), by position otherwise, which needs -train's label last and every other column a feature (a headerless file is refused after -target another column or -features a subset)")
	fs.file(&o.model, outputFlag, "model", "", "write "+what+" to this `file` (JSON), for rkhs predict")
	fs.file(&o.predictions, outputFlag, "predictions", "", "write "+pred+" to this `file`, one per line")
	fs.file(&o.plot, outputFlag, "plot", "", "write an SVG `file` of the selection's curves: the criterion against λ, one curve per σ, the chosen point circled; with -sigma ard instead the descent's criterion against its iteration, one curve")
	fs.BoolVar(&o.json, "json", false, "print the result as one JSON object")
	o.data.register(fs, false)
	o.kf.register(fs, "; auto: chosen by leave-one-out over the median distance between rows × {1/4, 1/2, 1, 2, 4} (-sigmas overrides the grid), by -method "+strings.Join(selecting, ", ")+
		"; ard: one σ per feature (automatic relevance determination), the gaussian or laplacian kernel by -method "+names(withScales(ms), "and")+": auto's σ and λ, then the σ_j and λ that minimize the same criterion, by L-BFGS from there on the same centres (loo.SelectScales; -ard-rows, -ard-iters), the features ranked by σ_j")
	fs.StringVar(&o.method, "method", ms[0].name, "method: "+strings.Join(list, "; "))
	fs.StringVar(&o.intercept, "intercept", "", "offset b: none, free (unpenalized) or penalized (the kernel k + 1); default free, the first named where a method offers fewer ("+strings.Join(intercepts, "; ")+")")
	fs.Var(&o.lambda, "lambda", "regularization λ in (K + nλI)c = y, n = training rows; auto: chosen by leave-one-out over 51 values from 1e-10 to 1, five a decade (-lambdas overrides the grid)")
	fs.StringVar(&o.sigmas, "sigmas", "", "σ grid of -sigma auto (the start of -sigma ard), `MIN:MAX:COUNT`, geometric; implies -sigma auto unless ard")
	fs.StringVar(&o.lambdas, "lambdas", "", "λ grid of -lambda auto, `MIN:MAX:COUNT`, geometric; implies -lambda auto (default: 1e-10:1:51; rls on one σ: 25 values over the spectrum of K)")
	fs.StringVar(&o.criterion, "criterion", "loo", "what a streamed selection minimizes: loo (exact leave-one-out: the mean squared residual in fit, the error rate in classify; two passes over the rows) or gcv (generalized cross-validation, one pass)")
	o.looRows = cli.AutoValue{Auto: true}
	fs.Var(&o.looRows, "loo-rows", fmt.Sprintf("compute the leave-one-out error of a streamed selection on this many rows drawn at random (-seed), each residual exact and their mean an unbiased estimate of every row's at a fraction of the cost, printed with its standard error; 0: every row; auto: every row up to %d rows, %d above", loo.DefaultSubsetAbove, loo.DefaultSubsetRows))
	o.ard.Register(fs.FlagSet)
	fs.IntVar(&o.selectCenters, "select-centers", loo.DefaultSelectCenters, "falkon choosing σ or λ: choose them on min(M, this) of the -centers M centres (the first of those falkon draws with -seed), then fit falkon on all M at the chosen pair, iterating until its preconditioner's promise is met (up to 100 iterations unless -iters is given); with M ≤ this the fit is solved directly from the selection's statistics, as nystrom's")
	fs.IntVar(&o.centers, "centers", 0, "number of Nyström centres M")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of random choices: Nyström centres, the -val split, the rows of -loo-rows, the sample of the median distance")
	fs.Float64Var(&o.val, "val", 0, "falkon: hold out this fraction of -train (at random, -seed) and print its error after every iteration; never the test file")
	registerStandardize(fs, &o.std, true)
	o.iv.register(fs, names(slices.DeleteFunc(slices.Clone(ms), func(m *method) bool { return m.intervals == nil || o.classes() && m.intervals[0] != "jackknife+" }), "and"))
	if !o.classes() {
		fs.IntVar(&o.iters, "iters", 0, "iterations: of cg, landweber and nu, their regularization parameter, 50 if not given, cg stopping earlier once converged to rounding level; of falkon's conjugate gradient, 20 if not given (see -select-centers after a selection)")
		return
	}
	fs.IntVar(&o.iters, "iters", 0, "perceptron: maximum passes (0: 100); logistic, svm: maximum gradient or subgradient steps (0: 1000, 2000); falkon: conjugate gradient iterations, as in fit")
	fs.IntVar(&o.k, "k", 5, "knn: number of neighbours")
	fs.IntVar(&o.maxClasses, "max-classes", 0, "refuse more distinct labels than this; 0: at most max(20, n/10) for n training rows (classify.MaxClasses), beyond which the label is almost surely a continuous target for rkhs fit")
	fs.BoolVar(&o.skipTrain, "skip-train-accuracy", false, "do not compute the training accuracy (for knn it costs n² kernel evaluations, as much as predicting n test points)")
}

// check checks the flags against the method's row of the table and
// returns the row: the method's own flags only, -lambda as the row needs
// it, a selection only where the row offers one, and the values of the
// flags of a selection. An absent -lambda of a method that chooses it
// becomes auto, and a grid implies auto.
func (o *modelFlags) check() (*method, error) {
	m, err := o.ownFlags()
	if err != nil {
		return nil, err
	}
	if err := o.grids(); err != nil {
		return nil, err
	}
	if (m.lambda == lambdaChosen || o.kf.sigma.ARD) && !o.set["lambda"] {
		o.lambda.Auto = true // -sigma ard always learns λ with the scales
	}
	if err := o.values(m); err != nil {
		return nil, err
	}
	selecting := o.kf.sigma.Auto || o.lambda.Auto
	for _, f := range []string{"plot", "criterion", "loo-rows", "select-centers"} {
		if o.set[f] && !selecting && !(f == "plot" && o.set["interval"]) {
			return nil, cli.BadInputf("-%s is for a selection: give -sigma auto or -lambda auto", f)
		}
	}
	if !o.set["intercept"] && m.intercepts != nil {
		o.intercept = m.intercepts[0]
	}
	return m, o.iv.check(o, m, selecting && m.selects >= streamedSelection)
}

// ownFlags returns the row of -method, refusing a flag of another method.
func (o *modelFlags) ownFlags() (*method, error) {
	ms := methodsOf(o.verb)
	i := slices.IndexFunc(ms, func(m *method) bool { return m.name == o.method })
	if i < 0 {
		return nil, cli.BadInputf("-method %q: want %s", o.method, names(ms, "or"))
	}
	m := ms[i]
	own := m.own()
	for _, other := range ms {
		for _, name := range other.own() {
			if o.set[name] && !slices.Contains(own, name) {
				return nil, cli.BadInputf("-%s is not used by -method %s", name, m.name)
			}
		}
	}
	return m, nil
}

// grids checks -sigmas and -lambdas, each of which implies its value auto.
func (o *modelFlags) grids() error {
	for _, g := range []struct {
		grid, one, value string
		v                *cli.AutoValue
	}{{"sigmas", "sigma", o.sigmas, &o.kf.sigma.AutoValue}, {"lambdas", "lambda", o.lambdas, &o.lambda}} {
		if !o.set[g.grid] {
			continue
		}
		if o.set[g.one] && !g.v.Auto {
			return cli.BadInputf("-%s %v and -%s: give one (-%s is the grid of -%s auto)", g.one, g.v.V, g.grid, g.grid, g.one)
		}
		if _, err := cli.Grid(g.grid, g.value); err != nil {
			return err
		}
		g.v.Auto = true
	}
	return nil
}

// values checks the values of the flags against the method's row m: -lambda
// as the row needs it, a selection only where the row offers one, -sigma
// ard's rules, and the ranges of the numbers.
func (o *modelFlags) values(m *method) error {
	ms := methodsOf(o.verb)
	selecting := o.kf.sigma.Auto || o.lambda.Auto
	auto := "lambda"
	if o.kf.sigma.Auto {
		auto = "sigma"
	}
	var selectors []*method
	for _, s := range ms {
		if s.selects != noSelection {
			selectors = append(selectors, s)
		}
	}
	if _, _, err := o.looRows.WholeCount("loo-rows"); err != nil {
		return err
	}
	if err := o.ard.Check(o.kf.sigma, o.kf.name, o.set); err != nil {
		return err
	}
	switch ard := o.kf.sigma.ARD; {
	case ard && !m.selects.scales():
		return cli.BadInputf("-sigma ard is offered by -method %s, not %s", names(withScales(ms), "and"), m.name)
	case ard && !o.lambda.Auto:
		return cli.BadInputf("-sigma ard learns λ with the scales: give no -lambda, or -lambda auto (or -lambdas, the grid of its start)")
	case ard && o.std.Mode == "no":
		return cli.BadInputf("-sigma ard -standardize=no: the descent starts every feature at the grid's one σ and moves it by at most a factor 10³, which cannot resolve features whose spreads differ by more; leave -standardize on (the saved model maps raw rows all the same)")
	case o.kf.sigma.Auto && !o.kf.hasWidth():
		return cli.BadInputf("-sigma auto: the %s kernel has no width (use gaussian or laplacian)", o.kf.name)
	case selecting && m.selects == noSelection:
		return cli.BadInputf("-%s auto is offered by -method %s, not %s", auto, names(selectors, "and"), m.name)
	case m.lambda == lambdaRequired && !o.set["lambda"] && !o.lambda.Auto && m.selects == noSelection:
		return cli.BadInputf("-lambda is required by -method %s: λ of (K + nλI)c = y has no default, and only -method %s choose it", m.name, names(selectors, "and"))
	case m.lambda == lambdaRequired && !o.set["lambda"] && !o.lambda.Auto:
		return cli.BadInputf("-lambda is required by -method %s: λ of (K + nλI)c = y has no default; -sigma auto -lambda auto choose σ and λ by leave-one-out, on features standardized to one scale (-standardize), or give a number", m.name)
	case o.set["lambda"] && !o.lambda.Auto && !(o.lambda.V > 0):
		return cli.BadInputf("-lambda %v: want λ > 0", o.lambda.V)
	case slices.Contains(m.flags, "centers") && !o.set["centers"]:
		return cli.BadInputf("-centers is required by -method %s: the number of centres M", m.name)
	case o.set["intercept"] && !slices.Contains(m.intercepts, o.intercept):
		if _, err := cli.Intercept(o.intercept); err != nil {
			return err
		}
		return cli.BadInputf("-intercept %s is not offered by -method %s: use %s", o.intercept, m.name, strings.Join(m.intercepts, " or "))
	case o.criterion != "loo" && o.criterion != "gcv":
		return cli.BadInputf("-criterion %q: want loo or gcv", o.criterion)
	case o.set["loo-rows"] && !o.looRows.Auto && o.looRows.V > 0 && o.criterion == "gcv":
		return cli.BadInputf("-loo-rows is the leave-one-out subset: not used by -criterion gcv")
	case o.set["select-centers"] && o.selectCenters < 1:
		return cli.BadInputf("-select-centers %d: want ≥ 1", o.selectCenters)
	case o.iters < 0:
		return cli.BadInputf("-iters %d: want ≥ 0 (0 selects the method's default)", o.iters)
	case o.maxClasses < 0:
		return cli.BadInputf("-max-classes %d: want ≥ 0 (0 selects max(20, n/10))", o.maxClasses)
	case !(o.val >= 0 && o.val < 1):
		return cli.BadInputf("-val %v: want a fraction in [0, 1)", o.val)
	}
	return nil
}

// fitRun is one run of fit or classify, as the fit functions see it.
type fitRun struct {
	o *modelFlags
	m *method
	// ic is the intercept of -intercept.
	ic regress.Intercept
	// train holds the rows fitted, val those -val holds out (nil without
	// it), both as the model sees them: standardized with -standardize.
	train, val *dataset.Data
	// rows is the number of rows of -train, q the outputs of the fit (one
	// per class for one-vs-all).
	rows, q int
	stderr  io.Writer
	start   time.Time
	// selectedOn is the number of centres of the selection when falkon
	// fits on more after it (see choose), else 0.
	selectedOn int
	// scale and features are the training rows' standardization and names;
	// centres those of a streamed selection; scales the -sigma ard descent.
	scale    *kernels.Standardization
	features []string
	centres  *linalg.Dense
	scales   *report.Scales
	spectral *regress.Spectral  // the eigendecomposition of -method eigen's fit
	built    *interval.Fitted   // -interval's fit, when it is the model's (fitOnce)
	grid     *loo.SelectNystrom // the selection's grids, for -interval-method cv+fold
}

// fit fits the run's method at kernel k and λ.
func (r *fitRun) fit(k kernels.Kernel, lambda float64) (*fitted, error) {
	if r.o.set["interval"] && (r.m.name == "cholesky" || r.m.name == "rls") {
		return r.fitOnce(k, lambda)
	}
	return r.m.fits[r.o.verb](r, k, lambda)
}

// fitted is a fitted model and what the result reports of it.
type fitted struct {
	model      any // the model as saved: a *regress.Model or a classifier
	b          float64
	iterations int
	converged  *bool
	centers    int
	jitter     float64
	lambda     float64 // the λ of the fit; 0 for a method without
	classes    []float64
	k          int
}

// run is fit and classify, in the steps below: prepare, read, fitOrChoose,
// evaluate, then the files and the report.
func (o *modelFlags) run(stdout, stderr io.Writer) error {
	r, k, err := o.prepare(stderr)
	if err != nil {
		return err
	}
	test, names, sets, err := r.read()
	if err != nil {
		return err
	}
	f, sel, seconds, err := r.fitOrChoose(k)
	if err != nil {
		return err
	}
	saved := model.Of(f.model)
	*saved.FeatureNames, *saved.TargetName = names.features, names.target
	if r.scales == nil { // the descent's model composes sets.scale with the scales
		*saved.Standardization = sets.scale // the model takes raw rows
	}
	oc := &outcome{o: o, f: f, sel: sel, scales: r.scales, nTrain: sets.train.X.Rows, features: sets.train.X.Cols, standardized: sets.scale != nil, seconds: seconds,
		byLOO: sel != nil && sel.Table.Criterion == loo.LOOErrorRate}
	files, err := oc.evaluate(r, saved, sets, test)
	if err == nil {
		err = writeAll(files, stdout)
	}
	if err != nil {
		return err
	}
	return oc.report(stdout)
}

// prepare checks the flags and the outputs and returns the run with the
// kernel of -sigma (nil when σ is chosen).
func (o *modelFlags) prepare(stderr io.Writer) (*fitRun, kernels.Kernel, error) {
	if o.train == "" {
		return nil, nil, cli.BadInputf("-train is required")
	}
	if o.predictions != "" && o.test == "" {
		return nil, nil, cli.BadInputf("-predictions needs -test")
	}
	if err := o.data.check(); err != nil {
		return nil, nil, err
	}
	m, err := o.check()
	if err != nil {
		return nil, nil, err
	}
	if err := cli.CheckOutputs([]cli.Input{{Flag: "train", Value: o.train}, {Flag: "test", Value: o.test}},
		[]cli.Output{{Flag: "model", Path: o.model}, {Flag: "predictions", Path: o.predictions}, {Flag: "plot", Path: o.plot}}); err != nil {
		return nil, nil, err
	}
	r := &fitRun{o: o, m: m, q: 1, stderr: stderr}
	if m.intercepts != nil {
		if r.ic, err = cli.Intercept(o.intercept); err != nil {
			return nil, nil, err
		}
	}
	var k kernels.Kernel
	if !o.kf.sigma.Auto {
		k, err = o.kf.kernelAt(o.kf.sigma.V)
	}
	return r, k, err
}

// read reads the training file and the test file (by the training file's
// column names), checks the classes, holds out -val and standardizes.
func (r *fitRun) read() (test *dataset.Data, names columnNames, sets trainingSets, err error) {
	o := r.o
	o.data.stderr = r.stderr
	train, names, err := o.data.readTraining(o.train)
	if err != nil {
		return nil, names, sets, err
	}
	if o.test != "" {
		if test, err = o.data.readBeside(o.test, names, o.train, train); err != nil {
			return nil, names, sets, err
		}
	}
	if o.classes() {
		if r.q, err = checkClasses(train, o.maxClasses); err != nil {
			return nil, names, sets, err
		}
	}
	if sets, err = splitTraining(o.val, o.seed, o.std.On(o.kf.sigma.Auto), train, names, o.verb, r.stderr); err != nil {
		return nil, names, sets, err
	}
	if test != nil {
		if err := checkFar(r.stderr, o.verb, "-test", sets.scale, &test.X, names.features); err != nil {
			return nil, names, sets, err
		}
	}
	r.train, r.val, r.rows, r.start, r.scale, r.features = sets.fitTrain, sets.fitVal, train.X.Rows, time.Now(), sets.scale, names.features
	return test, names, sets, nil
}

// fitOrChoose fits at the kernel k and -lambda, or chooses σ and λ and
// fits at the choice, and returns the fit, the selection (nil without)
// and the seconds it took.
func (r *fitRun) fitOrChoose(k kernels.Kernel) (*fitted, *report.Selection, float64, error) {
	o := r.o
	selecting := o.kf.sigma.Auto || o.lambda.Auto
	stop := r.announce(r.train.X.Rows, r.train.X.Cols, selecting)
	var f *fitted
	var sel *report.Selection
	var err error
	if selecting {
		f, sel, err = r.choose()
	} else {
		f, err = r.fit(k, o.lambda.V)
	}
	stop()
	if err != nil {
		return nil, nil, 0, r.explain(err)
	}
	seconds := time.Since(r.start).Seconds()
	if k != nil && o.kf.hasWidth() { // after the fit, so that a run that fails says one line
		m := 0
		if slices.Contains(r.m.flags, "centers") {
			m = o.centers
		}
		c, _ := loo.CheckWidth(k, &r.train.X, m, o.seed) // nil, and no warning, where it cannot judge
		report.WarnWidth(r.stderr, "rkhs "+o.verb, o.kf.sigma.V, c)
	}
	sel.WarnFacts(r.stderr, "rkhs "+o.verb)
	return f, sel, seconds, nil
}

// evaluate scores the model saved on the training, test and -val rows,
// computes the intervals of -interval, and returns the files to write:
// -predictions, -plot and -model.
func (oc *outcome) evaluate(r *fitRun, saved *model.Model, sets trainingSets, test *dataset.Data) ([]pendingFile, error) {
	testPred, err := oc.score(saved, sets, test)
	if err != nil {
		return nil, err
	}
	o := oc.o
	var lines, plot []byte
	if testPred != nil {
		lines = saved.Lines(testPred)
	}
	title, toSave := fmt.Sprintf("rkhs %s -method %s on %s (%s)", o.verb, r.m.name, filepath.Base(o.train), report.Count(oc.nTrain, "row")), any(oc.f.model)
	switch {
	case o.set["interval"]:
		inner, _ := oc.f.model.(*regress.Model)
		if c, ok := oc.f.model.(*classify.RLSModel); ok {
			inner = c.Model
		}
		p, err := r.intervals(inner, oc.f.lambda, sets.train)
		if err != nil {
			return nil, r.explain(err)
		}
		if p.CV() != nil {
			toSave = p.CV()
		}
		if test != nil {
			if lines, plot, err = oc.testIntervals(p, test, testPred, title); err != nil {
				return nil, err
			}
		}
	case r.scales != nil && o.plot != "":
		plot = r.scales.Plot(title)
	case oc.sel != nil && o.plot != "":
		plot = oc.sel.Plot(title)
	}
	files := []pendingFile{{o.predictions, lines}, {o.plot, plot}}
	if o.model != "" {
		b, err := model.Marshal(toSave)
		if err != nil {
			return nil, err
		}
		files = append(files, pendingFile{o.model, b})
	}
	return files, nil
}

// score scores the model saved on the training, test and -val rows and
// returns its predictions of the test rows (nil without).
func (oc *outcome) score(saved *model.Model, sets trainingSets, test *dataset.Data) (testPred *linalg.Dense, err error) {
	o := oc.o
	for _, s := range []struct {
		d     *dataset.Data
		score **report.JSONFloat
	}{{sets.train, &oc.train}, {test, &oc.test}, {sets.val, &oc.val}} {
		if s.d == nil || s.d == sets.train && o.skipTrain {
			continue
		}
		pr, err := saved.Predict(&s.d.X)
		if err != nil {
			return nil, err
		}
		v, err := o.score(s.d.Y, pr)
		if err != nil {
			return nil, err
		}
		*s.score = report.JSONPtr(v)
		if s.d == test {
			testPred, oc.nTest = pr, test.X.Rows
		}
	}
	if sets.val != nil {
		oc.nVal = sets.val.X.Rows
	}
	return testPred, nil
}

// score scores predictions p of labels y: the mean squared error (fit),
// or the accuracy of the labels (classify).
func (o *modelFlags) score(y []float64, p *linalg.Dense) (float64, error) {
	if o.classes() {
		return classify.Accuracy(y, p.Data[:p.Rows])
	}
	return cli.MSE(y, p)
}

// checkClasses checks the labels of a classification: more distinct
// labels than -max-classes (classify.CheckClasses) make a continuous
// target, and one-vs-all codes and coefficients (2 values a row and
// class) that alone exceed the memory are refused before anything of
// that size is allocated. It returns the outputs of the fit: one, or one
// per class beyond two.
func checkClasses(train *dataset.Data, limit int) (int, error) {
	n, classes := train.X.Rows, classify.CountClasses(train.Y)
	if err := classify.CheckClasses(classes, n, limit); err != nil {
		var ie *linalg.InputError
		errors.As(err, &ie)
		return 0, cli.Explained{Msg: ie.Reason + "; run rkhs fit for regression, or raise -max-classes if these are classes", Err: err}
	}
	if classes <= 2 {
		return 1, nil
	}
	if err := memlimit.Check("classify: one-vs-all", memlimit.Floats(2, n, classes)); err != nil {
		var me *linalg.MemoryError
		errors.As(err, &me)
		return 0, cli.Explained{Msg: fmt.Sprintf("classify on %s with %d classes needs %s of memory for one-vs-all alone (±1 targets and coefficients, 2 values per row and class), more than the %s of %s: fewer classes fit (merge the rare ones), or fewer rows",
			report.Count(n, "row"), classes, linalg.FormatBytes(me.Need), linalg.FormatBytes(me.Limit), me.Source), Err: err}
	}
	return classes, nil
}

// announce announces a long run of the method on n rows of d features
// (see announceCost), from minAnnounced rows: an exact one by its
// factorization (an eigendecomposition per σ when choosing), falkon by
// regress.FalkonCost. A streamed selection announces itself (fitRun.streamed),
// on any number of rows: its grids alone can make it long.
func (r *fitRun) announce(n, d int, selecting bool) (stop func()) {
	what := r.o.verb + " -method " + r.m.name
	switch route := r.m.cost; {
	case n < minAnnounced:
	case route == "falkon":
		return announceCost(r.stderr, what, n, cost{regress.FalkonCost(n, d, r.o.centers, r.q, r.o.iters),
			fmt.Sprintf("O(M³ + T·nMd) work, M = %d centres, T = %s", r.o.centers, report.Count(cmp.Or(r.o.iters, regress.DefaultFalkonIter), "iteration")), ""})
	case route != "" && selecting:
		return announce(r.stderr, what, "eigen", n, d)
	case route != "":
		return announce(r.stderr, what, route, n, d)
	}
	return func() {}
}

// explain says an error of a fit or a selection in the command's terms: a
// problem too large for the memory with the advice that fits the method
// (report.TooLarge), an option the library names by its field by its flag,
// and with -val how many rows were left to fit.
func (r *fitRun) explain(err error) error {
	n, d := r.train.X.Rows, r.train.X.Cols
	var me *linalg.MemoryError
	if errors.As(err, &me) {
		advice := report.ExactAdvice
		switch {
		case r.m.selects >= streamedSelection && (r.o.kf.sigma.Auto || r.o.lambda.Auto) && me.Op != "Falkon.Fit":
			flag, m := "-centers", r.o.centers
			if r.m.selects == falkonSelection && m > r.o.selectCenters {
				flag, m = "-select-centers", r.o.selectCenters
			}
			advice = report.SelectionAdvice(flag, m, me)
		case r.m.selects >= streamedSelection:
			limit, _ := memlimit.Limit()
			advice = report.CentersAdvice(regress.FalkonMaxCenters(n, d, r.q, limit), r.m.name == "nystrom")
		}
		return cli.Explained{Msg: report.TooLarge(r.o.verb+" -method "+r.m.name, n, me, advice), Err: err}
	}
	var ie *linalg.InputError
	if !errors.As(err, &ie) {
		return err
	}
	msg, reason := err.Error(), strings.NewReplacer(" of X", " of the training file", "X has", "the training file has").Replace(ie.Reason)
	var m, distinct int
	flag := map[string]string{"Centers": "centers", "MaxIter": "iters", "Subset": "loo-rows", "labels": "train", "Level": "interval", "Folds": "folds"}[ie.Arg]
	switch v := r.o.set[flag]; {
	case ie.Arg == "labels":
		msg = "the labels of -train: " + reason
	case flag != "" && v:
		value := r.o.fs.Lookup(flag).Value.String()
		msg = fmt.Sprintf("-%s %s: %s", flag, value, strings.TrimPrefix(reason, value+", "))
		if _, e := fmt.Sscanf(ie.Reason, "%d, but X has only %d distinct rows", &m, &distinct); e == nil {
			msg = fmt.Sprintf("-centers %d: more than the %d distinct rows of the training file (the centres are distinct rows)", m, distinct)
		}
	}
	if r.val != nil {
		msg += fmt.Sprintf("; -val %v leaves %d of the %s of -train to fit", r.o.val, n, report.Count(r.rows, "row"))
	}
	return cli.Explained{Msg: msg, Err: err}
}

// result is the JSON object fit and classify print with -json. A field
// of type any belongs to one verb: left nil it is not printed; set, even
// to a nil *report.JSONFloat (a test score without -test), it is, as null.
type result struct {
	Method                 string             `json:"method"`
	Kernel                 string             `json:"kernel"`
	Intercept              string             `json:"intercept,omitempty"` // all but knn
	NTrain                 int                `json:"n_train"`             // rows fitted: those of -train less the NVal held out
	NTest                  int                `json:"n_test"`
	Features               int                `json:"features"`
	Classes                []report.JSONFloat `json:"classes,omitempty"`       // classify
	Lambda                 *report.JSONFloat  `json:"lambda"`                  // null for a method without λ
	LambdaByLOO            any                `json:"lambda_by_loo,omitempty"` // classify: λ was chosen by leave-one-out
	K                      int                `json:"k,omitempty"`             // knn
	B                      any                `json:"b,omitempty"`             // fit
	TrainMSE               any                `json:"train_mse,omitempty"`
	TestMSE                any                `json:"test_mse,omitempty"`
	TrainAcc               any                `json:"train_accuracy,omitempty"` // classify, null with -skip-train-accuracy
	TestAcc                any                `json:"test_accuracy,omitempty"`
	FitSeconds             float64            `json:"fit_seconds"`
	Iterations             int                `json:"iterations,omitempty"` // of an iterative method
	Converged              *bool              `json:"converged,omitempty"`  // perceptron, logistic
	Centers                int                `json:"centers,omitempty"`    // nystrom, falkon
	Jitter                 float64            `json:"jitter,omitempty"`
	NVal                   int                `json:"n_val,omitempty"` // falkon -val: rows of -train held out, and their score
	ValMSE                 *report.JSONFloat  `json:"val_mse,omitempty"`
	ValAcc                 *report.JSONFloat  `json:"val_accuracy,omitempty"`
	report.SelectionFields                    // with a selection
	*report.ScalesFields                      // with -sigma ard
	Standardized           bool               `json:"standardized,omitempty"` // -standardize was on
	report.IntervalFields                     // -interval: its level, method, folds, and whether σ or λ were chosen on the same rows (the guarantee holds at fixed σ, λ)
	TestCoverage           *report.JSONFloat  `json:"test_coverage,omitempty"`
	IntervalMeanWidth      any                `json:"interval_mean_width,omitempty"` // fit
	SetMeanSize            any                `json:"set_mean_size,omitempty"`       // classify
}

// outcome is what a run of fit or classify reports.
type outcome struct {
	o                             *modelFlags
	f                             *fitted
	sel                           *report.Selection
	scales                        *report.Scales // with -sigma ard
	nTrain, nVal, nTest, features int
	standardized, byLOO           bool // byLOO: a classifier's λ chosen by its leave-one-out error rate
	seconds                       float64
	// train, test and val are the scores: the mean squared error or the
	// accuracy; nil when not computed. coverage and width are those of
	// -interval on the test rows (width: a label set's mean size).
	train, test, val, coverage, width *report.JSONFloat
}

// report prints the result: one JSON object, or text.
func (oc *outcome) report(w io.Writer) error {
	res := oc.result()
	if oc.o.json {
		return printJSON(w, res)
	}
	chosen := oc.modelLines(w)
	oc.scoreLines(w, chosen, res.IntervalAfterChoice)
	return nil
}

// result is the object of -json.
func (oc *outcome) result() result {
	o, f, sel := oc.o, oc.f, oc.sel
	res := result{Method: o.method, Kernel: o.kf.name, Intercept: o.intercept, NTrain: oc.nTrain, NTest: oc.nTest, Features: oc.features,
		K: f.k, FitSeconds: oc.seconds, Iterations: f.iterations, Converged: f.converged, Centers: f.centers, Jitter: f.jitter, NVal: oc.nVal,
		SelectionFields: sel.Fields(oc.scales), ScalesFields: oc.scales.Fields(), Standardized: oc.standardized}
	if f.lambda > 0 {
		res.Lambda = report.JSONPtr(f.lambda)
	}
	if o.set["interval"] {
		res.IntervalFields, res.TestCoverage = report.IntervalJSON(o.iv.level, o.iv.method, o.iv.folds, sel != nil), oc.coverage
	}
	if o.classes() {
		res.Classes, res.LambdaByLOO, res.TrainAcc, res.TestAcc, res.ValAcc = report.JSONFloats(f.classes), oc.byLOO && o.lambda.Auto, oc.train, oc.test, oc.val
		if oc.coverage != nil {
			res.SetMeanSize = oc.width
		}
	} else {
		res.B, res.TrainMSE, res.TestMSE, res.ValMSE = report.JSONFloat(f.b), oc.train, oc.test, oc.val
		if oc.coverage != nil {
			res.IntervalMeanWidth = oc.width
		}
	}
	return res
}

// modelLines prints the selection's tables and the model's lines, and
// returns what was chosen (σ, λ, …) for the notes that follow.
func (oc *outcome) modelLines(w io.Writer) string {
	o, f, sel := oc.o, oc.f, oc.sel
	chosen := map[[2]bool]string{{true, true}: "σ and λ", {true, false}: "σ", {false, true}: "λ"}[[2]bool{o.kf.sigma.Auto, o.lambda.Auto}]
	sigma, looScore := "", 0.0
	if sel != nil {
		sel.PrintTable(w)
		sigma, looScore = fmt.Sprintf("σ = %.4g", sel.Choice.Sigma), sel.Choice.Score
	}
	if s := oc.scales; s != nil {
		s.PrintTable(w)
		sigma, chosen, looScore = "σ one per feature (above)", "σ_j and λ", s.Sel.Objective
		if oc.byLOO {
			looScore = s.Sel.ErrorRate
		}
	}
	fmt.Fprintf(w, "method %s, kernel %s", o.method, o.kf.name)
	if o.classes() {
		classes := make([]string, len(f.classes))
		for i, c := range f.classes {
			classes[i] = strconv.FormatFloat(c, 'g', -1, 64)
		}
		fmt.Fprintf(w, ", %d classes {%s}\n", len(classes), strings.Join(classes, ", "))
		switch {
		case oc.byLOO:
			fmt.Fprintf(w, "%s, λ = %.4g, %s chosen by leave-one-out (LOO error %.4f)\n", sigma, f.lambda, chosen, looScore)
		case sel != nil:
			fmt.Fprintf(w, "%s, λ = %.4g, %s chosen by %s (%.6g)\n", sigma, f.lambda, chosen, sel.Table.Criterion, looScore)
		case f.lambda > 0:
			fmt.Fprintf(w, "λ = %g\n", f.lambda)
		}
	} else {
		fmt.Fprintf(w, ", intercept %s", o.intercept)
		switch {
		case sel != nil:
			fmt.Fprintf(w, ", %s, λ = %.4g\n", sigma, f.lambda)
		case f.lambda > 0:
			fmt.Fprintf(w, ", λ = %g\n", f.lambda)
		default:
			fmt.Fprintf(w, ", %s\n", report.Count(f.iterations, "iteration"))
		}
	}
	return chosen
}

// scoreLines prints the rows and scores of training, validation and test,
// with the intervals' coverage, and the note on a guarantee after a choice
// (afterChoice) of what was chosen.
func (oc *outcome) scoreLines(w io.Writer, chosen string, afterChoice bool) {
	o, f := oc.o, oc.f
	score, format := "MSE", "%.6g"
	if o.classes() {
		score, format = "accuracy", "%.4f"
	}
	fmt.Fprintf(w, "n_train %d", oc.nTrain)
	if !o.classes() {
		fmt.Fprintf(w, ", b = %.6g", f.b)
	}
	if oc.train != nil {
		fmt.Fprintf(w, ", train %s "+format, score, float64(*oc.train))
	}
	fmt.Fprintf(w, ", fit %.3f s\n", oc.seconds)
	if oc.val != nil {
		fmt.Fprintf(w, "n_val %d (held out of -train by -val), validation %s "+format+"\n", oc.nVal, score, float64(*oc.val))
	}
	if f.converged != nil && !*f.converged {
		fmt.Fprintf(w, "not converged: stopped at the limit of %s (-iters)\n", report.Count(f.iterations, "iteration"))
	}
	if oc.test != nil {
		fmt.Fprintf(w, "n_test %d, test %s "+format, oc.nTest, score, float64(*oc.test))
		if oc.coverage != nil {
			what := map[bool]string{false: "intervals", true: "label sets"}[o.classes()]
			fmt.Fprintf(w, ", %s at %v by %s: coverage %.4f, mean %s %.4g", what, o.iv.level, o.iv.method, float64(*oc.coverage), map[bool]string{false: "width", true: "size"}[o.classes()], float64(*oc.width))
		}
		fmt.Fprintln(w)
	}
	if afterChoice {
		fmt.Fprintf(w, "note: %s chosen by leave-one-out on these rows: the coverage of %s (Barber, Candès, Ramdas and Tibshirani, 2021) is guaranteed at a fixed σ and λ, and after a choice may fall a little short\n", chosen, o.iv.method)
	}
}
