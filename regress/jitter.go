package regress

import (
	"errors"
	"fmt"
	"math"

	"rkhs/linalg"
)

// The jitter of the Nyström fits: when K_mm (+ δI for Falkon) is not
// numerically positive definite — repeated centres, or a Gaussian kernel
// with a σ large for the spread of the data — its diagonal is shifted by
// a jitter δ = 10⁻¹²·t, t its mean diagonal entry, multiplied by 100
// until the Cholesky factorization succeeds or δ exceeds 10⁻²·t (six
// tries for a normal t). Nystrom and NystromStats refill their factor
// with K_mm for each try, Falkon with its K_mm + δI; all three through
// factorInPlaceWithJitter.

// tryJitters is the retry loop of the jitter: after the factorization of
// a matrix with mean diagonal entry t failed with err (an
// ErrNotPositiveDefinite), it calls try(δ) for δ = 10⁻¹²·t, 10⁻¹⁰·t, …
// up to 10⁻²·t, and returns the first δ for which try returns nil, or the
// last error. If 10⁻¹²·t is not positive there is no scale for a jitter,
// and it returns err with that explanation; for t = +Inf it returns err.
// It allocates nothing: try chooses where to factor.
func tryJitters(t float64, err error, try func(delta float64) error) (float64, error) {
	if !(1e-12*t > 0) {
		// No positive scale for a jitter: K_mm is zero (or its diagonal
		// underflows), as for the linear kernel on all-zero centres.
		return 0, fmt.Errorf("%w (the mean diagonal of K_mm is %g, too small to scale a jitter: the centres carry no information)", err, t)
	}
	for delta := 1e-12 * t; delta <= 1e-2*t*(1+1e-9) && !math.IsInf(delta, 1); delta *= 100 {
		if err = try(delta); err == nil {
			return delta, nil
		}
	}
	return 0, err
}

// factorInPlaceWithJitter factors the lower triangle of a in place (its
// strict upper triangle is not touched: zero, a reads as L) and returns
// the jitter used (0 when a is numerically positive definite): before each
// try of tryJitters, refill(a) writes the matrix into a's lower triangle
// again, so no copy is kept.
func factorInPlaceWithJitter(a *linalg.Dense, refill func(a *linalg.Dense)) (float64, error) {
	m := a.Rows
	var trace float64
	for i := 0; i < m; i++ {
		trace += a.At(i, i)
	}
	var ch linalg.Cholesky
	err := ch.FactorizeInPlace(a)
	if err == nil || !errors.Is(err, linalg.ErrNotPositiveDefinite) {
		return 0, err
	}
	return tryJitters(trace/float64(m), err, func(delta float64) error {
		refill(a)
		for i := 0; i < m; i++ {
			a.Set(i, i, a.At(i, i)+delta)
		}
		return ch.FactorizeInPlace(a)
	})
}
