package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rkhs/internal/cli/clitest"
	"rkhs/loo"
)

// selectModes are the selections of rkhs-beam select, generated from its
// flags: the σ grid and, where -sigma offers it, the length scales; for
// regression and, where -classes is a flag, for classes.
func selectModes(t *testing.T) [][]string {
	var v verb
	for _, w := range verbs {
		if w.name == "select" {
			v = w
		}
	}
	fs := flag.NewFlagSet("select", flag.ContinueOnError)
	v.flags(fs)
	modes := [][]string{nil}
	if f := fs.Lookup("sigma"); f != nil && strings.Contains(f.Usage, "ard") {
		modes = append(modes, []string{"-sigma", "ard", "-ard-iters", "3"})
	}
	if fs.Lookup("classes") != nil {
		for _, m := range modes[:len(modes):len(modes)] {
			modes = append(modes, append([]string{"-classes"}, m...))
		}
	}
	return modes
}

// classRows writes n rows (a, b, c, y) with y alternating ±1 and, with
// constant, c 3 on every row.
func classRows(t *testing.T, path string, n int, constant bool) {
	t.Helper()
	var sb strings.Builder
	sb.WriteString("a,b,c,y\n")
	for i := range n {
		c := fmt.Sprint(float64(i%7) / 3)
		if constant {
			c = "3"
		}
		fmt.Fprintf(&sb, "%g,%g,%s,%s\n", float64(i)/float64(n), float64((i*7)%n)/float64(n), c, []string{"1", "-1"}[i%2])
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTinySelect: every selection of rkhs-beam select (selectModes) on
// 2, 3 or 5 rows draws the one warning rkhs gives that the rows are too
// few, or is refused in one line; on 30 rows, none. The continuous labels
// of writeRows given as -classes (on 2–5 rows, a label of its own on
// every row) are refused in one line as a continuous target, as rkhs
// classify refuses them.
func TestTinySelect(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{2, 3, 5, 30} {
		if testing.Short() && n == 3 {
			continue
		}
		name := fmt.Sprintf("rows%d.csv", n)
		writeRows(t, filepath.Join(dir, name), "a,b,c,y", n, 1, 1)
		classes := fmt.Sprintf("classes%d.csv", n)
		classRows(t, filepath.Join(dir, classes), n, false)
		for _, extra := range selectModes(t) {
			files := []string{name}
			if len(extra) > 0 && extra[0] == "-classes" {
				files = append(files, classes)
			}
			for _, file := range files {
				args := append([]string{"select", "-input", file, "-format", "csv", "-lambdas", "1e-6:1e-2:3", "-centers", "2", "-model", "m.json"}, extra...)
				code, out := rkhsBeam(t, dir, args...)
				oneLine := code == 2 && strings.Count(strings.TrimSpace(out), "\n") == 0
				if file == name && len(extra) > 0 && extra[0] == "-classes" {
					if !oneLine || !strings.Contains(out, "continuous target") {
						t.Errorf("%s %v: exit %d: %s; want a one-line refusal naming the continuous target", file, extra, code, out)
					}
					continue
				}
				if oneLine && n <= 5 {
					continue
				}
				if code != 0 {
					t.Errorf("%s %v: exit %d: %s", file, extra, code, out)
					continue
				}
				got := strings.Count(out, "warning: only ")
				if want := map[bool]int{true: 1, false: 0}[n <= 5]; got != want {
					t.Errorf("%s %v: %d warnings about the rows, want %d:\n%s", file, extra, got, want, out)
				}
			}
		}
	}
}

// TestConstantFeatureSelect: every selection of rkhs-beam select on rows
// in which one feature holds one value says so once, naming it, and
// chooses (exit 0), as rkhs does.
func TestConstantFeatureSelect(t *testing.T) {
	dir := t.TempDir()
	classRows(t, filepath.Join(dir, "classes.csv"), 40, true)
	writeRows(t, filepath.Join(dir, "rows.csv"), "a,b,c,y", 40, 1, 1)
	raw, _ := os.ReadFile(filepath.Join(dir, "rows.csv"))
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	for i := 1; i < len(lines); i++ {
		f := strings.Split(lines[i], ",")
		f[2] = "3"
		lines[i] = strings.Join(f, ",")
	}
	os.WriteFile(filepath.Join(dir, "rows.csv"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	for _, extra := range selectModes(t) {
		file := "rows.csv"
		if len(extra) > 0 && extra[0] == "-classes" {
			file = "classes.csv"
		}
		args := append([]string{"select", "-input", file, "-format", "csv", "-lambdas", "1e-6:1e-2:3", "-centers", "10", "-model", "m.json"}, extra...)
		code, out := rkhsBeam(t, dir, args...)
		if code != 0 || strings.Count(out, "feature c (every value 3) is constant in the 40 training rows") != 1 {
			t.Errorf("%s %v: exit %d, want 0 and one note that c is constant:\n%s", file, extra, code, out)
		}
	}
}

// TestSubsetMissingAClassSelect: rkhs-beam select -classes -sigma ard
// with an -ard-rows draw that misses a class (a third class on two rows
// the draw leaves out) gives the warning rkhs classify gives on the same
// rows and flags, word for word but the command's name.
func TestSubsetMissingAClassSelect(t *testing.T) {
	const n, k = 80, 30
	drawn, err := loo.SelectScales{Rows: k, Objective: loo.ScaleObjective{Seed: 1}}.DescentRows(n)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rare.csv"), []byte(clitest.RareClassRows(n, drawn)), 0o644); err != nil {
		t.Fatal(err)
	}
	common := []string{"-centers", "10", "-seed", "1", "-sigma", "ard", "-ard-rows", strconv.Itoa(k), "-ard-iters", "2", "-max-classes", "3"}
	r1, b1 := runBoth(t, dir, append([]string{"classify", "-train", "rare.csv", "-method", "nystrom", "-lambda", "auto"}, common...),
		append([]string{"select", "-input", "rare.csv", "-format", "csv", "-classes", "-model", "m.json"}, common...))
	warning := func(said string) string {
		for _, l := range strings.Split(said, "\n") {
			if _, w, ok := strings.Cut(l, ": warning: -ard-rows"); ok {
				return w
			}
		}
		return ""
	}
	if w := warning(r1.stderr); w == "" || !strings.Contains(w, "class 7") || warning(b1.stderr) != w {
		t.Errorf("rkhs-beam warned %q; rkhs %q (want the same, naming class 7)\nrkhs-beam said:\n%s", warning(b1.stderr), w, b1.stderr)
	}
}
