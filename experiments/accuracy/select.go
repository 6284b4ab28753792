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

// predictor is what every fitted classifier of package classify offers.
type predictor interface {
	Predict(*linalg.Dense) ([]float64, error)
}

// candidate is one point of a parameter grid: a description for the
// report and the fit it stands for.
type candidate struct {
	params string
	sigma  float64
	fit    func(x *linalg.Dense, labels []float64) (predictor, error)
}

// rlsChoice is the (σ, λ) that leave-one-out chose for RLS.
type rlsChoice struct {
	sigma, lambda float64
	looErr        float64 // fraction of training points the LOO fit misclassifies
	looMSE        float64 // mean squared LOO residual of the ±1 codings
}

// selectRLS chooses σ from sigmas and, for each σ, λ from 25 values over
// the spectrum of K (loo.LambdaGrid, the grid classify.RLS uses with
// Lambda 0) by exact leave-one-out with a free intercept: the pair whose
// LOO predictions misclassify the fewest training points, ties to the
// smaller LOO squared error of the ±1 codings, then to the earlier σ of
// the grid and the smaller λ. For each σ this is the rule of classify.RLS,
// which does not report the squared error that breaks ties between σ.
//
// It then fits classify.RLS with that σ and Lambda 0, so that the model is
// exactly the one `rkhs classify -method rls -sigma σ` builds, and checks
// that it chose the same λ. The cost is one eigendecomposition of the
// n×n kernel matrix per σ, and one more for the final model.
func selectRLS(train *dataset.Data, sigmas []float64) (rlsChoice, *classify.RLSModel, error) {
	y, err := coding(train.Y)
	if err != nil {
		return rlsChoice{}, nil, err
	}
	best := rlsChoice{looErr: math.Inf(1), looMSE: math.Inf(1)}
	for _, sg := range sigmas {
		s, err := regress.NewSpectral(kernels.Gaussian{Sigma: sg}, &train.X, y)
		if err != nil {
			return rlsChoice{}, nil, err
		}
		grid, err := loo.LambdaGrid(s, 25)
		if err != nil {
			return rlsChoice{}, nil, err
		}
		p, err := loo.RLS(s, grid, regress.FreeIntercept)
		if err != nil {
			return rlsChoice{}, nil, err
		}
		errs := p.Score(misclassified)
		for j, l := range grid {
			if errs[j] < best.looErr || errs[j] == best.looErr && p.MSE[j] < best.looMSE {
				best = rlsChoice{sigma: sg, lambda: l, looErr: errs[j], looMSE: p.MSE[j]}
			}
		}
	}
	m, err := classify.RLS{Kernel: kernels.Gaussian{Sigma: best.sigma}, ChooseLambda: true, Intercept: regress.FreeIntercept}.Fit(&train.X, train.Y)
	if err != nil {
		return rlsChoice{}, nil, err
	}
	if m.Lambda != best.lambda {
		return rlsChoice{}, nil, fmt.Errorf("classify.RLS chose λ = %g at σ = %g, the selection λ = %g", m.Lambda, best.sigma, best.lambda)
	}
	return best, m, nil
}

// coding returns the ±1 targets classify.RLS fits: one column (smaller
// label −1) for two classes, one column per class (+1 on its points, −1
// elsewhere) for more.
func coding(labels []float64) (*linalg.Dense, error) {
	classes := distinct(labels)
	if len(classes) < 2 {
		return nil, fmt.Errorf("only one class")
	}
	q := len(classes)
	if q == 2 {
		q = 1
	}
	y := linalg.NewDense(len(labels), q, nil)
	for i, v := range labels {
		c, _ := slices.BinarySearch(classes, v)
		row := y.Row(i)
		if q == 1 {
			row[0] = float64(2*c - 1)
			continue
		}
		for k := range row {
			row[k] = -1
		}
		row[c] = 1
	}
	return y, nil
}

// misclassified is the fraction of rows whose predicted class differs
// from the coded one: the sign for one column, the largest entry (first on
// ties) for several, as classify.RLS decides.
func misclassified(y, pred *linalg.Dense) float64 {
	wrong := 0
	for i := 0; i < y.Rows; i++ {
		if codedClass(y.Row(i)) != codedClass(pred.Row(i)) {
			wrong++
		}
	}
	return float64(wrong) / float64(y.Rows)
}

func codedClass(row []float64) int {
	if len(row) == 1 {
		if row[0] > 0 {
			return 1
		}
		return 0
	}
	best := 0
	for k, v := range row {
		if v > row[best] {
			best = k
		}
	}
	return best
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
			right[c] += correct(p, te.Y)
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

// correct counts the predictions equal to their labels.
func correct(pred, labels []float64) int {
	k := 0
	for i, p := range pred {
		if p == labels[i] {
			k++
		}
	}
	return k
}

// distinct returns the distinct labels in ascending order.
func distinct(labels []float64) []float64 {
	c := slices.Clone(labels)
	slices.Sort(c)
	return slices.Compact(c)
}
