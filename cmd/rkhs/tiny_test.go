package main

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"rkhs/internal/cli/clitest"
	"rkhs/loo"
)

// selection is one way a verb chooses by leave-one-out: a route of a
// method (σ grid, or the length scales), or a verb of its own (loo).
type selection struct {
	name    string
	verb    string
	classes bool
	// args builds the command line on a training file of n rows (centres
	// at most n), without -train.
	args func(n int) []string
	// subset: the route draws a leave-one-out subset (-loo-rows) or a
	// descent subset (-ard-rows), whose draw may miss a class.
	subset []string
}

// selections are every selection of every verb, generated from the
// method table and the verbs' flags, so that a method, a route or a verb
// added later gets its rows: every method of fit and classify that
// chooses σ and λ (its route's grid, and -sigma ard where the route offers
// it), and every other verb that has a -lambdas grid to choose from.
func selections() []selection {
	var out []selection
	for _, v := range verbs {
		ms := methodsOf(v.name)
		if len(ms) == 0 {
			if verbFlags(v).Lookup("lambdas") != nil {
				out = append(out, selection{name: v.name, verb: v.name, args: func(int) []string {
					return []string{v.name, "-sigma", "1", "-lambdas", "1e-6:1e-1:6", "-standardize"}
				}})
			}
			continue
		}
		for _, m := range ms {
			if m.selects == noSelection {
				continue
			}
			for _, ard := range []bool{false, true} {
				if ard && !m.selects.scales() {
					continue
				}
				s := selection{name: v.name + " " + m.name, verb: v.name, classes: v.name == "classify"}
				if ard {
					s.name += " ard"
				}
				if slices.Contains(m.selects.flags(), "loo-rows") {
					s.subset = []string{"-loo-rows", "10"}
				}
				if ard {
					s.subset = []string{"-ard-rows", "30", "-centers", "10", "-select-centers", "10"}
					if m.selects != falkonSelection {
						s.subset = s.subset[:4]
					}
				}
				s.args = func(n int) []string {
					a := []string{v.name, "-method", m.name}
					c := fmt.Sprint(min(n, 10))
					switch m.selects {
					case streamedSelection:
						a = append(a, "-centers", c)
					case falkonSelection:
						a = append(a, "-centers", c, "-select-centers", c)
					}
					if ard {
						return append(a, "-sigma", "ard", "-lambda", "auto", "-ard-iters", "3")
					}
					if a = append(a, "-sigma", "auto"); m.lambda != lambdaChosen {
						a = append(a, "-lambda", "auto")
					}
					return a
				}
				out = append(out, s)
			}
		}
	}
	return out
}

// selectionFile writes a training file of n rows (a, b, c, y) to dir:
// y ±1 classes (alternating) with classes, a smooth function of a and b
// otherwise; c is 3 on every row with constant.
func selectionFile(t *testing.T, dir string, n int, classes, constant bool) string {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	var sb strings.Builder
	sb.WriteString("a,b,c,y\n")
	for i := range n {
		a, b, c := r.Float64(), r.Float64(), r.Float64()
		if constant {
			c = 3
		}
		y := fmt.Sprint(a + b*b)
		if classes {
			y = []string{"1", "-1"}[i%2]
		}
		fmt.Fprintf(&sb, "%g,%g,%g,%s\n", a, b, c, y)
	}
	return write(t, dir, fmt.Sprintf("rows%d-%v-%v.csv", n, classes, constant), []byte(sb.String()))
}

