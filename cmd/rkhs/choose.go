package main

import (
	"errors"
	"fmt"
	"math"
	"time"

	"rkhs/classify"
	"rkhs/internal/cli"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/model"
	"rkhs/regress"
	"rkhs/report"
)

// Choosing σ and λ in fit and classify (-sigma auto, -lambda auto): a
// method's route (see route) says how; the grids are loo.DefaultSigmas of the
// median distance between rows and loo.DefaultLambdas unless -sigmas and
// -lambdas give them; the table, its facts and the plot are reported by
// report.Selection. A σ given as a number is checked on the data instead
// (loo.CheckWidth, report.WarnWidth); -sigma ard descends from the choice (descend).

// grids returns the σ and λ grids of a selection on x: -sigmas, or
// loo.DefaultSigmas of the median distance between rows (which it returns), or
// the σ given; -lambdas, or for -method rls on one σ none (classify.SelectRLS
// then takes 25 values over the spectrum of K, as classify.RLS chooses), or
// loo.DefaultLambdas, or the λ given.
func (r *fitRun) grids(x *linalg.Dense) (sigmas, lambdas []float64, median float64, err error) {
	o := r.o
	switch {
	case o.sigmas != "":
		sigmas, err = cli.Grid("sigmas", o.sigmas)
	case o.kf.sigma.Auto:
		k, _ := o.kf.kernelAt(1) // its type, not its σ, chooses the distance
		if median, err = loo.MedianDistanceOf(k, x, o.seed); err != nil {
			var ie *linalg.InputError
			if errors.As(err, &ie) {
				err = cli.Explained{Msg: fmt.Sprintf("-sigma auto: the median distance between rows cannot be measured: %s; give -sigma S, a width for the data, instead", ie.Reason), Err: err}
			}
		}
		sigmas = loo.DefaultSigmas(median)
	default:
		sigmas = []float64{o.kf.sigma.V}
	}
	switch {
	case err != nil:
		return nil, nil, 0, err
	case o.lambdas != "":
		lambdas, err = cli.Grid("lambdas", o.lambdas)
	case !o.lambda.Auto:
		lambdas = []float64{o.lambda.V}
	case r.m.lambda == lambdaChosen && len(sigmas) == 1:
	default:
		lambdas = loo.DefaultLambdas()
	}
	return sigmas, lambdas, median, err
}

