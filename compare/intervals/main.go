// Command intervals measures the prediction intervals of package interval
// on real data: the coverage and mean width (for classes, the mean size of
// the label sets) on a test file at the levels -levels, for the
// jackknife+ and CV+ of a Nyström (or exact RLS) fit at the σ and λ that
// rkhs's leave-one-out chooses, beside split conformal prediction at the
// same pair, with the time, the CPU time and the peak resident size of
// each. compare/intervals.sh runs it beside compare/intervals_sklearn.py,
// which computes the same jackknife+ and CV+ by brute-force refits with
// scikit-learn (what MAPIE does) on the files that -dump writes.
//
//	go run ./intervals -train T.csv -test U.csv -target PM2.5 -n 20000 -test-rows 2000
//	go run ./intervals -train T.csv -test U.csv -target label -classify -n 5000 -dump /tmp/skin
//
// What it does, in order:
//
//   - reads both files (a header; the target by name; every other column a
//     feature; rows with a missing value dropped, as rkhs -drop-missing),
//     keeps a seeded subset of -n training and -test-rows test rows (0: all),
//     and standardizes the features by the training rows' mean and
//     population standard deviation, as `rkhs fit` does when σ is chosen;
//   - chooses σ and λ as `rkhs fit|classify -method nystrom -sigma auto
//     -lambda auto` does, with loo's defaults: the Gaussian kernel, σ on
//     loo.DefaultSigmas of the median distance between rows, λ on
//     loo.DefaultLambdas, a free intercept, the -centers M centres of
//     regress.NystromCenters with -seed, by loo.SelectNystrom's exact
//     leave-one-out MSE (classify.SelectNystrom's error rate for classes)
//     on loo.DefaultSubset(n) rows; -method rls chooses by loo.SelectRLS
//     (classify.SelectRLS) and fits exact RLS by Cholesky instead. -sigma
//     and -lambda give the pair instead;
//   - jackknife+ at the pair: interval.Nystrom (interval.RLS), for classes
//     interval.ClassifyNystrom (interval.ClassifyRLS), skipped above
//     -jackknife-max rows (its memory is n×m, its cost per test row 2nm);
//   - CV+ with -folds K folds (interval.Folds with -seed) at the pair:
//     interval.NystromCV (interval.RLSCV), for classes
//     interval.ClassifyNystromCV (interval.ClassifyRLSCV);
//   - with -per-fold, CV+ with σ and λ re-chosen in each fold (the honest
//     variant of package interval's documentation): each fold model is the
//     selection above run on the rows outside the fold alone (the same
//     centres and λ grid, the σ grid from those rows' median distance),
//     the fold's residuals from that model, assembled by interval.NewCV
//     (K selections, brute force; for classes the CV+ label sets of
//     package interval's score counted row by row from the K classifiers);
//     then the same from the folds' statistics, package interval's own
//     (interval.NystromCVChosen, interval.RLSCVChosen, on the σ grid of
//     every row), which the brute force checks; package interval has no
//     such label sets (its cv+fold is for intervals), and the row says so;
//   - split conformal at the pair: a seeded 80 % of the rows fitted (on its
//     own -centers M centres), the other 20 % the calibration part, the
//     interval ŷ(x) ± the ⌈(1−α)(n_cal+1)⌉-th smallest calibration residual
//     |yᵢ − ŷ(xᵢ)| (infinite above n_cal); for classes the set of labels ℓ
//     whose score −f_ℓ(x) is at most that rank of the calibration rows'
//     scores −f_{yᵢ}(xᵢ) (the score of package interval's Classes).
//
// Each method prints one line per level: coverage, mean width (or set
// size), then its seconds (wall and CPU, user + system, of the process,
// from /proc/self/stat) and the peak resident size while it ran (VmHWM,
// reset at its start; Linux). The choice of σ and λ is timed on its own
// line. -dump DIR writes what intervals_sklearn.py reads: the standardized
// rows, the centres, the folds, the pair and the rkhs jackknife+ ends at
// the middle level, for it to check its own against.
package main

