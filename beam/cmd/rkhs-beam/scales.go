package main

import (
	"fmt"
	"io"
	"os"
	"strconv"

	rkhsbeam "rkhs/beam"
	"rkhs/internal/cli"
	"rkhs/loo"
)

// ardOptions reads -sigma and -ard-iters into o: -sigma ard, with the
// gaussian kernel, learns one length scale per feature after the grid,
// with a progress line per iteration on standard error.
func ardOptions(o *rkhsbeam.SelectOptions, sigma string) error {
	switch {
	case sigma == "" && o.ARDIters != 0:
		return cli.BadInputf("-ard-iters %d without -sigma ard", o.ARDIters)
	case sigma == "":
		return nil
	case sigma != "ard":
		return cli.BadInputf("-sigma %q: want ard (one σ per feature, after the grid of -sigmas)", sigma)
	case o.Kernel.Type != "gaussian":
		return cli.BadInputf("-sigma ard learns one σ per feature of the gaussian kernel, not the %s", o.Kernel.Type)
	case o.ARDIters < 0:
		return cli.BadInputf("-ard-iters %d: want ≥ 0 (0 selects the library's budget of 50 iterations)", o.ARDIters)
	}
	o.ARD = true
	name := objectiveName(o.Criterion)
	o.ARDProgress = func(iter int, objective, projGrad, seconds float64) {
		fmt.Fprintf(os.Stderr, "rkhs-beam select: ard iteration %d: %s %.6g, projected gradient %.2g, %.1f s\n", iter, name, objective, projGrad, seconds)
	}
	return nil
}

// objectiveName names the objective of the descent by its criterion: GCV,
// or the mean squared leave-one-out residual (of the ±1 codes with
// classes, whose error rate is reported beside it).
func objectiveName(c loo.Criterion) string {
	if c == loo.GCV {
		return "gcv"
	}
	return "loo_mse"
}

// scales is the report of the descent of a selection: its table of
// scales ranked and its fields of -json.
type scales struct {
	sel       *loo.ScaleSelection
	criterion loo.Criterion
	sigma     float64 // the start σ₀, λ₀: the grid's choice
	lambda    float64
	names     []string
	rows      int
	std       bool
}

// scalesReport returns the report of the descent of sel, nil without one.
func scalesReport(sel *rkhsbeam.Selection, o rkhsbeam.SelectOptions) *scales {
	if sel.Scales == nil {
		return nil
	}
	return &scales{sel: sel.Scales, criterion: o.Criterion, sigma: sel.Sigma, lambda: sel.Lambda,
		names: sel.Model.FeatureNames, rows: sel.Rows, std: sel.Grid.Standardization != nil}
}

// scalesFields are the fields of the descent in -json: the scales in the
// order of the columns (in standard deviations of the features when
// standardized), the features' names, the ranking (0-based columns, the
// most relevant first) and the constant features; the objective at the
// scales, the error rate with classes; the objective at the start and
// after each iteration, the iterations, the evaluations and why the
// descent stopped.
type scalesFields struct {
	Sigmas       []cli.JSONFloat `json:"sigmas"`
	FeatureNames []string        `json:"feature_names,omitempty"`
	Ranking      []int           `json:"ard_ranking"`
	Constant     []int           `json:"ard_constant,omitempty"`
	Criterion    string          `json:"ard_criterion"`
	Objective    cli.JSONFloat   `json:"ard_objective"`
	ErrorRate    *cli.JSONFloat  `json:"ard_loo_error,omitempty"`
	FitRows      int             `json:"ard_rows"`
	Start        cli.JSONFloat   `json:"ard_start"`
	History      []cli.JSONFloat `json:"ard_history"`
	Iterations   int             `json:"ard_iterations"`
	Evaluations  int             `json:"ard_evaluations"`
	Stop         string          `json:"ard_stop"`
}

// Fields returns the fields of -json; a nil s gives nil.
func (s *scales) Fields() *scalesFields {
	if s == nil {
		return nil
	}
	r := s.sel
	f := &scalesFields{Sigmas: cli.JSONFloats(r.Sigmas), FeatureNames: s.names, Ranking: r.Ranking(), Constant: r.Constant,
		Criterion: objectiveName(s.criterion), Objective: cli.JSONFloat(r.Objective), FitRows: r.FitRows, Start: cli.JSONFloat(r.Start),
		History: cli.JSONFloats(r.History), Iterations: r.Iterations, Evaluations: r.Evaluations, Stop: r.Stop.String()}
	if s.criterion == loo.LOOErrorRate {
		f.ErrorRate = cli.JSONPtr(r.ErrorRate)
	}
	return f
}

// PrintTable writes the descent in a line, the scales from the most
// relevant feature to the least (a constant feature last, marked), and
// the objective at the scales in a line.
func (s *scales) PrintTable(w io.Writer) {
	r, name := s.sel, objectiveName(s.criterion)
	end := r.Start
	if len(r.History) > 0 {
		end = r.History[len(r.History)-1]
	}
	fmt.Fprintf(w, "ard from σ = %.4g, λ = %.4g: %s %.6g → %.6g on %s in %s (%s; stopped by %s)\n",
		s.sigma, s.lambda, name, r.Start, end, cli.Count(r.FitRows, "row"), cli.Count(r.Iterations, "iteration"), cli.Count(r.Evaluations, "evaluation"), r.Stop)
	unit := "standard deviations"
	if !s.std {
		unit = "units of the feature"
	}
	fmt.Fprintf(w, "rank  %-16s σ_j (%s)\n", "feature", unit)
	constant := make(map[int]bool, len(r.Constant))
	for _, j := range r.Constant {
		constant[j] = true
	}
	for i, j := range r.Ranking() {
		v := strconv.FormatFloat(r.Sigmas[j], 'g', 4, 64)
		if constant[j] {
			v = "constant (its σ_j, the start's, is meaningless)"
		}
		col := strconv.Itoa(j + 1)
		if j < len(s.names) {
			col = s.names[j]
		}
		fmt.Fprintf(w, "%4d  %-16s %s\n", i+1, col, v)
	}
	fmt.Fprintf(w, "chosen λ = %.4g with these scales: %s %.6g over %s", r.Lambda, name, r.Objective, cli.Count(r.LOORows, "row"))
	if s.criterion == loo.LOOErrorRate {
		fmt.Fprintf(w, ", loo_error %.4f", r.ErrorRate)
	}
	fmt.Fprintln(w)
}