// choose selects σ and λ by the method's route and returns the fit at the
// chosen pair with the selection:
//   - exact: loo.SelectRLS (fit, then the method's own fit at the pair) or
//     classify.SelectRLS (classify, whose model is the fit);
//   - streamed: see streamed, its fit solved from the chosen σ's
//     statistics;
//   - falkon: streamed on the first m = min(M, -select-centers) of the M
//     centres falkon draws with -seed (the first m distinct rows of the
//     same seeded permutation, a subset of the final fit's centres); with
//     M > m, falkon then fits on all M at the pair. σ carries over as it
//     is, and so does λ: in the K + nλI convention it weighs one objective,
//     (1/n)‖K_nM c − y‖² + λ cᵀK_MM c, for any number of centres, of which
//     more centres are a closer approximation (Rudi, Camoriano and
//     Rosasco, "Less is More: Nyström Computational Regularization",
//     2015). That fit iterates past falkon's default budget (see
//     falkonBudget), and one that still stops short says that the model
//     saved is not the one the selection scored.
func (r *fitRun) choose() (*fitted, *report.Selection, error) {
	x := &r.train.X
	sigmas, lambdas, median, err := r.grids(x)
	if err != nil {
		return nil, nil, err
	}
	for _, s := range sigmas {
		if _, err := r.o.kf.kernelAt(s); err != nil {
			return nil, nil, err
		}
	}
	kernel := func(s float64) kernels.Kernel {
		k, _ := r.o.kf.kernelAt(s) // checked above
		return k
	}
	r.grid = &loo.SelectNystrom{Kernel: kernel, Sigmas: sigmas, Lambdas: lambdas} // for cv+fold; streamed sets its own
	if r.m.selects != exactSelection {
		f, ns, err := r.streamed(kernel, sigmas, lambdas, false)
		if err != nil {
			return nil, nil, err
		}
		sel := report.FromNystrom(ns, median, x.Rows)
		if sel.Start = r.o.kf.sigma.ARD; sel.Start {
			fa, err := r.descend(ns)
			grid := sel.LOOMSE // the descent's objective at the grid's pair: the leave-one-out MSE, or GCV
			if ns.Criterion == loo.GCV {
				grid = ns.Score
			}
			if err != nil || !r.scales.Sel.Worse(grid) {
				return fa, sel, err
			}
			fmt.Fprintf(r.stderr, "rkhs %s: warning: %s\n", r.o.verb, r.scales.WorseWarning(grid))
			r.scales = nil // the report describes the model saved
			return f, sel, nil
		}
		if r.m.selects == falkonSelection && r.o.centers > f.centers {
			r.selectedOn = f.centers
			f, err = r.fit(kernel(ns.Sigma), ns.Lambda)
		}
		return f, sel, err
	}
	progress := r.progressLine(sigmas, "eigendecomposition and leave-one-out")
	if r.o.classes() {
		rs, err := classify.SelectRLS{Kernel: kernel, Sigmas: sigmas, Lambdas: lambdas, Intercept: r.ic, Progress: progress}.Fit(x, r.train.Y)
		if err != nil {
			return nil, nil, err
		}
		sel := report.NewSelection(rs.Scores, rs.Choice, median, x.Rows)
		a, j, _ := rs.Scores.BestAt()
		sel.LOOMSE, sel.LOORows = rs.Scores.Ties[a][j], x.Rows
		return &fitted{model: rs.Model, classes: rs.Model.Classes, lambda: rs.Lambda}, sel, nil
	}
	pass := 0
	choice, table, err := loo.SelectRLS(func(s float64) kernels.Kernel {
		pass++ // SelectRLS asks for each σ's kernel once, before its eigendecomposition
		progress(pass, len(sigmas), s)
		return kernel(s)
	}, x, r.train.Labels(), sigmas, lambdas, r.ic)
	if err != nil {
		return nil, nil, err
	}
	sel := report.NewSelection(table, choice, median, x.Rows)
	sel.LOOMSE, sel.LOORows = choice.Score, x.Rows
	f, err := r.fit(kernel(choice.Sigma), choice.Lambda)
	return f, sel, err
}

// streamed runs the streamed selection over the grids on the centres of
// selectionCenters — loo.SelectNystrom on the labels (fit),
// classify.SelectNystrom on their ±1 codes (classify) — by the criterion
// of -criterion (the mean squared leave-one-out residual for fit, the
// leave-one-out error rate for classify, or GCV), on -loo-rows rows, with
// a progress line a pass; or, fixed, on a grid of one pair by GCV (one
// pass, no progress lines). It returns the fit at the chosen pair.
func (r *fitRun) streamed(kernel func(float64) kernels.Kernel, sigmas, lambdas []float64, fixed bool) (*fitted, *loo.NystromSelection, error) {
	x := &r.train.X
	centers, err := r.selectionCenters(x)
	if err != nil {
		return nil, nil, err
	}
	r.centres = centers
	sn := loo.SelectNystrom{Kernel: kernel, Centers: centers, Sigmas: sigmas, Lambdas: lambdas, Intercept: r.ic, Seed: r.o.seed, Criterion: loo.GCV}
	if !fixed {
		if r.o.criterion != "gcv" {
			sn.Criterion, sn.Subset = loo.LOOMSE, cli.LOORows(r.o.looRows, x.Rows)
		}
		if r.o.classes() {
			r.warnMissing("-loo-rows", loo.ScaleObjective{Subset: sn.Subset, Seed: sn.Seed}.SubsetRows(x.Rows)) // SelectNystrom's rows
		}
		grid := sn // its grids and criterion, for cv+fold
		r.grid = &grid
		sn.Progress = r.progressLine(sigmas, nystromPasses(sn.Criterion, sn.Subset, x.Rows)...)
		looRows := 0
		if sn.Criterion != loo.GCV {
			looRows = x.Rows
			if sn.Subset > 0 && sn.Subset < x.Rows {
				looRows = sn.Subset
			}
		}
		q := max(r.q, 1)
		stop := announceCost(r.stderr, r.o.verb+" -method "+r.m.name+", choosing σ and λ,", x.Rows,
			cost{loo.SelectNystromCost(x.Rows, x.Cols, q, centers.Rows, len(sigmas), len(lambdas), looRows), fmt.Sprintf("%d σ × %d λ", len(sigmas), len(lambdas)),
				"; fewer values of -sigmas or -lambdas, or -loo-rows R (an estimate on R rows), take less"})
		defer stop()
	}
	var f *fitted
	var ns *loo.NystromSelection
	if r.o.classes() {
		crit := map[loo.Criterion]classify.ClassCriterion{loo.LOOMSE: classify.ErrorRate, loo.GCV: classify.GCV}[sn.Criterion]
		cs, err := classify.SelectNystrom{Selection: sn, Criterion: crit}.Fit(x, r.train.Y)
		if err != nil {
			return nil, nil, err
		}
		ns, f = cs.NystromSelection, &fitted{model: cs.Classifier, classes: cs.Classifier.Classes}
	} else {
		if ns, err = sn.Fit(x, r.train.Labels()); err != nil {
			return nil, nil, err
		}
		f = &fitted{model: ns.Fit.Model, b: ns.Fit.Intercept[0]}
	}
	f.lambda, f.centers, f.jitter = ns.Lambda, ns.Fit.Coef.Rows, ns.Fit.Jitter
	return f, ns, nil
}

