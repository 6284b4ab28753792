// Command rkhs-beam fits Nyström kernel ridge regression on Apache Beam
// and applies saved models to files of rows (package rkhs/beam).
//
// Usage:
//
//	rkhs-beam fit     -input GLOB[,GLOB…] -format csv|libsvm -kernel K [-sigma S] -lambda L [-standardize]
//	                  [-intercept none|free|penalized] (-centers M [-seed N] | -centers-file FILE)
//	                  [-solver direct|cg [-scratch DIR]] -model OUT [-stats OUT] [-dead-letter OUT] [runner flags]
//	rkhs-beam select  -input GLOB[,GLOB…] -format csv|libsvm [-kernel gaussian|laplacian] [-sigmas A:B:K] -lambdas A:B:K
//	                  [-standardize auto|yes|no] [-classes] [-criterion loo|gcv] [-intercept I] (-centers M [-seed N] | -centers-file FILE)
//	                  [-scratch DIR] [-json] -model OUT [runner flags]
//	rkhs-beam predict -input GLOB[,GLOB…] -format csv|libsvm [-unlabelled] -model FILE -output DIR [-dead-letter OUT] [runner flags]
//	rkhs-beam solve   -stats FILE -lambda L [-intercept I] -model OUT   (no pipeline: a new λ from saved statistics)
//
// Input files: -features D (LIBSVM input needs it), and for CSV -header,
// -label-col (0-based; negative counts from the end; default -1, the last
// column, as rkhs reads CSV) and -comma; predict reads CSV files without a
// label column with -unlabelled. Names ending in .gz are read through
// gzip. λ is in the K + nλI convention, n the number of rows read; the
// model file is the JSON that rkhs predict reads. -solver cg runs one
// pipeline per pass of the conjugate-gradient solver, from this process,
// each writing its sums to a directory of its own under -scratch (a
// directory the workers share; default the system's temporary
// directory), removed at the end; the solver is regress.Falkon's (20
// iterations, no penalized intercept).
//
// select chooses σ and λ as rkhs fit -sigma auto -lambda auto does
// (loo.SelectNystrom), in passes of the pipeline: one pipeline draws the
// centres, shared by every σ of the geometric grid -sigmas MIN:MAX:COUNT
// (default: the median distance between the centres, as the kernel sees
// them, × {1/4, 1/2, 1, 2, 4}; the centres are a seeded uniform sample of
// the distinct rows), gathers in the same read the features' moments
// (-standardize, on by default exactly when -sigmas is not given) and,
// with -classes, the labels, and summarises the data for each σ; this process computes GCV and tr H
// for every λ of -lambdas; unless -criterion gcv, a second pipeline gives
// the exact leave-one-out residuals of every pair (each worker rebuilds
// the λ path from the statistics, which it reads from -scratch: a
// directory the workers share). It writes the model at the pair with the
// smallest score to -model and prints the table of the criterion, one row
// per λ and one column per σ, the chosen pair starred (with -json, one
// object: sigma, lambda, criterion, score, rows and the table). With
// -classes the labels are classes, coded ±1 (one-vs-all beyond two
// classes) as rkhs classify codes them, the criterion is the
// leave-one-out error rate (ties to the smaller leave-one-out squared
// error) and the model a classifier. The model keeps the standardization,
// so that predict and rkhs predict take raw features. A choice at the
// smallest or largest value of its σ or λ grid draws one warning line on
// standard error, as in rkhs: the grid should be widened on that side.
//
// predict reads any model rkhs fit, rkhs classify or rkhs-beam fit saves
// and writes, for each input file, OUT/NAME.pred (NAME the file's name
// without .gz): one line per row, in the format of rkhs predict (%.17g, a
// classifier's labels in the shortest form that reads back exactly); with
// -dead-letter, a row that cannot be read gets a line of NaN, so that line
// i stays row i. Two input files of the same NAME are refused.
//
// # Runners
//
// -runner selects where the pipeline runs (Beam's flag; default prism):
//
//   - prism: in this process, on every core; nothing to install. For
//     tests and inputs one machine can read.
//   - flink: -runner flink -endpoint HOST:8099 (a Flink job server, Beam's
//     flink-job-server container beside a Flink cluster) and
//     -environment_type DOCKER (workers run the Go SDK container) or
//     LOOPBACK (workers call back into this process: local clusters only).
//     Input, output and model paths must be on a filesystem every worker
//     reaches (gs://, s3:// or a shared mount).
//   - spark: -runner spark -endpoint HOST:8099 (Beam's spark-job-server),
//     with the same -environment_type choices and path rules.
//   - universal: -runner universal -endpoint HOST:PORT, any job server —
//     Prism started as one (its command, prism -job_port PORT) runs the
//     workers as processes of this machine with -environment_type PROCESS
//     -environment_config '{"command":"BOOT"}' -worker_binary
//     ./rkhs-beam, BOOT the Go SDK's boot loader (go build
//     github.com/apache/beam/sdks/v2/go/container); Prism v2.77 passes
//     the worker id in quotes (--id='ID'), which a two-line script around
//     the boot loader strips (as the package's test does).
//   - dataflow: -runner dataflow -project P -region R -temp_location
//     gs://B/tmp -staging_location gs://B/staging; the command builds a
//     Linux worker binary of itself (or give -worker_binary), and paths are
//     gs:// paths.
//
// The command prints one line on standard error: a summary (rows read,
// malformed lines set aside, what it wrote) or the error. -v shows the
// runner's logs as well. The exit status is 2 for a command line that
// cannot run (an unknown command, flag or runner, an extra argument,
// invalid or missing options, an output path that cannot be written),
// found before any job starts, and 1 for a job that fails.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	rkhsbeam "rkhs/beam"
	"rkhs/internal/cli"
	"rkhs/kernels"
	"rkhs/loo"
	"rkhs/regress"
)

