package main

import (
	"fmt"
	"math"
	"slices"

	"rkhs/classify"
	"rkhs/dataset"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// A method tunes its parameters on a training set (m is its median
// distance) and returns the model refitted on the whole set with them.
type method struct {
	name string
	tune func(c *config, train *dataset.Data, m float64, seed uint64) (fitted, error)
}

// fitted is a tuned model, its parameters as text, and the exact σ of its
// kernel and λ (RLS) to print commands that rebuild it.
type fitted struct {
	model         predictor
	params        string
	sigma, lambda float64
}

var methods = []method{
	{"RLS", tuneRLS},
	{"perceptron", tunePerceptron},
	{"k-NN", tuneKNN},
	{"logistic", tuneLogistic},
	{"SVM", tuneSVM},
}

func tuneRLS(c *config, train *dataset.Data, m float64, _ uint64) (fitted, error) {
	ch, model, err := selectRLS(train, scaled(c.g.rlsSigma, m))
	if err != nil {
		return fitted{}, err
	}
	return fitted{model, fmt.Sprintf("σ=%.3g λ=%.2g", ch.sigma, ch.lambda), ch.sigma, ch.lambda}, nil
}

func tunePerceptron(c *config, train *dataset.Data, m float64, seed uint64) (fitted, error) {
	var cands []candidate
	for _, s := range scaled(c.g.sigma, m) {
		for _, p := range c.g.passes {
			cfg := classify.Perceptron{Kernel: kernels.Gaussian{Sigma: s}, Intercept: regress.FreeIntercept, MaxPasses: p}
			cands = append(cands, candidate{fmt.Sprintf("σ=%.3g passes=%d", s, p), s, func(x *linalg.Dense, y []float64) (predictor, error) { return cfg.Fit(x, y) }})
		}
	}
	return tuned(train, cands, seed)
}

// tuneKNN searches k only: the distance the Gaussian kernel induces,
// √(2 − 2exp(−‖x−z‖²/(2σ²))), orders neighbours as the Euclidean distance
// does for every σ, so σ (set to m) could only change the tie-break of
// votes.
func tuneKNN(c *config, train *dataset.Data, m float64, seed uint64) (fitted, error) {
	var cands []candidate
	for _, k := range c.g.k {
		cfg := classify.KNN{Kernel: kernels.Gaussian{Sigma: m}, K: k}
		cands = append(cands, candidate{fmt.Sprintf("k=%d", k), m, func(x *linalg.Dense, y []float64) (predictor, error) { return cfg.Fit(x, y) }})
	}
	return tuned(train, cands, seed)
}

func tuneLogistic(c *config, train *dataset.Data, m float64, seed uint64) (fitted, error) {
	return tuned(train, sigmaLambda(c, m, func(s, l float64) fitFunc {
		cfg := classify.Logistic{Kernel: kernels.Gaussian{Sigma: s}, Lambda: l, Intercept: regress.FreeIntercept, MaxIter: c.g.logIter}
		return func(x *linalg.Dense, y []float64) (predictor, error) { return cfg.Fit(x, y) }
	}), seed)
}

func tuneSVM(c *config, train *dataset.Data, m float64, seed uint64) (fitted, error) {
	return tuned(train, sigmaLambda(c, m, func(s, l float64) fitFunc {
		cfg := classify.SVM{Kernel: kernels.Gaussian{Sigma: s}, Lambda: l, Intercept: regress.PenalizedIntercept, MaxIter: c.g.svmIter}
		return func(x *linalg.Dense, y []float64) (predictor, error) { return cfg.Fit(x, y) }
	}), seed)
}

// fitFunc fits one candidate configuration.
type fitFunc func(x *linalg.Dense, labels []float64) (predictor, error)

// sigmaLambda returns the candidates of the (σ, λ) grid of logistic
// regression and the SVM, σ in the grid's multiples of m.
func sigmaLambda(c *config, m float64, fit func(s, l float64) fitFunc) []candidate {
	var cands []candidate
	for _, s := range scaled(c.g.sigma, m) {
		for _, l := range c.g.lambda {
			cands = append(cands, candidate{fmt.Sprintf("σ=%.3g λ=%.0e", s, l), s, fit(s, l)})
		}
	}
	return cands
}

// tuned picks a candidate by inner cross-validation and refits it on the
// whole training set.
func tuned(train *dataset.Data, cands []candidate, seed uint64) (fitted, error) {
	best, _, err := tuneCV(train, cands, innerFolds, seed)
	if err != nil {
		return fitted{}, err
	}
	model, err := cands[best].fit(&train.X, train.Y)
	if err != nil {
		return fitted{}, err
	}
	return fitted{model: model, params: cands[best].params, sigma: cands[best].sigma}, nil
}

// predictor is what every fitted classifier of package classify offers.
type predictor interface {
	Predict(*linalg.Dense) ([]float64, error)
}

// candidate is one point of a parameter grid: a description for the
// report and the fit it stands for.
type candidate struct {
	params string
	sigma  float64
	fit    fitFunc
}

// rlsChoice is the (σ, λ) that leave-one-out chose for RLS.
type rlsChoice struct {
	sigma, lambda float64
	looErr        float64 // fraction of training points the LOO fit misclassifies
	looMSE        float64 // mean squared LOO residual of the ±1 codings
}

// selectRLS chooses σ from sigmas and, for each σ, λ from 25 values over
// the spectrum of K by exact leave-one-out with a free intercept: the pair
// whose LOO predictions misclassify the fewest training points, ties to
// the smaller LOO squared error of the ±1 codings, then to the earlier σ
// of the grid and the smaller λ. For each σ that is classify.RLS with
// ChooseLambda, whose model reports both scores for every λ; across σ the
// same rule picks among their choices. The model returned is the one
// `rkhs classify -method rls -sigma σ` builds. The cost is one
// eigendecomposition of the n×n kernel matrix per σ.
func selectRLS(train *dataset.Data, sigmas []float64) (rlsChoice, *classify.RLSModel, error) {
	var (
		best  rlsChoice
		model *classify.RLSModel
	)
	for _, sg := range sigmas {
		m, err := classify.RLS{Kernel: kernels.Gaussian{Sigma: sg}, ChooseLambda: true, Intercept: regress.FreeIntercept}.Fit(&train.X, train.Y)
		if err != nil {
			return rlsChoice{}, nil, err
		}
		j := slices.Index(m.LOOLambdas, m.Lambda)
		c := rlsChoice{sigma: sg, lambda: m.Lambda, looErr: m.LOOErrors[j], looMSE: m.LOOMSE[j]}
		if model == nil || c.looErr < best.looErr || c.looErr == best.looErr && c.looMSE < best.looMSE {
			best, model = c, m
		}
	}
	return best, model, nil
}

// tuneCV returns the index of the candidate with the highest accuracy
// over an inner k-fold cross-validation of train (folds from
// loo.KFold(n, folds, seed)), pooled over the folds; ties go to the
// earlier candidate, so grids list their most regularized settings first.
// It also returns that accuracy.
func tuneCV(train *dataset.Data, cands []candidate, folds int, seed uint64) (int, float64, error) {
	n := train.X.Rows
	parts := loo.KFold(n, folds, seed)
	right := make([]int, len(cands))
	for _, test := range parts {
		tr, te := train.Subset(loo.Complement(n, test)), train.Subset(test)
		for c, cand := range cands {
			m, err := cand.fit(&tr.X, tr.Y)
			if err != nil {
				return 0, 0, fmt.Errorf("%s: %w", cand.params, err)
			}
			p, err := m.Predict(&te.X)
			if err != nil {
				return 0, 0, err
			}
			acc, err := classify.Accuracy(te.Y, p)
			if err != nil {
				return 0, 0, err
			}
			right[c] += int(math.Round(acc * float64(len(te.Y)))) // the count, exactly
		}
	}
	best := 0
	for c := range cands {
		if right[c] > right[best] {
			best = c
		}
	}
	return best, float64(right[best]) / float64(n), nil
}