// descend learns one length scale per feature and λ from the grid's
// choice ns (-sigma ard): loo.SelectScales on the labels (fit),
// classify.SelectScales on their ±1 codes (classify), on the selection's
// centres and by its criterion — the squared leave-one-out residual (of
// the codes, the error rate reported) over the rows of -loo-rows, or
// GCV — descending on the rows of -ard-rows for at most -ard-iters
// iterations, a progress line each. The descent's fit on every row is the
// model, its standardization the training rows' composed with the
// scales (loo.ComposeScales); falkon with more centres than the
// selection's then fits on all M at the scales (fitScaled). -ard-rows
// below loo.MinDescentRows of the centres is refused (cli.CheckARDRows),
// and so is a draw of it that holds one class (cli.ARDRowsError); choose
// keeps the grid's model when the scales do worse on every row
// (loo.ScaleSelection.Worse).
func (r *fitRun) descend(ns *loo.NystromSelection) (*fitted, error) {
	o, x := r.o, &r.train.X
	obj := loo.ScaleObjective{Centers: r.centres, Intercept: r.ic, Seed: o.seed, Criterion: loo.GCV}
	obj.Kernel, _ = o.kf.kernelAt(ns.Sigma) // its type: the scales replace its σ
	if o.criterion != "gcv" {
		obj.Criterion, obj.Subset = loo.LOOMSE, cli.LOORows(o.looRows, x.Rows)
	}
	crit, cc := obj.Criterion, map[loo.Criterion]classify.ClassCriterion{loo.LOOMSE: classify.ErrorRate, loo.GCV: classify.GCV}[obj.Criterion]
	if o.classes() && crit == loo.LOOMSE {
		crit = loo.LOOErrorRate
	}
	ss := loo.SelectScales{Objective: obj, Sigma: ns.Sigma, Lambda: ns.Lambda, MaxIter: o.ard.Iters, Rows: o.ard.RowsOf(x.Rows),
		Standardization: r.scale, Progress: cli.ScalesProgress(r.stderr, "rkhs "+o.verb+" -method "+r.m.name, crit)}
	if err := cli.CheckARDRows(ss.Rows, x.Rows, r.centres.Rows); err != nil {
		return nil, err
	}
	if drawn, _ := ss.DescentRows(x.Rows); o.classes() { // its error is CheckARDRows's
		r.warnMissing("-ard-rows", drawn)
	}
	var s *loo.ScaleSelection
	var f *fitted
	var err error
	if o.classes() {
		var cs *classify.ScaleSelection
		if cs, err = (classify.SelectScales{Selection: ss, Criterion: cc}).Fit(x, r.train.Y); err != nil {
			return nil, cli.ARDRowsError(err, ss.Rows, x.Rows)
		}
		s, f = cs.ScaleSelection, &fitted{model: cs.Classifier, classes: cs.Classifier.Classes}
	} else {
		if s, err = ss.Fit(x, r.train.Labels()); err != nil {
			return nil, cli.ARDRowsError(err, ss.Rows, x.Rows)
		}
		f = &fitted{model: s.Fit.Model, b: s.Fit.Intercept[0]}
	}
	f.lambda, f.centers, f.jitter = s.Lambda, s.Fit.Coef.Rows, s.Fit.Jitter
	r.scales = &report.Scales{Sel: s, Criterion: crit, Sigma: ns.Sigma, Lambda: ns.Lambda, Names: r.features, Rows: x.Rows, Standardized: r.scale != nil}
	if r.m.selects == falkonSelection && o.centers > f.centers {
		r.selectedOn = f.centers
		return r.fitScaled(s)
	}
	return f, nil
}

