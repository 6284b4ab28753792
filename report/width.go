package report

import (
	"fmt"
	"io"

	"rkhs/kernels"
	"rkhs/loo"
)

// WarnWidth writes one warning line on w, starting with prefix (say "rkhs
// fit"), when the check c of a kernel whose width sigma was given as a
// number (loo.CheckWidth) found its kernel matrix degenerate: the line
// names σ, the median distance between rows that the default σ grid
// (loo.DefaultSigmas) is a multiple of, the points checked (rows, or the
// centres of a Nyström-type fit, and how many of them) and the pairs
// alike, and suggests -sigma auto and -standardize. A nil c (the kernel
// matrix is not degenerate, or the check could not judge) writes nothing.
// rkhs fit, classify and loo write the same line.
func WarnWidth(w io.Writer, prefix string, sigma float64, c *loo.WidthCheck) {
	if c == nil {
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
