// Package paper is the experiment of Prato and Zanni, "A practical use of
// regularization for supervised learning with kernel methods" (2012), as
// `rkhs paper` reproduces it (equation numbers are theirs):
//
//   - the eight LIBSVM regression sets, each split at random 2/3 training,
//     1/3 test (dataset.Data.Split with -seed);
//   - 100 values of λ geometric in [1e-10, 1e5] (K + nλI convention), and
//     t = 1…50 iterations of CG;
//   - the linear kernel, and the Gaussian kernel whose σ is chosen on the
//     training part alone (see chooseSigma);
//   - methods: RLS with a free intercept (eq. 7), RLS with a penalized
//     intercept (eq. 8), Tikhonov on the augmented matrix [K 1] and CG
//     (CGLS, eq. 9) on [K 1]; and, beyond the paper, the λ that
//     leave-one-out selects on the training part for the three λ-methods.
//
// One decomposition per data set and kernel serves the three λ-methods for
// all 100 λ: for the Gaussian kernel the eigendecomposition K = QΛQᵀ
// (regress.Spectral: the free intercept through G⁻¹1, the penalized one and
// Tikhonov on [K 1] by Sherman–Morrison in the eigenbasis), for the linear
// kernel the thin SVD of X (regress.LinearPath, O(d) per λ).
package paper

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"rkhs/internal/cli"
	"rkhs/report"
	"strings"
	"time"

	"rkhs/dataset"
	"rkhs/datasets"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// Labels of the methods in the table, the plots and results.json.
const (
	labelFree      = "RLS, free b (eq. 7)"
	labelPenalized = "RLS, penalized b (eq. 8)"
	labelAugmented = "Tikhonov on [K 1]"
	labelCG        = "CG on [K 1] (eq. 9)"
)

const (
	paperLambdaMin   = 1e-10
	paperLambdaMax   = 1e5
	paperLambdaCount = 100
	paperCGIters     = 50
	sigmaSubsample   = 1000 // training points used to choose σ
)

// Curve is a method's test error along its parameter.
type Curve struct {
	Method     string             `json:"method"`
	Param      string             `json:"param"` // "lambda" or "t"
	Values     []report.JSONFloat `json:"values"`
	TestMSE    []report.JSONFloat `json:"test_mse"`
	BestValue  report.JSONFloat   `json:"best_value"`
	BestMSE    report.JSONFloat   `json:"best_test_mse"`
	LOOValue   *report.JSONFloat  `json:"loo_value"`    // λ chosen by leave-one-out on the training part
	LOOTestMSE *report.JSONFloat  `json:"loo_test_mse"` // test MSE at that λ
	// NearBest is the share of the grid (λ or t) whose test MSE is within
	// 10% of the best: how flat the error curve is around its minimum.
	NearBest float64 `json:"near_best"`
	Seconds  float64 `json:"seconds"` // the method's own time (see timeNote)
}

// Experiment is one data set with one kernel.
type Experiment struct {
	Set            string  `json:"set"`
	Kernel         string  `json:"kernel"`
	NTrain         int     `json:"n_train"`
	NTest          int     `json:"n_test"`
	Features       int     `json:"features"`
	Sigma          float64 `json:"sigma,omitempty"`
	SigmaSeconds   float64 `json:"sigma_seconds,omitempty"`
	DecompSeconds  float64 `json:"decomposition_seconds"`
	CholeskySecond float64 `json:"cholesky_seconds"`
	Curves         []Curve `json:"curves"`
}

const timeNote = "Times: 'decomposition' is the eigendecomposition of K (Gaussian) or the thin SVD of X (linear), shared by the two RLS methods and Tikhonov on [K 1]; each of those three then costs its own time for all 100 λ (coefficients, test predictions and leave-one-out). CG is one run of 50 iterations including the Gram matrix, and gives the whole t-Curve. 'Cholesky' is one RLS fit (free b) at a single λ by Cholesky, Gram matrix included, for scale."