// usageError is a command line that cannot run, found before any job:
// exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

func main() {
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "-") {
		// No command: a worker started by a runner (beam.Init does not
		// return then), or a request for help.
		flag.Parse()
		beam.Init()
		fmt.Fprint(os.Stderr, "usage: rkhs-beam fit|select|predict|solve [flags] (rkhs-beam CMD -h for the flags)\n")
		os.Exit(2)
	}
	name := os.Args[1]
	cmd, ok := commands[name]
	if !ok {
		fmt.Fprintf(os.Stderr, "rkhs-beam: unknown command %q (want fit, select, predict or solve)\n", name)
		os.Exit(2)
	}
	// The runner's flags are Beam's, on flag.CommandLine; the command's own
	// are added there too, so that one parse reads both, and its help
	// shows only its own.
	own := flag.NewFlagSet("rkhs-beam "+name, flag.ContinueOnError)
	run := cmd.flags(own)
	verbose := own.Bool("v", false, "show the runner's logs on standard error")
	own.VisitAll(func(f *flag.Flag) { flag.CommandLine.Var(f.Value, f.Name, f.Usage) })
	flag.CommandLine.Init("rkhs-beam "+name, flag.ContinueOnError)
	flag.CommandLine.SetOutput(os.Stderr)
	flag.CommandLine.Usage = func() {}
	short := fmt.Sprintf("usage: rkhs-beam %s %s\n(rkhs-beam %s -h for the flags)\n", name, cmd.usage, name)
	if err := flag.CommandLine.Parse(os.Args[2:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(os.Stdout, "usage: rkhs-beam %s %s\n\n%s\n\nFlags:\n", name, cmd.usage, cmd.help)
			own.SetOutput(os.Stdout)
			own.PrintDefaults()
			if cmd.pipeline {
				fmt.Fprint(os.Stdout, runnerHelp)
			}
			os.Exit(0)
		}
		fmt.Fprint(os.Stderr, short)
		os.Exit(2)
	}
	if flag.CommandLine.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "rkhs-beam %s: unexpected argument %q (flags come as -name value)\n%s", name, flag.CommandLine.Arg(0), short)
		os.Exit(2)
	}
	beam.Init()
	if !*verbose {
		quiet()
	}
	ctx := context.Background()
	err := checkRunner(cmd.pipeline)
	var summary string
	if err == nil {
		summary, err = run(ctx)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rkhs-beam %s: %s\n", name, oneLine(err.Error()))
		if _, ok := err.(*usageError); ok {
			os.Exit(2)
		}
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "rkhs-beam %s: %s\n", name, summary)
}

// runnerHelp ends the help of a command that runs a pipeline.
const runnerHelp = `  -runner name
    	where the pipeline runs: prism (in this process, the default), flink,
    	spark, dataflow, universal; each runner has flags of its own
    	(-endpoint, -environment_type, -project, …): see go doc
    	rkhs/beam/cmd/rkhs-beam
`

