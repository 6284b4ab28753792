package loo

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"rkhs/internal/check"
	"rkhs/internal/decomp"
	"rkhs/internal/split"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Geometric returns count values from lo to hi (inclusive), equally spaced
// on a log scale; count = 1 gives {lo}. Points that fall on a power of ten
// are that power exactly (math.Pow10), so a decade grid prints as 1e-05,
// not 1.0000000000000008e-05. It panics unless 0 < lo ≤ hi < +Inf and
// count ≥ 1: a NaN bound, hi = +Inf or count ≤ 0 panics.
func Geometric(lo, hi float64, count int) []float64 {
	if !(lo > 0 && hi >= lo) || count < 1 || math.IsInf(hi, 0) {
		// Subnormal bounds are valid: see log10.
		panic(fmt.Sprintf("loo: Geometric(%v, %v, %d): want 0 < lo ≤ hi < ∞, count ≥ 1", lo, hi, count))
	}
	g := make([]float64, count)
	a, b := log10(lo), log10(hi)
	for j := range g {
		e := a
		if count > 1 {
			e = a + (b-a)*float64(j)/float64(count-1)
		}
		if r := math.Round(e); math.Abs(e-r) < 1e-9 && math.Abs(r) < 300 {
			g[j] = math.Pow10(int(r))
		} else {
			g[j] = math.Pow(10, e)
		}
	}
	g[0], g[count-1] = lo, hi // the ends exactly as given
	if count == 1 {
		g[0] = lo
	}
	return g
}

// log10 is math.Log10 made exact for subnormal x too, where math.Log
// loses the exponent (math.Log10(1e-320) is -307.95): x = m·2^k by
// math.Frexp, which normalizes subnormals, and log₁₀x = (ln m + k·ln 2)/ln 10.
func log10(x float64) float64 {
	m, k := math.Frexp(x)
	return (math.Log(m) + float64(k)*math.Ln2) / math.Ln10
}

// LambdaGrid returns count values of λ (K + nλI convention) spaced
// geometrically over the spectrum of K, as GURLS does: from
// max(σ_min, 200·ε·σ_max)/n, below which nλ no longer changes G = K + nλI
// in floating point relative to the largest eigenvalue, to σ_max/n, beyond
// which the fit is dominated by the penalty. A kernel matrix with no positive
// eigenvalue gets the grid from 1e-10 to 1. Errors (InputErrors wrapping
// ErrInput): a nil or zero s, count < 1.
func LambdaGrid(s *regress.Spectral, count int) ([]float64, error) {
	const op = "LambdaGrid"
	sp, err := spectralOf(op, s)
	if err != nil {
		return nil, err
	}
	if err := check.Count(ErrInput, op, "count", count, 1); err != nil {
		return nil, err
	}
	sigma := sp.Eigenvalues
	n := float64(len(sigma))
	hi := sigma[len(sigma)-1]
	lo := max(sigma[0], 200*0x1p-52*hi)
	if !(hi > 0) {
		return Geometric(1e-10, 1, count), nil
	}
	return Geometric(lo/n, hi/n, count), nil
}

// Split splits the indices 0…n−1 at random into a training part of
// round(trainFrac·n) indices and a test part with the rest, both in
// increasing order; the same seed gives the same split, and the same as
// dataset.Data.Split(trainFrac, seed) gives as rows. It panics unless
// n ≥ 0 and 0 ≤ trainFrac ≤ 1: sizes and fractions are constants of the
// program, not data.
func Split(n int, trainFrac float64, seed uint64) (train, test []int) {
	return split.Indices("loo: Split", n, trainFrac, seed)
}

// KFold splits the indices 0…n−1 at random into k folds whose sizes differ
// by at most one, each in increasing order: fold f is the test set of round
// f and the other folds its training set (see Complement). The same seed
// gives the same folds. It panics unless 2 ≤ k ≤ n.
func KFold(n, k int, seed uint64) [][]int {
	if k < 2 || k > n {
		panic(fmt.Sprintf("loo: KFold: %d folds of %d points", k, n))
	}
	perm := rand.New(rand.NewPCG(seed, 0x6b666f6c64)).Perm(n) // "kfold"
	folds := make([][]int, k)
	for i, p := range perm {
		folds[i%k] = append(folds[i%k], p)
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds
}

// Complement returns the indices of 0…n−1 not in the sorted set s.
func Complement(n int, s []int) []int {
	out := make([]int, 0, n-len(s))
	j := 0
	for i := 0; i < n; i++ {
		if j < len(s) && s[j] == i {
			j++
			continue
		}
		out = append(out, i)
	}
	return out
}

// SelectRLS chooses the kernel width σ and λ of kernel RLS with intercept
// mode ic by exact leave-one-out: for each σ one Gram matrix and one
// eigendecomposition (regress.NewSpectral), then the whole λ path by RLS.
// kernel(σ) builds the kernel for a width. It returns the pair with the
// smallest mean squared leave-one-out residual (the first on ties, σ before
// λ in grid order) and the whole score table. The cost is one
// eigendecomposition per σ.
//
// A λ at which G + nλI is numerically singular (a NaN or ±Inf score) is
// kept in the table and never chosen.
//
// Errors: InputErrors wrapping ErrInput for a nil kernel function, an
// invalid kernel from it (also kernels.ErrParameter), invalid grids (NaN or
// ±Inf also linalg.ErrNotFinite), an unknown intercept mode, X or Y nil,
// malformed, of the wrong shape or not finite, fewer than 2 points, or no
// finite score on the whole grid; linalg.ErrNoConvergence from an
// eigendecomposition.
func SelectRLS(kernel func(sigma float64) kernels.Kernel, x, y *linalg.Dense, sigmas, lambdas []float64, ic regress.Intercept) (Choice, *Table, error) {
	const op = "SelectRLS"
	if kernel == nil {
		return Choice{}, nil, inputError(op, "kernel", "nil kernel function")
	}
	if err := checkXY(op, x, y); err != nil {
		return Choice{}, nil, err
	}
	if err := checkParams(op, "sigmas", sigmas); err != nil {
		return Choice{}, nil, err
	}
	if err := checkParams(op, "lambdas", lambdas); err != nil {
		return Choice{}, nil, err
	}
	if err := checkIntercept(op, ic); err != nil {
		return Choice{}, nil, err
	}
	t := &Table{Criterion: LOOMSE, Sigmas: append([]float64(nil), sigmas...), Lambdas: append([]float64(nil), lambdas...)}
	for _, sg := range sigmas {
		s, err := regress.NewSpectral(kernel(sg), x, y)
		if errors.Is(err, regress.ErrInput) {
			return Choice{}, nil, regressError(op, fmt.Sprintf("kernel(%g)", sg), err)
		} else if err != nil {
			return Choice{}, nil, fmt.Errorf("loo: SelectRLS at σ = %g: %w", sg, err)
		}
		t.Scores = append(t.Scores, rlsPath(decomp.SpectralOf(s), lambdas, ic).MSE)
	}
	best, ok := t.Best()
	if !ok {
		return Choice{}, t, inputError(op, "lambdas", "no finite leave-one-out score on the grid")
	}
	return best, t, nil
}
