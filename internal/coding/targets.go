// Package coding holds the ±1 coding of class labels that kernel RLS
// classification fits (Rifkin and Klautau, "In defense of one-vs-all
// classification", 2004), written once for the classify package and the
// commands rkhs and rkhs-beam.
package coding

import (
	"slices"

	"rkhs/linalg"
)

// Targets writes the codings of labels into dst (len(labels) rows), given
// classes, the distinct labels in ascending order: with one column, −1 for
// classes[0] and +1 for classes[1]; with one column per class, +1 in the
// column of the row's class and −1 elsewhere (one against all). −0 is +0.
// It returns the index of the first label that is not among classes, its
// row left unwritten, or −1 when every label is.
func Targets(dst *linalg.Dense, labels, classes []float64) int {
	for i, v := range labels {
		c, ok := slices.BinarySearch(classes, v+0)
		if !ok {
			return i
		}
		row := dst.Row(i)
		if len(row) == 1 {
			row[0] = float64(2*c - 1)
			continue
		}
		for k := range row {
			row[k] = -1
		}
		row[c] = 1
	}
	return -1
}
