package main

import (
	"fmt"
	"time"

	"rkhs/classify"
	"rkhs/dataset"
	"rkhs/internal/cli"
	"rkhs/kernels"
	"rkhs/regress"
	"rkhs/report"
)

// -method falkon in fit and classify: regress.Falkon and classify.Falkon
// with a progress line per iteration on standard error (the iteration,
// the elapsed time, the residual of the preconditioned system and, with
// -val, the error on the rows held out), and one warning when a run stops
// short of what its preconditioner promises.

// selectedFalkonIters is falkon's budget after a selection when -iters is
// not given: the selection's λ is often small, at which falkon's default
// 20 iterations stop far from the fit the selection scored, and the run
// stops earlier once its residual reaches what the preconditioner
// promises after the default budget (see falkonBudget).
const selectedFalkonIters = 100

// falkonBudget returns falkon's MaxIter (0: regress.DefaultFalkonIter) and
// the relative residual at which the run stops early (0: none but the
// library's tolerance): -iters when given; after a selection,
// selectedFalkonIters, stopping at regress.FalkonPromise of the default
// budget.
func (r *fitRun) falkonBudget() (maxIter int, stopAt float64) {
	switch {
	case r.o.set["iters"]:
		return r.o.iters, 0
	case r.selectedOn > 0:
		return selectedFalkonIters, regress.FalkonPromise(regress.DefaultFalkonIter)
	}
	return 0, 0
}

// fitFalkon is fit -method falkon: regress.Falkon.
func fitFalkon(r *fitRun, k kernels.Kernel, lambda float64) (*fitted, error) {
	iters, stopAt := r.falkonBudget()
	f := regress.Falkon{Kernel: k, Lambda: lambda, Centers: r.o.centers, Seed: r.o.seed, Intercept: r.ic, MaxIter: iters}
	f.Callback = falkonProgress(r, stopAt, func(current *regress.Model, val *dataset.Data) (string, error) {
		p, err := current.Predict(&val.X)
		if err != nil {
			return "", err
		}
		e, err := cli.MSE(val.Y, p)
		return fmt.Sprintf("validation MSE %.6g", e), err
	})
	fit, err := f.Fit(&r.train.X, r.train.Labels())
	if err != nil {
		return nil, err
	}
	r.warnShort(fit.StoppedShortOf, fit.Iterations, fit.Residuals)
	return &fitted{model: fit.Model, b: fit.Intercept[0], centers: fit.Coef.Rows, jitter: fit.Jitter, iterations: fit.Iterations, lambda: lambda}, nil
}

// classifyFalkon is classify -method falkon: classify.Falkon.
func classifyFalkon(r *fitRun, k kernels.Kernel, lambda float64) (*fitted, error) {
	iters, stopAt := r.falkonBudget()
	f := classify.Falkon{Kernel: k, Lambda: lambda, Centers: r.o.centers, Seed: r.o.seed, Intercept: r.ic, MaxIter: iters}
	f.Callback = falkonProgress(r, stopAt, func(current *classify.RLSModel, val *dataset.Data) (string, error) {
		p, err := current.Predict(&val.X)
		if err != nil {
			return "", err
		}
		a, err := classify.Accuracy(val.Y, p)
		return fmt.Sprintf("validation accuracy %.4f", a), err
	})
	fit, err := f.Fit(&r.train.X, r.train.Y)
	if err != nil {
		return nil, err
	}
	r.warnShort(fit.StoppedShortOf, fit.Iterations, fit.Residuals)
	return &fitted{model: fit.RLSModel, classes: fit.Classes, centers: fit.Model.Coef.Rows, iterations: fit.Iterations, lambda: lambda}, nil
}

// falkonProgress returns the callback of a falkon fit: one line per
// iteration on stderr with the residual and, with -val, the error on the
// rows held out from score; it stops the run once the residual is at most
// stopAt.
func falkonProgress[M any](r *fitRun, stopAt float64, score func(current M, val *dataset.Data) (string, error)) func(int, float64, M) bool {
	start := time.Now()
	return func(iter int, residual float64, current M) bool {
		line := fmt.Sprintf("iter %3d  %8.2f s  residual %.4g", iter, time.Since(start).Seconds(), residual)
		if r.val != nil {
			s, err := score(current, r.val)
			if err != nil {
				s = "validation: " + err.Error()
			}
			line += "  " + s
		}
		fmt.Fprintln(r.stderr, line)
		return residual > stopAt
	}
}

// warnShort prints one line on stderr when a falkon run stopped short
// (regress.FalkonFit.StoppedShortOf, shortOf here): its budget used, the
// relative residual far above what the preconditioner promises — after
// the iterations done, or after a selection after the default budget
// whatever -iters says, since the selection scored the converged fit. It
// then says that the model saved is not the one the selection scored.
func (r *fitRun) warnShort(shortOf func(t int) bool, iters int, residuals []float64) {
	t := iters
	if r.selectedOn > 0 {
		t = regress.DefaultFalkonIter
	}
	if !shortOf(t) {
		return
	}
	what, cure := "the model may be far from converged", "raise -iters or -lambda"
	if r.selectedOn > 0 {
		what = fmt.Sprintf("the saved model is not converged, and the leave-one-out score above is the selection's, on %d centres, not this model's", r.selectedOn)
		cure = fmt.Sprintf("raise -iters, or give -select-centers %d to fit from the selection's statistics", r.o.centers)
	}
	fmt.Fprintf(r.stderr, "rkhs: warning: falkon stopped after %d iterations at relative residual %.2g, above the %.2g its preconditioner promises after %s: %s; %s\n",
		iters, residuals[len(residuals)-1], regress.FalkonPromise(t), report.Count(t, "iteration"), what, cure)
}
