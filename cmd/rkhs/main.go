// Command rkhs runs kernel regularized least squares and its relatives on
// data files.
//
// Usage:
//
//	rkhs fit      -train FILE [-test FILE] -kernel K [-sigma S] -lambda L -intercept I -method M [...]
//	rkhs loo      -train FILE -kernel K [-sigma S] -lambdas MIN:MAX:COUNT -intercept I [-json]
//	rkhs predict  -model FILE -data FILE -predictions OUT   (regression or classification model)
//	rkhs classify -train FILE [-test FILE] -method rls|perceptron|knn|logistic|svm|falkon -kernel K [-sigma S] [-lambda L] [-k K] [-iters T] [-model OUT] [-json]
//	rkhs paper    [-data DIR] [-out DIR] [-seed N]
//
// rkhs paper reproduces the experiment of Prato & Zanni (2012) on the eight
// bundled LIBSVM regression sets (see paper.go).
//
// Data files are LIBSVM sparse text (label idx:val …), CSV when the name
// ends in .csv, tab-separated when it ends in .tsv or .tab (-format says it
// otherwise), each possibly gzip- or bzip2-compressed. A CSV header line
// is recognised and names the columns: the label is the last column or the
// one -target names, the features the others or those -features names. λ is in the K + nλI convention (n = training rows), and -sigma
// is the Gaussian width in exp(−‖x−z‖²/(2σ²)). Run "rkhs CMD -h" for the
// flags of a command.
//
// Errors are one line on standard error. The exit status is 2 for bad
// input — flags and their values, files that cannot be read or written or
// do not parse, arguments the library rejects, a problem too large for
// the memory there is — and 1 for a computation
// that fails on valid input (a matrix that is not positive definite, at a
// λ too small for it, or an iteration that does not converge); see
// exitStatus. Output files are written
// only once everything has succeeded, each to a temporary file renamed into
// place, so nothing is ever written half.
package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"rkhs/dataset"
	"rkhs/linalg"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// commands maps a subcommand to its function.
var commands = map[string]func(args []string, stdout, stderr io.Writer) error{
	"fit":      runFit,
	"predict":  runPredict,
	"loo":      runLOO,
	"classify": runClassify,
	"paper":    runPaper,
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "help" {
		fmt.Fprint(stderr, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "rkhs: unknown command %q (want fit, loo, predict, classify, paper)\n", args[0]) // bad input: status 2
		return 2
	}
	err := cmd(args[1:], stdout, stderr)
	status := exitStatus(err)
	if status != 0 {
		fmt.Fprintf(stderr, "rkhs %s: %s\n", args[0], oneLine(err.Error()))
	}
	return status
}

// exitStatus maps the error of a command to the exit status, the one
// place that does:
//
//	0  no error, or -h
//	2  bad input: a flag or its value (badInput), a file that cannot be
//	   read or written (*fs.PathError, *os.LinkError) or does not parse
//	   (dataset.ErrFormat), an argument the library rejects
//	   (*linalg.InputError: every package's ErrInput, kernels.ErrParameter
//	   and ErrData), a problem too large for memory (linalg.ErrTooLarge,
//	   said before anything large is allocated)
//	1  anything else: a computation that failed on valid input, such as
//	   linalg.ErrNotPositiveDefinite (a λ at which the system is
//	   singular) or linalg.ErrNoConvergence
func exitStatus(err error) int {
	var (
		bad  badInput
		ie   *linalg.InputError
		path *fs.PathError
		link *os.LinkError
	)
	switch {
	case err == nil, errors.Is(err, errHelp):
		return 0
	case errors.As(err, &bad), errors.As(err, &ie), errors.As(err, &path), errors.As(err, &link),
		errors.Is(err, dataset.ErrFormat), errors.Is(err, dataset.ErrInvalidData), errors.Is(err, linalg.ErrTooLarge):
		return 2
	}
	return 1
}

const usage = `rkhs: kernel regularized least squares on data files.

  rkhs fit      fit a model on -train, report errors on -test
  rkhs loo      leave-one-out errors of RLS over a range of λ
  rkhs predict  predict with a saved model
  rkhs classify fit a kernel classifier on -train, report its accuracy
  rkhs paper    reproduce the Prato–Zanni experiment on the bundled data

Run "rkhs CMD -h" for the flags of a command.
`

// oneLine folds an error message onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
