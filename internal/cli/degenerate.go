package cli

import (
	"fmt"
	"io"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
)

// WarnDegenerate prints one warning line on w, prefixed by prefix ("rkhs
// fit"), when the kernel k, of the width sigma given as a number, is
// degenerate on the data (loo.CheckWidth on the m centres a Nyström-type
// fit draws with seed, or with m = 0 on the rows of x). The line names σ
// and the median distance between rows that -sigma auto's grid is a
// multiple of, and suggests -sigma auto and -standardize. Nothing is
// printed when the check cannot judge.
func WarnDegenerate(w io.Writer, prefix string, k kernels.Kernel, sigma float64, x *linalg.Dense, m int, seed uint64) {
	c, err := loo.CheckWidth(k, x, m, seed)
	if err != nil || c == nil {
		return
	}
	of := map[bool]string{false: "row", true: "centre"}[c.Centers]
	what := Count(c.Checked, of)
	switch {
	case c.Checked < c.Of && c.Centers:
		what = fmt.Sprintf("%d of the %d centres", c.Checked, c.Of)
	case c.Checked < c.Of:
		what = fmt.Sprintf("%d sampled %ss", c.Checked, of)
	}
	side, like, entries := "below", "the identity", fmt.Sprintf("every off-diagonal entry below %g", kernels.DegenerateIdentityBelow)
	if c.Degenerate.Kind != kernels.NearIdentity {
		side, like, entries = "above", "all ones", fmt.Sprintf("most off-diagonal entries above 1 − %g", 1-kernels.DegenerateOnesAbove)
	}
	fmt.Fprintf(w, "%s: warning: -sigma %g is far %s the median distance between rows, %.4g: the kernel matrix of %s is numerically %s (%d of them with %s); try -sigma auto or -standardize\n",
		prefix, sigma, side, c.Median, what, like, c.Degenerate.Alike, entries)
}
