package classify

import (
	"math"
	"slices"
	"testing"

	"rkhs/linalg"
)

func TestClassesAndCoding(t *testing.T) {
	labels := []float64{3, -2, 3, math.Copysign(0, -1), 0, -2}
	classes := classesOf(labels)
	if want := []float64{-2, 0, 3}; !slices.Equal(classes, want) || math.Signbit(classes[1]) {
		t.Errorf("classesOf(%v) = %v, want %v with +0", labels, classes, want)
	}
	if got, want := classIndex(labels, classes), []int{2, 0, 2, 1, 1, 0}; !slices.Equal(got, want) {
		t.Errorf("classIndex = %v, want %v", got, want)
	}
	c, y, err := binaryCoding("test", []float64{5, 1, 1, 5})
	if err != nil || !slices.Equal(c, []float64{1, 5}) || !slices.Equal(y, []float64{1, -1, -1, 1}) {
		t.Errorf("binaryCoding = %v, %v, %v; want [1 5], [1 -1 -1 1]", c, y, err)
	}
}

// TestDecisionTies: a score of exactly 0 goes to the smaller label, and so
// does a tie between one-vs-all columns.
func TestDecisionTies(t *testing.T) {
	classes := []float64{-4, 2, 8}
	if got, want := signLabels([]float64{0, 1e-300, -1}, classes[:2]), []float64{-4, 2, -4}; !slices.Equal(got, want) {
		t.Errorf("signLabels = %v, want %v", got, want)
	}
	s := linalg.NewDense(4, 3, []float64{
		1, 1, 1,
		0, 2, 2,
		3, 0, 3,
		-1, 0, -1,
	})
	if got, want := argmaxLabels(s, classes), []float64{-4, 2, -4, 2}; !slices.Equal(got, want) {
		t.Errorf("argmaxLabels = %v, want %v", got, want)
	}
}
