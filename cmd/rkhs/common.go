package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"rkhs/internal/cli"

	"rkhs/dataset"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// badInput is an error in what the user gave the command — a flag, its
// value, a missing argument, a model file of an unknown kind — that no
// library package reported; cli.Status maps it to 2.
type badInput struct{ error }

// commandFlags is a flag set that reports errors as values instead of
// printing them, so that run can print one line; only -h prints the
// usage.
type commandFlags struct {
	*flag.FlagSet
	summary string
	stderr  io.Writer
}

func newFlagSet(name, summary string, stderr io.Writer) commandFlags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return commandFlags{fs, summary, stderr}
}

// parseFlags parses args; -h prints the usage and returns cli.ErrHelp.
func parseFlags(fs commandFlags, args []string) error {
	if err := fs.Parse(cli.JoinValues(fs.FlagSet, args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(fs.stderr, "rkhs %s: %s\n\nFlags:\n", fs.Name(), fs.summary)
			fs.SetOutput(fs.stderr)
			fs.PrintDefaults()
			return cli.ErrHelp
		}
		return cli.BadInput{Err: err}
	}
	if fs.NArg() > 0 {
		return cli.BadInputf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// ioFlags are the flags fit and classify share: the training and test
// files, the outputs and the format of the result.
type ioFlags struct {
	train, test, model, predictions string
	json                            bool
	data                            dataFlags
}

// register adds the flags to fs; labels completes the help of -train, model
// and predictions say what -model and -predictions write.
func (o *ioFlags) register(fs commandFlags, labels, model, predictions string) {
	fs.StringVar(&o.train, "train", "", "training data `file` (LIBSVM, or CSV if it ends in .csv, see -format)"+labels)
	fs.StringVar(&o.test, "test", "", "test data `file`")
	fs.StringVar(&o.model, "model", "", "write "+model+" to this `file` (JSON), for rkhs predict")
	fs.StringVar(&o.predictions, "predictions", "", "write "+predictions+" to this `file`, one per line")
	fs.BoolVar(&o.json, "json", false, "print the result as one JSON object")
	o.data.register(fs, false)
}

// check requires -train, and -test with -predictions.
func (o *ioFlags) check() error {
	if o.train == "" {
		return cli.BadInputf("-train is required")
	}
	if o.predictions != "" && o.test == "" {
		return cli.BadInputf("-predictions needs -test")
	}
	if err := o.data.check(); err != nil {
		return err
	}
	return nil
}

// kernelFlags are the kernel flags shared by the commands.
type kernelFlags struct {
	name   string
	sigma  cli.AutoValue // a number, or auto where the command chooses σ (see selectFlags)
	offset float64
	degree int
}

// register adds the kernel flags; sigmaHelp completes the help of -sigma
// where the command accepts -sigma auto.
func (kf *kernelFlags) register(fs commandFlags, sigmaHelp string) {
	kf.sigma.V = 1
	fs.StringVar(&kf.name, "kernel", "gaussian", "kernel: gaussian, linear, polynomial or laplacian")
	fs.Var(&kf.sigma, "sigma", "width σ of the gaussian (exp(−‖x−z‖²/(2σ²))) or laplacian (exp(−‖x−z‖₁/σ)) kernel"+sigmaHelp)
	fs.IntVar(&kf.degree, "degree", 2, "degree of the polynomial kernel (xᵀz + offset)^degree")
	fs.Float64Var(&kf.offset, "offset", 1, "offset of the polynomial kernel")
}

// hasWidth reports whether the kernel has a width σ.
func (kf *kernelFlags) hasWidth() bool { return kf.name == "gaussian" || kf.name == "laplacian" }

// kernel returns the kernel of the flags; -sigma auto is refused here
// (a command that chooses σ calls kernelAt).
func (kf *kernelFlags) kernel() (kernels.Kernel, error) {
	if kf.sigma.Auto && kf.hasWidth() {
		return nil, cli.BadInputf("-sigma auto: this command takes a number")
	}
	return kf.kernelAt(kf.sigma.V)
}

// kernelAt returns the kernel of the flags with the width sigma.
func (kf *kernelFlags) kernelAt(sigma float64) (kernels.Kernel, error) {
	s := kernels.Spec{Type: kf.name}
	switch kf.name {
	case "gaussian", "laplacian":
		s.Sigma = sigma
	case "polynomial":
		s.Degree, s.Offset = kf.degree, kf.offset
	}
	return s.Kernel()
}

func parseIntercept(s string) (regress.Intercept, error) {
	for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept} {
		if ic.String() == s {
			return ic, nil
		}
	}
	return 0, cli.BadInputf("-intercept %q: want none, free or penalized", s)
}

// column returns y as an n×1 matrix sharing its storage.
func column(y []float64) *linalg.Dense { return linalg.NewDense(len(y), 1, y) }

// mse returns the mean squared difference between y and column 0 of p
// (regress.MSE).
func mse(y []float64, p *linalg.Dense) (float64, error) {
	return regress.MSE(column(y), p.Slice(0, p.Rows, 0, 1))
}

// evaluate scores a model's predictions against the labels (regress.MSE for
// fit, classify.Accuracy for classify) on the training set and, if test is
// not nil, on the test set, whose predictions it returns too. A nil train
// is not scored.
func evaluate[P any](predict func(*linalg.Dense) (P, error), score func(y []float64, p P) (float64, error), train, test *dataset.Data) (trainScore cli.JSONFloat, testScore *cli.JSONFloat, testPred P, err error) {
	for _, d := range []*dataset.Data{train, test} {
		if d == nil {
			continue
		}
		p, err := predict(&d.X)
		if err != nil {
			return 0, nil, testPred, err
		}
		s, err := score(d.Y, p)
		if err != nil {
			return 0, nil, testPred, err
		}
		if d == train {
			trainScore = cli.JSONFloat(s)
			continue
		}
		testPred, testScore = p, new(cli.JSONFloat)
		*testScore = cli.JSONFloat(s)
	}
	return trainScore, testScore, testPred, nil
}

// finish ends fit and classify once the computation has succeeded: it
// writes the pending files and, if modelPath is not empty, the model as
// JSON, then prints the result as one JSON object (asJSON) or as text.
func finish(stdout io.Writer, files []pendingFile, model any, modelPath string, res any, asJSON bool, text func()) error {
	if modelPath != "" {
		b, err := json.Marshal(model)
		if err != nil {
			return err
		}
		files = append(files, pendingFile{modelPath, append(b, '\n')})
	}
	if err := writeAll(files, stdout); err != nil {
		return err
	}
	if !asJSON {
		text()
		return nil
	}
	b, err := json.Marshal(res)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return nil
}

// pendingFile is an output prepared in memory and written only after the
// whole command has succeeded.
type pendingFile struct {
	path string
	data []byte
}

// writeAll writes every pending file with a path (cli.WriteFile): "-" and
// /dev/stdout to stdout.
func writeAll(files []pendingFile, stdout io.Writer) error {
	for _, f := range files {
		if f.path == "" {
			continue
		}
		if err := cli.WriteFile(f.path, f.data, stdout); err != nil {
			return err
		}
	}
	return nil
}

// predictionLines formats column 0 of p one value per line, %.17g.
func predictionLines(p *linalg.Dense) []byte {
	var b bytes.Buffer
	for i := 0; i < p.Rows; i++ {
		fmt.Fprintf(&b, "%.17g\n", p.At(i, 0))
	}
	return b.Bytes()
}
