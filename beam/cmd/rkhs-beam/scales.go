package main

import (
	"flag"
	"fmt"
	"os"

	rkhsbeam "rkhs/beam"
	"rkhs/internal/cli"
	"rkhs/report"
)

// ardOptions reads -sigma, -ard-rows and -ard-iters into o by the rules
// rkhs reads them with (cli.ARDFlags): -sigma ard, with the gaussian
// kernel, learns one length scale per feature after the grid, on the
// rows of -ard-rows (refused below twice the centres, cli.CheckARDRows),
// for at most -ard-iters iterations, with a progress line per iteration
// on standard error. rowsErr gives an error of the descent in the words
// of -ard-rows, as rkhs (cli.ARDRowsError).
func ardOptions(o *rkhsbeam.SelectOptions, sigma string, ard *cli.ARDFlags) (rowsErr func(error) error, err error) {
	rows, n := 0, 0
	rowsErr = func(err error) error { return cli.ARDRowsError(err, rows, n) }
	given := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if sigma != "" && sigma != "ard" {
		return nil, cli.BadInputf("-sigma %q: select chooses one σ on the grid of -sigmas; -sigma ard goes on to one σ per feature", sigma)
	}
	if err := ard.Check(cli.SigmaValue{ARD: sigma == "ard"}, o.Kernel.Type, given); err != nil {
		return nil, err
	}
	if sigma == "ard" && o.Kernel.Type != "gaussian" {
		// The pipelines' passes build the objective of the Gaussian.
		return nil, cli.BadInputf("-sigma ard: rkhs-beam learns one length scale per feature for the gaussian kernel, not %s", o.Kernel.Type)
	}
	if sigma == "ard" {
		o.ARD, o.ARDIters = true, ard.Iters
		o.ARDRows = func(rowsRead, m int) (int, error) {
			rows, n = ard.RowsOf(rowsRead), rowsRead
			return rows, cli.CheckARDRows(rows, n, m)
		}
		o.ARDProgress = cli.ScalesProgress(os.Stderr, "rkhs-beam select", o.Criterion)
	}
	return rowsErr, nil
}

// scalesReport returns the report of the descent of sel as rkhs prints
// it, nil without one; when the model kept is the grid's (the scales do
// worse on every row), it warns, as rkhs does, and returns nil: the
// report describes the model saved.
func scalesReport(sel *rkhsbeam.Selection, o rkhsbeam.SelectOptions) *report.Scales {
	if sel.Scales == nil {
		return nil
	}
	s := &report.Scales{Sel: sel.Scales, Criterion: o.Criterion, Sigma: sel.Sigma, Lambda: sel.Lambda,
		Names: sel.Model.FeatureNames, Rows: sel.Rows, Standardized: sel.Grid.Standardization != nil}
	if sel.GridKept {
		fmt.Fprintf(os.Stderr, "rkhs-beam select: warning: %s\n", s.WorseWarning(sel.GridObjective))
		sel.Scales = nil
		return nil
	}
	return s
}
