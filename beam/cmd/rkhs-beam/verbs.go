package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	rkhsbeam "rkhs/beam"
	"rkhs/internal/cli"
	"rkhs/internal/outfile"
	"rkhs/kernels"
	"rkhs/loo"
	"rkhs/model"
	"rkhs/regress"
	"rkhs/report"
)

func fitCommand(fs *flag.FlagSet) func(context.Context) (string, error) {
	in, kern, ic := inputFlags(fs, false), kernelSpec(fs), interceptFlag(fs)
	var o rkhsbeam.FitOptions
	fs.Float64Var(&o.Lambda, "lambda", 0, "λ in the K + nλI convention (no default)")
	centerFlags(fs, &o.Centers, &o.Seed, &o.CentersFile)
	fs.StringVar(&o.Model, "model", "", "output: the model (JSON)")
	fs.StringVar(&o.Stats, "stats", "", "output: the merged statistics, for rkhs-beam solve")
	fs.StringVar(&o.DeadLetter, "dead-letter", "", "output: malformed lines, instead of failing")
	std := standardizeFlag(fs, "never in fit, whose σ is given")
	solver := fs.String("solver", "direct", "direct (m×m statistics, one pass) or cg (conjugate gradient, one pass per iteration)")
	scratch := fs.String("scratch", "", "cg: a directory the workers and this process share; each run works in a directory of its own there, removed at the end (default: the system's temporary directory)")
	return func(ctx context.Context) (string, error) {
		var err error
		if o.Input, err = in(); err != nil {
			return "", err
		}
		if o.Intercept, err = ic(); err != nil {
			return "", err
		}
		o.Kernel, o.Standardize = kern(), std.On(false)
		if o.Model == "" {
			return "", cli.BadInputf("-model is required: where to write the model")
		}
		absPaths(&o.Input, &o.CentersFile, &o.Model, &o.Stats, &o.DeadLetter, scratch)
		if err := o.Check(ctx); err != nil {
			return "", badOptions(err)
		}
		var job jobRun
		if o, err = rkhsbeam.DrawCenters(ctx, o, job.run); err != nil {
			return "", err
		}
		switch *solver {
		case "direct":
		case "cg":
			if o.Stats != "" || o.DeadLetter != "" {
				return "", cli.BadInputf("-solver cg writes no statistics and no dead letters: give neither -stats nor -dead-letter")
			}
			if _, err := rkhsbeam.FitCG(ctx, o, *scratch, job.run); err != nil {
				return "", err
			}
			return fmt.Sprintf("%s; model written to %s", job.counts(""), o.Model), nil
		default:
			return "", cli.BadInputf("-solver %q: want direct or cg", *solver)
		}
		p, s := beam.NewPipelineWithRoot()
		if _, err := rkhsbeam.Fit(s, o); err != nil {
			return "", badOptions(err)
		}
		if err := job.run(ctx, p); err != nil {
			return "", err
		}
		if job.rows == 0 && o.DeadLetter != "" {
			return "", fmt.Errorf("no row could be read: %s, set aside in %s; no model written", report.Count(int(job.malformed), "malformed line"), o.DeadLetter)
		}
		return fmt.Sprintf("%s; model written to %s", job.counts(o.DeadLetter), o.Model), nil
	}
}

