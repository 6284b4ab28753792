package regress

import (
	"rkhs/internal/decomp"
	"rkhs/linalg"
)

// init lets package loo read the decompositions of this package through
// rkhs/internal/decomp, without exported accessors and without copies.
func init() {
	decomp.SpectralOf = func(v any) *decomp.Spectral {
		s, _ := v.(*Spectral)
		if s.check("") != nil {
			return nil
		}
		return &decomp.Spectral{Kernel: s.kernel, X: s.x, Y: s.y, Eigenvalues: s.sigma, Q: s.q, QtY: s.qty, Qt1: s.qt1}
	}
	decomp.LinearPathOf = func(v any) *decomp.LinearPath {
		lp, _ := v.(*LinearPath)
		if lp.check("", 1) != nil {
			return nil
		}
		return &decomp.LinearPath{Free: lp.ic == FreeIntercept, U: lp.u, S: lp.s, UtY: lp.uty, Y: lp.yc, YMean: lp.yMean}
	}
	decomp.Features = func(cfg any, op string, x *linalg.Dense) (*decomp.NystromFeatures, error) {
		return cfg.(Nystrom).features(op, x)
	}
}
