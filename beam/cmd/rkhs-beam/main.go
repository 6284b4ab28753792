// Command rkhs-beam fits Nyström kernel ridge regression on Apache Beam
// and applies saved models to files of rows (package rkhs/beam).
//
// Usage:
//
//	rkhs-beam fit     -input GLOB[,GLOB…] -format csv|libsvm -kernel K [-sigma S] -lambda L
//	                  [-intercept none|free|penalized] (-centers M [-seed N] | -centers-file FILE)
//	                  [-solver direct|cg [-scratch DIR]] -model OUT [-stats OUT] [-dead-letter OUT] [runner flags]
//	rkhs-beam predict -input GLOB[,GLOB…] -format csv|libsvm -model FILE -output DIR [-dead-letter OUT] [runner flags]
//	rkhs-beam solve   -stats FILE -lambda L [-intercept I] -model OUT   (no pipeline: a new λ from saved statistics)
//
// Input files: -features D (LIBSVM input needs it), and for
// CSV -header, -label-col (0-based; negative counts from the end, default
// 0) and -comma. Names ending in .gz are read through gzip. λ is in the
// K + nλI convention, n the number of rows read; the model file is the
// JSON that rkhs predict reads. -solver cg runs one pipeline per pass of
// the conjugate-gradient solver, from this process, each writing its sums
// to -scratch (a directory the workers share); the solver is
// regress.Falkon's (20 iterations, no penalized intercept).
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
//   - dataflow: -runner dataflow -project P -region R -temp_location
//     gs://B/tmp -staging_location gs://B/staging; the command builds a
//     Linux worker binary of itself (or give -worker_binary), and paths are
//     gs:// paths.
//
// Errors are one line on standard error; the exit status is 2 for an
// unknown command or flags that do not parse, 1 for anything else (invalid
// options, a failed job).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	rkhsbeam "rkhs/beam"
	"rkhs/kernels"
	"rkhs/regress"
)

func main() {
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		cmd, ok := commands[os.Args[1]]
		if !ok {
			fmt.Fprintf(os.Stderr, "rkhs-beam: unknown command %q (want fit, predict or solve)\n", os.Args[1])
			os.Exit(2)
		}
		run := cmd(flag.CommandLine)
		if err := flag.CommandLine.Parse(os.Args[2:]); err != nil {
			os.Exit(2)
		}
		beam.Init()
		if err := run(context.Background()); err != nil {
			fmt.Fprintf(os.Stderr, "rkhs-beam %s: %s\n", os.Args[1], oneLine(err.Error()))
			os.Exit(1)
		}
		return
	}
	// No command: a worker started by a runner (or a request for help).
	flag.Parse()
	beam.Init()
	fmt.Fprint(os.Stderr, "usage: rkhs-beam fit|predict|solve [flags] (rkhs-beam CMD -h for the flags)\n")
	os.Exit(2)
}

// commands register the flags of a command and return what runs it.
var commands = map[string]func(fs *flag.FlagSet) func(context.Context) error{
	"fit":     fitCommand,
	"predict": predictCommand,
	"solve":   solveCommand,
}

func inputFlags(fs *flag.FlagSet) func() rkhsbeam.Input {
	globs := fs.String("input", "", "input files: globs separated by commas")
	format := fs.String("format", "", "input format: csv or libsvm")
	features := fs.Int("features", 0, "number of features (LIBSVM input needs it)")
	header := fs.Bool("header", false, "CSV files start with a header line")
	label := fs.Int("label-col", 0, "CSV column of the label (0-based; negative counts from the end)")
	comma := fs.String("comma", ",", "CSV field separator (one character; \\t for a tab)")
	return func() rkhsbeam.Input {
		in := rkhsbeam.Input{Format: *format, Features: *features}
		if *globs != "" {
			in.Patterns = strings.Split(*globs, ",")
		}
		in.CSV.Header, in.CSV.LabelCol = *header, *label
		if c := strings.ReplaceAll(*comma, `\t`, "\t"); len([]rune(c)) == 1 {
			in.CSV.Comma = []rune(c)[0]
		}
		return in
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
		return 0, fmt.Errorf("-intercept %q: want none, free or penalized", *s)
	}
}

