package loo

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Criterion is what a selection minimizes.
type Criterion int

const (
	// LOOMSE is the mean squared exact leave-one-out residual: a second
	// streamed pass per σ (NystromStream.Add).
	LOOMSE Criterion = iota
	// GCV is generalized cross-validation from the statistics alone: one
	// pass per σ.
	GCV
	// LOOErrorRate is the share of rows whose leave-one-out prediction has
	// the wrong class (outputs coding classes: one ±1 output, or one
	// against all), ties broken by the leave-one-out MSE.
	LOOErrorRate
)

// String returns "loo_mse", "gcv" or "loo_error".
func (c Criterion) String() string {
	switch c {
	case LOOMSE:
		return "loo_mse"
	case GCV:
		return "gcv"
	case LOOErrorRate:
		return "loo_error"
	}
	return fmt.Sprintf("Criterion(%d)", int(c))
}

// SelectNystrom chooses the kernel width σ and λ of a Nyström fit by exact
// leave-one-out (or GCV) over a σ × λ grid, streaming the rows: memory
// O(m² + block·m + mL(q + 1)) besides X and Y whatever n is, no n×m
// matrix. The centres are chosen once by the caller and shared by every σ,
// so the scores of different σ compare fits of the same form.
//
// For each σ: one pass over the rows builds regress.NystromStats (the
// features' moments), NewNystromStream gives DF and GCV for every λ, and,
// unless Criterion is GCV, a second pass gives the exact leave-one-out
// residuals of every λ — over all rows, or over a seeded uniform subset of
// Subset rows, an unbiased estimate of the same mean at a fraction of the
// cost (every residual in it is still exact). Then the fit at the chosen
// pair is solved from that σ's statistics.
type SelectNystrom struct {
	// Kernel builds the kernel of a width σ; required.
	Kernel func(sigma float64) kernels.Kernel
	// Centers are the m centres (m×d), distinct rows; required.
	Centers *linalg.Dense
	// Sigmas and Lambdas are the grids (positive; λ in the K + nλI
	// convention); required.
	Sigmas, Lambdas []float64
	// Intercept is the intercept mode of every fit.
	Intercept regress.Intercept
	// Criterion is what is minimized; the zero value is LOOMSE.
	Criterion Criterion
	// Subset, if positive and below n, runs the leave-one-out pass on that
	// many rows drawn uniformly without replacement (Seed); 0 means every
	// row.
	Subset int
	// Seed seeds the subset.
	Seed uint64
	// Progress, if not nil, is called before each pass with the pass
	// number (1, 2, …), the number of passes and σ.
	Progress func(pass, passes int, sigma float64)
}

// NystromSelection is the result of SelectNystrom.Fit.
type NystromSelection struct {
	// Choice is the pair chosen and its score (of Criterion).
	Choice
	// Criterion is what was minimized.
	Criterion Criterion
	// Scores is the table of the criterion for every pair; LOO, GCV and
	// DF hold the leave-one-out MSE (nil rows with the GCV criterion), the
	// GCV score and tr H of every pair, [σ][λ].
	Scores       *Table
	LOO, GCV, DF [][]float64
	// LOORows is the number of rows the leave-one-out means are over.
	LOORows int
	// Fit is the Nyström fit at the chosen pair on all rows.
	Fit *regress.NystromFit
}

