package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// constantFiles writes a training file of n rows (a, b, c, y) in which c
// is 3 on every row, a test file in which c varies, and one in which c is
// 3 again; y is a class (±1) with classes, a smooth function of a and b
// otherwise.
func constantFiles(t *testing.T, dir string, n int, classes bool) (train, varies, same string) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	file := func(name string, rows int, c func() float64) string {
		var sb strings.Builder
		sb.WriteString("a,b,c,y\n")
		for range rows {
			a, b := 4*r.Float64()-2, 4*r.Float64()-2
			y := fmt.Sprint(a*a/2 + b + 0.1*r.NormFloat64())
			if classes {
				y = "1"
				if a+b < 0 {
					y = "-1"
				}
			}
			fmt.Fprintf(&sb, "%g,%g,%g,%s\n", a, b, c(), y)
		}
		return write(t, dir, name, []byte(sb.String()))
	}
	three := func() float64 { return 3 }
	return file("train.csv", n, three), file("varies.csv", 40, func() float64 { return 4*r.Float64() - 2 }), file("same.csv", 40, three)
}

// TestConstantFeatureOffInTest: for every selection of fit and classify
// (σ grid and length scales, exact and Nyström), a test file that varies
// a feature constant in training draws one warning naming it, in the fit
// and in rkhs predict from the saved model; a test file that keeps it at
// its training value draws none.
func TestConstantFeatureOffInTest(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
	}{
		{"fit σ grid exact", []string{"fit", "-method", "cholesky", "-sigma", "auto", "-lambda", "auto"}},
		{"fit σ grid nystrom", []string{"fit", "-method", "nystrom", "-centers", "30", "-sigma", "auto", "-lambda", "auto"}},
		{"fit ard", []string{"fit", "-method", "nystrom", "-centers", "30", "-sigma", "ard", "-lambda", "auto", "-ard-iters", "5"}},
		{"classify σ grid", []string{"classify", "-method", "rls", "-sigma", "auto"}},
		{"classify ard", []string{"classify", "-method", "nystrom", "-centers", "30", "-sigma", "ard", "-lambda", "auto", "-ard-iters", "5"}},
	} {
		dir := t.TempDir()
		train, varies, same := constantFiles(t, dir, 80, c.args[0] == "classify")
		model := filepath.Join(dir, "m.json")
		for _, test := range []struct {
			file string
			warn bool
		}{{varies, true}, {same, false}} {
			code, _, e := runCmd(append(c.args, "-train", train, "-test", test.file, "-model", model)...)
			if code != 0 {
				t.Fatalf("%s: exit %d: %s", c.name, code, e)
			}
			pcode, _, pe := runCmd("predict", "-model", model, "-data", test.file, "-predictions", filepath.Join(dir, "p"))
			if pcode != 0 {
				t.Fatalf("%s: predict: exit %d: %s", c.name, pcode, pe)
			}
			for _, said := range []struct{ who, text string }{{c.args[0], e}, {"predict", pe}} {
				got := strings.Count(said.text, "differ from the value feature c held on every training row")
				if want := map[bool]int{true: 1, false: 0}[test.warn]; got != want {
					t.Errorf("%s, %s on %s: %d warnings about c, want %d:\n%s", c.name, said.who, filepath.Base(test.file), got, want, said.text)
				}
			}
		}
	}
}
