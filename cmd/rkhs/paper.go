package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"rkhs/internal/cli"
	"strings"
	"time"

	"rkhs/dataset"
	"rkhs/datasets"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// The experiment of Prato and Zanni (2012), "A practical use of
// regularization for supervised learning with kernel methods", reproduced
// by `rkhs paper` (equation numbers are theirs):
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

// sigmaFactors multiply the median pairwise distance of the training part
// to give the candidate Gaussian widths.
var sigmaFactors = []float64{0.25, 0.5, 1, 2, 4}

// curve is a method's test error along its parameter.
type curve struct {
	Method     string          `json:"method"`
	Param      string          `json:"param"` // "lambda" or "t"
	Values     []cli.JSONFloat `json:"values"`
	TestMSE    []cli.JSONFloat `json:"test_mse"`
	BestValue  cli.JSONFloat   `json:"best_value"`
	BestMSE    cli.JSONFloat   `json:"best_test_mse"`
	LOOValue   *cli.JSONFloat  `json:"loo_value"`    // λ chosen by leave-one-out on the training part
	LOOTestMSE *cli.JSONFloat  `json:"loo_test_mse"` // test MSE at that λ
	// NearBest is the share of the grid (λ or t) whose test MSE is within
	// 10% of the best: how flat the error curve is around its minimum.
	NearBest float64 `json:"near_best"`
	Seconds  float64 `json:"seconds"` // the method's own time (see timeNote)
}

// experiment is one data set with one kernel.
type experiment struct {
	Set            string  `json:"set"`
	Kernel         string  `json:"kernel"`
	NTrain         int     `json:"n_train"`
	NTest          int     `json:"n_test"`
	Features       int     `json:"features"`
	Sigma          float64 `json:"sigma,omitempty"`
	SigmaSeconds   float64 `json:"sigma_seconds,omitempty"`
	DecompSeconds  float64 `json:"decomposition_seconds"`
	CholeskySecond float64 `json:"cholesky_seconds"`
	Curves         []curve `json:"curves"`
}

const timeNote = "Times: 'decomposition' is the eigendecomposition of K (Gaussian) or the thin SVD of X (linear), shared by the two RLS methods and Tikhonov on [K 1]; each of those three then costs its own time for all 100 λ (coefficients, test predictions and leave-one-out). CG is one run of 50 iterations including the Gram matrix, and gives the whole t-curve. 'Cholesky' is one RLS fit (free b) at a single λ by Cholesky, Gram matrix included, for scale."

// setupPaper registers the flags of rkhs paper and returns its run.
func setupPaper(fs *flagSet) func(stdout, stderr io.Writer) error {
	var dataDir, outDir string
	fs.file(&dataDir, dirFlag, "data", "", "read the data sets from `DIR` (files named as in the bundled set, e.g. housing_scale) instead of the bundled copies")
	fs.file(&outDir, dirFlag, "out", "paper-out", "write results.json, table.md and one SVG plot per data set to `DIR`")
	seed := fs.Uint64("seed", 1, "seed of the train/test splits and of the σ subsample")
	sets := fs.String("sets", "", "comma-separated subset of the data sets (default: all eight)")
	return func(stdout, stderr io.Writer) error { return runPaper(dataDir, outDir, *seed, *sets, stdout, stderr) }
}

