package main

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"rkhs/classify"
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
	fs.StringVar(&iv.method, "interval-method", "", "jackknife+ (the n leave-one-out models, closed forms of the fit) or cv+ (-folds models, which -model saves for rkhs predict -interval); default jackknife+ where the rows are in memory, cv+ for falkon and a streamed selection")
	fs.IntVar(&iv.folds, "folds", 10, "cv+: the number of folds K, drawn with -seed")
}

// check checks the flags against method m (whose selection streams the
// rows when streamed) and sets the default -interval-method.
func (iv *intervalFlags) check(o *modelFlags, m *method, streamed bool) error {
	offered := m.intervals
	if o.classes() {
		offered = slices.DeleteFunc(slices.Clone(offered), func(s string) bool { return s != "jackknife+" })
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
	case checkLevel(iv.level) != nil:
		return checkLevel(iv.level)
	case len(offered) == 0:
		return cli.BadInputf("-interval is offered by -method %s, not %s: only their leave-out models are closed forms of the fit", names(with, "and"), m.name)
	case iv.method == "":
		iv.method = offered[0]
		if streamed && slices.Contains(offered, "cv+") {
			iv.method = "cv+"
		}
	case !slices.Contains(offered, iv.method):
		return cli.BadInputf("-interval-method %q is not offered by %s -method %s: use %s (falkon keeps no factorization of the rows, a classifier's sets are jackknife+)", iv.method, o.verb, m.name, strings.Join(offered, " or "))
	}
	switch {
	case o.set["folds"] && iv.method != "cv+":
		return cli.BadInputf("-folds is for -interval-method cv+")
	case iv.folds < 2:
		return cli.BadInputf("-folds %d: want K ≥ 2 (CV+ leaves out one of K folds)", iv.folds)
	case o.plot != "" && o.test == "":
		return cli.BadInputf("-plot with -interval draws the coverage on the test file: give -test")
	}
	return nil
}

// checkLevel refuses a level of -interval outside (0, 1).
func checkLevel(level float64) error {
	if !(level > 0 && level < 1) {
		return cli.BadInputf("-interval %v: want a level strictly between 0 and 1 (0.9 for 90%% intervals)", level)
	}
	return nil
}

// reach refuses a level that n rows cannot reach (interval.MaxLevel):
// every interval would be the whole line.
func reach(level float64, n int) error {
	if level > interval.MaxLevel(n) {
		return cli.BadInputf("-interval %v: %s give finite intervals only up to level n/(n+1) = %.4g; at %v every interval is the whole line (every label in every set): lower the level, or give more rows", level, cli.Count(n, "row"), interval.MaxLevel(n), level)
	}
	return nil
}

// predictor gives the intervals (or label sets) of test rows, raw as the
// saved model takes them: the one of its fields that is set, on the rows
// mapped by std (the CV+'s fold models map them themselves).
type predictor struct {
	std *kernels.Standardization
	j   *interval.Jackknife
	p   *interval.Path
	c   *interval.Classes
	cv  *interval.CV
}

func (p *predictor) predict(raw *linalg.Dense, level float64) (*interval.Intervals, *interval.LabelSets, error) {
	if p.cv != nil {
		iv, err := p.cv.Predict(raw, level)
		return iv, nil, err
	}
	x, err := p.std.Apply(raw)
	switch {
	case err != nil:
		return nil, nil, err
	case p.c != nil:
		s, err := p.c.Predict(x, level)
		return nil, s, err
	case p.p != nil:
		ivs, err := p.p.Predict(x, level)
		if err != nil {
			return nil, nil, err
		}
		return ivs[0], nil, nil
	}
	iv, err := p.j.Predict(x, level)
	return iv, nil, err
}

// intervals prepares the intervals of the fitted model inner (the
// regress.Model of the saved one) on the training rows train, raw: at its
// kernel and the fit's λ, on the rows mapped by its standardization; the
// CV+ of cv+ (-folds folds drawn with -seed) predicts with inner and is
// what -model saves. Nyström's (falkon's too) keep the model's centres.
func (r *fitRun) intervals(inner *regress.Model, lambda float64, train *dataset.Data) (*predictor, error) {
	o, p := r.o, &predictor{std: inner.Standardization}
	if err := reach(o.iv.level, train.X.Rows); err != nil {
		return nil, err
	}
	x, err := inner.Standardization.Apply(&train.X)
	if err != nil {
		return nil, err
	}
	y, rls := cli.Column(train.Y), regress.RLS{Kernel: inner.Kernel, Lambda: lambda, Intercept: r.ic}
	nys := regress.Nystrom{Kernel: inner.Kernel, Lambda: lambda, Intercept: r.ic, Given: inner.Centers}
	var folds [][]int
	if o.iv.method == "cv+" {
		if folds, err = interval.Folds(x.Rows, o.iv.folds, o.seed); err != nil {
			return nil, cli.Explained{Msg: fmt.Sprintf("-folds %d: want at most the %s fitted", o.iv.folds, cli.Count(x.Rows, "row")), Err: err}
		}
	}
	switch nystrom := r.m.selects >= streamedSelection; {
	case o.classes() && nystrom:
		p.c, err = interval.ClassifyNystrom(nys, r.q > 1, x, train.Y)
	case o.classes():
		p.c, err = interval.ClassifyRLS(classify.RLS{Kernel: inner.Kernel, Lambda: lambda, Intercept: r.ic, OneVsAll: r.q > 1}, x, train.Y)
	case folds != nil && nystrom:
		p.cv, err = interval.NystromCV(nys, x, y, folds)
	case folds != nil:
		p.cv, err = interval.RLSCV(rls, x, y, folds)
	case nystrom:
		p.j, err = interval.Nystrom(nys, x, y)
	case r.spectral != nil:
		p.p, err = interval.NewPath(r.spectral, []float64{lambda}, r.ic)
	default:
		p.j, err = interval.RLS(rls, x, y)
	}
	if err == nil && p.cv != nil {
		p.cv, err = p.cv.WithModel(inner)
	}
	return p, err
}

// calibrationLevels are the levels of the coverage plot.
var calibrationLevels = []float64{0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99}

// testIntervals scores the intervals of the test rows at -interval (and
// with -plot at calibrationLevels): it fills the outcome's figures and
// returns the lines of -predictions and the plot.
func (oc *outcome) testIntervals(p *predictor, test *dataset.Data, pred *linalg.Dense, title string) (lines, plot []byte, err error) {
	o := oc.o
	levels := []float64{o.iv.level}
	if o.plot != "" {
		levels = append(levels, calibrationLevels...)
	}
	nominal := report.Series{Name: "nominal", Color: "#7f7f7f", Marker: -1}
	empirical := report.Series{Name: "empirical, " + o.iv.method, Color: "#1f77b4", Marker: -1}
	for i, level := range levels {
		iv, sets, err := p.predict(&test.X, level)
		if err != nil {
			return nil, nil, err
		}
		var cover, width float64
		if sets != nil {
			cover, width = sets.Coverage(test.Y)
		} else {
			cover, width = iv.Coverage(cli.Column(test.Y))
		}
		if i == 0 {
			oc.coverage, oc.width, lines = cli.JSONPtr(cover), cli.JSONPtr(width), intervalLines(pred, iv, sets)
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
