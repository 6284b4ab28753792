package loo

import (
	"math/rand/v2"
	"slices"

	"rkhs/kernels"
	"rkhs/linalg"
)

// The defaults of a selection: what a selection uses when its caller
// gives no grid, no subset size, no width. Both commands (rkhs fit,
// classify and loo; rkhs-beam select), the paper's experiments and the
// zero values of SelectNystrom and SelectRLS take them from here, so that
// one set of flags chooses alike whichever front end runs it:
//
//   - the width: MedianDistanceOf, the median distance between rows in
//     the kernel's own norm, on a seeded sample of DefaultMedianRows rows
//     (MedianRows names them);
//   - the σ grid: DefaultSigmas, the median times DefaultSigmaRatios;
//   - the λ grid: DefaultLambdas;
//   - the leave-one-out pass of a streamed selection: on DefaultSubset(n)
//     of n rows (SelectNystrom.Subset, ScaleObjective.Subset);
//   - the rows a descent of the length scales fits on (SelectScales.Rows):
//     DefaultDescentRows(n) of n rows;
//   - the centres a descent of the length scales runs on
//     (SelectScales.Centers): DefaultDescentCenters(m) of m centres;
//   - the centres of a Nyström fit: regress.NystromCenters, the first m
//     distinct rows in a seeded uniformly random order of the n rows, the
//     centres regress.Nystrom and regress.Falkon draw when given none.

// DefaultSigmaRatios returns the default σ grid as multiples of the
// median distance between rows: 1/4, 1/2, 1, 2 and 4, ratios 2 apart,
// where the Gaussian kernel matrix goes from nearly the identity to nearly
// all ones on typical data. The slice is new on every call.
func DefaultSigmaRatios() []float64 { return []float64{0.25, 0.5, 1, 2, 4} }

// DefaultSigmas returns the default σ grid around the median distance
// between rows (MedianDistanceOf): median × DefaultSigmaRatios, ascending.
func DefaultSigmas(median float64) []float64 {
	g := DefaultSigmaRatios()
	for i := range g {
		g[i] *= median
	}
	return g
}

// DefaultLambdas returns the default λ grid of a selection, in the
// K + nλI convention: 51 values from 1e-10 to 1, five a decade
// (Geometric). Below 1e-10, nλ stops mattering next to the largest
// eigenvalues of K (about n); at 1 the fit is close to the mean of the
// labels.
func DefaultLambdas() []float64 { return Geometric(1e-10, 1, 51) }

// The leave-one-out pass of a streamed selection, by default (see
// DefaultSubset): every row of up to DefaultSubsetAbove rows, and
// DefaultSubsetRows rows drawn at random above that. Every residual is
// exact either way; a subset's mean is an unbiased estimate of every
// row's, with its standard error. The pass on every row costs as much as
// the statistics pass (2nm² flops a σ), so the subset halves the
// selection's time at large n; at 20,000 rows the standard error is a few
// percent of the leave-one-out MSE, and the λ of a σ are compared on the
// same rows, so their differences are known better than that.
const (
	DefaultSubsetAbove = 100_000
	DefaultSubsetRows  = 20_000
)

// DefaultSubset returns the default SelectNystrom.Subset (and
// ScaleObjective.Subset) for n rows: 0, every row, up to
// DefaultSubsetAbove rows, DefaultSubsetRows above.
func DefaultSubset(n int) int {
	if n > DefaultSubsetAbove {
		return DefaultSubsetRows
	}
	return 0
}

// MedianDistanceOf returns the median heuristic for the width of the
// kernel k on x: MedianDistance in the distance k applies its width to
// (NormOf: Euclidean for kernels.Gaussian, the 1-norm for
// kernels.Laplacian, whatever their σ), on the rows MedianRows(n, seed)
// names. Errors: those of NormOf and MedianDistance.
func MedianDistanceOf(k kernels.Kernel, x *linalg.Dense, seed uint64) (float64, error) {
	norm, err := NormOf(k)
	if err != nil {
		return 0, err
	}
	return medianDistance("MedianDistanceOf", x, norm, 0, seed)
}

// MedianRows returns the rows of n, in increasing order, that
// MedianDistance measures with maxPoints 0 and seed, and so
// MedianDistanceOf: every row up to DefaultMedianRows rows, else a uniform
// sample of DefaultMedianRows of them without replacement. A caller that
// holds only those rows (a streamed front end gathering them from files)
// gets the same median from them, bit for bit: MedianDistance on those
// rows, in that order, with maxPoints 0.
func MedianRows(n int, seed uint64) []int {
	return sampleIndex(max(n, 0), DefaultMedianRows, seed)
}