// TestTinySelections: every selection (selections) on 2, 3 or 5 rows
// draws one warning that the rows are too few, or is refused in one
// line; on 6 rows it draws none.
func TestTinySelections(t *testing.T) {
	dir := t.TempDir()
	for _, s := range selections() {
		for _, n := range []int{2, 3, 5, 6} {
			if testing.Short() && n == 3 {
				continue
			}
			train := selectionFile(t, dir, n, s.classes, false)
			code, _, e := runCmd(append(s.args(n), "-train", train)...)
			if code == 2 && n <= 5 && strings.Count(e, "\n") == 1 {
				continue
			}
			if code != 0 {
				t.Errorf("%s, %d rows: exit %d: %s", s.name, n, code, e)
				continue
			}
			got := strings.Count(e, "warning: only ")
			if want := map[bool]int{true: 1, false: 0}[n <= 5]; got != want {
				t.Errorf("%s, %d rows: %d warnings about the rows, want %d:\n%s", s.name, n, got, want, e)
			}
		}
	}
}

// TestConstantFeatureSelections: every selection on rows in which one
// feature holds one value says so once, naming it, and chooses (exit 0).
func TestConstantFeatureSelections(t *testing.T) {
	dir := t.TempDir()
	for _, s := range selections() {
		train := selectionFile(t, dir, 40, s.classes, true)
		code, _, e := runCmd(append(s.args(40), "-train", train)...)
		if code != 0 || strings.Count(e, "feature c (every value 3) is constant in the 40 training rows") != 1 {
			t.Errorf("%s: exit %d, want 0 and one note that c is constant:\n%s", s.name, code, e)
		}
	}
}

// TestContinuousLabelsAsClasses: every method of classify, given 2, 3 or
// 5 rows each with a label of its own (a continuous target), warns or
// refuses in one line; never answers silently with a class a row.
func TestContinuousLabelsAsClasses(t *testing.T) {
	dir := t.TempDir()
	for _, m := range methodsOf("classify") {
		for _, n := range []int{2, 3, 5} {
			train := selectionFile(t, dir, n, false, false)
			args := append([]string{"classify", "-train", train, "-method", m.name}, methodRuns["classify "+m.name]...)
			for i, a := range args {
				if a == "-centers" || a == "-select-centers" || a == "-k" {
					args[i+1] = fmt.Sprint(min(n, 2))
				}
			}
			code, _, e := runCmd(args...)
			switch {
			case code == 2 && strings.Count(e, "\n") == 1:
			case code == 0 && strings.Contains(e, "warning: "):
			default:
				t.Errorf("classify -method %s, %d rows of %d labels: exit %d; want a warning or a one-line refusal:\n%s", m.name, n, n, code, e)
			}
		}
	}
}

// TestSubsetMissingAClass: every selection of classify that draws a
// subset of the rows (-loo-rows for the leave-one-out pass, -ard-rows for
// the descent), on rows where a third class sits on two rows the draw
// misses, warns once that the subset lacks that class, naming its flag,
// or refuses in one line; it never chooses silently on rows that never
// see a class.
func TestSubsetMissingAClass(t *testing.T) {
	const n = 80
	dir := t.TempDir()
	for _, s := range selections() {
		if !s.classes || s.subset == nil {
			continue
		}
		flag, k := s.subset[0], 0
		fmt.Sscan(s.subset[1], &k)
		var drawn []int
		if flag == "-ard-rows" {
			var err error
			if drawn, err = (loo.SelectScales{Rows: k, Objective: loo.ScaleObjective{Seed: 1}}).DescentRows(n); err != nil {
				t.Fatal(err)
			}
		} else {
			drawn = loo.ScaleObjective{Subset: k, Seed: 1}.SubsetRows(n)
		}
		train := write(t, dir, "rare.csv", []byte(clitest.RareClassRows(n, drawn)))
		args := append(append(s.args(n), "-train", train, "-seed", "1"), s.subset...)
		code, _, e := runCmd(args...)
		switch {
		case code == 2 && strings.Count(e, "\n") == 1 && strings.Contains(e, flag):
		case code == 0 && strings.Count(e, "warning: "+flag) == 1 && strings.Contains(e, "class 7"):
		default:
			t.Errorf("%s %v: exit %d; want one warning that %s misses class 7, or a one-line refusal:\n%s", s.name, s.subset, code, flag, e)
		}
	}
}