// quiet sends the runner's logs (slog, and the log package) nowhere.
func quiet() {
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	log.SetOutput(io.Discard)
}

// runners are the names beamx.Run knows.
var runners = []string{"prism", "PrismRunner", "direct", "DirectRunner", "dataflow", "DataflowRunner",
	"flink", "FlinkRunner", "spark", "SparkRunner", "universal", "portable", "PortableRunner", "dot"}

// checkRunner reports a -runner that Beam does not know (which Beam
// itself reports by exiting with a hint about imports).
func checkRunner(pipeline bool) error {
	f := flag.Lookup("runner")
	if f == nil || f.Value.String() == "" {
		return nil
	}
	r := f.Value.String()
	if !pipeline {
		return usagef("-runner %q: this command runs no pipeline", r)
	}
	for _, name := range runners {
		if r == name {
			return nil
		}
	}
	return usagef("-runner %q: want prism, direct, flink, spark, dataflow or universal", r)
}

// remoteWorkers reports whether the pipeline's workers may run outside
// this process: any runner but Prism or the direct runner in-process (no
// -endpoint).
func remoteWorkers() bool {
	value := func(name string) string {
		if f := flag.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	switch value("runner") {
	case "", "prism", "PrismRunner", "direct", "DirectRunner":
		return value("endpoint") != ""
	}
	return true
}

// absPaths makes the local paths among names absolute when the workers may
// run outside this process, and so in another directory; names on a
// filesystem with a scheme (gs://, s3://) stay as they are.
func absPaths(in *rkhsbeam.Input, names ...*string) {
	if !remoteWorkers() {
		return
	}
	for i := range in.Patterns {
		names = append(names, &in.Patterns[i])
	}
	for _, n := range names {
		if *n != "" && !strings.Contains(*n, "://") {
			if abs, err := filepath.Abs(*n); err == nil {
				*n = abs
			}
		}
	}
}

// A command registers its flags and returns what runs it, which returns
// the summary line of a success.
type command struct {
	usage, help string
	pipeline    bool // it runs Beam pipelines (it takes the runner's flags)
	flags       func(fs *flag.FlagSet) func(context.Context) (string, error)
}

var commands = map[string]command{
	"fit": {
		usage:    "-input GLOB[,GLOB…] -format csv|libsvm -kernel K [-sigma S] -lambda L (-centers M [-seed N] | -centers-file FILE) -model OUT [flags]",
		help:     "Fits Nyström kernel ridge regression to the rows of the input files and writes the model (the JSON rkhs predict reads).",
		pipeline: true,
		flags:    fitCommand,
	},
	"predict": {
		usage:    "-input GLOB[,GLOB…] -format csv|libsvm -model FILE -output DIR [flags]",
		help:     "Applies a saved model (rkhs fit, rkhs classify or rkhs-beam fit) to the rows of the input files: DIR/NAME.pred for each file NAME, one line per row.",
		pipeline: true,
		flags:    predictCommand,
	},
	"select": {
		usage:    "-input GLOB[,GLOB…] -format csv|libsvm [-kernel gaussian|laplacian] [-sigmas A:B:K] -lambdas A:B:K (-centers M [-seed N] | -centers-file FILE) -model OUT [flags]",
		help:     "Chooses σ and λ of a Nyström fit over a σ × λ grid by exact leave-one-out (or GCV), writes the model at the pair chosen, and prints the table of every pair.",
		pipeline: true,
		flags:    selectCommand,
	},
	"solve": {
		usage: "-stats FILE -lambda L [-intercept none|free|penalized] -model OUT",
		help:  "Solves the statistics saved by rkhs-beam fit -stats for another λ or intercept mode, without reading the data again.",
		flags: solveCommand,
	},
}

func inputFlags(fs *flag.FlagSet, unlabelled bool) func() (rkhsbeam.Input, error) {
	globs := fs.String("input", "", "input files: globs separated by commas")
	format := fs.String("format", "", "input format: csv or libsvm")
	features := fs.Int("features", 0, "number of features (LIBSVM input needs it)")
	header := fs.Bool("header", false, "CSV files start with a header line")
	label := fs.Int("label-col", -1, "CSV column of the label (0-based; negative counts from the end: -1 is the last column, as rkhs reads CSV)")
	comma := fs.String("comma", ",", "CSV field separator: one character, \\t for a tab")
	var noLabel *bool
	if unlabelled {
		noLabel = fs.Bool("unlabelled", false, "CSV files have no label column: every column is a feature")
	}
	return func() (rkhsbeam.Input, error) {
		in := rkhsbeam.Input{Format: *format, Features: *features}
		if *globs != "" {
			in.Patterns = strings.Split(*globs, ",")
		}
		in.CSV.Header, in.CSV.LabelCol = *header, *label
		if noLabel != nil {
			in.CSV.NoLabel = *noLabel
		}
		c := []rune(strings.ReplaceAll(*comma, `\t`, "\t"))
		if len(c) != 1 || c[0] == '"' || c[0] == '\r' || c[0] == '\n' {
			return in, usagef("-comma %q: want one character other than a quote or a line end (\\t for a tab)", *comma)
		}
		in.CSV.Comma = c[0]
		return in, nil
	}
}

func kernelFlags(fs *flag.FlagSet) func() kernels.Spec {
	name := fs.String("kernel", "gaussian", "kernel: gaussian, linear, polynomial or laplacian")
	sigma := fs.Float64("sigma", 0, "width σ of the gaussian or laplacian kernel (no default)")
	degree := fs.Int("degree", 0, "degree of the polynomial kernel")
	offset := fs.Float64("offset", 0, "offset of the polynomial kernel")
	return func() kernels.Spec {
		return kernels.Spec{Type: *name, Sigma: *sigma, Degree: *degree, Offset: *offset}
	}
}

func interceptFlag(fs *flag.FlagSet) func() (regress.Intercept, error) {
	s := fs.String("intercept", "free", "intercept: none, free or penalized")
	return func() (regress.Intercept, error) {
		for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept} {
			if ic.String() == *s {
				return ic, nil
			}
		}
		return 0, usagef("-intercept %q: want none, free or penalized", *s)
	}
}