// Run runs the experiment on the named regression sets (nil: all eight),
// read from dataDir ("": the bundled copies), split with seed, a progress
// line on progress for each set and kernel; it returns the experiments, a
// linear and a Gaussian one per set, and the seconds they took.
func Run(names []string, dataDir string, seed uint64, progress io.Writer) ([]Experiment, float64, error) {
	if names == nil {
		names = Sets()
	}
	start := time.Now()
	var exps []Experiment
	for i, name := range names {
		d, err := load(name, dataDir)
		if err != nil {
			return nil, 0, err
		}
		train, test := d.Split(2.0/3, seed)
		for _, kern := range []string{"linear", "gaussian"} {
			fmt.Fprintf(progress, "\rrkhs paper: [%d/%d] %-10s %-8s n=%d …%20s", i+1, len(names), name, kern, train.X.Rows, "")
			var e Experiment
			if kern == "linear" {
				e, err = linear(name, train, test)
			} else {
				e, err = gaussian(name, train, test, seed)
			}
			if err != nil {
				return nil, 0, fmt.Errorf("%s, %s kernel: %w", name, kern, err)
			}
			exps = append(exps, e)
		}
	}
	total := time.Since(start).Seconds()
	fmt.Fprintf(progress, "\rrkhs paper: done in %.1f s%50s\n", total, "")
	return exps, total, nil
}

// Results returns results.json: the settings of the run and every
// experiment.
func Results(exps []Experiment, seed uint64, total float64) ([]byte, error) {
	js, err := json.MarshalIndent(struct {
		Seed        uint64       `json:"seed"`
		Lambdas     string       `json:"lambdas"`
		CGIters     int          `json:"cg_iterations"`
		Seconds     float64      `json:"seconds"`
		TimeNote    string       `json:"time_note"`
		Experiments []Experiment `json:"experiments"`
	}{seed, fmt.Sprintf("%d geometric in [%g, %g]", paperLambdaCount, paperLambdaMin, paperLambdaMax), paperCGIters, total, timeNote, exps}, "", " ")
	return append(js, '\n'), err
}

// Sets returns the names of the eight regression sets, in the order
// of Prato and Zanni (2012).
func Sets() []string {
	var names []string
	for _, in := range datasets.All {
		if in.Task == "regression" {
			names = append(names, in.Name)
		}
	}
	return names
}

// load reads the set name from dir, or the bundled copy when dir is "".
func load(name, dir string) (*dataset.Data, error) {
	if dir == "" {
		return datasets.Load(name)
	}
	in, err := datasets.Lookup(name)
	if err != nil {
		return nil, err
	}
	raw, err := os.ReadFile(filepath.Join(dir, filepath.Base(in.Path)))
	if err != nil {
		return nil, err
	}
	d, err := dataset.ReadLIBSVM(bytes.NewReader(raw), in.Features)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, filepath.Base(in.Path)), err)
	}
	return d, nil
}

// lambdas is the λ grid of every experiment.
func lambdas() []float64 { return loo.Geometric(paperLambdaMin, paperLambdaMax, paperLambdaCount) }

// testMSEs returns the test MSE of each of the predictions p against y.
func testMSEs(p []*linalg.Dense, y []float64) ([]report.JSONFloat, error) {
	out := make([]report.JSONFloat, len(p))
	for j, pj := range p {
		m, err := cli.MSE(y, pj)
		if err != nil {
			return nil, err
		}
		out[j] = report.JSONFloat(m)
	}
	return out, nil
}

// finish fills in the best point of a curve and, if loo is not nil, the
// leave-one-out choice.
func (c *Curve) finish(path *loo.Path) {
	best := 0
	for j := range c.TestMSE {
		if !math.IsNaN(float64(c.TestMSE[j])) && (math.IsNaN(float64(c.TestMSE[best])) || c.TestMSE[j] < c.TestMSE[best]) {
			best = j
		}
	}
	c.BestValue, c.BestMSE = c.Values[best], c.TestMSE[best]
	near := 0
	for _, m := range c.TestMSE {
		if m <= 1.1*c.BestMSE {
			near++
		}
	}
	c.NearBest = float64(near) / float64(len(c.TestMSE))
	if path != nil {
		j := path.Best()
		v, m := c.Values[j], c.TestMSE[j]
		c.LOOValue, c.LOOTestMSE = &v, &m
	}
}