func predictCommand(fs *flag.FlagSet) func(context.Context) (string, error) {
	in := inputFlags(fs, true)
	var o rkhsbeam.PredictOptions
	fs.StringVar(&o.Model, "model", "", "the model file (JSON) rkhs fit, rkhs classify or rkhs-beam fit wrote; a CSV file with a header is read by the names of the model's columns, in any order")
	fs.StringVar(&o.Output, "output", "", "output directory (it must exist): one NAME.pred per input file")
	fs.StringVar(&o.DeadLetter, "dead-letter", "", "output: malformed lines, each with a line of NaN in the predictions, instead of failing")
	return func(ctx context.Context) (string, error) {
		var err error
		if o.Input, err = in(); err != nil {
			return "", err
		}
		if o.Model == "" || o.Output == "" {
			return "", cli.BadInputf("-model and -output are required")
		}
		if o.Input.CSV.Target != "" || o.Input.CSV.Features != nil {
			return "", cli.BadInputf("-target and -features: predict reads a file with a header by the names of the model's columns, and one without by position")
		}
		absPaths(&o.Input, &o.Model, &o.Output, &o.DeadLetter)
		notes, err := o.PositionNotes(ctx)
		if err != nil {
			return "", badOptions(err)
		}
		for _, n := range notes {
			fmt.Fprintf(os.Stderr, "rkhs-beam predict: note: %s\n", n)
		}
		p, s := beam.NewPipelineWithRoot()
		if _, err := rkhsbeam.Predict(s, o); err != nil {
			return "", badOptions(err)
		}
		var job jobRun
		if err := job.run(ctx, p); err != nil {
			return "", err
		}
		for _, w := range job.warnings {
			fmt.Fprintf(os.Stderr, "rkhs-beam predict: warning: %s\n", w)
		}
		return fmt.Sprintf("%s; predictions written to %s", job.counts(o.DeadLetter), o.Output), nil
	}
}

// predictionFiles returns the files predict writes, one for each input
// file, as outputs of -output, once -output is known to be a directory;
// none before -input and a local -output are given.
func predictionFiles(ctx context.Context) ([]cli.Output, error) {
	dir := value("output")
	if value("input") == "" || !local(dir) {
		return nil, nil
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, cli.BadInputf("-output %s: not a directory (create it first)", dir)
	}
	o := rkhsbeam.PredictOptions{Input: rkhsbeam.Input{Patterns: strings.Split(value("input"), ",")}, Output: dir}
	_, files, err := o.PredictionFiles(ctx)
	if err != nil {
		return nil, badOptions(err)
	}
	outs := make([]cli.Output, len(files))
	for i, f := range files {
		outs[i] = cli.Output{Flag: "output", Path: f}
	}
	return outs, nil
}

