package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"rkhs/cmd/rkhs/internal/paper"
	"rkhs/datasets"
	"rkhs/internal/cli"
)

// setupPaper registers the flags of rkhs paper and returns its run: the
// experiment of Prato and Zanni (2012), package rkhs/cmd/rkhs/internal/paper, on
// the bundled regression sets or those of -data, its table on stdout and
// table.md, results.json and one SVG per set in -out.
func setupPaper(fs *flagSet) func(stdout, stderr io.Writer) error {
	var dataDir, outDir string
	fs.file(&dataDir, dirFlag, "data", "", "read the data sets from `DIR` (files named as in the bundled set, e.g. housing_scale) instead of the bundled copies")
	fs.file(&outDir, outDirFlag, "out", "paper-out", "write results.json, table.md and one SVG plot per data set to `DIR`")
	seed := fs.Uint64("seed", 1, "seed of the train/test splits and of the σ subsample")
	sets := fs.String("sets", "", "comma-separated subset of the data sets (default: all eight)")
	return func(stdout, stderr io.Writer) error {
		var names []string
		if *sets != "" {
			names = strings.Split(*sets, ",")
			for _, n := range names {
				if in, err := datasets.Lookup(n); err != nil || in.Task != "regression" {
					return cli.BadInputf("-sets: %q is not one of the regression sets %s", n, strings.Join(paper.Sets(), ", "))
				}
			}
		}
		if err := cli.CheckOutputDir("out", outDir); err != nil {
			return err
		}
		exps, total, err := paper.Run(names, dataDir, *seed, stderr)
		if err != nil {
			return err
		}
		table := paper.Table(exps, *seed, total)
		js, err := paper.Results(exps, *seed, total)
		if err != nil {
			return err
		}
		files := []pendingFile{{filepath.Join(outDir, "table.md"), []byte(table)}, {filepath.Join(outDir, "results.json"), js}}
		for _, e := range exps {
			if e.Kernel == "gaussian" {
				files = append(files, pendingFile{filepath.Join(outDir, e.Set+".svg"), []byte(paper.Plot(e))})
			}
		}
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return err
		}
		if err := writeAll(files, io.Discard); err != nil {
			return err
		}
		fmt.Fprint(stdout, table)
		fmt.Fprintf(stdout, "\nWrote %s (table.md, results.json, one SVG per data set).\n", outDir)
		return nil
	}
}