// checkOutput reports, before any job, a local output file that cannot be
// written: a directory, or in a directory that does not exist. Paths on
// other filesystems (gs://, s3://) are the runner's to check.
func checkOutput(flagName, path string) error {
	if path == "" || strings.Contains(path, "://") {
		return nil
	}
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return usagef("-%s %s is a directory: give a file name", flagName, path)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return usagef("-%s %s: the directory %s does not exist", flagName, path, filepath.Dir(path))
	}
	return nil
}

// checkOutputs checks the outputs of a command, which must differ.
func checkOutputs(outs ...[2]string) error {
	seen := map[string]string{}
	for _, o := range outs {
		if o[1] == "" {
			continue
		}
		if err := checkOutput(o[0], o[1]); err != nil {
			return err
		}
		if f, ok := seen[filepath.Clean(o[1])]; ok {
			return usagef("-%s and -%s are the same file %s", f, o[0], o[1])
		}
		seen[filepath.Clean(o[1])] = o[0]
	}
	return nil
}

// jobRun runs pipelines and keeps the counts of the last one.
type jobRun struct{ rows, malformed int64 }

func (j *jobRun) run(ctx context.Context, p *beam.Pipeline) error {
	r, err := beamx.RunWithMetrics(ctx, p)
	j.rows, j.malformed = rkhsbeam.Counts(r)
	return err
}

// counts describes the lines a job read.
func (j *jobRun) counts(deadLetter string) string {
	s := plural(j.rows, "row") + " read"
	if deadLetter != "" {
		s += fmt.Sprintf(", %s set aside in %s", plural(j.malformed, "malformed line"), deadLetter)
	}
	return s
}

