package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
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
	"rkhs/internal/outfile"
	"rkhs/kernels"
	"rkhs/regress"
	"rkhs/report"
)

// verb is one verb of the command, a row of the table verbs from which
// the usage, the help, the flag parsing, the checks of the paths and the
// dispatch are made (and the tests that walk every verb).
type verb struct {
	name, usage, help string
	// pipeline: the verb runs Beam pipelines on the files of -input and
	// takes the runner's flags.
	pipeline bool
	// inputs and outputs name the flags of the files the verb reads
	// (besides -input) and writes, and moreOutputs, if not nil, returns
	// the outputs the flags imply (predict's files): an output is never
	// an input, a file an -input glob matches or another output
	// (checkPaths).
	inputs, outputs []string
	moreOutputs     func(context.Context) ([]cli.Output, error)
	// flags registers the verb's flags and returns what runs it, which
	// returns the summary line of a success.
	flags func(fs *flag.FlagSet) func(context.Context) (string, error)
}

var verbs = []verb{
	{name: "fit", pipeline: true, flags: fitCommand,
		usage:  "-input GLOB[,GLOB…] -format csv|libsvm -kernel K [-sigma S] -lambda L (-centers M [-seed N] | -centers-file FILE) -model OUT [flags]",
		help:   "Fits Nyström kernel ridge regression to the rows of the input files and writes the model (the JSON rkhs predict reads).",
		inputs: []string{"centers-file"}, outputs: []string{"model", "stats", "dead-letter"}},
	{name: "select", pipeline: true, flags: selectCommand,
		usage:  "-input GLOB[,GLOB…] -format csv|libsvm [-kernel gaussian|laplacian] [-sigmas A:B:K] [-lambdas A:B:K] [-sigma ard [-ard-rows N|auto] [-ard-iters N]] (-centers M [-seed N] | -centers-file FILE) -model OUT [flags]",
		help:   "Chooses σ and λ of a Nyström fit over a σ × λ grid by exact leave-one-out (or GCV), writes the model at the pair chosen, and prints the table of every pair; with -sigma ard, then learns one σ per feature of the gaussian kernel from there, writes the model at the scales, and prints the features ranked.",
		inputs: []string{"centers-file"}, outputs: []string{"model"}},
	{name: "predict", pipeline: true, flags: predictCommand,
		usage:  "-input GLOB[,GLOB…] -format csv|libsvm -model FILE -output DIR [flags]",
		help:   "Applies a saved model (rkhs fit, rkhs classify or rkhs-beam fit) to the rows of the input files: DIR/NAME.pred for each file NAME, one line per row.",
		inputs: []string{"model"}, outputs: []string{"dead-letter"}, moreOutputs: predictionFiles},
	{name: "solve", flags: solveCommand,
		usage:  "-stats FILE -lambda L [-intercept none|free|penalized] -model OUT",
		help:   "Solves the statistics saved by rkhs-beam fit -stats for another λ or intercept mode, without reading the data again.",
		inputs: []string{"stats"}, outputs: []string{"model"}},
}

func main() {
	if len(os.Args) == 2 && slices.Contains([]string{"-h", "-help", "--help"}, os.Args[1]) {
		// Help without a verb: the verbs, not the runner's flags.
		fmt.Fprint(os.Stdout, "usage: rkhs-beam VERB [flags]\n\nVerbs:\n")
		for _, v := range verbs {
			fmt.Fprintf(os.Stdout, "  rkhs-beam %s %s\n", v.name, v.usage)
		}
		fmt.Fprint(os.Stdout, "\nrkhs-beam VERB -h gives the verb's flags (and the runner's, for a verb that runs a pipeline).\n")
		os.Exit(0)
	}
	if len(os.Args) < 2 || strings.HasPrefix(os.Args[1], "-") {
		// No verb: a worker started by a runner (beam.Init does not
		// return then), or a request for help.
		flag.Parse()
		beam.Init()
		fmt.Fprint(os.Stderr, "usage: rkhs-beam fit|select|predict|solve [flags] (rkhs-beam VERB -h for the flags)\n")
		os.Exit(2)
	}
	i := slices.IndexFunc(verbs, func(v verb) bool { return v.name == os.Args[1] })
	if i < 0 {
		fmt.Fprintf(os.Stderr, "rkhs-beam: unknown verb %q (want fit, select, predict or solve)\n", os.Args[1])
		os.Exit(2)
	}
	os.Exit(verbs[i].main(os.Args[2:]))
}

