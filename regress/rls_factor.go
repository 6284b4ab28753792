package regress

import (
	"rkhs/internal/decomp"
	"rkhs/linalg"
)

// init lets package interval fit RLS and keep the factorization, through
// rkhs/internal/decomp, without an exported accessor.
func init() {
	decomp.FitRLS = func(cfg any, op string, x, y *linalg.Dense) (*decomp.RLSFit, error) {
		m, ch, err := cfg.(RLS).fit(op, x, y)
		if err != nil {
			return nil, err
		}
		return &decomp.RLSFit{Model: m, Chol: ch}, nil
	}
}