func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func fitCommand(fs *flag.FlagSet) func(context.Context) (string, error) {
	in, kern, ic := inputFlags(fs, false), kernelFlags(fs), interceptFlag(fs)
	var o rkhsbeam.FitOptions
	fs.Float64Var(&o.Lambda, "lambda", 0, "λ in the K + nλI convention (no default)")
	fs.IntVar(&o.Centers, "centers", 0, "number of centres drawn from the input")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the draw of the centres")
	fs.StringVar(&o.CentersFile, "centers-file", "", "file of centres in the input format, instead of a draw (not with -centers)")
	fs.StringVar(&o.Model, "model", "", "output: the model (JSON)")
	fs.StringVar(&o.Stats, "stats", "", "output: the merged statistics, for rkhs-beam solve")
	fs.StringVar(&o.DeadLetter, "dead-letter", "", "output: malformed lines, instead of failing")
	fs.BoolVar(&o.Standardize, "standardize", false, "scale every feature to mean 0 and standard deviation 1 by the mean and population standard deviation of the rows read, before the kernel (centres too); the model keeps the map, so that predict takes raw features. A constant feature is an error that names it")
	solver := fs.String("solver", "direct", "direct (m×m statistics, one pass) or cg (conjugate gradient, one pass per iteration)")
	scratch := fs.String("scratch", "", "cg: a directory the workers and this process share; each run works in a directory of its own there, removed at the end (default: the system's temporary directory)")
	return func(ctx context.Context) (string, error) {
		var err error
		if o.Input, err = in(); err != nil {
			return "", err
		}
		o.Kernel = kern()
		if o.Intercept, err = ic(); err != nil {
			return "", err
		}
		if o.Model == "" {
			return "", usagef("-model is required: where to write the model")
		}
		if err := checkOutputs([2]string{"model", o.Model}, [2]string{"stats", o.Stats}, [2]string{"dead-letter", o.DeadLetter}); err != nil {
			return "", err
		}
		absPaths(&o.Input, &o.CentersFile, &o.Model, &o.Stats, &o.DeadLetter, scratch)
		if err := o.Check(ctx); err != nil {
			return "", &usageError{err.Error()}
		}
		var job jobRun
		switch *solver {
		case "direct":
		case "cg":
			if o.Stats != "" || o.DeadLetter != "" {
				return "", usagef("-solver cg writes no statistics and no dead letters: give neither -stats nor -dead-letter")
			}
			if _, err := rkhsbeam.FitCG(ctx, o, *scratch, job.run); err != nil {
				return "", err
			}
			return fmt.Sprintf("%s; model written to %s", job.counts(""), o.Model), nil
		default:
			return "", usagef("-solver %q: want direct or cg", *solver)
		}
		p, s := beam.NewPipelineWithRoot()
		if _, err := rkhsbeam.Fit(s, o); err != nil {
			return "", &usageError{err.Error()}
		}
		if err := job.run(ctx, p); err != nil {
			return "", err
		}
		if job.rows == 0 && o.DeadLetter != "" {
			return "", fmt.Errorf("no row could be read: %s, set aside in %s; no model written", plural(job.malformed, "malformed line"), o.DeadLetter)
		}
		return fmt.Sprintf("%s; model written to %s", job.counts(o.DeadLetter), o.Model), nil
	}
}

func predictCommand(fs *flag.FlagSet) func(context.Context) (string, error) {
	in := inputFlags(fs, true)
	var o rkhsbeam.PredictOptions
	fs.StringVar(&o.Model, "model", "", "the model file (JSON) rkhs fit, rkhs classify or rkhs-beam fit wrote")
	fs.StringVar(&o.Output, "output", "", "output directory (it must exist): one NAME.pred per input file")
	fs.StringVar(&o.DeadLetter, "dead-letter", "", "output: malformed lines, each with a line of NaN in the predictions, instead of failing")
	return func(ctx context.Context) (string, error) {
		var err error
		if o.Input, err = in(); err != nil {
			return "", err
		}
		if o.Model == "" || o.Output == "" {
			return "", usagef("-model and -output are required")
		}
		if !strings.Contains(o.Output, "://") {
			if fi, err := os.Stat(o.Output); err != nil || !fi.IsDir() {
				return "", usagef("-output %s: not a directory (create it first)", o.Output)
			}
		}
		if err := checkOutputs([2]string{"dead-letter", o.DeadLetter}); err != nil {
			return "", err
		}
		absPaths(&o.Input, &o.Model, &o.Output, &o.DeadLetter)
		p, s := beam.NewPipelineWithRoot()
		if _, err := rkhsbeam.Predict(s, o); err != nil {
			return "", &usageError{err.Error()}
		}
		var job jobRun
		if err := job.run(ctx, p); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s; predictions written to %s", job.counts(o.DeadLetter), o.Output), nil
	}
}