// main runs the verb on its arguments and returns the exit status
// (cli.Status).
func (v verb) main(args []string) int {
	// The runner's flags are Beam's, on flag.CommandLine; the verb's own
	// are added there too, so that one parse reads both, and its help
	// shows only its own.
	own := flag.NewFlagSet("rkhs-beam "+v.name, flag.ContinueOnError)
	run := v.flags(own)
	verbose := own.Bool("v", false, "show the runner's logs on standard error")
	own.VisitAll(func(f *flag.Flag) { flag.CommandLine.Var(f.Value, f.Name, f.Usage) })
	flag.CommandLine.Init("rkhs-beam "+v.name, flag.ContinueOnError)
	flag.CommandLine.SetOutput(os.Stderr)
	flag.CommandLine.Usage = func() {}
	short := fmt.Sprintf("usage: rkhs-beam %s %s\n(rkhs-beam %s -h for the flags)\n", v.name, v.usage, v.name)
	if err := flag.CommandLine.Parse(cli.JoinValues(flag.CommandLine, args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(os.Stdout, "usage: rkhs-beam %s %s\n\n%s\n\nFlags:\n", v.name, v.usage, v.help)
			own.SetOutput(os.Stdout)
			own.PrintDefaults()
			if v.pipeline {
				fmt.Fprint(os.Stdout, runnerHelp)
			}
			return 0
		}
		fmt.Fprint(os.Stderr, short)
		return 2
	}
	if flag.CommandLine.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "rkhs-beam %s: unexpected argument %q (flags come as -name value)\n%s", v.name, flag.CommandLine.Arg(0), short)
		return 2
	}
	beam.Init()
	if !*verbose {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
		log.SetOutput(io.Discard)
	}
	ctx := context.Background()
	err := checkRunner(v.pipeline)
	if err == nil {
		err = checkPaths(ctx, v)
	}
	var summary string
	if err == nil {
		summary, err = run(ctx)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "rkhs-beam %s: %s\n", v.name, cli.OneLine(err.Error()))
		return cli.Status(err)
	}
	fmt.Fprintf(os.Stderr, "rkhs-beam %s: %s\n", v.name, summary)
	return 0
}

// runnerHelp ends the help of a verb that runs a pipeline.
const runnerHelp = `  -runner name
    	where the pipeline runs: prism (in this process, the default), flink,
    	spark, dataflow, universal; each runner has flags of its own
    	(-endpoint, -environment_type, -project, …): see go doc
    	rkhs/beam/cmd/rkhs-beam
`

