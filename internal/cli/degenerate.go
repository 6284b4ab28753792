package cli

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// What a width σ given as a number tells its user, in rkhs fit, classify
// and loo: the median distance between rows that -sigma auto's grid is a
// multiple of (loo.MedianDistanceOf), and a warning when the kernel matrix at
// that σ is numerically the identity or all ones (WarnDegenerate).

// degenerateRows is the number of rows (or centres) on which a σ given is
// checked.
const degenerateRows = 500

// WarnDegenerate prints one warning line on w, prefixed by prefix ("rkhs
// fit"), when the kernel k, of the width sigma given as a number, is
// degenerate on the data (kernels.CheckDegenerate): on the m centres a
// Nyström-type fit draws with seed when m > 0, else on a seeded sample
// of the rows of x; at most degenerateRows of either. The line names σ and the median distance and
// suggests -sigma auto and -standardize. Nothing is printed when the check
// cannot judge (fewer than two distinct rows).
func WarnDegenerate(w io.Writer, prefix string, k kernels.Kernel, sigma float64, x *linalg.Dense, m int, seed uint64) {
	pts, of := x, "rows"
	if m > 0 {
		var err error
		if pts, err = regress.NystromCenters(x, m, seed); err != nil {
			return
		}
		of = "centres"
	}
	what := Count(pts.Rows, of[:len(of)-1])
	if pts.Rows > degenerateRows {
		idx := rand.New(rand.NewPCG(seed, 0x646567656e)).Perm(pts.Rows)[:degenerateRows] // "degen"
		slices.Sort(idx)
		s := linalg.NewDense(degenerateRows, pts.Cols, nil)
		for j, i := range idx {
			copy(s.Row(j), pts.Row(i))
		}
		pts, what = s, fmt.Sprintf("%d sampled %s", degenerateRows, of)
		if m > 0 {
			what = fmt.Sprintf("%d of the %d centres", degenerateRows, m)
		}
	}
	var de *kernels.DegenerateError
	if !errors.As(kernels.CheckDegenerate(k, pts), &de) {
		return
	}
	median, err := loo.MedianDistanceOf(k, x, seed)
	if err != nil {
		return
	}
	side, like, entries := "below", "the identity", fmt.Sprintf("every off-diagonal entry below %g", kernels.DegenerateIdentityBelow)
	if de.Kind != kernels.NearIdentity {
		side, like, entries = "above", "all ones", fmt.Sprintf("most off-diagonal entries above 1 − %g", 1-kernels.DegenerateOnesAbove)
	}
	fmt.Fprintf(w, "%s: warning: -sigma %g is far %s the median distance between rows, %.4g: the kernel matrix of %s is numerically %s (%d of them with %s); try -sigma auto or -standardize\n",
		prefix, sigma, side, median, what, like, de.Alike, entries)
}
