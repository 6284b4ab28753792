package clitest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// RareClassRows returns a CSV file (a, b, c, y) of n rows in two classes,
// ±1 by a + b > 1, but for a third class, 7, on the last two rows that
// drawn (a subset's rows, as a selection draws them) leaves out: the rows
// on which both commands' selections must warn that the draw misses a
// class.
func RareClassRows(n int, drawn []int) string {
	var rare []int
	for i := n - 1; len(rare) < 2 && i >= 0; i-- {
		if !slices.Contains(drawn, i) {
			rare = append(rare, i)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	var sb strings.Builder
	sb.WriteString("a,b,c,y\n")
	for i := range n {
		a, b, c := r.Float64(), r.Float64(), r.Float64()
		y := map[bool]string{true: "1", false: "-1"}[a+b > 1]
		if slices.Contains(rare, i) {
			y = "7"
		}
		fmt.Fprintf(&sb, "%g,%g,%g,%s\n", a, b, c, y)
	}
	return sb.String()
}