func fitCommand(fs *flag.FlagSet) func(context.Context) error {
	in, kern, ic := inputFlags(fs), kernelFlags(fs), interceptFlag(fs)
	var o rkhsbeam.FitOptions
	fs.Float64Var(&o.Lambda, "lambda", 0, "λ in the K + nλI convention (no default)")
	fs.IntVar(&o.Centers, "centers", 0, "number of centres drawn from the input")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the draw of the centres")
	fs.StringVar(&o.CentersFile, "centers-file", "", "file of centres in the input format, instead of a draw")
	fs.StringVar(&o.Model, "model", "", "output: the model (JSON)")
	fs.StringVar(&o.Stats, "stats", "", "output: the merged statistics, for rkhs-beam solve")
	fs.StringVar(&o.DeadLetter, "dead-letter", "", "output: malformed lines, instead of failing")
	solver := fs.String("solver", "direct", "direct (m×m statistics, one pass) or cg (conjugate gradient, one pass per iteration)")
	scratch := fs.String("scratch", os.TempDir(), "cg: a directory the workers and this process share")
	return func(ctx context.Context) error {
		var err error
		o.Input, o.Kernel = in(), kern()
		if o.Intercept, err = ic(); err != nil {
			return err
		}
		switch *solver {
		case "direct":
		case "cg":
			_, err := rkhsbeam.FitCG(ctx, o, *scratch, beamx.Run)
			return err
		default:
			return fmt.Errorf("-solver %q: want direct or cg", *solver)
		}
		p, s := beam.NewPipelineWithRoot()
		if _, err := rkhsbeam.Fit(s, o); err != nil {
			return err
		}
		return beamx.Run(ctx, p)
	}
}

func predictCommand(fs *flag.FlagSet) func(context.Context) error {
	in := inputFlags(fs)
	var o rkhsbeam.PredictOptions
	fs.StringVar(&o.Model, "model", "", "the model file (JSON)")
	fs.StringVar(&o.Output, "output", "", "output directory: one FILE.pred per input file")
	fs.StringVar(&o.DeadLetter, "dead-letter", "", "output: malformed lines, instead of failing")
	return func(ctx context.Context) error {
		o.Input = in()
		p, s := beam.NewPipelineWithRoot()
		if _, err := rkhsbeam.Predict(s, o); err != nil {
			return err
		}
		return beamx.Run(ctx, p)
	}
}

func solveCommand(fs *flag.FlagSet) func(context.Context) error {
	ic := interceptFlag(fs)
	stats := fs.String("stats", "", "statistics written by rkhs-beam fit -stats")
	lambda := fs.Float64("lambda", 0, "λ in the K + nλI convention (no default)")
	model := fs.String("model", "", "output: the model (JSON)")
	return func(ctx context.Context) error {
		mode, err := ic()
		if err != nil {
			return err
		}
		b, err := os.ReadFile(*stats)
		if err != nil {
			return err
		}
		var st regress.NystromStats
		if err := st.UnmarshalBinary(b); err != nil {
			return err
		}
		fit, err := st.Solve(*lambda, mode)
		if err != nil {
			return err
		}
		js, err := json.Marshal(fit.Model)
		if err != nil {
			return err
		}
		return os.WriteFile(*model, js, 0o644)
	}
}

// oneLine keeps the first line of a message (a failed job's error carries
// the runner's whole plan after it) and the line that names the cause.
func oneLine(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) == 1 {
		return s
	}
	return strings.TrimSpace(lines[0]) + " … " + strings.TrimSpace(lines[len(lines)-1])
}