// Fit runs the selection on x (n×d) and y (n×q) and fits the chosen pair.
// Neither is modified. A pair at which the system is numerically singular
// is kept in the table (as +Inf) and never chosen.
//
// Cost per σ: 2nmd flops and nm kernel transforms per pass (one or two),
// 2nm² for the statistics and 2nm² + 2nmL(q + 1) for the leave-one-out
// pass (on Subset rows when given), and about 9m³ for the λ path. Results
// are bit-identical for any GOMAXPROCS.
//
// Errors: InputErrors wrapping ErrInput for a nil Kernel, an invalid
// kernel from it (also kernels.ErrParameter), invalid grids or centres
// (NaN or ±Inf also linalg.ErrNotFinite), an unknown intercept mode or
// criterion, X or Y nil, malformed, of the wrong shape or not finite,
// fewer than 2 rows, a negative Subset, or no finite score on the grid; a
// *linalg.MemoryError (linalg.ErrTooLarge) before allocating; and the
// errors of regress.NewNystromStats for the centres.
func (sn SelectNystrom) Fit(x, y *linalg.Dense) (*NystromSelection, error) {
	const op = "SelectNystrom.Fit"
	if sn.Kernel == nil {
		return nil, inputError(op, "Kernel", "nil kernel function")
	}
	if err := checkXY(op, x, y); err != nil {
		return nil, err
	}
	if err := check.Data(ErrInput, op, "Centers", sn.Centers, 1); err != nil {
		return nil, err
	}
	if sn.Centers.Cols != x.Cols {
		return nil, inputError(op, "Centers", "%d columns, X has %d", sn.Centers.Cols, x.Cols)
	}
	if err := checkParams(op, "Sigmas", sn.Sigmas); err != nil {
		return nil, err
	}
	if err := checkParams(op, "Lambdas", sn.Lambdas); err != nil {
		return nil, err
	}
	if err := checkIntercept(op, sn.Intercept); err != nil {
		return nil, err
	}
	if sn.Criterion < LOOMSE || sn.Criterion > LOOErrorRate {
		return nil, inputError(op, "Criterion", "unknown criterion %d", int(sn.Criterion))
	}
	if sn.Subset < 0 {
		return nil, inputError(op, "Subset", "%d rows, want ≥ 0", sn.Subset)
	}
	lx, ly := x, y
	if sn.Subset > 0 && sn.Subset < x.Rows {
		lx, ly = sampleRows(x, y, sn.Subset, sn.Seed)
	}
	passes := 2 * len(sn.Sigmas)
	if sn.Criterion == GCV {
		passes = len(sn.Sigmas)
	}
	sel := &NystromSelection{
		Criterion: sn.Criterion,
		Scores:    &Table{Sigmas: append([]float64(nil), sn.Sigmas...), Lambdas: append([]float64(nil), sn.Lambdas...)},
		Choice:    Choice{Score: math.Inf(1)},
		LOORows:   lx.Rows,
	}
	var bestStats *regress.NystromStats
	tie := math.Inf(1) // the leave-one-out MSE of the best pair, for ties of the error rate
	pass := 0
	for _, sg := range sn.Sigmas {
		k := sn.Kernel(sg)
		at := fmt.Sprintf("Kernel(%g)", sg)
		if sn.Progress != nil {
			pass++
			sn.Progress(pass, passes, sg)
		}
		stats, err := regress.NewNystromStats(k, sn.Centers)
		if err == nil {
			err = stats.Add(x, y)
		}
		if errors.Is(err, regress.ErrInput) {
			return nil, regressError(op, at, err)
		} else if err != nil {
			return nil, fmt.Errorf("loo: %s at σ = %g: %w", op, sg, err)
		}
		p, err := NewNystromStream(stats, sn.Intercept, sn.Lambdas)
		if errors.Is(err, linalg.ErrNotPositiveDefinite) {
			p, err = nil, nil // some λ singular: score them one by one below
		}
		if err != nil {
			return nil, err
		}
		gcv, df, loo, errRate := sn.scores(op, stats, p, lx, ly, &pass, passes, sg)
		sel.GCV, sel.DF = append(sel.GCV, gcv), append(sel.DF, df)
		sel.LOO = append(sel.LOO, loo)
		score := loo
		switch sn.Criterion {
		case GCV:
			score = gcv
		case LOOErrorRate:
			score = errRate
		}
		sel.Scores.Scores = append(sel.Scores.Scores, score)
		for j, v := range score {
			if math.IsNaN(v) {
				continue
			}
			better := v < sel.Score
			if sn.Criterion == LOOErrorRate && v == sel.Score {
				better = loo[j] < tie
			}
			if better {
				sel.Choice = Choice{Sigma: sg, Lambda: sn.Lambdas[j], Score: v}
				bestStats = stats
				if loo != nil {
					tie = loo[j]
				}
			}
		}
	}
	if bestStats == nil || math.IsInf(sel.Score, 1) {
		return nil, inputError(op, "Lambdas", "no finite score on the grid")
	}
	fit, err := bestStats.Solve(sel.Lambda, sn.Intercept)
	if err != nil {
		return nil, fmt.Errorf("loo: %s: the fit at σ = %g, λ = %g: %w", op, sel.Sigma, sel.Lambda, err)
	}
	sel.Fit = fit
	return sel, nil
}