// value returns the value of a flag of the command line, "" for none.
func value(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// runners are the names beamx.Run knows.
var runners = []string{"prism", "PrismRunner", "direct", "DirectRunner", "dataflow", "DataflowRunner",
	"flink", "FlinkRunner", "spark", "SparkRunner", "universal", "portable", "PortableRunner", "dot"}

// checkRunner reports a -runner that Beam does not know (which Beam
// itself reports by exiting with a hint about imports).
func checkRunner(pipeline bool) error {
	r := value("runner")
	switch {
	case r == "":
		return nil
	case !pipeline:
		return cli.BadInputf("-runner %q: this verb runs no pipeline", r)
	case !slices.Contains(runners, r):
		return cli.BadInputf("-runner %q: want prism, direct, flink, spark, dataflow or universal", r)
	}
	return nil
}

// remoteWorkers reports whether the pipeline's workers may run outside
// this process: any runner but Prism or the direct runner in-process (no
// -endpoint).
func remoteWorkers() bool {
	switch value("runner") {
	case "", "prism", "PrismRunner", "direct", "DirectRunner":
		return value("endpoint") != ""
	}
	return true
}

// local reports whether a path is on the local filesystem (no scheme such
// as gs://): the paths this process checks.
func local(path string) bool { return path != "" && !strings.Contains(path, "://") }

// checkPaths refuses, before any job, an output of v (its outputs, and
// its moreOutputs) that is an input — a file an -input glob matches, the
// file of one of v's inputs — or another output, or that cannot be
// written (cli.CheckOutputs); and standard output written by workers
// outside this process, which is not theirs. Paths with a scheme (gs://)
// are the runner's.
func checkPaths(ctx context.Context, v verb) error {
	var ins []cli.Input
	if v.pipeline {
		for _, g := range strings.Split(value("input"), ",") {
			if local(g) {
				matches, _ := filepath.Glob(g)
				ins = append(ins, cli.Input{Flag: "input", Value: g, Paths: matches})
			}
		}
	}
	for _, name := range v.inputs {
		if p := value(name); local(p) {
			ins = append(ins, cli.Input{Flag: name, Value: p})
		}
	}
	var outs []cli.Output
	for _, name := range v.outputs {
		outs = append(outs, cli.Output{Flag: name, Path: value(name)})
	}
	if v.moreOutputs != nil {
		more, err := v.moreOutputs(ctx)
		if err != nil {
			return err
		}
		outs = append(outs, more...)
	}
	for i, o := range outs {
		if !local(o.Path) {
			outs[i].Path = ""
		} else if v.pipeline && remoteWorkers() && outfile.Stdout(o.Path) {
			return cli.BadInputf("-%s %s: standard output is this process's, and the workers run outside it: give a file", o.Flag, o.Path)
		}
	}
	return cli.CheckOutputs(ins, outs)
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
		if local(*n) {
			if abs, err := filepath.Abs(*n); err == nil {
				*n = abs
			}
		}
	}
}

// inputFlags registers the flags of the input files; unlabelled adds
// -unlabelled (predict).
func inputFlags(fs *flag.FlagSet, unlabelled bool) func() (rkhsbeam.Input, error) {
	globs := fs.String("input", "", "input files: globs separated by commas")
	format := fs.String("format", "", "input format: csv or libsvm")
	width := fs.Int("width", 0, "LIBSVM: the number of features (LIBSVM input needs it)")
	var header cli.Header
	fs.Var(&header, "header", "CSV header line: `auto|yes|no` (alone: yes); auto, the default, a header when none of the first line's fields is a number")
	target := fs.String("target", "", "CSV: the label column, by its `name` in the header (default: the last column, or -label-col)")
	features := fs.String("features", "", "CSV: the feature columns, by `name`s in the header, comma-separated, in any order in each file (default: every column but the label)")
	label := fs.Int("label-col", -1, "CSV without -target: the label's column, 0-based; negative counts from the end (-1, the last column, as rkhs reads CSV)")
	comma := fs.String("comma", "", "CSV: the field `separator`, one character (\\t for a tab; default a comma)")
	noLabel := new(bool)
	if unlabelled {
		fs.BoolVar(noLabel, "unlabelled", false, "CSV files have no label column: every column is a feature")
	}
	return func() (rkhsbeam.Input, error) {
		in := rkhsbeam.Input{Format: *format, Width: *width}
		if *globs != "" {
			in.Patterns = strings.Split(*globs, ",")
		}
		switch n, err := strconv.Atoi(*features); {
		case err == nil && (*format == "libsvm" || header.String() != "yes"):
			return in, cli.BadInputf("-features %s: -features names CSV columns (A,B,…), as in rkhs; the number of features of LIBSVM input is -width %d", *features, n)
		case *format == "libsvm" && (*target != "" || *features != ""):
			return in, cli.BadInputf("-target and -features name CSV columns; this input is LIBSVM")
		case *format == "csv" && *width != 0:
			return in, cli.BadInputf("-width %d: the number of features of LIBSVM input; a CSV file's first record gives its own", *width)
		}
		var err error
		if in.CSV, err = cli.CSVColumns(header.String(), *target, *features, *comma); err != nil {
			return in, err
		}
		in.CSV.LabelCol, in.CSV.NoLabel = *label, *noLabel
		return in, nil
	}
}

