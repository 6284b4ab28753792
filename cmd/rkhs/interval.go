package main

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"rkhs/dataset"
	"rkhs/internal/cli"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
	"rkhs/report"
)

// -interval LEVEL of fit, classify and predict: jackknife+ and CV+
// intervals (labels sets for classes) from the exact leave-one-out or
// leave-fold-out models of package interval, at the fit's σ and λ, on the
// rows as the model's kernel sees them.

// intervalFlags are -interval, -interval-method and -folds.
type intervalFlags struct {
	level  float64
	method string
	folds  int
}

// register adds the flags; offer names the methods with intervals.
func (iv *intervalFlags) register(fs *flagSet, offer string) {
	fs.Float64Var(&iv.level, "interval", 0, "prediction intervals at this level in (0, 1), as 0.9, by "+offer+": with -test their coverage and mean width (classify: label sets, their coverage and mean size), -predictions a CSV file of prediction,lower,upper (classify: label,set, the set's labels joined by |), -plot the coverage on -test against the level from 0.5 to 0.99 instead of a selection's curves")
	fs.StringVar(&iv.method, "interval-method", "", "jackknife+ (the n leave-one-out models, closed forms of the fit), cv+ (-folds models, which -model saves for rkhs predict -interval) or cv+fold (cv+ whose fold models choose σ and λ by the selection's own rule on the rows outside their fold, what the guarantee covers after -sigma auto or -lambda auto); default jackknife+ where the rows are in memory, cv+ for falkon and a streamed selection")
	fs.IntVar(&iv.folds, "folds", 10, "cv+ and cv+fold: the number of folds K, drawn with -seed (nystrom and falkon stream them from per-fold statistics: a row's fold is a hash of -seed and its number, so fold sizes vary)")
}

// check checks the flags against method m (whose selection streams the
// rows when streamed) and sets the default -interval-method.
func (iv *intervalFlags) check(o *modelFlags, m *method, streamed bool) error {
	offered := m.intervals
	if o.classes() {
		offered = slices.DeleteFunc(slices.Clone(offered), func(s string) bool { return s == "cv+fold" || !slices.Contains(m.intervals, "jackknife+") })
	}
	var with []*method
	for _, w := range methodsOf(o.verb) {
		if len(w.intervals) > 0 && (!o.classes() || slices.Contains(w.intervals, "jackknife+")) {
			with = append(with, w)
		}
	}
	switch {
	case !o.set["interval"]:
		for _, f := range []string{"interval-method", "folds"} {
			if o.set[f] {
				return cli.BadInputf("-%s is for -interval LEVEL", f)
			}
		}
		return nil
	case interval.CheckLevel(iv.level) != nil:
		return levelError(iv.level, interval.CheckLevel(iv.level))
	case len(offered) == 0:
		return cli.BadInputf("-interval is offered by -method %s, not %s: only their leave-out models are closed forms of the fit", names(with, "and"), m.name)
	case iv.method == "":
		iv.method = string(interval.DefaultMethod(streamed && slices.Contains(offered, "cv+") || !slices.Contains(offered, "jackknife+")))
	case !slices.Contains(offered, iv.method):
		return cli.BadInputf("-interval-method %q is not offered by %s -method %s: use %s (falkon keeps no factorization of the rows; a classifier's sets are jackknife+ or cv+, at its σ and λ)", iv.method, o.verb, m.name, strings.Join(offered, " or "))
	}
	switch {
	case o.set["folds"] && iv.method == "jackknife+":
		return cli.BadInputf("-folds is for -interval-method cv+ and cv+fold")
	case iv.method == "cv+fold" && (o.kf.sigma.ARD || !o.kf.sigma.Auto && !o.lambda.Auto):
		return cli.BadInputf("-interval-method cv+fold repeats the choice of σ and λ on each fold's complement: give -sigma auto or -lambda auto (not ard, whose descent it does not repeat)")
	case iv.folds < 2:
		return cli.BadInputf("-folds %d: want K ≥ 2 (CV+ leaves out one of K folds)", iv.folds)
	case o.plot != "" && o.test == "":
		return cli.BadInputf("-plot with -interval draws the coverage on the test file: give -test")
	}
	return nil
}

// levelError says the library's refusal of a level (interval.CheckLevel,
// interval.Reach) as one of -interval.
func levelError(level float64, err error) error {
	var ie *linalg.InputError
	if !errors.As(err, &ie) {
		return err
	}
	return cli.Explained{Msg: fmt.Sprintf("-interval %v: %s", level, strings.TrimPrefix(ie.Reason, fmt.Sprint(level)+", ")), Err: err}
}