// chooseSigma picks the Gaussian width on the training part alone: the
// candidates are the default σ grid (loo.DefaultSigmas) around the median
// distance between training points (of a seeded sample of 500), and each is scored by the exact leave-one-out error of RLS with a
// free intercept at its best λ of the grid, on a random subsample of at most
// sigmaSubsample training points (one eigendecomposition per candidate, so
// that choosing σ costs a few seconds even for cpusmall).
func chooseSigma(train *dataset.Data, seed uint64) (float64, error) {
	sub := train
	if train.X.Rows > sigmaSubsample {
		idx, _ := loo.Split(train.X.Rows, float64(sigmaSubsample)/float64(train.X.Rows), seed)
		sub = train.Subset(idx)
	}
	med, err := loo.MedianDistance(&sub.X, loo.L2, 500, seed)
	if err != nil {
		return 0, err
	}
	sigmas := loo.DefaultSigmas(med)
	best, _, err := loo.SelectRLS(func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, &sub.X, sub.Labels(), sigmas, lambdas(), regress.FreeIntercept)
	if err != nil {
		return 0, err
	}
	return best.Sigma, nil
}

func gaussian(name string, train, test *dataset.Data, seed uint64) (Experiment, error) {
	e := Experiment{Set: name, Kernel: "gaussian", NTrain: train.X.Rows, NTest: test.X.Rows, Features: train.X.Cols}
	t0 := time.Now()
	sigma, err := chooseSigma(train, seed)
	if err != nil {
		return e, err
	}
	e.Sigma, e.SigmaSeconds = sigma, time.Since(t0).Seconds()
	k := kernels.Gaussian{Sigma: sigma}
	y := train.Labels()
	lambdas := lambdas()

	t0 = time.Now()
	if _, err := (regress.RLS{Kernel: k, Lambda: 1e-3, Intercept: regress.FreeIntercept}).Fit(&train.X, y); err != nil {
		return e, err
	}
	e.CholeskySecond = time.Since(t0).Seconds()

	t0 = time.Now()
	s, err := regress.NewSpectral(k, &train.X, y)
	if err != nil {
		return e, err
	}
	e.DecompSeconds = time.Since(t0).Seconds()

	for _, m := range []struct {
		name string
		ic   regress.Intercept
		tikh bool
	}{{labelFree, regress.FreeIntercept, false}, {labelPenalized, regress.PenalizedIntercept, false}, {labelAugmented, 0, true}} {
		t0 := time.Now()
		path := make([]regress.PathPoint, len(lambdas))
		for j, l := range lambdas {
			if m.tikh {
				path[j] = regress.PathPoint{Augmented: l}
			} else {
				path[j] = regress.PathPoint{Filter: regress.TikhonovFilter{Lambda: l}}
			}
		}
		models, err := s.FitPath(path, m.ic)
		if err != nil {
			return e, err
		}
		pred, err := regress.PredictAll(models, &test.X) // one cross-kernel matrix for the path
		if err != nil {
			return e, err
		}
		c := Curve{Method: m.name, Param: "lambda", Values: report.JSONFloats(lambdas)}
		if c.TestMSE, err = testMSEs(pred, test.Y); err != nil {
			return e, err
		}
		var lp *loo.Path
		if m.tikh {
			lp, err = loo.Augmented(s, lambdas)
		} else {
			lp, err = loo.RLS(s, lambdas, m.ic)
		}
		if err != nil {
			return e, err
		}
		c.finish(lp)
		c.Seconds = time.Since(t0).Seconds()
		e.Curves = append(e.Curves, c)
	}

	c, err := cg(k, train, test.Y, func(ms []*regress.Model) ([]*linalg.Dense, error) {
		return regress.PredictAll(ms, &test.X)
	})
	if err != nil {
		return e, err
	}
	e.Curves = append(e.Curves, c)
	return e, nil
}