func selectCommand(fs *flag.FlagSet) func(context.Context) (string, error) {
	in, ic := inputFlags(fs, false), interceptFlag(fs)
	var o rkhsbeam.SelectOptions
	kernel := fs.String("kernel", "gaussian", "kernel: gaussian or laplacian")
	sigmas := fs.String("sigmas", "", "σ grid MIN:MAX:COUNT, geometric (default: the median distance between the centres × {1/4, 1/2, 1, 2, 4}, after standardization)")
	var std cli.Standardize
	fs.Var(&std, "standardize", "scale every feature to mean 0 and standard deviation 1 (the rows' mean and population standard deviation) before the kernel; the model keeps the map. `auto|yes|no`; auto, the default, is on exactly when σ is chosen around the median distance (no -sigmas). A constant feature is an error that names it")
	classes := fs.Bool("classes", false, "the labels are classes: coded ±1 (one-vs-all beyond two), chosen by the leave-one-out error rate (-criterion loo), and the model written is a classifier, as rkhs classify -method nystrom writes")
	lambdas := fs.String("lambdas", "", "λ grid MIN:MAX:COUNT, geometric, in the K + nλI convention (required)")
	criterion := fs.String("criterion", "loo", "loo (exact leave-one-out: a second pass; the mean squared residual, or with -classes the error rate) or gcv (from the statistics alone)")
	fs.IntVar(&o.Centers, "centers", 0, "number of centres drawn from the input, shared by every σ")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the draw of the centres")
	fs.StringVar(&o.CentersFile, "centers-file", "", "file of centres in the input format, instead of a draw (not with -centers)")
	fs.StringVar(&o.Model, "model", "", "output: the model at the pair chosen (JSON)")
	fs.StringVar(&o.Scratch, "scratch", "", "a directory the workers and this process share; each run works in a directory of its own there, removed at the end (default: the system's temporary directory)")
	asJSON := fs.Bool("json", false, "print the choice and the table as JSON")
	return func(ctx context.Context) (string, error) {
		var err error
		if o.Input, err = in(); err != nil {
			return "", err
		}
		if o.Intercept, err = ic(); err != nil {
			return "", err
		}
		o.Kernel = kernels.Spec{Type: *kernel}
		if *sigmas == "" {
			o.MedianRatios = medianRatios
		} else if o.Sigmas, err = parseRange("sigmas", *sigmas); err != nil {
			return "", err
		}
		o.Standardize = std.On(*sigmas == "")
		o.Classes = *classes
		if o.Lambdas, err = parseRange("lambdas", *lambdas); err != nil {
			return "", err
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
			return "", usagef("-criterion %q: want loo or gcv", *criterion)
		}
		if o.Model == "" {
			return "", usagef("-model is required: where to write the model")
		}
		if err := checkOutputs([2]string{"model", o.Model}); err != nil {
			return "", err
		}
		absPaths(&o.Input, &o.CentersFile, &o.Scratch)
		if err := o.Check(ctx); err != nil {
			return "", &usageError{err.Error()}
		}
		var job jobRun
		sel, err := rkhsbeam.Select(ctx, o, job.run)
		if err != nil {
			return "", err
		}
		if *asJSON {
			err = printSelectionJSON(os.Stdout, sel)
		} else {
			printSelection(os.Stdout, sel)
		}
		if err != nil {
			return "", err
		}
		cli.WarnFacts(os.Stderr, "rkhs-beam select", sel.Scores, sel.Choice)
		return fmt.Sprintf("%s read; σ = %.4g, λ = %.4g (%s %.6g); model written to %s",
			plural(int64(sel.Rows), "row"), sel.Sigma, sel.Lambda, sel.Criterion, sel.Score, o.Model), nil
	}
}

// medianRatios are the default σ grid of select, times the median
// distance: rkhs's.
var medianRatios = []float64{0.25, 0.5, 1, 2, 4}

// parseRange reads MIN:MAX:COUNT, the value of the flag -name, into a
// geometric grid, as rkhs does.
func parseRange(name, s string) ([]float64, error) {
	if s == "" {
		return nil, usagef("-%s is required: MIN:MAX:COUNT", name)
	}
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return nil, usagef("-%s %q: want MIN:MAX:COUNT", name, s)
	}
	lo, err1 := strconv.ParseFloat(parts[0], 64)
	hi, err2 := strconv.ParseFloat(parts[1], 64)
	count, err3 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || err3 != nil || !(lo > 0) || !(hi >= lo) || count < 1 || hi > 1e300 {
		return nil, usagef("-%s %q: want 0 < MIN ≤ MAX and COUNT ≥ 1", name, s)
	}
	return loo.Geometric(lo, hi, count), nil
}