// sampleIndex returns the rows 0…n−1 when n ≤ k, else k of them drawn
// uniformly without replacement with seed; in increasing order. It is the
// draw of the distance quantiles (distanceQuantiles).
func sampleIndex(n, k int, seed uint64) []int {
	if k < 2 || n <= k {
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		return rows
	}
	rows := rand.New(rand.NewPCG(seed, 0x7369676d61)).Perm(n)[:k] // "sigma"
	slices.Sort(rows)
	return rows
}

// The rows a descent of the length scales (SelectScales) fits on, by
// default (see DefaultDescentRows): every row of up to DefaultDescentAbove
// rows, DefaultDescentSubset rows drawn at random above that (the
// leave-one-out subset, DefaultSubset, among them). An evaluation of the
// objective costs about 8m²R + 3m²s flops on R rows and s of S, where a
// five-σ grid costs about 5·(2m²n + 3m²s): at m = 1000 an evaluation on
// 50,000 rows is about 0.16 of the grid on 256,525 rows (Beijing's air
// quality), 0.2 on 196,046 (skin) and 0.045 at 10⁶ rows. Fewer rows are
// cheaper but fit another problem: the λ the grid chose for every row is
// then too small for the subset (the same penalty per row, fewer rows a
// centre), its leave-one-out error at the start doubles (Beijing on
// 25,000 rows: 866 against 424 on 50,000), and the scales learnt there did
// worse on every row than the grid's σ (skin on 25,000 rows). Up to
// DefaultDescentAbove rows every row serves: the grid's leave-one-out pass
// is then over every row too, and an evaluation costs about 0.45 of the
// grid whatever n (docs/notes/ard-gradient.md).
const (
	DefaultDescentAbove  = 100_000
	DefaultDescentSubset = 50_000
)

// DefaultDescentRows returns the default SelectScales.Rows for n rows: 0,
// every row, up to DefaultDescentAbove rows, DefaultDescentSubset above.
func DefaultDescentRows(n int) int {
	if n > DefaultDescentAbove {
		return DefaultDescentSubset
	}
	return 0
}

// DefaultDescentCentersMin bounds the centres a descent of the length
// scales (SelectScales.Fit) runs on by default (see
// DefaultDescentCenters): every centre up to
// DefaultDescentCentersMin, else the first 2/5 of them and at least
// DefaultDescentCentersMin. An evaluation of the objective costs about
// 11m²n flops on n rows (every row its leave-one-out row), where a five-σ
// grid costs about 20m²n: at m centres each evaluation is about 0.5 of
// the grid, and a descent of 20 to 30 evaluations 10 to 15 grids. On
// 2/5 of the centres an evaluation costs (2/5)² = 0.16 of that. Measured
// on California housing (16,512 rows, 1000 centres, 2026-12-02, the
// shared 2-core AMD EPYC): the whole `rkhs fit -sigma ard` run took 191
// s of CPU time on every centre (test MSE 2.283·10⁹, the grid's
// 2.769·10⁹) and 62.6 s with the descent on 400 (test MSE
// 2.267·10⁹); the grid alone 13.9 s (docs/notes/ard-gradient.md).
const DefaultDescentCentersMin = 400

// DefaultDescentCenters returns the default SelectScales.Centers for m
// centres: m up to DefaultDescentCentersMin, else max(2m/5,
// DefaultDescentCentersMin) (400 of 1000).
func DefaultDescentCenters(m int) int {
	if m <= DefaultDescentCentersMin {
		return m
	}
	return max(2*m/5, DefaultDescentCentersMin)
}

// DefaultSelectCenters is the number of centres on which σ and λ are
// chosen for a Falkon fit of more centres (rkhs fit -method falkon
// -select-centers): the first min(M, DefaultSelectCenters) of its M
// centres, the fit then made on all M at the chosen pair. A selection's
// passes cost O(n·m²) per σ and hold m² values, seconds and 8 MB at m =
// 1000 for any n; Falkon's own fit costs O(n·M·t) for t iterations, so
// that a selection on all M centres would dominate the run once M is a few
// thousand.
const DefaultSelectCenters = 1000
