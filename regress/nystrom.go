package regress

import (
	"fmt"

	"rkhs/internal/center"
	"rkhs/internal/check"
	"rkhs/internal/decomp"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Nystrom is the subset-of-regressors (Nyström) approximation of kernel
// RLS: f(x) = Σⱼ cⱼ k(x, rⱼ) + b over m ≪ n centres r₁…r_m, minimising
//
//	(1/n)‖y − K_nm·c − b·1‖² + λ·cᵀK_mm·c
//
// where K_nm (n×m) holds k(xᵢ, rⱼ) and K_mm (m×m) k(rᵢ, rⱼ); without an
// intercept c solves (K_nmᵀK_nm + nλK_mm)c = K_nmᵀy. Memory is O(nm): the
// n×n kernel matrix is never formed.
type Nystrom struct {
	Kernel  kernels.Kernel
	Lambda  float64 // λ > 0, in the K + nλI convention
	Centers int     // m distinct rows of X, drawn uniformly without replacement, skipping repeats (as Falkon)
	Seed    uint64  // seed of the draw (math/rand/v2 PCG)
	// Given, if not nil, holds the centres (m×d) and Centers and Seed are
	// ignored.
	Given     *linalg.Dense
	Intercept Intercept
}

// NystromFit is a fitted Nyström model and how it was computed.
type NystromFit struct {
	*Model
	// Indices are the rows of X used as centres, in increasing order (nil
	// when the centres were Given).
	Indices []int
	// Jitter is the δ added to the diagonal of K_mm before its Cholesky
	// factorization; 0 when K_mm was numerically positive definite.
	Jitter float64
}

// Fit fits the model; X (n×d) and Y (n×q) are not modified, and the model
// holds a copy of the centres.
//
// The computation avoids the squared condition number of the normal
// equations. With L the Cholesky factor of K_mm (+ δI) and the features
// B = K_nm·L⁻ᵀ (n×m, formed as Bᵀ = L⁻¹·K_nmᵀ by one linalg.Trsm), the
// problem is ridge regression on B with a = Lᵀc: (BᵀB + nλI)·a = Bᵀy, then
// c = L⁻ᵀa. The free intercept centres the columns of B and y (b = ȳ −
// B̄ᵀa); the penalized one uses the kernel k + 1 (b = 1ᵀc). The cost is the
// cross matrix (2nmd flops and nm kernel transforms for the kernels of
// package kernels), m²n for the triangular solve, m²n for BᵀB (linalg.Syrk)
// and O(m³ + nmq).
//
// If K_mm is not numerically positive definite (repeated Given centres, or a
// Gaussian kernel with a σ large for the spread of the data), δ = 10⁻¹²·t
// is added to its diagonal, t the mean diagonal entry, and multiplied by 100
// until the factorization succeeds (at most δ = 10⁻²·t; if 10⁻¹²·t is not
// positive, as when every centre has k(x, x) = 0, it fails at once); the
// fit then minimises the objective above with K_mm + δI in the penalty,
// exactly, and NystromFit.Jitter reports δ.
//
// Errors wrap ErrInput (bad data, λ ≤ 0, m < 1 or more than the distinct
// rows of X, Given with the wrong number of columns), kernels.ErrParameter, or
// linalg.ErrNotPositiveDefinite if even the largest jitter fails; a
// *linalg.MemoryError (linalg.ErrTooLarge), before anything large is
// allocated, if the n×m cross matrix and the m×m ones exceed the memory
// limit (see package rkhs).
func (s Nystrom) Fit(x, y *linalg.Dense) (*NystromFit, error) {
	const op = "Nystrom.Fit"
	if err := checkRegularized(op, s.Kernel, x, y, s.Lambda, s.Intercept); err != nil {
		return nil, err
	}
	feat, err := s.features(op, x)
	if err != nil {
		return nil, err
	}
	bt := feat.Bt
	ys := y
	var bMean, yMean []float64
	if s.Intercept == FreeIntercept {
		bMean = centerRows(bt, nil)
		yMean = center.Means(y)
		ys = center.Subtract(y, yMean)
	}
	// (BᵀB + nλI)·a = Bᵀy.
	a, err := ridge(bt, linalg.NoTrans, ys, s.Lambda, "Nyström BᵀB + nλI")
	if err != nil {
		return nil, err
	}
	b := make([]float64, y.Cols)
	if s.Intercept == FreeIntercept {
		b = freeOffsets(yMean, bMean, a)
	}
	// c = L⁻ᵀ·a.
	linalg.Trsm(linalg.Lower, linalg.Trans, feat.L, a)
	if s.Intercept == PenalizedIntercept {
		b = colSums(a)
	}
	if err := checkModel(op, a, b); err != nil {
		return nil, err
	}
	return &NystromFit{
		Model:   &Model{Kernel: s.Kernel, Centers: feat.Centers, Coef: a, Intercept: b},
		Indices: feat.Indices,
		Jitter:  feat.Jitter,
	}, nil
}

// features chooses the centres and builds the feature map of the training
// points x, checked by the caller, as Fit does before solving (see Fit for
// the centres, the jitter and the cost: the cross matrix and m²n flops for
// the triangular solve). λ is not used. Package loo computes the exact
// leave-one-out residuals of a Nyström fit from the same map (see
// rkhs/internal/decomp).
func (s Nystrom) features(op string, x *linalg.Dense) (*decomp.NystromFeatures, error) {
	if err := checkKernel(op, s.Kernel); err != nil {
		return nil, err
	}
	if err := s.Intercept.check(op); err != nil {
		return nil, err
	}
	n := x.Rows
	feat := &decomp.NystromFeatures{}
	var err error
	feat.Centers, feat.Indices, err = chooseCenters(op, x, s.Given, s.Centers, nil, func(m int) ([]int, error) {
		return drawDistinctCenters(op, x, m, s.Seed) // as Falkon: repeated centres add nothing
	})
	if err != nil {
		return nil, err
	}
	r := feat.Centers
	penalized := s.Intercept == PenalizedIntercept
	// K_nmᵀ, K_mm and its jittered copy, L, and the copies of the data.
	m := r.Rows
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(m, n), memlimit.Floats(3, m, m), memlimit.Floats(n, x.Cols+1))); err != nil {
		return nil, err
	}

	// L = chol(K_mm + δI), with the kernel k + 1 for a penalized intercept.
	kmm, err := kernels.GramTo(nil, s.Kernel, r, linalg.Lower)
	if err != nil {
		return nil, kernelError(op, "X", err)
	}
	shift(kmm, 0, penalized)
	jitter, err := factorInPlaceWithJitter(kmm, func(a *linalg.Dense) {
		kernels.GramTo(a, s.Kernel, r, linalg.Lower) // the values of the first call, which succeeded
		shift(a, 0, penalized)
	})
	if err != nil {
		return nil, fmt.Errorf("regress: Nyström K_mm: %w", err)
	}
	feat.Jitter = jitter
	feat.L = kmm // factored in place: L, zeros above the diagonal

	// Bᵀ = L⁻¹·K_nmᵀ (m×n).
	bt, err := kernels.CrossTo(nil, s.Kernel, r, x)
	if err != nil {
		return nil, kernelError(op, "X", err)
	}
	if penalized {
		for i := range bt.Data {
			bt.Data[i]++
		}
	}
	linalg.Trsm(linalg.Lower, linalg.NoTrans, feat.L, bt)
	feat.Bt = bt
	return feat, nil
}