// cg runs 50 iterations of CGLS on [K 1] and the test error after
// each, predicting the models of all iterates with predict.
func cg(k kernels.Kernel, train *dataset.Data, ytest []float64, predict func([]*regress.Model) ([]*linalg.Dense, error)) (Curve, error) {
	t0 := time.Now()
	fit, err := regress.CGLS{Kernel: k, Intercept: regress.FreeIntercept, Iterative: regress.Iterative{MaxIter: paperCGIters, KeepPath: true}}.Fit(&train.X, train.Labels())
	if err != nil {
		return Curve{}, err
	}
	secs := time.Since(t0).Seconds()
	c := Curve{Method: labelCG, Param: "t", Seconds: secs}
	p, err := predict(fit.Path)
	if err != nil {
		return c, err
	}
	if c.TestMSE, err = testMSEs(p, ytest); err != nil {
		return c, err
	}
	for t := range fit.Path {
		c.Values = append(c.Values, report.JSONFloat(t+1))
	}
	c.finish(nil)
	return c, nil
}

func linear(name string, train, test *dataset.Data) (Experiment, error) {
	e := Experiment{Set: name, Kernel: "linear", NTrain: train.X.Rows, NTest: test.X.Rows, Features: train.X.Cols}
	y := train.Labels()
	lambdas := lambdas()

	t0 := time.Now()
	if _, err := (regress.RLS{Kernel: kernels.Linear{}, Lambda: 1e-3, Intercept: regress.FreeIntercept}).Fit(&train.X, y); err != nil {
		return e, err
	}
	e.CholeskySecond = time.Since(t0).Seconds()

	t0 = time.Now()
	paths := map[regress.Intercept]*regress.LinearPath{}
	for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept} {
		lp, err := regress.NewLinearPath(&train.X, y, ic)
		if err != nil {
			return e, err
		}
		paths[ic] = lp
	}
	e.DecompSeconds = time.Since(t0).Seconds()

	for _, m := range []struct {
		name string
		ic   regress.Intercept
		tikh bool
	}{{labelFree, regress.FreeIntercept, false}, {labelPenalized, regress.PenalizedIntercept, false}, {labelAugmented, regress.NoIntercept, true}} {
		t0 := time.Now()
		lp := paths[m.ic]
		c := Curve{Method: m.name, Param: "lambda", Values: report.JSONFloats(lambdas)}
		for _, l := range lambdas {
			var model *regress.LinearModel
			var err error
			if m.tikh {
				model, err = lp.FitAugmented(l)
			} else {
				model, err = lp.Fit(l)
			}
			if err != nil {
				return e, err
			}
			p, err := model.Predict(&test.X)
			if err != nil {
				return e, err
			}
			m, err := cli.MSE(test.Y, p)
			if err != nil {
				return e, err
			}
			c.TestMSE = append(c.TestMSE, report.JSONFloat(m))
		}
		var lpath *loo.Path
		if !m.tikh {
			var err error
			if lpath, err = loo.Linear(lp, lambdas); err != nil {
				return e, err
			}
		}
		c.finish(lpath)
		c.Seconds = time.Since(t0).Seconds()
		e.Curves = append(e.Curves, c)
	}
	// Linear-kernel models predict through their weights w = Xᵀc: O(nd),
	// then O(md), per iterate.
	c, err := cg(kernels.Linear{}, train, test.Y, func(ms []*regress.Model) ([]*linalg.Dense, error) {
		out := make([]*linalg.Dense, len(ms))
		for j, m := range ms {
			w := linalg.NewDense(train.X.Cols, 1, nil)
			linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, &train.X, m.Coef, 0, w)
			lm := regress.LinearModel{Weights: w, Intercept: m.Intercept}
			p, err := lm.Predict(&test.X)
			if err != nil {
				return nil, err
			}
			out[j] = p
		}
		return out, nil
	})
	if err != nil {
		return e, err
	}
	e.Curves = append(e.Curves, c)
	return e, nil
}