func selectCommand(fs *flag.FlagSet) func(context.Context) (string, error) {
	in, ic := inputFlags(fs, false), interceptFlag(fs)
	var o rkhsbeam.SelectOptions
	kernel := fs.String("kernel", "gaussian", "kernel: gaussian or laplacian")
	sigmas := fs.String("sigmas", "", "σ grid `MIN:MAX:COUNT`, geometric (default: the median distance between rows × {1/4, 1/2, 1, 2, 4}, after standardization, as rkhs)")
	lambdas := fs.String("lambdas", "", "λ grid `MIN:MAX:COUNT`, geometric, in the K + nλI convention (default: 1e-10:1:51, rkhs's, loo.DefaultLambdas)")
	std := standardizeFlag(fs, "always in select, whose σ is chosen (around the median distance, or from -sigmas)")
	fs.BoolVar(&o.Classes, "classes", false, "the labels are classes: coded ±1 (one-vs-all beyond two), chosen by the leave-one-out error rate (-criterion loo), and the model written is a classifier, as rkhs classify -method nystrom writes")
	fs.IntVar(&o.MaxClasses, "max-classes", 0, "with -classes: refuse more distinct labels than this; 0: at most max(20, n/10) for n rows, fewer than 10 rows a class on average, beyond which the label is almost surely a continuous target (as rkhs classify)")
	criterion := fs.String("criterion", "loo", "loo (exact leave-one-out: a second pass; the mean squared residual, or with -classes the error rate) or gcv (from the statistics alone)")
	centerFlags(fs, &o.Centers, &o.Seed, &o.CentersFile)
	fs.StringVar(&o.Model, "model", "", "output: the model at the pair chosen (JSON)")
	fs.StringVar(&o.Scratch, "scratch", "", "a directory the workers and this process share; each run works in a directory of its own there, removed at the end (default: the system's temporary directory)")
	asJSON := fs.Bool("json", false, "print the choice and the tables as one JSON object, with the fields of rkhs fit -json")
	sigma := fs.String("sigma", "", "ard: after the grid, one σ per feature of the gaussian kernel (automatic relevance determination): the σ_j and λ that minimize the same criterion, by L-BFGS from the grid's choice on the same centres (-ard-rows, -ard-iters), each evaluation on every row two or three pipelines; the model written is the fit at the scales, and the features are printed ranked by σ_j (default: the grid's σ)")
	var ard cli.ARDFlags
	ard.Register(fs)
	level := fs.Float64("interval", 0, "CV+ prediction intervals at this level in (0, 1), as 0.9: the model file keeps the -folds fold models and their held-out residuals, as rkhs fit -interval-method cv+ -model does, for rkhs predict -interval")
	ivMethod := fs.String("interval-method", "cv+", "cv+, the one method of a streamed selection (a row's fold is a hash of -seed and its place among all the rows)")
	folds := fs.Int("folds", 10, "with -interval: the number of folds K of CV+")
	return func(ctx context.Context) (string, error) {
		var err error
		if o.Input, err = in(); err != nil {
			return "", err
		}
		if err := o.SetInterval(*level, *ivMethod, *folds); err != nil {
			return "", badOptions(err)
		}
		if o.Intercept, err = ic(); err != nil {
			return "", err
		}
		o.Kernel, o.Standardize = kernels.Spec{Type: *kernel}, std.On(true)
		o.Lambdas = loo.DefaultLambdas()
		if *lambdas != "" {
			if o.Lambdas, err = cli.Grid("lambdas", *lambdas); err != nil {
				return "", err
			}
		}
		o.MedianRatios = loo.DefaultSigmaRatios()
		if *sigmas != "" {
			if o.Sigmas, err = cli.Grid("sigmas", *sigmas); err != nil {
				return "", err
			}
			o.MedianRatios = nil
		}
		switch *criterion {
		case "loo":
			o.Criterion = loo.LOOMSE
			if o.Classes {
				o.Criterion = loo.LOOErrorRate
			}
		case "gcv":
			o.Criterion = loo.GCV
		default:
			return "", cli.BadInputf("-criterion %q: want loo or gcv", *criterion)
		}
		if o.Model == "" {
			return "", cli.BadInputf("-model is required: where to write the model")
		}
		rowsErr, err := ardOptions(&o, *sigma, &ard)
		if err != nil {
			return "", err
		}
		absPaths(&o.Input, &o.CentersFile, &o.Scratch)
		if err := o.Check(ctx); err != nil {
			return "", badOptions(err)
		}
		var job jobRun
		sel, err := rkhsbeam.Select(ctx, o, job.run)
		if err != nil {
			err = rowsErr(err)
			if strings.Contains(err.Error(), "continuous target") {
				err = cli.Explained{Msg: err.Error() + " (raise -max-classes if these are classes, or leave out -classes for regression)", Err: err}
			}
			return "", err
		}
		if err := showSelection(sel, o, report.IntervalJSON(*level, *ivMethod, *folds, true), *asJSON); err != nil {
			return "", err
		}
		if s := sel.Scales; s != nil {
			return fmt.Sprintf("%s read; σ = %.4g, λ = %.4g (%s %.6g), then %s and λ = %.4g; model written to %s",
				report.Count(sel.Rows, "row"), sel.Sigma, sel.Lambda, sel.Criterion, sel.Score, report.Count(len(s.Sigmas), "length scale"), s.Lambda, o.Model), nil
		}
		return fmt.Sprintf("%s read; σ = %.4g, λ = %.4g (%s %.6g); model written to %s",
			report.Count(sel.Rows, "row"), sel.Sigma, sel.Lambda, sel.Criterion, sel.Score, o.Model), nil
	}
}

