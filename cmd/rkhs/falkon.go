package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"rkhs/classify"
	"rkhs/dataset"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// falkonFlags are the flags of -method falkon in fit and classify: the
// centres, the iteration budget, the seed and the validation fraction.
type falkonFlags struct {
	centers  int
	iters    int // 0: regress.DefaultFalkonIter
	seed     uint64
	val      float64 // fraction of -train held out for the progress lines
	progress io.Writer
}

// registerVal adds -val to fs (-centers, -iters and -seed are registered by
// the command).
func (ff *falkonFlags) registerVal(fs commandFlags) {
	fs.Float64Var(&ff.val, "val", 0, "falkon: hold out this fraction of -train (at random, -seed) and print its error after every iteration; never the test file")
}

// check validates the flags of -method falkon.
func (ff *falkonFlags) check() error {
	switch {
	case !(ff.val >= 0 && ff.val < 1):
		return badInputf("-val %v: want a fraction in [0, 1)", ff.val)
	case ff.iters < 0:
		return badInputf("-iters %d: want ≥ 0 (0 selects %d)", ff.iters, regress.DefaultFalkonIter)
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
		return nil, nil, badInputf("-val %v leaves %s to fit and %d to validate: want both ≥ 1", ff.val, count(fit.X.Rows, "row"), val.X.Rows)
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
		msg += fmt.Sprintf("; -val %v leaves %d of the %s of -train to fit", ff.val, fitRows, count(fileRows, "row"))
	}
	return explained{msg, err}
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
	res.B, res.Centers, res.Jitter, res.Iterations = jsonFloat(fit.Intercept[0]), fit.Coef.Rows, fit.Jitter, fit.Iterations
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
