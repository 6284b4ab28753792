package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"rkhs/internal/cli"
	"rkhs/internal/outfile"
	"rkhs/kernels"
)

// flagKind says what a flag's value is to the command, so that the tests
// can walk every flag of every verb: every output is tried on the paths
// of clitest.Cases, every file read beside a training file on other
// layouts of its columns.
type flagKind int

const (
	valueFlag  flagKind = iota // a value
	inputFlag                  // a file read
	besideFlag                 // a file read by the column names of the training file (or of the model)
	outputFlag                 // a file written, checked by cli.CheckOutputs before anything runs
	dirFlag                    // a directory read whole (rkhs paper -data)
	outDirFlag                 // a directory written into, checked by cli.CheckOutputDir before anything runs
)

// flagSet is the flags of a verb: the flag package's set, the kind of each
// file flag and, once parsed, which flags the command line gave.
type flagSet struct {
	*flag.FlagSet
	kinds map[string]flagKind
	set   map[string]bool
}

func newFlagSet(name string) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, kinds: map[string]flagKind{}, set: map[string]bool{}}
}

// file adds a flag that names a file (or a directory) of the given kind.
func (fs *flagSet) file(p *string, kind flagKind, name, value, help string) {
	fs.StringVar(p, name, value, help)
	fs.kinds[name] = kind
}

// parse parses args as verb v's flags; -h prints the help generated from v
// and its flags on stderr and returns cli.ErrHelp.
func (fs *flagSet) parse(v *verb, args []string, stderr io.Writer) error {
	if err := fs.Parse(cli.JoinValues(fs.FlagSet, args)); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(stderr, "rkhs %s: %s\n\nusage: rkhs %s %s\n\nFlags:\n", v.name, v.summary, v.name, v.args)
			fs.SetOutput(stderr)
			fs.PrintDefaults()
			return cli.ErrHelp
		}
		return cli.BadInput{Err: err}
	}
	if fs.NArg() > 0 {
		return cli.BadInputf("unexpected argument %q (flags come as -name value)", fs.Arg(0))
	}
	fs.Visit(func(f *flag.Flag) { fs.set[f.Name] = true })
	return nil
}

// kernelFlags are the kernel's flags, shared by the verbs that fit.
type kernelFlags struct {
	name   string
	sigma  cli.SigmaValue // a number, or auto or ard where the verb chooses σ
	offset float64
	degree int
}

// register adds the kernel flags; sigmaHelp completes the help of -sigma.
func (kf *kernelFlags) register(fs *flagSet, sigmaHelp string) {
	kf.sigma.V = 1
	fs.StringVar(&kf.name, "kernel", "gaussian", "kernel: gaussian, linear, polynomial or laplacian")
	fs.Var(&kf.sigma, "sigma", "width σ of the gaussian (exp(−‖x−z‖²/(2σ²))) or laplacian (exp(−‖x−z‖₁/σ)) kernel"+sigmaHelp)
	fs.IntVar(&kf.degree, "degree", 2, "degree of the polynomial kernel (xᵀz + offset)^degree")
	fs.Float64Var(&kf.offset, "offset", 1, "offset of the polynomial kernel")
}

// hasWidth reports whether the kernel has a width σ.
func (kf *kernelFlags) hasWidth() bool { return kf.name == "gaussian" || kf.name == "laplacian" }

// kernelAt returns the kernel of the flags with the width sigma (ignored
// by a kernel without one).
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

// pendingFile is an output prepared in memory and written only after the
// whole command has succeeded.
type pendingFile struct {
	path string
	data []byte
}

// writeAll writes every pending file with a path (outfile.WriteFile): "-" and
// /dev/stdout to stdout.
func writeAll(files []pendingFile, stdout io.Writer) error {
	for _, f := range files {
		if f.path == "" {
			continue
		}
		if err := outfile.WriteFile(f.path, f.data, stdout); err != nil {
			return err
		}
	}
	return nil
}

// printJSON prints v as one line of JSON.
func printJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
