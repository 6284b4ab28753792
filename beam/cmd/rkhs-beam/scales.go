package main

import (
	"flag"
	"os"

	rkhsbeam "rkhs/beam"
	"rkhs/internal/cli"
)

// ardOptions reads -sigma, -ard-rows and -ard-iters into o by the rules
// rkhs reads them with (cli.ARDFlags): -sigma ard, with the gaussian
// kernel, learns one length scale per feature after the grid, on the
// rows of -ard-rows, for at most -ard-iters iterations, with a progress
// line per iteration on standard error.
func ardOptions(o *rkhsbeam.SelectOptions, sigma string, ard *cli.ARDFlags) error {
	given := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if sigma != "" && sigma != "ard" {
		return cli.BadInputf("-sigma %q: select chooses one σ on the grid of -sigmas; -sigma ard goes on to one σ per feature", sigma)
	}
	if err := ard.Check(cli.SigmaValue{ARD: sigma == "ard"}, o.Kernel.Type, given); err != nil {
		return err
	}
	if sigma == "ard" && o.Kernel.Type != "gaussian" {
		// The pipelines' passes build the objective of the Gaussian.
		return cli.BadInputf("-sigma ard: rkhs-beam learns one length scale per feature for the gaussian kernel, not %s", o.Kernel.Type)
	}
	if sigma == "ard" {
		o.ARD, o.ARDIters, o.ARDRows = true, ard.Iters, ard.RowsOf
		o.ARDProgress = cli.ScalesProgress(os.Stderr, "rkhs-beam select", o.Criterion)
	}
	return nil
}

// scalesReport returns the report of the descent of sel as rkhs prints
// it, nil without one.
func scalesReport(sel *rkhsbeam.Selection, o rkhsbeam.SelectOptions) *cli.Scales {
	if sel.Scales == nil {
		return nil
	}
	return &cli.Scales{Sel: sel.Scales, Criterion: o.Criterion, Sigma: sel.Sigma, Lambda: sel.Lambda,
		Names: sel.Model.FeatureNames, Rows: sel.Rows, Standardized: sel.Grid.Standardization != nil}
}