import (
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"rkhs/classify"
	"rkhs/compare/internal/synthetic"
	"rkhs/dataset"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

type options struct {
	train, test, target, method, levels, dump string
	classes, perFold                          bool
	n, testRows, centers, folds, jackMax      int
	seed                                      uint64
	sigma, lambda                             float64
}

func main() {
	log.SetFlags(0)
	var o options
	flag.StringVar(&o.train, "train", "", "training CSV file with a header (required)")
	flag.StringVar(&o.test, "test", "", "test CSV file with a header (required)")
	flag.StringVar(&o.target, "target", "", "the target column's name (required)")
	flag.BoolVar(&o.classes, "classify", false, "the target holds labels: conformal label sets instead of intervals")
	flag.StringVar(&o.method, "method", "nystrom", "nystrom or rls (exact, by Cholesky)")
	flag.IntVar(&o.n, "n", 0, "training rows: a seeded subset of this many (0: all)")
	flag.IntVar(&o.testRows, "test-rows", 2000, "test rows: a seeded subset of this many (0: all)")
	flag.IntVar(&o.centers, "centers", 1000, "Nyström centres M")
	flag.IntVar(&o.folds, "folds", 10, "CV+ folds K")
	flag.IntVar(&o.jackMax, "jackknife-max", 50000, "skip the jackknife+ above this many training rows (memory n×M)")
	flag.StringVar(&o.levels, "levels", "0.8,0.9,0.95", "levels 1 − α, comma-separated")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the subsets, centres, folds, split and selection (rkhs's -seed default)")
	flag.Float64Var(&o.sigma, "sigma", 0, "σ (0: chosen by leave-one-out with λ)")
	flag.Float64Var(&o.lambda, "lambda", 0, "λ (0: chosen by leave-one-out with σ)")
	flag.BoolVar(&o.perFold, "per-fold", false, "also CV+ with σ and λ re-chosen in each fold (K selections)")
	flag.StringVar(&o.dump, "dump", "", "write the rows, centres, folds and pair for intervals_sklearn.py into this directory")
	flag.Parse()
	if o.train == "" || o.test == "" || o.target == "" {
		log.Fatal("intervals: -train, -test and -target are required")
	}
	if o.method != "nystrom" && o.method != "rls" {
		log.Fatalf("intervals: -method %q: want nystrom or rls", o.method)
	}
	if err := run(o); err != nil {
		log.Fatalf("intervals: %v", err)
	}
}

// problem is the standardized data of one run.
type problem struct {
	x, xt   *linalg.Dense
	y, yt   *linalg.Dense // targets (regression) or labels (n×1)
	labels  []float64     // the training labels (classes)
	tlabels []float64
	centres *linalg.Dense // nil for rls
	sigma   float64
	lambda  float64
	levels  []float64
}

func run(o options) error {
	levels, err := parseLevels(o.levels)
	if err != nil {
		return err
	}
	train, err := readCSV(o.train, o.target)
	if err != nil {
		return err
	}
	test, err := readCSV(o.test, o.target)
	if err != nil {
		return err
	}
	train = subset(train, o.n, o.seed)
	test = subset(test, o.testRows, o.seed+1)
	var mom kernels.Moments
	if err := mom.Add(&train.X); err != nil {
		return err
	}
	std, err := mom.Standardization()
	if err != nil {
		return err
	}
	p := &problem{levels: levels}
	if p.x, err = std.Apply(&train.X); err != nil {
		return err
	}
	if p.xt, err = std.Apply(&test.X); err != nil {
		return err
	}
	p.y, p.yt = column(train.Y), column(test.Y)
	p.labels, p.tlabels = train.Y, test.Y
	n := p.x.Rows
	fmt.Printf("data: %s (%d rows used), %s (%d rows used), d = %d, target %s, method %s, M = %d, K = %d, seed %d\n",
		o.train, n, o.test, p.xt.Rows, p.x.Cols, o.target, o.method, o.centers, o.folds, o.seed)
	if o.method == "nystrom" {
		if p.centres, err = regress.NystromCenters(p.x, min(o.centers, n), o.seed); err != nil {
			return err
		}
	}
	if err := choose(o, p); err != nil {
		return err
	}
	folds, err := interval.Folds(n, o.folds, o.seed)
	if err != nil {
		return err
	}
	if o.dump != "" {
		if err := dump(o, p, folds); err != nil {
			return err
		}
	}
	fmt.Println("method | level | coverage | mean " + map[bool]string{false: "width", true: "set size"}[o.classes] + " | wall s | CPU s | peak RSS MiB")
	if n <= o.jackMax {
		if err := jackknife(o, p); err != nil {
			return err
		}
	} else {
		fmt.Printf("jackknife+ | - | skipped: %d rows > -jackknife-max %d | | |\n", n, o.jackMax)
	}
	if err := cvPlus(o, p, folds); err != nil {
		return err
	}
	if o.perFold {
		if err := perFold(o, p, folds); err != nil {
			return err
		}
		if err := perFoldLibrary(o, p, folds); err != nil {
			return err
		}
	} else {
		fmt.Println("CV+, σ and λ re-chosen per fold | - | not run (-per-fold) | | |")
	}
	return split(o, p)
}

// ---- the choice of σ and λ --------------------------------------------

func gauss(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }

// selectPair chooses σ and λ on the rows x, y (labels for classes) as the
// command does (see the package documentation) and returns the pair and
// the model fitted there, a *regress.Model or a *classify.RLSModel.
func selectPair(o options, centres, x *linalg.Dense, labels []float64) (sigma, lambda float64, model any, err error) {
	sigmas, lambdas, err := grids(o, x)
	if err != nil {
		return 0, 0, nil, err
	}
	if o.method == "rls" {
		if o.classes {
			rs, err := classify.SelectRLS{Kernel: gauss, Sigmas: sigmas, Lambdas: lambdas, Intercept: regress.FreeIntercept}.Fit(x, labels)
			if err != nil {
				return 0, 0, nil, err
			}
			return rs.Sigma, rs.Lambda, rs.Model, nil
		}
		c, _, err := loo.SelectRLS(gauss, x, column(labels), sigmas, lambdas, regress.FreeIntercept)
		if err != nil {
			return 0, 0, nil, err
		}
		m, err := regress.RLS{Kernel: gauss(c.Sigma), Lambda: c.Lambda, Intercept: regress.FreeIntercept}.Fit(x, column(labels))
		return c.Sigma, c.Lambda, m, err
	}
	sn := nystromSelection(o, centres, sigmas, lambdas, x.Rows)
	if o.classes {
		cs, err := classify.SelectNystrom{Selection: sn}.Fit(x, labels)
		if err != nil {
			return 0, 0, nil, err
		}
		return cs.Sigma, cs.Lambda, cs.Classifier, nil
	}
	ns, err := sn.Fit(x, column(labels))
	if err != nil {
		return 0, 0, nil, err
	}
	return ns.Sigma, ns.Lambda, ns.Fit.Model, nil
}

// grids returns loo's default grids for the rows x: σ on
// loo.DefaultSigmas of their median distance, λ on loo.DefaultLambdas.
func grids(o options, x *linalg.Dense) (sigmas, lambdas []float64, err error) {
	median, err := loo.MedianDistanceOf(gauss(1), x, o.seed)
	if err != nil {
		return nil, nil, err
	}
	return loo.DefaultSigmas(median), loo.DefaultLambdas(), nil
}

// nystromSelection is the command's Nyström selection over the grids on n
// rows: the centres given, a free intercept, the exact leave-one-out MSE
// on loo.DefaultSubset(n) rows.
func nystromSelection(o options, centres *linalg.Dense, sigmas, lambdas []float64, n int) loo.SelectNystrom {
	return loo.SelectNystrom{Kernel: gauss, Centers: centres, Sigmas: sigmas, Lambdas: lambdas,
		Intercept: regress.FreeIntercept, Seed: o.seed, Criterion: loo.LOOMSE, Subset: loo.DefaultSubset(n)}
}

func choose(o options, p *problem) error {
	if o.sigma > 0 && o.lambda > 0 {
		p.sigma, p.lambda = o.sigma, o.lambda
		fmt.Printf("σ = %.6g, λ = %.6g given\n", p.sigma, p.lambda)
		return nil
	}
	if o.sigma > 0 || o.lambda > 0 {
		return errors.New("-sigma and -lambda: give both or neither")
	}
	m := start()
	var err error
	p.sigma, p.lambda, _, err = selectPair(o, p.centres, p.x, p.labels)
	if err != nil {
		return err
	}
	wall, cpu, peak := m.stop()
	fmt.Printf("σ = %.6g, λ = %.6g chosen by leave-one-out (loo's default grids, %s): %.2f s wall, %.2f s CPU, peak RSS %.0f MiB\n",
		p.sigma, p.lambda, o.method, wall, cpu, peak)
	return nil
}

// ---- the intervals ------------------------------------------------------

func (p *problem) nystrom(centres *linalg.Dense) regress.Nystrom {
	return regress.Nystrom{Kernel: gauss(p.sigma), Lambda: p.lambda, Given: centres, Intercept: regress.FreeIntercept}
}

func (p *problem) rls() regress.RLS {
	return regress.RLS{Kernel: gauss(p.sigma), Lambda: p.lambda, Intercept: regress.FreeIntercept}
}

// predictor gives the intervals or label sets of the test rows at a level.
type predictor func(level float64) (coverage, size float64, err error)

// report runs build, then pred at every level, and prints one line a
// level; the first line carries the time and memory of build and every
// prediction together.
func report(p *problem, name string, build func() (predictor, error)) error {
	m := start()
	pred, err := build()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	cov, size := make([]float64, len(p.levels)), make([]float64, len(p.levels))
	for i, l := range p.levels {
		if cov[i], size[i], err = pred(l); err != nil {
			return fmt.Errorf("%s at %g: %w", name, l, err)
		}
	}
	wall, cpu, peak := m.stop()
	for i, l := range p.levels {
		if i == 0 {
			fmt.Printf("%s | %g | %.4f | %.5g | %.2f | %.2f | %.0f\n", name, l, cov[i], size[i], wall, cpu, peak)
		} else {
			fmt.Printf("%s | %g | %.4f | %.5g | | |\n", name, l, cov[i], size[i])
		}
	}
	return nil
}

func intervalsOf(iv *interval.Intervals, err error, yt *linalg.Dense) (float64, float64, error) {
	if err != nil {
		return 0, 0, err
	}
	c, w := iv.Coverage(yt)
	return c, w, nil
}

func setsOf(s *interval.LabelSets, err error, labels []float64) (float64, float64, error) {
	if err != nil {
		return 0, 0, err
	}
	c, size := s.Coverage(labels)
	return c, size, nil
}

func jackknife(o options, p *problem) error {
	return report(p, "jackknife+", func() (predictor, error) {
		switch {
		case o.classes:
			var c *interval.Classes
			var err error
			if o.method == "rls" {
				c, err = interval.ClassifyRLS(classify.RLS{Kernel: gauss(p.sigma), Lambda: p.lambda, Intercept: regress.FreeIntercept}, p.x, p.labels)
			} else {
				c, err = interval.ClassifyNystrom(p.nystrom(p.centres), false, p.x, p.labels)
			}
			if err != nil {
				return nil, err
			}
			return func(l float64) (float64, float64, error) {
				s, err := c.Predict(p.xt, l)
				return setsOf(s, err, p.tlabels)
			}, nil
		default:
			var j *interval.Jackknife
			var err error
			if o.method == "rls" {
				j, err = interval.RLS(p.rls(), p.x, p.y)
			} else {
				j, err = interval.Nystrom(p.nystrom(p.centres), p.x, p.y)
			}
			if err != nil {
				return nil, err
			}
			return func(l float64) (float64, float64, error) {
				iv, err := j.Predict(p.xt, l)
				if err == nil && o.dump != "" && l == p.levels[len(p.levels)/2] {
					err = writeMatrices(o.dump, map[string]*linalg.Dense{"jack_lower": iv.Lower, "jack_upper": iv.Upper})
				}
				return intervalsOf(iv, err, p.yt)
			}, nil
		}
	})
}

// reportCV is report for a CV+ variant whose model build makes: the
// intervals of the test rows at each level from it.
func reportCV(p *problem, name string, build func() (*interval.CV, error)) error {
	return report(p, name, func() (predictor, error) {
		cv, err := build()
		if err != nil {
			return nil, err
		}
		return func(l float64) (float64, float64, error) {
			iv, err := cv.Predict(p.xt, l)
			return intervalsOf(iv, err, p.yt)
		}, nil
	})
}

// reportSets is report for label sets whose Classes build makes.
func reportSets(p *problem, name string, build func() (*interval.Classes, error)) error {
	return report(p, name, func() (predictor, error) {
		c, err := build()
		if err != nil {
			return nil, err
		}
		return func(l float64) (float64, float64, error) {
			s, err := c.Predict(p.xt, l)
			return setsOf(s, err, p.tlabels)
		}, nil
	})
}

func cvPlus(o options, p *problem, folds [][]int) error {
	name := fmt.Sprintf("CV+ (K = %d)", len(folds))
	if o.classes {
		return reportSets(p, name, func() (*interval.Classes, error) {
			if o.method == "rls" {
				return interval.ClassifyRLSCV(classify.RLS{Kernel: gauss(p.sigma), Lambda: p.lambda, Intercept: regress.FreeIntercept}, p.x, p.labels, folds)
			}
			return interval.ClassifyNystromCV(p.nystrom(p.centres), false, p.x, p.labels, folds)
		})
	}
	return reportCV(p, name, func() (*interval.CV, error) {
		if o.method == "rls" {
			return interval.RLSCV(p.rls(), p.x, p.y, folds)
		}
		return interval.NystromCV(p.nystrom(p.centres), p.x, p.y, folds)
	})
}

// perFold is CV+ with σ and λ chosen inside each fold, by K selections on
// the rows outside each fold (see the package documentation).
func perFold(o options, p *problem, folds [][]int) error {
	name := fmt.Sprintf("CV+ (K = %d), σ and λ re-chosen per fold", len(folds))
	// fit selects on the rows outside each fold and returns the K models.
	fit := func() ([]any, error) {
		models := make([]any, len(folds))
		for k, rest := range complements(p.x.Rows, folds) {
			s, l, m, err := selectPair(o, p.centres, rows(p.x, rest), rows(p.y, rest).Data)
			if err != nil {
				return nil, fmt.Errorf("fold %d: %w", k, err)
			}
			fmt.Printf("  fold %d: σ = %.4g, λ = %.4g\n", k, s, l)
			models[k] = m
		}
		return models, nil
	}
	if o.classes {
		return report(p, name, func() (predictor, error) {
			ms, err := fit()
			if err != nil {
				return nil, err
			}
			models := make([]*classify.RLSModel, len(ms))
			for k, m := range ms {
				models[k] = m.(*classify.RLSModel)
			}
			return foldSets(p, models, folds)
		})
	}
	return reportCV(p, name, func() (*interval.CV, error) {
		ms, err := fit()
		if err != nil {
			return nil, err
		}
		models := make([]*regress.Model, len(folds))
		residuals := make([]*linalg.Dense, len(folds))
		for k, f := range folds {
			models[k] = ms[k].(*regress.Model)
			xf, yf := rows(p.x, f), rows(p.y, f)
			pr, err := models[k].Predict(xf)
			if err != nil {
				return nil, err
			}
			for i := range f {
				pr.Set(i, 0, yf.At(i, 0)-pr.At(i, 0))
			}
			residuals[k] = pr
		}
		return interval.NewCV(models, residuals)
	})
}

// complements returns, for each fold, the rows of 0…n−1 outside it,
// ascending.
func complements(n int, folds [][]int) [][]int {
	out := make([][]int, len(folds))
	in := make([]bool, n)
	for k, f := range folds {
		clear(in)
		for _, i := range f {
			in[i] = true
		}
		for i := range in {
			if !in[i] {
				out[k] = append(out[k], i)
			}
		}
	}
	return out
}

// foldSets is the CV+ label sets of Barber et al. for package interval's
// score S(x, ℓ; f) = −f_ℓ(x) (see labelScore) from K fold classifiers,
// counted row by row: with Sᵢ the score of row i at its label under the
// model of its fold, label ℓ is in the set of test row x at level 1 − α
// when #{i : S(x, ℓ; f₋ₖ₍ᵢ₎) > Sᵢ} < (1−α)(n+1). O(t·#classes·n) per
// level, a brute force beside interval.Classes' binary searches.
func foldSets(p *problem, models []*classify.RLSModel, folds [][]int) (predictor, error) {
	classes := slices.Clone(p.labels)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	n := p.x.Rows
	own := make([]float64, n)                  // Sᵢ
	foldOf := make([]int, n)                   // k(i)
	test := make([]*linalg.Dense, len(models)) // each fold model's decision values at the test rows
	for k, f := range folds {
		if !slices.Equal(models[k].Classes, classes) {
			return nil, fmt.Errorf("fold %d: the rows outside it have the classes %v, not %v", k, models[k].Classes, classes)
		}
		fk, err := models[k].Scores(rows(p.x, f))
		if err != nil {
			return nil, err
		}
		for r, i := range f {
			own[i], foldOf[i] = labelScore(classes, fk, r, p.labels[i]), k
		}
		if test[k], err = models[k].Scores(p.xt); err != nil {
			return nil, err
		}
	}
	return func(l float64) (float64, float64, error) {
		in, size := 0, 0
		for j := range p.xt.Rows {
			for _, c := range classes {
				count := 0
				for i := range n {
					if labelScore(classes, test[foldOf[i]], j, c) > own[i] {
						count++
					}
				}
				if float64(count) < l*float64(n+1) {
					size++
					if c == p.tlabels[j] {
						in++
					}
				}
			}
		}
		t := float64(p.xt.Rows)
		return float64(in) / t, float64(size) / t, nil
	}, nil
}

// perFoldLibrary is perFold from the folds' statistics, package interval's
// own (interval.NystromCVChosen, interval.RLSCVChosen): each fold's pair
// chosen on the σ grid of every row's median distance and loo's λ grid, by
// the same criterion, so it equals perFold to rounding where the two grids
// agree (perFold takes its σ grid from the rows outside each fold).
func perFoldLibrary(o options, p *problem, folds [][]int) error {
	name := fmt.Sprintf("CV+ (K = %d), σ and λ re-chosen per fold, from the folds' statistics", len(folds))
	if o.classes {
		fmt.Printf("%s | - | no such label sets in package interval (its cv+fold is for intervals) | | |\n", name)
		return nil
	}
	return reportCV(p, name, func() (*interval.CV, error) {
		sigmas, lambdas, err := grids(o, p.x)
		if err != nil {
			return nil, err
		}
		var cv *interval.CV
		if o.method == "rls" {
			cv, err = interval.RLSCVChosen(gauss, sigmas, lambdas, regress.FreeIntercept, p.x, p.y, folds)
		} else {
			cv, err = interval.NystromCVChosen(nystromSelection(o, p.centres, sigmas, lambdas, p.x.Rows), p.x, p.y, folds)
		}
		if err != nil {
			return nil, err
		}
		if _, fs, ok := cv.Choices(); ok {
			for k, c := range fs {
				fmt.Printf("  fold %d (statistics): σ = %.4g, λ = %.4g\n", k, c.Sigma, c.Lambda)
			}
		}
		return cv, nil
	})
}

// split is split conformal prediction at the pair: fit on a seeded 80 %,
// calibrate on the other 20 %.
func split(o options, p *problem) error {
	return report(p, "split conformal (20 % calibration)", func() (predictor, error) {
		n := p.x.Rows
		perm := rand.New(rand.NewPCG(o.seed, 0x73706c6974)).Perm(n) // "split"
		cal, fit := perm[:n/5], perm[n/5:]
		slices.Sort(cal)
		slices.Sort(fit)
		xf, yf, xc := rows(p.x, fit), rows(p.y, fit), rows(p.x, cal)
		var scores func(x *linalg.Dense) (*linalg.Dense, error) // decision values or predictions
		switch {
		case o.method == "rls" && o.classes:
			m, err := classify.RLS{Kernel: gauss(p.sigma), Lambda: p.lambda, Intercept: regress.FreeIntercept}.Fit(xf, yf.Data)
			if err != nil {
				return nil, err
			}
			scores = m.Scores
		case o.method == "rls":
			m, err := p.rls().Fit(xf, yf)
			if err != nil {
				return nil, err
			}
			scores = m.Predict
		default:
			centres, err := regress.NystromCenters(xf, min(o.centers, xf.Rows), o.seed)
			if err != nil {
				return nil, err
			}
			if o.classes {
				c, err := interval.ClassifyNystrom(p.nystrom(centres), false, xf, yf.Data)
				if err != nil {
					return nil, err
				}
				scores = c.Model().Scores
			} else {
				f, err := p.nystrom(centres).Fit(xf, yf)
				if err != nil {
					return nil, err
				}
				scores = f.Predict
			}
		}
		fc, err := scores(xc)
		if err != nil {
			return nil, err
		}
		ft, err := scores(p.xt)
		if err != nil {
			return nil, err
		}
		if o.classes {
			return splitSets(p, cal, fc, ft)
		}
		r := make([]float64, len(cal))
		for i, row := range cal {
			r[i] = math.Abs(p.y.At(row, 0) - fc.At(i, 0))
		}
		slices.Sort(r)
		return func(l float64) (float64, float64, error) {
			q := rank(r, l)
			in := 0
			for i := range p.xt.Rows {
				if math.Abs(p.yt.At(i, 0)-ft.At(i, 0)) <= q {
					in++
				}
			}
			return float64(in) / float64(p.xt.Rows), 2 * q, nil
		}, nil
	})
}

// splitSets is split conformal for classes with the score of package
// interval's Classes (labelScore).
func splitSets(p *problem, cal []int, fc, ft *linalg.Dense) (predictor, error) {
	classes := slices.Clone(p.labels)
	slices.Sort(classes)
	classes = slices.Compact(classes)
	s := make([]float64, len(cal))
	for i, row := range cal {
		s[i] = labelScore(classes, fc, i, p.labels[row])
	}
	slices.Sort(s)
	return func(l float64) (float64, float64, error) {
		tau := rank(s, l)
		in, size := 0, 0
		for i := range p.xt.Rows {
			for _, c := range classes {
				if labelScore(classes, ft, i, c) <= tau {
					size++
					if c == p.tlabels[i] {
						in++
					}
				}
			}
		}
		t := float64(p.xt.Rows)
		return float64(in) / t, float64(size) / t, nil
	}, nil
}

// labelScore is the score of package interval's Classes, −f_ℓ(x), for
// label ℓ at row i of the decision values f: f for the larger of two
// labels and −f for the smaller (one column), or −(column ℓ) (one per
// class); classes ascending.
func labelScore(classes []float64, f *linalg.Dense, i int, label float64) float64 {
	j := slices.Index(classes, label)
	if f.Cols == 1 {
		if j == len(classes)-1 {
			return -f.At(i, 0)
		}
		return f.At(i, 0)
	}
	return -f.At(i, j)
}

// rank returns the ⌈level·(n+1)⌉-th smallest of the sorted values r, +Inf
// when that rank exceeds n.
func rank(r []float64, level float64) float64 {
	k := int(math.Ceil(level * float64(len(r)+1)))
	if k > len(r) {
		return math.Inf(1)
	}
	return r[max(k, 1)-1]
}

// ---- measurement --------------------------------------------------------

type meter struct {
	t   time.Time
	cpu float64
}

func start() meter {
	debug.FreeOSMemory()
	synthetic.ResetPeak()
	return meter{time.Now(), synthetic.CPUSeconds()}
}

func (m meter) stop() (wall, cpu, peakMiB float64) {
	return time.Since(m.t).Seconds(), synthetic.CPUSeconds() - m.cpu, synthetic.Status("VmHWM")
}

// ---- data ---------------------------------------------------------------

func readCSV(path, target string) (*dataset.Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := dataset.ReadCSV(f, dataset.CSVOptions{Header: true, Target: target, DropMissing: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}

// subset returns a seeded subset of k rows of d in file order (all of
// them for k = 0 or k ≥ n).
func subset(d *dataset.Data, k int, seed uint64) *dataset.Data {
	n := len(d.Y)
	if k <= 0 || k >= n {
		return d
	}
	idx := rand.New(rand.NewPCG(seed, 0x737562)).Perm(n)[:k] // "sub"
	slices.Sort(idx)
	return d.Subset(idx)
}

func column(v []float64) *linalg.Dense { return linalg.NewDense(len(v), 1, slices.Clone(v)) }

func rows(a *linalg.Dense, idx []int) *linalg.Dense {
	out := linalg.NewDense(len(idx), a.Cols, nil)
	for i, r := range idx {
		copy(out.Row(i), a.Row(r))
	}
	return out
}

func parseLevels(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v > 0 && v < 1) {
			return nil, fmt.Errorf("-levels: %q: want levels strictly between 0 and 1", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// dump writes what intervals_sklearn.py reads: raw little-endian float64
// matrices NAME.f64 with their shapes in meta.txt, and the pair.
func dump(o options, p *problem, folds [][]int) error {
	if err := os.MkdirAll(o.dump, 0o755); err != nil {
		return err
	}
	fold := linalg.NewDense(p.x.Rows, 1, nil)
	for k, f := range folds {
		for _, i := range f {
			fold.Set(i, 0, float64(k))
		}
	}
	ms := map[string]*linalg.Dense{"xtr": p.x, "ytr": p.y, "xte": p.xt, "yte": p.yt, "folds": fold}
	if p.centres != nil {
		ms["centres"] = p.centres
	}
	if err := writeMatrices(o.dump, ms); err != nil {
		return err
	}
	meta := fmt.Sprintf("sigma %.17g\nlambda %.17g\nclassify %t\nmethod %s\nlevels %s\nmiddle %g\n",
		p.sigma, p.lambda, o.classes, o.method, o.levels, p.levels[len(p.levels)/2])
	return os.WriteFile(filepath.Join(o.dump, "meta.txt"), []byte(meta), 0o644)
}

func writeMatrices(dir string, ms map[string]*linalg.Dense) error {
	for name, a := range ms {
		b := make([]byte, 0, 8*a.Rows*a.Cols)
		for i := range a.Rows {
			for _, v := range a.Row(i) {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name+".f64"), b, 0o644); err != nil {
			return err
		}
		shape := fmt.Sprintf("%d %d\n", a.Rows, a.Cols)
		if err := os.WriteFile(filepath.Join(dir, name+".shape"), []byte(shape), 0o644); err != nil {
			return err
		}
	}
	return nil
}