// chooseCenters returns the centres of a Nyström-type fit on x (m×d, a
// copy) and the rows of x they are (nil for given): given if not nil (an
// ErrInput error naming Given unless finite, non-empty and with the d
// columns of x), else the rows draw(m) returns for m = centers (an ErrInput
// error naming Centers unless 1 ≤ m ≤ n). before, if not nil, is called
// with m once it is checked and before anything is copied or drawn (the
// memory check of Falkon).
func chooseCenters(op string, x, given *linalg.Dense, centers int, before func(m int) error, draw func(m int) ([]int, error)) (*linalg.Dense, []int, error) {
	n, d := x.Rows, x.Cols
	m := centers
	if given != nil {
		if err := check.Data(ErrInput, op, "Given", given, 1); err != nil {
			return nil, nil, err
		}
		if given.Cols != d {
			return nil, nil, inputError(op, "Given", "%d×%d centres, want m×%d", given.Rows, given.Cols, d)
		}
		m = given.Rows
	} else if m < 1 || m > n {
		return nil, nil, inputError(op, "Centers", "%d, must be between 1 and the %d rows of X (it has no default)", m, n)
	}
	if before != nil {
		if err := before(m); err != nil {
			return nil, nil, err
		}
	}
	if given != nil {
		return given.Clone(), nil, nil
	}
	indices, err := draw(m)
	if err != nil {
		return nil, nil, err
	}
	c := linalg.NewDense(len(indices), d, nil)
	for j, i := range indices {
		copy(c.Row(j), x.Row(i))
	}
	return c, indices, nil
}