// selectResult is the object select -json prints: the fields rkhs fit -json
// prints for a selection (report.SelectionFields: the top level the model
// written, the grid's pair under grid_ after a descent) and for -interval
// (report.IntervalFields), and every table of the selection, [σ][λ], null where the Nyström system is singular.
type selectResult struct {
	Kernel    string             `json:"kernel"`
	Intercept string             `json:"intercept"`
	NTrain    int                `json:"n_train"`
	Features  int                `json:"features"`
	Centers   int                `json:"centers"`
	Classes   []report.JSONFloat `json:"classes,omitempty"`
	Lambda    report.JSONFloat   `json:"lambda"`
	report.SelectionFields
	*report.ScalesFields
	Standardized bool `json:"standardized,omitempty"`
	report.IntervalFields
	Tables map[string][][]report.JSONFloat `json:"tables"`
}

// showSelection prints the selection as rkhs prints one: the table and
// the chosen line (or, asJSON, one object, iv its -interval), then warnings.
func showSelection(sel *rkhsbeam.Selection, o rkhsbeam.SelectOptions, iv report.IntervalFields, asJSON bool) error {
	s := report.NewSelection(sel.Scores, sel.Choice, sel.Median, sel.Rows)
	s.Start = sel.Scales != nil // the grid's edges are no limit of the descent
	if a, j, ok := sel.Scores.BestAt(); ok && sel.LOO != nil {
		s.LOOMSE, s.LOORows = sel.LOO[a][j], sel.LOORows
	}
	for _, n := range sel.Notes {
		fmt.Fprintf(os.Stderr, "rkhs-beam select: note: %s\n", n)
	}
	for _, w := range sel.Warnings {
		fmt.Fprintf(os.Stderr, "rkhs-beam select: warning: %s\n", w)
	}
	defer s.WarnFacts(os.Stderr, "rkhs-beam select")
	scales := scalesReport(sel, o)
	if !asJSON {
		s.PrintTable(os.Stdout)
		if scales != nil {
			scales.PrintTable(os.Stdout)
		}
		return nil
	}
	r := selectResult{Kernel: o.Kernel.Type, Intercept: o.Intercept.String(), NTrain: sel.Rows, Features: sel.Model.Centers.Cols,
		Centers: sel.Model.Centers.Rows, Lambda: report.JSONFloat(sel.Lambda), SelectionFields: s.Fields(scales), ScalesFields: scales.Fields(),
		Standardized: sel.Model.Standardization != nil, IntervalFields: iv, Tables: map[string][][]report.JSONFloat{}}
	if sel.Scales != nil {
		r.Lambda = report.JSONFloat(sel.Scales.Lambda)
	}
	if sel.Classifier != nil {
		r.Classes = report.JSONFloats(sel.Classifier.Classes)
	}
	for name, t := range map[string][][]float64{"gcv": sel.GCV, "df": sel.DF, "loo_mse": sel.LOO, "loo_error": sel.LOOError} {
		for _, row := range t {
			r.Tables[name] = append(r.Tables[name], report.JSONFloats(row))
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = fmt.Printf("%s\n", b)
	return err
}

func solveCommand(fs *flag.FlagSet) func(context.Context) (string, error) {
	ic := interceptFlag(fs)
	stats := fs.String("stats", "", "statistics written by rkhs-beam fit -stats")
	lambda := fs.Float64("lambda", 0, "λ in the K + nλI convention (no default)")
	modelPath := fs.String("model", "", "output: the model (JSON)")
	return func(ctx context.Context) (string, error) {
		mode, err := ic()
		if err != nil {
			return "", err
		}
		if *stats == "" || *modelPath == "" {
			return "", cli.BadInputf("-stats and -model are required")
		}
		b, err := os.ReadFile(*stats)
		if err != nil {
			return "", err
		}
		var st regress.NystromStats
		if err := st.UnmarshalBinary(b); err != nil {
			return "", cli.BadInput{Err: fmt.Errorf("%s: %w", *stats, err)}
		}
		fit, err := st.Solve(*lambda, mode)
		if err != nil {
			return "", err
		}
		js, err := model.Marshal(fit.Model)
		if err != nil {
			return "", err
		}
		if err := outfile.WriteFile(*modelPath, js, os.Stdout); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s of the statistics; model written to %s", report.Count(st.Rows(), "row"), *modelPath), nil
	}
}