// fitScaled fits the method (falkon, on all M centres) at the scales and
// λ of s: on the rows divided by σ_j, with the kernel of width 1,
// as the descent's fit sees them; the model then maps raw rows by the
// descent's composed standardization.
func (r *fitRun) fitScaled(s *loo.ScaleSelection) (*fitted, error) {
	by, sr := &kernels.Standardization{Mean: make([]float64, len(s.Sigmas)), Scale: s.Sigmas}, *r
	var err error
	if sr.train, err = standardized(by, r.train); err == nil {
		sr.val, err = standardized(by, r.val)
	}
	if err != nil {
		return nil, err
	}
	f, err := sr.fit(s.Fit.Model.Kernel, s.Lambda)
	if err == nil {
		*model.Of(f.model).Standardization = s.Fit.Model.Standardization
	}
	return f, err
}

// selectionCenters returns the centres of a streamed selection on x: the
// M of -centers, drawn as -method nystrom and falkon draw them
// (regress.NystromCenters with -seed); for
// -method falkon choosing σ or λ, the first min(M, -select-centers), after
// checking that the final fit's M centres can be drawn and that its
// memory (regress.FalkonMemory) is there, so that a run that would fail
// after its selection fails before it.
func (r *fitRun) selectionCenters(x *linalg.Dense) (*linalg.Dense, error) {
	m := r.o.centers
	if r.m.selects == falkonSelection && m > r.o.selectCenters {
		if err := memlimit.Check("Falkon.Fit", regress.FalkonMemory(x.Rows, m, x.Cols, r.q)); err != nil {
			return nil, err
		}
		if _, err := regress.NystromCenters(x, m, r.o.seed); err != nil {
			return nil, err
		}
		m = r.o.selectCenters
	}
	return regress.NystromCenters(x, m, r.o.seed)
}

// progressLine returns the callback that prints one line per pass of a
// selection over sigmas on stderr: the pass, what it computes (kinds, in
// turn for each σ), σ (or "every σ" for a pass that serves several, σ
// NaN) and the time since the run started.
func (r *fitRun) progressLine(sigmas []float64, kinds ...string) func(pass, passes int, sigma float64) {
	what := r.o.verb + " -method " + r.m.name
	return func(pass, passes int, sigma float64) {
		if math.IsNaN(sigma) && len(sigmas) == 1 {
			sigma = sigmas[0]
		}
		at := fmt.Sprintf("σ = %.4g", sigma)
		if math.IsNaN(sigma) {
			at = "every σ"
		}
		fmt.Fprintf(r.stderr, "rkhs %s: pass %d of %d, %s: %s, %.1f s\n", what, pass, passes, at, kinds[(pass-1)%len(kinds)], time.Since(r.start).Seconds())
	}
}

// nystromPasses are the passes of loo.SelectNystrom, for each σ or for all
// σ together, with Subset sub of n rows.
func nystromPasses(c loo.Criterion, sub, n int) []string {
	if c == loo.GCV {
		return []string{"statistics and GCV"}
	}
	if sub > 0 && sub < n {
		return []string{"statistics", fmt.Sprintf("leave-one-out on %d of the %d rows, drawn at random (-loo-rows)", sub, n)}
	}
	return []string{"statistics", "leave-one-out"}
}

// warnMissing warns when the rows drawn for flag miss a class.
func (r *fitRun) warnMissing(flag string, drawn []int) {
	if w := classify.DescribeMissing(r.train.Y, drawn); w != "" {
		fmt.Fprintf(r.stderr, "rkhs %s: warning: %s %d: %s; raise %s (or 0 for every row)\n", r.o.verb, flag, len(drawn), w, flag)
	}
}