func runPaper(dataDir, outDir string, seed uint64, sets string, stdout, stderr io.Writer) error {
	names := paperSets()
	if sets != "" {
		names = strings.Split(sets, ",")
		for _, n := range names {
			if in, err := datasets.Lookup(n); err != nil || in.Task != "regression" {
				return cli.BadInputf("-sets: %q is not one of the regression sets %s", n, strings.Join(paperSets(), ", "))
			}
		}
	}
	start := time.Now()
	var exps []experiment
	for i, name := range names {
		d, err := loadPaperSet(name, dataDir)
		if err != nil {
			return err
		}
		train, test := d.Split(2.0/3, seed)
		for _, kern := range []string{"linear", "gaussian"} {
			fmt.Fprintf(stderr, "\rrkhs paper: [%d/%d] %-10s %-8s n=%d …%20s", i+1, len(names), name, kern, train.X.Rows, "")
			var e experiment
			if kern == "linear" {
				e, err = paperLinear(name, train, test)
			} else {
				e, err = paperGaussian(name, train, test, seed)
			}
			if err != nil {
				return fmt.Errorf("%s, %s kernel: %w", name, kern, err)
			}
			exps = append(exps, e)
		}
	}
	total := time.Since(start).Seconds()
	fmt.Fprintf(stderr, "\rrkhs paper: done in %.1f s%50s\n", total, "")

	table := paperTable(exps, seed, total)
	files := []pendingFile{{filepath.Join(outDir, "table.md"), []byte(table)}}
	js, err := json.MarshalIndent(struct {
		Seed        uint64       `json:"seed"`
		Lambdas     string       `json:"lambdas"`
		CGIters     int          `json:"cg_iterations"`
		Seconds     float64      `json:"seconds"`
		TimeNote    string       `json:"time_note"`
		Experiments []experiment `json:"experiments"`
	}{seed, fmt.Sprintf("%d geometric in [%g, %g]", paperLambdaCount, paperLambdaMin, paperLambdaMax), paperCGIters, total, timeNote, exps}, "", " ")
	if err != nil {
		return err
	}
	files = append(files, pendingFile{filepath.Join(outDir, "results.json"), append(js, '\n')})
	for _, name := range names {
		for _, e := range exps {
			if e.Set == name && e.Kernel == "gaussian" {
				files = append(files, pendingFile{filepath.Join(outDir, name+".svg"), []byte(paperPlot(e))})
			}
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

// paperSets returns the names of the eight regression sets, in the order
// of Prato and Zanni (2012).
func paperSets() []string {
	var names []string
	for _, in := range datasets.All {
		if in.Task == "regression" {
			names = append(names, in.Name)
		}
	}
	return names
}

func loadPaperSet(name, dir string) (*dataset.Data, error) {
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

func paperLambdas() []float64 { return loo.Geometric(paperLambdaMin, paperLambdaMax, paperLambdaCount) }

// testMSEs returns the test MSE of each of the predictions p against y.
func testMSEs(p []*linalg.Dense, y []float64) ([]cli.JSONFloat, error) {
	out := make([]cli.JSONFloat, len(p))
	for j, pj := range p {
		m, err := mse(y, pj)
		if err != nil {
			return nil, err
		}
		out[j] = cli.JSONFloat(m)
	}
	return out, nil
}

// finish fills in the best point of a curve and, if loo is not nil, the
// leave-one-out choice.
func (c *curve) finish(path *loo.Path) {
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
// candidates are sigmaFactors times the median distance between training
// points, and each is scored by the exact leave-one-out error of RLS with a
// free intercept at its best λ of the grid, on a random subsample of at most
// sigmaSubsample training points (one eigendecomposition per candidate, so
// that choosing σ costs a few seconds even for cpusmall).
func chooseSigma(train *dataset.Data, seed uint64) (float64, error) {
	sub := train
	if train.X.Rows > sigmaSubsample {
		idx, _ := loo.Split(train.X.Rows, float64(sigmaSubsample)/float64(train.X.Rows), seed)
		sub = train.Subset(idx)
	}
	med, err := loo.SigmaGrid(&sub.X, []float64{0.5}, 500, seed)
	if err != nil {
		return 0, err
	}
	sigmas := make([]float64, len(sigmaFactors))
	for i, f := range sigmaFactors {
		sigmas[i] = f * med[0]
	}
	best, _, err := loo.SelectRLS(func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, &sub.X, column(sub.Y), sigmas, paperLambdas(), regress.FreeIntercept)
	if err != nil {
		return 0, err
	}
	return best.Sigma, nil
}

func paperGaussian(name string, train, test *dataset.Data, seed uint64) (experiment, error) {
	e := experiment{Set: name, Kernel: "gaussian", NTrain: train.X.Rows, NTest: test.X.Rows, Features: train.X.Cols}
	t0 := time.Now()
	sigma, err := chooseSigma(train, seed)
	if err != nil {
		return e, err
	}
	e.Sigma, e.SigmaSeconds = sigma, time.Since(t0).Seconds()
	k := kernels.Gaussian{Sigma: sigma}
	y := column(train.Y)
	lambdas := paperLambdas()

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
		c := curve{Method: m.name, Param: "lambda", Values: cli.JSONFloats(lambdas)}
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

	c, err := paperCG(k, train, test.Y, func(ms []*regress.Model) ([]*linalg.Dense, error) {
		return regress.PredictAll(ms, &test.X)
	})
	if err != nil {
		return e, err
	}
	e.Curves = append(e.Curves, c)
	return e, nil
}

// paperCG runs 50 iterations of CGLS on [K 1] and the test error after
// each, predicting the models of all iterates with predict.
func paperCG(k kernels.Kernel, train *dataset.Data, ytest []float64, predict func([]*regress.Model) ([]*linalg.Dense, error)) (curve, error) {
	t0 := time.Now()
	fit, err := regress.CGLS{Kernel: k, Intercept: regress.FreeIntercept, Iterative: regress.Iterative{MaxIter: paperCGIters, KeepPath: true}}.Fit(&train.X, column(train.Y))
	if err != nil {
		return curve{}, err
	}
	secs := time.Since(t0).Seconds()
	c := curve{Method: labelCG, Param: "t", Seconds: secs}
	p, err := predict(fit.Path)
	if err != nil {
		return c, err
	}
	if c.TestMSE, err = testMSEs(p, ytest); err != nil {
		return c, err
	}
	for t := range fit.Path {
		c.Values = append(c.Values, cli.JSONFloat(t+1))
	}
	c.finish(nil)
	return c, nil
}

func paperLinear(name string, train, test *dataset.Data) (experiment, error) {
	e := experiment{Set: name, Kernel: "linear", NTrain: train.X.Rows, NTest: test.X.Rows, Features: train.X.Cols}
	y := column(train.Y)
	lambdas := paperLambdas()

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
		c := curve{Method: m.name, Param: "lambda", Values: cli.JSONFloats(lambdas)}
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
			m, err := mse(test.Y, p)
			if err != nil {
				return e, err
			}
			c.TestMSE = append(c.TestMSE, cli.JSONFloat(m))
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
	c, err := paperCG(kernels.Linear{}, train, test.Y, func(ms []*regress.Model) ([]*linalg.Dense, error) {
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

// paperTable formats the results as Markdown.
func paperTable(exps []experiment, seed uint64, total float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# The experiment of Prato and Zanni (2012), reproduced by `rkhs paper -seed %d`\n\n", seed)
	fmt.Fprintf(&b, "Splits 2/3 training, 1/3 test (seed %d); %d λ geometric in [%g, %g] (K + nλI); CG: t = 1…%d. Methods: RLS with a free and a penalized b (their eqs. 7 and 8), Tikhonov on the augmented matrix [K 1], CG on [K 1] (eq. 9). Test MSE: best over the grid; the share of the grid (100 λ, or 50 t) within 10%% of that best, a measure of how flat the error curve is; and the test MSE at the λ that leave-one-out chose on the training part (exact for RLS, the hat-matrix approximation for Tikhonov on [K 1]; CG has none). Total %.1f s.\n\n",
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

// paperPlot draws the test error of one data set (Gaussian kernel) against
// λ for the two RLS methods and Tikhonov on [K 1], and against t for CG,
// side by side.
func paperPlot(e experiment) string {
	colors := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"}
	left := cli.Panel{Title: fmt.Sprintf("%s, Gaussian σ=%.3g: test MSE against λ", e.Set, e.Sigma), XLabel: "λ (K + nλI)", YLabel: "test MSE", LogX: true}
	right := cli.Panel{Title: "CG on [K 1]: test MSE against t", XLabel: "iterations t", YLabel: "test MSE"}
	for i, c := range e.Curves {
		s := cli.Series{Name: c.Method, Color: colors[i%len(colors)], Marker: -1}
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
	return cli.SVG(left, right)
}
