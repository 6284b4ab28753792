package main

import (
	"errors"
	"fmt"
	"io"
	"rkhs/internal/cli"
	"time"

	"rkhs/classify"
	"rkhs/dataset"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// falkonFlags are the flags of -method falkon in fit and classify: the
// centres, the iteration budget, the seed, the validation fraction and
// the centres of a selection.
type falkonFlags struct {
	centers       int
	iters         int // 0: regress.DefaultFalkonIter
	seed          uint64
	val           float64 // fraction of -train held out for the progress lines
	selectCenters int     // -select-centers: centres of a selection's passes
	progress      io.Writer
}

// defaultSelectCenters is the default of -select-centers: the centres on
// which -method falkon chooses σ and λ when -centers asks for more. A
// selection's passes cost O(n·m²) per σ and hold m² values, which is
// seconds and 8 MB at m = 1000 for any n; Falkon's own fit costs
// O(n·M·t) for t iterations, so that a selection on all M centres would
// dominate the run once M is a few thousand.
const defaultSelectCenters = 1000

// registerVal adds -val to fs (-centers, -iters and -seed are registered by
// the command).
func (ff *falkonFlags) registerVal(fs commandFlags) {
	fs.Float64Var(&ff.val, "val", 0, "falkon: hold out this fraction of -train (at random, -seed) and print its error after every iteration; never the test file")
}

// registerSelectCenters adds -select-centers to fs.
func (ff *falkonFlags) registerSelectCenters(fs commandFlags) {
	fs.IntVar(&ff.selectCenters, "select-centers", defaultSelectCenters, "falkon with -sigma auto or -lambda auto: choose σ and λ on min(M, this) of the -centers M centres (the first of those falkon draws with -seed), then fit falkon on all M at the chosen pair (with M ≤ this the selection used all M, and the fit is solved directly from its statistics, as nystrom's); σ and λ carry over as they are, λ being that of one objective for any number of centres")
}

// check validates the flags of -method falkon.
func (ff *falkonFlags) check() error {
	switch {
	case !(ff.val >= 0 && ff.val < 1):
		return cli.BadInputf("-val %v: want a fraction in [0, 1)", ff.val)
	case ff.iters < 0:
		return cli.BadInputf("-iters %d: want ≥ 0 (0 selects %d)", ff.iters, regress.DefaultFalkonIter)
	}
	return nil
}

// holdOut splits train into the part that fits and the validation part of
// -val (nil without it).
func (ff *falkonFlags) holdOut(train *dataset.Data) (fit, val *dataset.Data, err error) {
	if ff.val == 0 {
		return train, nil, nil
	}
	if err := ff.check(); err != nil {
		return nil, nil, err
	}
	fit, val = train.Split(1-ff.val, ff.seed)
	if fit.X.Rows == 0 || val.X.Rows == 0 {
		return nil, nil, cli.BadInputf("-val %v leaves %s to fit and %d to validate: want both ≥ 1", ff.val, cli.Count(fit.X.Rows, "row"), val.X.Rows)
	}
	return fit, val, nil
}

// fitError says an error of a falkon fit on fitRows rows, of the
// fileRows of -train, in the command's words: an option the library names
// by its field (Centers, MaxIter) is named by its flag, and with -val the
// error says how many rows were left to fit, which the library calls X.
func (ff *falkonFlags) fitError(err error, fileRows, fitRows int) error {
	var ie *linalg.InputError
	if err == nil || !errors.As(err, &ie) {
		return err
	}
	msg := err.Error()
	switch ie.Arg {
	case "Centers":
		msg = fmt.Sprintf("-centers %d: %s", ff.centers, msg)
	case "MaxIter":
		msg = fmt.Sprintf("-iters %d: %s", ff.iters, msg)
	}
	if ff.val > 0 {
		msg += fmt.Sprintf("; -val %v leaves %d of the %s of -train to fit", ff.val, fitRows, cli.Count(fileRows, "row"))
	}
	return cli.Explained{Msg: msg, Err: err}
}

// progress returns the callback of a falkon fit: one line per iteration
// on ff.progress with the iteration, the elapsed time, the residual of the
// preconditioned system and, with a validation set, its error from score.
func progress[M any](ff *falkonFlags, val *dataset.Data, score func(current M, val *dataset.Data) (string, error)) func(int, float64, M) bool {
	start := time.Now()
	return func(iter int, residual float64, current M) bool {
		line := fmt.Sprintf("iter %3d  %8.2f s  residual %.4g", iter, time.Since(start).Seconds(), residual)
		if val != nil {
			s, err := score(current, val)
			if err != nil {
				s = "validation: " + err.Error()
			}
			line += "  " + s
		}
		fmt.Fprintln(ff.progress, line)
		return true
	}
}

// warnShort prints one line on ff.progress when a falkon run stopped
// short (regress.FalkonFit.StoppedShort): its budget used, the relative
// residual far above what the preconditioner promises.
func warnShort(ff *falkonFlags, short bool, iters int, residuals []float64) {
	if short {
		fmt.Fprintf(ff.progress, "rkhs: warning: falkon stopped after %d iterations at relative residual %.2g, above the %.2g its preconditioner promises: the model may be far from converged; raise -iters or -lambda\n",
			iters, residuals[len(residuals)-1], regress.FalkonPromise(iters))
	}
}

// fitFalkon is `rkhs fit -method falkon` on fitSet, the rows of -train
// that -val does not hold out in val (nil without -val): regress.Falkon
// with progress lines on stderr.
func fitFalkon(ff *falkonFlags, k kernels.Kernel, lambda float64, ic regress.Intercept, fitSet, val *dataset.Data, res *fitResult) (predictor, error) {
	if err := ff.check(); err != nil {
		return nil, err
	}
	f := &regress.Falkon{Kernel: k, Lambda: lambda, Centers: ff.centers, Seed: ff.seed, Intercept: ic, MaxIter: ff.iters}
	f.Callback = progress(ff, val, func(current *regress.Model, val *dataset.Data) (string, error) {
		p, err := current.Predict(&val.X)
		if err != nil {
			return "", err
		}
		e, err := mse(val.Y, p)
		return fmt.Sprintf("validation MSE %.6g", e), err
	})
	fit, err := f.Fit(&fitSet.X, column(fitSet.Y))
	if err != nil {
		return nil, ff.fitError(err, res.NTrain+res.NVal, fitSet.X.Rows)
	}
	warnShort(ff, fit.StoppedShort(), fit.Iterations, fit.Residuals)
	res.B, res.Centers, res.Jitter, res.Iterations = cli.JSONFloat(fit.Intercept[0]), fit.Coef.Rows, fit.Jitter, fit.Iterations
	return fit.Model, nil
}

// classifyFalkon is `rkhs classify -method falkon` on fitSet, the rows
// of -train that -val does not hold out in val (nil without -val):
// classify.Falkon with progress lines on stderr.
func classifyFalkon(ff *falkonFlags, k kernels.Kernel, lambda float64, ic regress.Intercept, fitSet, val *dataset.Data, res *classifyResult) (*classify.FalkonFit, error) {
	if err := ff.check(); err != nil {
		return nil, err
	}
	f := classify.Falkon{Kernel: k, Lambda: lambda, Centers: ff.centers, Seed: ff.seed, Intercept: ic, MaxIter: ff.iters}
	f.Callback = progress(ff, val, func(current *classify.RLSModel, val *dataset.Data) (string, error) {
		p, err := current.Predict(&val.X)
		if err != nil {
			return "", err
		}
		a, err := classify.Accuracy(val.Y, p)
		return fmt.Sprintf("validation accuracy %.4f", a), err
	})
	fit, err := f.Fit(&fitSet.X, fitSet.Y)
	if err != nil {
		return nil, ff.fitError(err, res.NTrain+res.NVal, fitSet.X.Rows)
	}
	warnShort(ff, fit.StoppedShort(), fit.Iterations, fit.Residuals)
	res.Iterations = fit.Iterations
	return fit, nil
}

// Choosing σ and λ for -method falkon (-sigma auto, -lambda auto). The
// selection is that of -method nystrom (loo.SelectNystrom, rows streamed,
// the centres shared by every σ) on the first m = min(M, -select-centers)
// of the M centres falkon draws with -seed — the first m distinct rows of
// the same seeded permutation, so that they are a subset of the final
// fit's centres. Then:
//
//   - M ≤ -select-centers: the selection used all M centres, and the fit
//     at the chosen pair is solved directly from the chosen σ's statistics
//     (the exact minimizer that falkon's conjugate gradient approaches);
//   - M > -select-centers: falkon fits on all M centres at the chosen σ and
//     λ. σ carries over as it is. So does λ: in the K + nλI convention it
//     weighs the same objective, (1/n)‖K_nM c − y‖² + λ cᵀK_MM c, for any
//     number of centres, and Nyström with more centres is a closer
//     approximation of the same kernel ridge regression (Rudi, Camoriano
//     and Rosasco, "Less is More: Nyström Computational Regularization",
//     2015), whose λ the selection estimated.

// selectsFalkon reports whether -method falkon chooses σ or λ.
func selectsFalkon(method string, kf *kernelFlags, lambda cli.AutoValue) bool {
	return method == "falkon" && (kf.sigma.Auto || lambda.Auto)
}

// checkSelectCenters refuses -select-centers below 1, or given to a run
// that does not select.
func (ff *falkonFlags) checkSelectCenters(selecting bool, set map[string]bool) error {
	switch {
	case !set["select-centers"]:
		return nil
	case ff.selectCenters < 1:
		return cli.BadInputf("-select-centers %d: want ≥ 1", ff.selectCenters)
	case !selecting:
		return cli.BadInputf("-select-centers sets the centres of a selection: give -sigma auto or -lambda auto")
	}
	return nil
}

// selectionCenters returns the centres of a selection on x for -method
// method: nystrom's M (drawCenters); falkon's first min(M, -select-centers),
// after checking that the M centres of the final fit can be drawn, so
// that a run that would fail after its selection fails before it.
func (ff *falkonFlags) selectionCenters(method string, x *linalg.Dense) (*linalg.Dense, error) {
	if method != "falkon" || ff.centers <= ff.selectCenters {
		return drawCenters(x, ff.centers, ff.seed)
	}
	if _, err := drawCenters(x, ff.centers, ff.seed); err != nil {
		return nil, err
	}
	return drawCenters(x, ff.selectCenters, ff.seed)
}

// falkonAfterSelection reports whether the fit at a chosen pair is
// falkon's on all M centres: -method falkon asking for more centres than
// the selection's m.
func (ff *falkonFlags) falkonAfterSelection(method string, m int) bool {
	return method == "falkon" && ff.centers > m
}
