package regress

import (
	"rkhs/internal/decomp"
	"rkhs/linalg"
)

// Package loo reads the decompositions of this package through
// rkhs/internal/decomp, without exported accessors and without copies.
func init() {
	decomp.SpectralOf = func(v any) *decomp.Spectral {
		s, _ := v.(*Spectral)
		if s.check("") != nil {
			return nil
		}
		return &decomp.Spectral{Kernel: s.kernel, X: s.x, Y: s.y, Sigma: s.sigma, Q: s.q, QtY: s.qty, Qt1: s.qt1}
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

func init() {
	decomp.NystromStatsOf = func(v any, op string) (*decomp.NystromStats, error) {
		s, _ := v.(*NystromStats)
		if err := s.ready(op); err != nil {
			return nil, err
		}
		if s.n == 0 {
			return nil, inputError(op, "NystromStats", "statistics of no rows")
		}
		if err := s.factor(op); err != nil {
			return nil, err
		}
		return &decomp.NystromStats{
			Kernel: s.kernel, Centers: s.centers, L: s.l, Jitter: s.jitter,
			N: s.n, Q: s.q, Mu: s.mu, YBar: s.ybar, M: s.mm, C: s.cy, Syy: s.syy,
		}, nil
	}
	decomp.NystromBatch, decomp.NystromWork = addGroups*addBlockRows, addGroups*addGroupCols
	decomp.NystromRows = func(v any, q int, work *linalg.Dense) (func(kb, yb *linalg.Dense), func()) {
		s := v.(*NystromStats)
		if work != nil {
			if work.Rows != s.centers.Rows || work.Cols != addGroups*addGroupCols {
				panic("regress: NystromRows: the shared workspace is not m×NystromWork")
			}
			s.bt = work
		}
		f := s.folder(q)
		// The pass is over: the workspace of the groups of rows (m×1056
		// values) is not needed by the statistics, so the caller's next
		// pass can use its memory.
		done := func() { f.flush(); s.bt, s.ybuf = nil, nil }
		if work == nil {
			return f.add, done
		}
		last := false // a block that left rows in the workspace was folded at once
		return func(kb, yb *linalg.Dense) {
			if last {
				panic("regress: NystromRows: rows after a block that was not a multiple of NystromBatch rows, with a shared workspace")
			}
			f.add(kb, yb)
			if f.g != 0 || f.fill != 0 {
				f.flush()
				last = true
			}
		}, done
	}
}
