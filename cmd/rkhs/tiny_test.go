package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTinySelections: every selection of fit and classify (σ grid exact
// and Nyström, length scales) on 2, 3 or 5 rows draws one warning that
// the rows are too few; on 6 rows, none.
func TestTinySelections(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	file := func(n int, classes bool) string {
		var sb strings.Builder
		sb.WriteString("a,b,y\n")
		for i := range n {
			a, b := r.Float64(), r.Float64()
			y := fmt.Sprint(a + b*b)
			if classes {
				y = []string{"1", "-1"}[i%2]
			}
			fmt.Fprintf(&sb, "%g,%g,%s\n", a, b, y)
		}
		return write(t, dir, fmt.Sprintf("rows%d-%v.csv", n, classes), []byte(sb.String()))
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"fit σ grid exact", []string{"fit", "-method", "cholesky", "-sigma", "auto", "-lambda", "auto"}},
		{"fit σ grid nystrom", []string{"fit", "-method", "nystrom", "-centers", "2", "-sigma", "auto", "-lambda", "auto"}},
		{"fit ard", []string{"fit", "-method", "nystrom", "-centers", "2", "-sigma", "ard", "-lambda", "auto", "-ard-iters", "3"}},
		{"classify σ grid", []string{"classify", "-method", "rls", "-sigma", "auto"}},
	} {
		for _, n := range []int{2, 3, 5, 6} {
			train := file(n, c.args[0] == "classify")
			code, _, e := runCmd(append(c.args, "-train", train)...)
			if code != 0 {
				t.Errorf("%s, %d rows: exit %d: %s", c.name, n, code, e)
				continue
			}
			got := strings.Count(e, "warning: only ")
			if want := map[bool]int{true: 1, false: 0}[n <= 5]; got != want {
				t.Errorf("%s, %d rows: %d warnings about the rows, want %d:\n%s", c.name, n, got, want, e)
			}
		}
	}
}