// printSelection writes the table, one row per λ and one column per σ,
// the chosen pair starred, then the choice in one line (as rkhs does).
func printSelection(w io.Writer, sel *rkhsbeam.Selection) {
	sel.Scores.Format(w, sel.Choice)
	fmt.Fprintf(w, "chosen σ = %.4g", sel.Sigma)
	if sel.Median > 0 {
		fmt.Fprintf(w, " (median distance %.4g × %.3g)", sel.Median, sel.Sigma/sel.Median)
	}
	fmt.Fprintf(w, ", λ = %.4g: %s %.6g over %s\n", sel.Lambda, sel.Criterion, sel.Score, plural(int64(sel.Rows), "row"))
}

// jsonFloat is a number that JSON cannot write as one (+Inf, the score of
// a singular pair) written as null.
type jsonFloat float64

func (v jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(v), 0) || math.IsNaN(float64(v)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(v))
}

func jsonTable(t [][]float64) [][]jsonFloat {
	out := make([][]jsonFloat, len(t))
	for a, row := range t {
		out[a] = make([]jsonFloat, len(row))
		for j, v := range row {
			out[a][j] = jsonFloat(v)
		}
	}
	return out
}

// printSelectionJSON writes the choice and the table as one JSON object.
func printSelectionJSON(w io.Writer, sel *rkhsbeam.Selection) error {
	out := map[string]any{
		"sigma": sel.Sigma, "lambda": sel.Lambda, "criterion": sel.Criterion.String(), "score": sel.Score,
		"rows": sel.Rows, "sigmas": sel.Scores.Sigmas, "lambdas": sel.Scores.Lambdas,
		"scores": jsonTable(sel.Scores.Scores), "gcv": jsonTable(sel.GCV), "df": jsonTable(sel.DF),
	}
	if sel.Median > 0 {
		out["median_distance"] = sel.Median
	}
	if sel.Model.Standardization != nil {
		out["standardized"] = true
	}
	if sel.LOO != nil {
		a, j := slices.Index(sel.Scores.Sigmas, sel.Sigma), slices.Index(sel.Scores.Lambdas, sel.Lambda)
		out["loo_mse"] = sel.LOO[a][j]
		out["loo"] = jsonTable(sel.LOO)
	}
	if sel.LOOError != nil {
		out["loo_error"] = sel.Score
		out["loo_errors"] = jsonTable(sel.LOOError)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

func solveCommand(fs *flag.FlagSet) func(context.Context) (string, error) {
	ic := interceptFlag(fs)
	stats := fs.String("stats", "", "statistics written by rkhs-beam fit -stats")
	lambda := fs.Float64("lambda", 0, "λ in the K + nλI convention (no default)")
	model := fs.String("model", "", "output: the model (JSON)")
	return func(ctx context.Context) (string, error) {
		mode, err := ic()
		if err != nil {
			return "", err
		}
		if *stats == "" || *model == "" {
			return "", usagef("-stats and -model are required")
		}
		if err := checkOutputs([2]string{"model", *model}); err != nil {
			return "", err
		}
		b, err := os.ReadFile(*stats)
		if err != nil {
			return "", &usageError{err.Error()}
		}
		var st regress.NystromStats
		if err := st.UnmarshalBinary(b); err != nil {
			return "", &usageError{fmt.Sprintf("%s: %v", *stats, err)}
		}
		fit, err := st.Solve(*lambda, mode)
		if err != nil {
			return "", err
		}
		js, err := json.Marshal(fit.Model)
		if err != nil {
			return "", err
		}
		if err := writeAtomic(*model, js); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s of the statistics; model written to %s", plural(int64(st.Rows()), "row"), *model), nil
	}
}

// writeAtomic writes a file through a temporary file in its directory and
// a rename, so that the file is either its old self or complete.
func writeAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// oneLine keeps the first line of a message (a failed job's error carries
// the runner's whole plan after it) and the line that names the cause.
func oneLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) == 1 {
		return lines[0]
	}
	return strings.TrimSpace(lines[0]) + " … " + strings.TrimSpace(lines[len(lines)-1])
}