// Table formats the results as Markdown.
func Table(exps []Experiment, seed uint64, total float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# The Experiment of Prato and Zanni (2012), reproduced by `rkhs paper -seed %d`\n\n", seed)
	fmt.Fprintf(&b, "Splits 2/3 training, 1/3 test (seed %d); %d λ geometric in [%g, %g] (K + nλI); CG: t = 1…%d. Methods: RLS with a free and a penalized b (their eqs. 7 and 8), Tikhonov on the augmented matrix [K 1], CG on [K 1] (eq. 9). Test MSE: best over the grid; the share of the grid (100 λ, or 50 t) within 10%% of that best, a measure of how flat the error Curve is; and the test MSE at the λ that leave-one-out chose on the training part (exact for RLS, the hat-matrix approximation for Tikhonov on [K 1]; CG has none). Total %.1f s.\n\n",
		seed, paperLambdaCount, paperLambdaMin, paperLambdaMax, paperCGIters, total)
	b.WriteString("| data set | kernel | method | best test MSE | at | within 10% of best | test MSE, LOO λ | LOO λ | time (s) |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---:|---:|\n")
	for _, e := range exps {
		kern := e.Kernel
		if e.Sigma > 0 {
			kern = fmt.Sprintf("gaussian σ=%.3g", e.Sigma)
		}
		fmt.Fprintf(&b, "| %s (%d/%d) | %s | decomposition | | | | | | %.3f |\n", e.Set, e.NTrain, e.NTest, kern, e.DecompSeconds)
		for _, c := range e.Curves {
			at := fmt.Sprintf("λ=%.3g", float64(c.BestValue))
			if c.Param == "t" {
				at = fmt.Sprintf("t=%d", int(c.BestValue))
			}
			looMSE, looV := "—", "—"
			if c.LOOTestMSE != nil {
				looMSE, looV = fmt.Sprintf("%.4g", float64(*c.LOOTestMSE)), fmt.Sprintf("%.3g", float64(*c.LOOValue))
			}
			fmt.Fprintf(&b, "| | | %s | %.4g | %s | %.0f%% | %s | %s | %.3f |\n", c.Method, float64(c.BestMSE), at, 100*c.NearBest, looMSE, looV, c.Seconds)
		}
		fmt.Fprintf(&b, "| | | Cholesky, one λ | | | | | | %.3f |\n", e.CholeskySecond)
	}
	b.WriteString("\n" + timeNote + "\n")
	return b.String()
}

// Plot draws the test error of one data set (Gaussian kernel) against
// λ for the two RLS methods and Tikhonov on [K 1], and against t for CG,
// side by side.
func Plot(e Experiment) string {
	colors := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"}
	left := report.Panel{Title: fmt.Sprintf("%s, Gaussian σ=%.3g: test MSE against λ", e.Set, e.Sigma), XLabel: "λ (K + nλI)", YLabel: "test MSE", LogX: true}
	right := report.Panel{Title: "CG on [K 1]: test MSE against t", XLabel: "iterations t", YLabel: "test MSE", CountX: true}
	for i, c := range e.Curves {
		s := report.Series{Name: c.Method, Color: colors[i%len(colors)], Marker: -1}
		for j := range c.Values {
			s.X = append(s.X, float64(c.Values[j]))
			s.Y = append(s.Y, float64(c.TestMSE[j]))
			if c.LOOValue != nil && c.Values[j] == *c.LOOValue {
				s.Marker = j
			}
		}
		if c.Param == "t" {
			right.Series = append(right.Series, s)
		} else {
			left.Series = append(left.Series, s)
		}
	}
	return report.SVG(left, right)
}
