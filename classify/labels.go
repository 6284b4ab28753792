package classify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"rkhs/internal/check"
	"rkhs/linalg"
)

// classesOf returns the distinct values of labels in ascending order. A
// negative zero is read as +0, so −0 and 0 are one class.
func classesOf(labels []float64) []float64 {
	c := make([]float64, len(labels))
	for i, v := range labels {
		c[i] = v + 0 // −0 + 0 = +0
	}
	slices.Sort(c)
	return slices.Compact(c)
}

// MissingClasses returns, in ascending order, the classes of labels that
// no row of rows holds: the classes a selection run on those rows only (a
// leave-one-out subset, loo.ScaleObjective.SubsetRows; a descent's rows,
// loo.SelectScales.DescentRows) never measures its error on, which a
// command warns about. rows nil means every row (none missing). −0 and 0
// are one class. Cost O(n log n) for n labels; labels is not modified.
// It panics if a row is out of range.
func MissingClasses(labels []float64, rows []int) []float64 {
	if rows == nil {
		return nil
	}
	classes := classesOf(labels)
	held := make([]bool, len(classes))
	for _, i := range rows {
		j, _ := slices.BinarySearch(classes, labels[i]+0)
		held[j] = true
	}
	var missing []float64
	for j, c := range classes {
		if !held[j] {
			missing = append(missing, c)
		}
	}
	return missing
}

// DescribeMissing says which classes of labels no row of rows (drawn at
// random, for a subset's selection) holds (MissingClasses), for a
// warning: "the 30 rows drawn hold no row of class 7: …"; "" when none is
// missing or rows is nil.
func DescribeMissing(labels []float64, rows []int) string {
	return DescribeMissingOf(MissingClasses(labels, rows), len(rows), len(labels))
}

// DescribeMissingOf is DescribeMissing's wording for the classes missing
// (ascending) from drawn rows of n, for a caller that does not hold every
// row's label (a streamed selection, which knows the classes from a first
// pass and the labels of the rows it drew); "" when none is missing.
func DescribeMissingOf(missing []float64, drawn, n int) string {
	if len(missing) == 0 {
		return ""
	}
	s := make([]string, len(missing))
	for i, c := range missing {
		s[i] = strconv.FormatFloat(c, 'g', -1, 64)
	}
	what := map[bool]string{true: "class ", false: "classes "}[len(s) == 1] + strings.Join(s, ", ")
	return fmt.Sprintf("the %d rows drawn at random (-seed) of the %d hold no row of %s, so the choice never measures its error there", drawn, n, what)
}

// classIndex returns, for every label, the index of its class in the
// ascending list classes.
func classIndex(labels, classes []float64) []int {
	idx := make([]int, len(labels))
	for i, v := range labels {
		idx[i], _ = slices.BinarySearch(classes, v+0)
	}
	return idx
}

// binaryCoding maps two-class labels to ±1: the smaller class to −1, the
// larger to +1. It returns the two classes in ascending order and the
// coded labels, or an error for one class or more than two.
func binaryCoding(op string, labels []float64) (classes []float64, y []float64, err error) {
	classes = classesOf(labels)
	switch {
	case len(classes) < 2:
		return nil, nil, inputError(op, "labels", "only one class (%v); need two", classes[0])
	case len(classes) > 2:
		return nil, nil, inputError(op, "labels", "%d classes %s; this method is binary only", len(classes), listClasses(classes))
	}
	y = make([]float64, len(labels))
	for i, v := range labels {
		if v+0 == classes[1] {
			y[i] = 1
		} else {
			y[i] = -1
		}
	}
	return classes, y, nil
}

// listClasses prints at most five classes, for error messages.
func listClasses(c []float64) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, v := range c {
		if i == 5 {
			b.WriteString(", …")
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, v)
	}
	b.WriteByte('}')
	return b.String()
}

// signLabels returns the labels of binary decision values: classes[1]
// where f > 0, classes[0] where f ≤ 0 (a score of exactly 0 goes to the
// smaller label).
func signLabels(f []float64, classes []float64) []float64 {
	out := make([]float64, len(f))
	for i, v := range f {
		if v > 0 {
			out[i] = classes[1]
		} else {
			out[i] = classes[0]
		}
	}
	return out
}

// argmaxLabels returns, for every row of the one-vs-all scores s (one
// column per class), the class of the largest score; among tied scores the
// first column, which is the smallest label.
func argmaxLabels(s *linalg.Dense, classes []float64) []float64 {
	out := make([]float64, s.Rows)
	for i := range out {
		row := s.Row(i)
		best := 0
		for k, v := range row {
			if v > row[best] {
				best = k
			}
		}
		out[i] = classes[best]
	}
	return out
}

// Accuracy returns the fraction of predictions equal to their labels,
// in [0, 1]: the score rkhs classify and the accuracy experiments report.
// Errors (InputErrors wrapping ErrInput): no labels, lengths that differ,
// a NaN or ±Inf value (also linalg.ErrNotFinite).
func Accuracy(labels, pred []float64) (float64, error) {
	const op = "Accuracy"
	if len(labels) == 0 || len(pred) != len(labels) {
		return 0, inputError(op, "pred", "%d predictions for %d labels (want as many, at least one)", len(pred), len(labels))
	}
	if err := check.Vector(ErrInput, op, "labels", labels); err != nil {
		return 0, err
	}
	if err := check.Vector(ErrInput, op, "pred", pred); err != nil {
		return 0, err
	}
	right := 0
	for i, p := range pred {
		if p == labels[i] {
			right++
		}
	}
	return float64(right) / float64(len(labels)), nil
}
