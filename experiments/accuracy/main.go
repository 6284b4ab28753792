// Command accuracy measures the classifiers of package classify on the
// bundled classification sets and prints the results as Markdown:
//
//   - RLS one-vs-all with a Gaussian kernel on digits, hold-out (70% to
//     train, 30% to test): σ and λ chosen by exact leave-one-out on the
//     training part only.
//   - 5-fold cross-validated accuracy on heart, breast-cancer, diabetes and
//     sonar of RLS, the kernel perceptron, k-NN, kernel logistic regression
//     and the kernel SVM, all with the Gaussian kernel and the same outer
//     folds, their parameters chosen inside each training fold: by exact
//     leave-one-out for RLS, by an inner 3-fold cross-validation over
//     small grids for the others.
//
// Usage:
//
//	go run ./experiments/accuracy [-seed N] [-quick] [-sets LIST] [-splits DIR]
//
// -quick shrinks the grids and iteration counts (and digits to its first
// 600 rows) for a smoke run. -splits writes the digits hold-out split and
// the first outer fold of each binary set as files, and prints the `rkhs
// classify` commands that reproduce the RLS figures from outside.
//
// Everything above the "Times" section depends only on the seed and the
// flags: folds come from seeded generators, every fit is deterministic
// and products are bit-identical for any GOMAXPROCS.
//
// Files, by concern: main.go (flags, the report's frame, times),
// grids.go (what is searched, and the reference figures), digits.go (the
// hold-out on digits), crossval.go (the nested cross-validation and its
// tables), tune.go (how each method's parameters are chosen), report.go
// (formatting and output helpers).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
)

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "accuracy:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "accuracy:", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

const defaultSets = "digits,heart,breast-cancer,diabetes,sonar"

type config struct {
	seed   uint64
	quick  bool
	sets   []string
	splits string
	g      grids
	out    io.Writer
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("accuracy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Uint64("seed", 1, "seed of the digits split and of the outer and inner folds")
	quick := fs.Bool("quick", false, "small grids and iteration counts, digits cut to 600 rows: a smoke run")
	sets := fs.String("sets", defaultSets, "comma-separated data sets: digits (hold-out) and any of heart, breast-cancer, diabetes, sonar (nested CV)")
	splits := fs.String("splits", "", "write the digits split and fold 1 of each binary set to this `directory`, and print rkhs classify commands that check the RLS figures")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	c := config{seed: *seed, quick: *quick, splits: *splits, g: fullGrids, out: stdout}
	if c.quick {
		c.g = quickGrids
	}
	for _, s := range strings.Split(*sets, ",") {
		if _, ok := reference[s]; !ok && s != "digits" {
			return fmt.Errorf("%w: -sets: unknown data set %q (want %s)", errUsage, s, defaultSets)
		}
		c.sets = append(c.sets, s)
	}

	start := time.Now()
	cmd := "go run ./experiments/accuracy -seed " + fmt.Sprint(c.seed)
	if c.quick {
		cmd += " -quick"
	}
	if *sets != defaultSets {
		cmd += " -sets " + *sets
	}
	fmt.Fprintf(c.out, "# Accuracy of the rkhs classifiers\n\n")
	fmt.Fprintf(c.out, "Command: `%s`\n\n", cmd)
	fmt.Fprintf(c.out, "Seed %d: digits split `dataset.Split(0.7, %d)`; outer folds `loo.KFold(n, 5, %d)`; inner folds of outer fold f = 1…5 `loo.KFold(n_f, 3, %d+f)`, n_f its training rows; the median distance m from `loo.MedianDistance` on at most 500 rows with seed %d.\n\n", c.seed, c.seed, c.seed, c.seed, c.seed)
	var times []string
	for _, s := range c.sets {
		if s == "digits" {
			t, err := c.digits()
			if err != nil {
				return fmt.Errorf("digits: %w", err)
			}
			times = append(times, t...)
		}
	}
	var binary []string
	for _, s := range c.sets {
		if s != "digits" {
			binary = append(binary, s)
		}
	}
	if len(binary) > 0 {
		t, err := c.crossValidation(binary)
		if err != nil {
			return err
		}
		times = append(times, t...)
	}
	fmt.Fprintf(c.out, "## Times (not part of the deterministic output)\n\n")
	fmt.Fprintf(c.out, "Machine: %s, %s/%s, %d CPUs, GOMAXPROCS %d, %s.\n\n", cpuModel(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version())
	for _, t := range times {
		fmt.Fprintln(c.out, t)
	}
	fmt.Fprintf(c.out, "\nWall time: %.1f s\n", time.Since(start).Seconds())
	return nil
}
