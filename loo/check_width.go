package loo

import (
	"errors"
	"math/rand/v2"
	"slices"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// CheckWidthRows is the number of points, rows or centres, on which
// CheckWidth judges a width: enough to tell a kernel matrix that is
// numerically the identity or all ones, at 500² kernel values whatever n.
const CheckWidthRows = 500

// WidthCheck is what CheckWidth finds of a kernel whose width was given:
// its kernel matrix on the points checked is numerically the identity or
// all ones (Degenerate), which no λ makes a useful fit.
type WidthCheck struct {
	// Degenerate is kernels.CheckDegenerate's finding on the points
	// checked: its Kind and the number of pairs alike.
	Degenerate *kernels.DegenerateError
	// Checked is the number of points checked, of the Of points they were
	// drawn from: the rows of X, or with Centers the centres.
	Checked, Of int
	// Centers says that the points are the centres of a Nyström-type fit.
	Centers bool
	// Median is MedianDistanceOf(k, x, seed), the width the default σ
	// grid (DefaultSigmas) is a multiple of, for a message to compare.
	Median float64
}

// CheckWidth reports whether the kernel k, whose width was given, is
// degenerate on the data x (kernels.CheckDegenerate): on the m centres a
// Nyström-type fit draws with seed (regress.NystromCenters) when m > 0,
// else on the rows of x; on at most CheckWidthRows of them, drawn with
// seed when there are more. It returns nil and no error when the kernel
// matrix is not degenerate or cannot be judged (fewer than two distinct
// points, kernel values that overflow). Cost: O(min(n, CheckWidthRows)²·d)
// kernel evaluations, plus the centres' draw and, when degenerate, the
// median's. x is not modified.
//
// Errors wrap ErrInput: a kernel without a width (NormOf) or with an
// invalid one (also kernels.ErrParameter), X nil,
// malformed, empty or not finite, m < 0 or an m the rows cannot give
// (regress.NystromCenters).
func CheckWidth(k kernels.Kernel, x *linalg.Dense, m int, seed uint64) (*WidthCheck, error) {
	const op = "CheckWidth"
	if _, err := NormOf(k); err != nil {
		return nil, err
	}
	if err := check.Kernel(ErrInput, op, "k", k); err != nil {
		return nil, err
	}
	if err := check.Data(ErrInput, op, "X", x, 1); err != nil {
		return nil, err
	}
	if m < 0 {
		return nil, inputError(op, "m", "%d centres, want m ≥ 0 (0: the rows)", m)
	}
	pts := x
	if m > 0 {
		var err error
		if pts, err = regress.NystromCenters(x, m, seed); err != nil {
			return nil, regressError(op, "m", err)
		}
	}
	c := &WidthCheck{Checked: pts.Rows, Of: pts.Rows, Centers: m > 0}
	if pts.Rows > CheckWidthRows {
		idx := rand.New(rand.NewPCG(seed, 0x646567656e)).Perm(pts.Rows)[:CheckWidthRows] // "degen"
		slices.Sort(idx)
		s := linalg.NewDense(CheckWidthRows, pts.Cols, nil)
		for j, i := range idx {
			copy(s.Row(j), pts.Row(i))
		}
		pts, c.Checked = s, CheckWidthRows
	}
	if !errors.As(kernels.CheckDegenerate(k, pts), &c.Degenerate) {
		return nil, nil
	}
	var err error
	if c.Median, err = MedianDistanceOf(k, x, seed); err != nil {
		return nil, err
	}
	return c, nil
}