// spec is the intervals of -interval for the fit at kernel k and λ, on
// the rows of the fit, with the grids of a selection (for cv+fold), and
// Nyström's and falkon's CV+ from per-fold statistics in two passes; the centres of a
// Nyström model are set by the caller.
func (r *fitRun) spec(k kernels.Kernel, lambda float64) interval.Spec {
	o := r.o
	return interval.Spec{Method: interval.Method(o.iv.method), Level: o.iv.level, Folds: o.iv.folds, Seed: o.seed, Kernel: k, Lambda: lambda,
		Intercept: r.ic, Spectral: r.spectral, Classes: o.classes(), OneVsAll: r.q > 1, Choose: r.grid, Stream: r.m.selects >= streamedSelection}
}

// intervals prepares the intervals of the fitted model inner (the
// regress.Model of the saved one) on the training rows train, raw: those
// the fit built with its model (fitOnce), or else at inner's kernel,
// centres and the fit's λ on the rows mapped by its standardization. They
// predict with inner; a CV+ is what -model saves.
func (r *fitRun) intervals(inner *regress.Model, lambda float64, train *dataset.Data) (*interval.Fitted, error) {
	p := r.built
	if p == nil {
		x, err := inner.Standardization.Apply(&train.X)
		if err != nil {
			return nil, err
		}
		s := r.spec(inner.Kernel, lambda)
		if r.m.selects >= streamedSelection {
			s.Centers = inner.Centers
		}
		if p, err = s.Build(x, train.Y); err != nil {
			return nil, err
		}
	}
	return p.WithModel(inner)
}

// fitOnce fits cholesky and classify rls with -interval by the
// intervals' own fit (interval.Spec.Build), whose model is the one saved.
func (r *fitRun) fitOnce(k kernels.Kernel, lambda float64) (*fitted, error) {
	p, err := r.spec(k, lambda).Build(&r.train.X, r.train.Y)
	if err != nil {
		return nil, err
	}
	r.built = p
	if c := p.Classifier(); c != nil {
		return &fitted{model: c, classes: c.Classes, lambda: c.Lambda}, nil
	}
	return &fitted{model: p.Model(), b: p.Model().Intercept[0], lambda: lambda}, nil
}

// calibrationLevels are the levels of the coverage plot.
var calibrationLevels = []float64{0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99}

// testIntervals scores the intervals of the test rows at -interval (and
// with -plot at calibrationLevels): it fills the outcome's figures and
// returns the lines of -predictions and the plot.
func (oc *outcome) testIntervals(p *interval.Fitted, test *dataset.Data, pred *linalg.Dense, title string) (lines, plot []byte, err error) {
	o := oc.o
	levels := []float64{o.iv.level}
	if o.plot != "" {
		levels = append(levels, calibrationLevels...)
	}
	nominal := report.Series{Name: "nominal", Color: "#7f7f7f", Marker: -1}
	empirical := report.Series{Name: "empirical, " + o.iv.method, Color: "#1f77b4", Marker: -1}
	for i, level := range levels {
		iv, sets, err := p.Predict(&test.X, level)
		if err != nil {
			return nil, nil, err
		}
		var cover, width float64
		if sets != nil {
			cover, width = sets.Coverage(test.Y)
		} else {
			cover, width = iv.Coverage(test.Labels())
		}
		if i == 0 {
			oc.coverage, oc.width, lines = report.JSONPtr(cover), report.JSONPtr(width), intervalLines(pred, iv, sets)
			continue
		}
		nominal.X, nominal.Y = append(nominal.X, level), append(nominal.Y, level)
		empirical.X, empirical.Y = append(empirical.X, level), append(empirical.Y, cover)
	}
	if o.plot != "" {
		plot = []byte(report.SVG(report.Panel{Title: title, XLabel: "nominal level", YLabel: "coverage on the test file", Series: []report.Series{nominal, empirical}}))
	}
	return lines, plot, nil
}

// intervalLines are the lines of -predictions with -interval: a header,
// then prediction,lower,upper a row (values as %.17g), or for label sets
// label,set with the set's labels joined by |.
func intervalLines(pred *linalg.Dense, iv *interval.Intervals, sets *interval.LabelSets) []byte {
	var b bytes.Buffer
	if sets != nil {
		b.WriteString("label,set\n")
		for i, s := range sets.Sets {
			labels := make([]string, len(s))
			for j, l := range s {
				labels[j] = strconv.FormatFloat(l, 'g', -1, 64)
			}
			fmt.Fprintf(&b, "%s,%s\n", strconv.FormatFloat(sets.Predicted[i], 'g', -1, 64), strings.Join(labels, "|"))
		}
		return b.Bytes()
	}
	b.WriteString("prediction,lower,upper\n")
	for i := range pred.Rows {
		fmt.Fprintf(&b, "%.17g,%.17g,%.17g\n", pred.At(i, 0), iv.Lower.At(i, 0), iv.Upper.At(i, 0))
	}
	return b.Bytes()
}