// scores returns the GCV, DF, leave-one-out MSE (nil with the GCV
// criterion) and error rate (nil unless that criterion) of every λ at one
// σ, +Inf where the system is numerically singular. p is nil when
// NewNystromStream refused the whole grid: each λ is then tried alone.
func (sn SelectNystrom) scores(op string, stats *regress.NystromStats, p *NystromStream, lx, ly *linalg.Dense, pass *int, passes int, sg float64) (gcv, df, loo, errRate []float64) {
	nl := len(sn.Lambdas)
	paths := []*NystromStream{p}
	idx := [][]int{nil} // λ indices of each path; nil: all
	if p == nil {
		paths, idx = nil, nil
		for j, l := range sn.Lambdas {
			if q, err := NewNystromStream(stats, sn.Intercept, []float64{l}); err == nil {
				paths, idx = append(paths, q), append(idx, []int{j})
			}
		}
	}
	inf := func() []float64 {
		v := make([]float64, nl)
		for j := range v {
			v[j] = math.Inf(1)
		}
		return v
	}
	gcv, df = inf(), inf()
	if sn.Criterion != GCV {
		loo = inf()
		if sn.Criterion == LOOErrorRate {
			errRate = inf()
		}
	}
	if sn.Criterion != GCV && sn.Progress != nil {
		*pass++
		sn.Progress(*pass, passes, sg)
	}
	for a, q := range paths {
		js := idx[a]
		if js == nil {
			js = make([]int, nl)
			for j := range js {
				js[j] = j
			}
		}
		for b, j := range js {
			gcv[j], df[j] = q.GCV[b], q.DF[b]
		}
		if sn.Criterion == GCV {
			continue
		}
		// A path whose pass fails at some λ is split into single λ.
		if err := q.Add(lx, ly); err != nil {
			if len(js) > 1 {
				for _, j := range js {
					if one, err := NewNystromStream(stats, sn.Intercept, []float64{sn.Lambdas[j]}); err == nil && one.Add(lx, ly) == nil {
						mse, _ := one.MSE()
						loo[j] = mse[0]
						if errRate != nil {
							e, _ := one.ErrorRate()
							errRate[j] = e[0]
						}
					}
				}
			}
			continue
		}
		mse, _ := q.MSE()
		var e []float64
		if errRate != nil {
			e, _ = q.ErrorRate()
		}
		for b, j := range js {
			loo[j] = mse[b]
			if e != nil {
				errRate[j] = e[b]
			}
		}
	}
	return gcv, df, loo, errRate
}

// sampleRows returns k rows of x and y drawn uniformly without
// replacement (seeded), in their original order.
func sampleRows(x, y *linalg.Dense, k int, seed uint64) (*linalg.Dense, *linalg.Dense) {
	idx := rand.New(rand.NewPCG(seed, 0x6c6f6f737562)).Perm(x.Rows)[:k] // "loosub"
	slices.Sort(idx)
	sx, sy := linalg.NewDense(k, x.Cols, nil), linalg.NewDense(k, y.Cols, nil)
	for r, i := range idx {
		copy(sx.Row(r), x.Row(i))
		copy(sy.Row(r), y.Row(i))
	}
	return sx, sy
}