// interceptFlag registers -intercept.
func interceptFlag(fs *flag.FlagSet) func() (regress.Intercept, error) {
	s := fs.String("intercept", "free", "intercept: none, free or penalized")
	return func() (regress.Intercept, error) { return cli.Intercept(*s) }
}

// centerFlags registers the flags of the centres: drawn or from a file.
func centerFlags(fs *flag.FlagSet, m *int, seed *uint64, file *string) {
	fs.IntVar(m, "centers", 0, "number of centres drawn from the input (a seeded uniform sample of its distinct rows)")
	fs.Uint64Var(seed, "seed", 1, "seed of the draw of the centres (and in select, of the rows of -ard-rows)")
	fs.StringVar(file, "centers-file", "", "file of centres in the input format, instead of a draw (not with -centers)")
}

// standardizeFlag registers -standardize; when says when auto is on for
// the verb.
func standardizeFlag(fs *flag.FlagSet, when string) *cli.Standardize {
	var std cli.Standardize
	fs.Var(&std, "standardize", "scale every feature to mean 0 and standard deviation 1 before the kernel (centres too), by the mean and the population standard deviation of the rows read; the model keeps the map, so that predictions take raw features. "+
		"`auto|yes|no` (alone: yes); auto, the default, is on exactly when σ is chosen from the data, as in rkhs: "+when+". A constant feature is kept at its value, with a note naming it (select)")
	return &std
}

// jobRun runs pipelines and keeps the counts and the workers' warnings
// of the last one.
type jobRun struct {
	rows, malformed int64
	warnings        []string
}

func (j *jobRun) run(ctx context.Context, p *beam.Pipeline) error {
	r, err := beamx.RunWithMetrics(ctx, p)
	j.rows, j.malformed = rkhsbeam.Counts(r)
	j.warnings = rkhsbeam.Warnings(r)
	return err
}

// counts describes the lines a job read.
func (j *jobRun) counts(deadLetter string) string {
	s := report.Count(int(j.rows), "row") + " read"
	if deadLetter != "" {
		s += fmt.Sprintf(", %s set aside in %s", report.Count(int(j.malformed), "malformed line"), deadLetter)
	}
	return s
}

// badOptions marks an error of the library about options, before any
// job, as bad input.
func badOptions(err error) error {
	if err == nil {
		return nil
	}
	return cli.BadInput{Err: err}
}

// kernelSpec registers the kernel flags of fit.
func kernelSpec(fs *flag.FlagSet) func() kernels.Spec {
	name := fs.String("kernel", "gaussian", "kernel: gaussian, linear, polynomial or laplacian")
	var sigma fitSigma
	fs.Var(&sigma, "sigma", "width σ of the gaussian or laplacian kernel (no default; select chooses it, and select -sigma ard one per feature)")
	degree := fs.Int("degree", 0, "degree of the polynomial kernel")
	offset := fs.Float64("offset", 0, "offset of the polynomial kernel")
	return func() kernels.Spec {
		return kernels.Spec{Type: *name, Sigma: float64(sigma), Degree: *degree, Offset: *offset}
	}
}

// fitSigma is the -sigma of fit: a number. auto and ard, which rkhs fit
// takes, are refused with the verb that chooses them.
type fitSigma float64

func (v *fitSigma) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 64) }

func (v *fitSigma) Set(s string) error {
	switch s {
	case "auto":
		return errors.New("fit takes a number: rkhs-beam select chooses σ (and λ)")
	case "ard":
		return errors.New("fit takes a number: rkhs-beam select -sigma ard learns one σ per feature (and λ)")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return errors.New("want a number")
	}
	*v = fitSigma(f)
	return nil
}
