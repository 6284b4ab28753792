package report

import (
	"fmt"
	"slices"

	"rkhs/kernels"
)

// StandardizeNotes returns what rkhs and rkhs-beam tell their user about
// the standardization s that the moments m of rows training rows gave
// (kernels.Moments.Standardization): a note for each constant feature,
// kept at its value, and a warning for each feature that barely varies
// (kernels.NearlyConstantTol), whose scale is so small that a row a little
// off its training values lies far out. Features are named by names (the
// header's) or by their 1-based position. The lines have no prefix and no
// end of line; the cost is O(d) for d features.
func StandardizeNotes(m *kernels.Moments, s *kernels.Standardization, names []string, rows int) (notes, warnings []string) {
	training := Count(rows, "training row")
	constant := m.Constant()
	for _, j := range constant {
		notes = append(notes, fmt.Sprintf("%s (every value %.6g) is constant in the %s: kept at its value, it adds nothing to the distances between them (a test row that differs there is warned about)", featureName(names, j), m.Mean[j], training))
	}
	for _, j := range m.NearlyConstant(kernels.NearlyConstantTol) {
		if !slices.Contains(constant, j) {
			warnings = append(warnings, fmt.Sprintf("%s barely varies in the %s (standard deviation %.2g, mean %.6g): standardized, a row off its training values lies far out, where the kernel is 0 and the model predicts its intercept",
				featureName(names, j), training, s.Scale[j], m.Mean[j]))
		}
	}
	return notes, warnings
}

// featureName names feature j (0-based) for a message: by its column name,
// or by its 1-based position when the data has no names.
func featureName(names []string, j int) string {
	if j < len(names) {
		return "feature " + names[j]
	}
	return fmt.Sprintf("feature %d", j+1)
}

// OffConstantLine is what rkhs and rkhs-beam tell their user about the
// rows of the file of flag that differ from a feature constant in the
// training rows of s, from the report o of
// kernels.Standardization.OffConstant on n rows (at least one off; o.Row
// counted over all of them, for a caller that adds the reports of
// blocks), v the value of the worst: one line that counts them and names
// the worst by its 1-based row, as OutlyingLine does. The line has no
// prefix and no end of line.
func OffConstantLine(flag string, s *kernels.Standardization, o kernels.Outliers, n int, v float64, names []string) string {
	return fmt.Sprintf("%d of the %s of %s differ from the value %s held on every training row (the worst: row %d, %.6g against %.6g): the model never saw it vary, so what it predicts there is a guess; fit on rows where it varies, or leave it out (-features)",
		o.Rows, Count(n, "row"), flag, featureName(names, o.Feature), o.Row+1, v, s.Mean[o.Feature])
}

// OutlyingLine is what rkhs and rkhs-beam tell their user about the rows
// of the file of flag that lie far outside the training scale, from the
// report o of kernels.Standardization.Outlying with
// kernels.DefaultOutlyingLimit on n rows (at least one out; o.Row counted
// over all of them, for a caller that adds the reports of blocks): one
// line that counts them and names the worst by its 1-based row, its
// feature and its z, in standard deviations of the training rows. The
// line has no prefix and no end of line.
func OutlyingLine(flag string, o kernels.Outliers, n int, names []string) string {
	return fmt.Sprintf("%d of the %s of %s lie more than %g standard deviations of the training rows out on some feature (the worst: %s): the kernel is 0 there, and the model predicts its intercept alone",
		o.Rows, Count(n, "row"), flag, kernels.DefaultOutlyingLimit, OutlyingWorst(o, names))
}

// OutlyingWorst names the worst element of the report o for a message:
// "row 2, feature b, z = 1.4e+07" (1-based row, the feature by its name
// in names or its 1-based position).
func OutlyingWorst(o kernels.Outliers, names []string) string {
	return fmt.Sprintf("row %d, %s, z = %.2g", o.Row+1, featureName(names, o.Feature), o.Z)
}
