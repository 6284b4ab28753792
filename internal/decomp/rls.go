package decomp

import "rkhs/linalg"

// RLSFit is a kernel RLS fit together with the Cholesky factorization it
// was solved with, which package interval needs for the leave-one-out
// models of the fit and would otherwise compute a second time.
type RLSFit struct {
	Model any              // the *regress.Model that regress.RLS.Fit returns
	Chol  *linalg.Cholesky // of K + nλI, or of K + 11ᵀ + nλI for a penalized intercept
}

// FitRLS fits cfg, a regress.RLS, on x and y for the call op, exactly as
// regress.RLS.Fit does (same checks, memory bound, errors and result), and
// keeps the factorization. Set by package regress at initialization.
var FitRLS func(cfg any, op string, x, y *linalg.Dense) (*RLSFit, error)
