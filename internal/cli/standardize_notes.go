package cli

import (
	"fmt"
	"slices"

	"rkhs/kernels"
)

// StandardizeNotes returns what both commands tell their user about the
// standardization s that the moments m of rows training rows gave
// (kernels.Moments.Standardization): a note for each constant feature,
// kept at its value, and a warning for each feature that barely varies
// (kernels.NearlyConstantTol), whose scale is so small that a row a little
// off its training values lies far out. Features are named by names (the
// header's) or by their 1-based position. The lines have no prefix and no
// end of line.
func StandardizeNotes(m *kernels.Moments, s *kernels.Standardization, names []string, rows int) (notes, warnings []string) {
	training := Count(rows, "training row")
	constant := m.Constant()
	for _, j := range constant {
		notes = append(notes, fmt.Sprintf("%s (every value %.6g) is constant in the %s: kept at its value, it adds nothing to the distances between rows", FeatureName(names, j), m.Mean[j], training))
	}
	for _, j := range m.NearlyConstant(kernels.NearlyConstantTol) {
		if !slices.Contains(constant, j) {
			warnings = append(warnings, fmt.Sprintf("%s barely varies in the %s (standard deviation %.2g, mean %.6g): standardized, a row off its training values lies far out, where the kernel is 0 and the model predicts its intercept",
				FeatureName(names, j), training, s.Scale[j], m.Mean[j]))
		}
	}
	return notes, warnings
}

// FeatureName names feature j (0-based) for a message: by its column name,
// or by its 1-based position when the data has no names.
func FeatureName(names []string, j int) string {
	if j < len(names) {
		return "feature " + names[j]
	}
	return fmt.Sprintf("feature %d", j+1)
}
