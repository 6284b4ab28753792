package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/loo"
	"rkhs/regress"
)

// TestRLSSigmaAutoAlone: classify -method rls -sigma auto without -lambda
// chooses λ too, over the default grid, and says so; λ given is not
// reported as chosen.
func TestRLSSigmaAutoAlone(t *testing.T) {
	dir := t.TempDir()
	heart, _ := splitSet(t, dir, "heart", "", 0)
	res, _ := runJSON(t, "classify", "-train", heart, "-method", "rls", "-sigma", "auto")
	table, _ := res["table"].(map[string]any)
	if res["lambda_by_loo"] != true || table == nil || len(table["sigmas"].([]any)) != 5 || len(table["lambdas"].([]any)) != 51 {
		t.Errorf("rls -sigma auto: lambda_by_loo %v, table %v; want λ chosen on 5 σ × 51 λ", res["lambda_by_loo"], table != nil)
	}
	for _, args := range [][]string{
		{"classify", "-train", heart, "-method", "rls", "-sigma", "auto", "-lambda", "1e-3"},
		{"classify", "-train", heart, "-method", "nystrom", "-centers", "30", "-sigma", "auto", "-lambda", "1e-3"},
	} {
		res, _ := runJSON(t, args...)
		if res["lambda_by_loo"] != false || res["lambda"] != 1e-3 {
			t.Errorf("%v: lambda_by_loo %v, λ %v; want false and 0.001", args[3:], res["lambda_by_loo"], res["lambda"])
		}
		code, out, _ := runCmd(args...)
		if code != 0 || strings.Contains(out, "λ = 0.001, chosen") {
			t.Errorf("%v: %q says the given λ was chosen", args[3:], out)
		}
	}
}

// TestFalkonMemoryBeforeSelection: falkon whose final fit on M centres
// does not fit in memory is refused before the selection's first pass.
func TestFalkonMemoryBeforeSelection(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	old := debug.SetMemoryLimit(int64(regress.FalkonMemory(338, 300, 13, 1)) - 1)
	defer debug.SetMemoryLimit(old)
	code, _, e := runCmd("fit", "-train", train, "-method", "falkon", "-centers", "300", "-select-centers", "20", "-sigma", "auto", "-lambda", "auto")
	if code != 2 || strings.Contains(e, "pass ") || !strings.Contains(e, "-centers") {
		t.Errorf("exit %d, %q; want 2 before any pass, with the -centers that fit", code, e)
	}
}

// TestFalkonAfterSelection: after a selection, falkon without -iters runs
// past the default budget until its preconditioner's promise; a budget
// too small says that the saved model is not converged and that the
// leave-one-out score is the selection's.
func TestFalkonAfterSelection(t *testing.T) {
	const train = "../../datasets/regression/housing_scale"
	args := []string{"fit", "-train", train, "-method", "falkon", "-centers", "100", "-select-centers", "50", "-sigmas", "2:2:1", "-lambdas", "1e-4:1e-4:1", "-standardize=no"}
	res, e := runJSON(t, args...)
	if it := res["iterations"].(float64); it <= float64(regress.DefaultFalkonIter) || strings.Contains(e, "warning: falkon") {
		t.Errorf("no -iters: %v iterations, %q; want more than %d and no warning", it, e, regress.DefaultFalkonIter)
	}
	code, _, e := runCmd(append(args, "-iters", "20")...) // relative residual 2.7e-3, above the promise of 20 iterations
	if code != 0 || !strings.Contains(e, "not converged") || !strings.Contains(e, "the selection's") {
		t.Errorf("-iters 20: exit %d, %q; want a warning that the model is not the one scored", code, e)
	}
}

// TestSelectionFacts: -loo-rows 1 is refused naming the flag; a flat
// table draws the flat warning; a selection over one σ names it in its
// progress lines.
func TestSelectionFacts(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	code, _, e := runCmd("fit", "-train", train, "-method", "nystrom", "-centers", "20", "-sigma", "auto", "-lambda", "auto", "-loo-rows", "1")
	if code != 2 || !strings.Contains(e, "-loo-rows 1") {
		t.Errorf("-loo-rows 1: exit %d, %q; want 2 naming -loo-rows", code, e)
	}
	two := write(t, dir, "two.csv", []byte("1,2,3\n2,1,5\n"))
	code, _, e = runCmd("fit", "-train", two, "-method", "cholesky", "-sigma", "auto", "-lambda", "auto")
	if code != 0 || !strings.Contains(e, "every score of the table is the same") {
		t.Errorf("two rows: exit %d, %q; want the flat warning", code, e)
	}
	code, _, e = runCmd("fit", "-train", train, "-method", "nystrom", "-centers", "20", "-sigmas", "2:2:1", "-lambda", "auto")
	if code != 0 || strings.Contains(e, "every σ") || !strings.Contains(e, "σ = 2") {
		t.Errorf("one σ: exit %d, %q; want passes naming σ = 2", code, e)
	}
}

// TestLOOWarnings: rkhs loo warns of a degenerate σ and of a choice at the
// edge of its grid, as fit and classify do.
func TestLOOWarnings(t *testing.T) {
	const train = "../../datasets/regression/housing_scale"
	code, _, e := runCmd("loo", "-train", train, "-sigma", "1e-5", "-lambdas", "1e-3:1:2")
	if code != 0 || !strings.Contains(e, "-sigma 1e-05 is far below the median distance") || !strings.Contains(e, "every score of the table is the same") {
		t.Errorf("σ = 1e-5: exit %d, %q; want the degenerate-σ and flat warnings", code, e)
	}
	code, _, e = runCmd("loo", "-train", train, "-sigma", "1", "-lambdas", "1:100:3")
	if code != 0 || !strings.Contains(e, "the chosen λ = 1 is the smallest of its grid") {
		t.Errorf("edge: exit %d, %q; want the edge warning", code, e)
	}
	_, _, help := runCmd("loo", "-h")
	if i := strings.Index(help, "-standardize"); i < 0 || strings.Contains(help[i:], "-model") {
		t.Errorf("loo -h speaks of -model in -standardize's help:\n%s", help)
	}
}

// TestHugeLabels: labels whose squares overflow are refused as bad input
// (exit 2) by every selection, with the library's reason.
func TestHugeLabels(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 40 {
		x := float64(i) / 40
		fmt.Fprintf(&b, "%g,%g,%g\n", x, math.Cos(7*x), 1e300*math.Sin(3*x))
	}
	p := write(t, dir, "huge.csv", []byte(b.String()))
	for _, args := range [][]string{
		{"fit", "-train", p, "-method", "nystrom", "-centers", "10", "-sigma", "auto", "-lambda", "auto"},
		{"fit", "-train", p, "-method", "cholesky", "-sigma", "auto", "-lambda", "auto"},
		{"loo", "-train", p, "-lambdas", "1e-6:1:3"},
	} {
		code, _, e := runCmd(args...)
		if code != 2 || !strings.Contains(e, "overflow") || !strings.Contains(e, "scale them") {
			t.Errorf("%v: exit %d, %q; want 2 and the squares' overflow", args[:3], code, e)
		}
	}
}

// TestAdviceFollowable: a hint can be followed: -lambda's names -sigma
// auto and -standardize too; -features on a file without a header says
// it needs one.
func TestAdviceFollowable(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	code, _, e := runCmd("fit", "-train", train, "-method", "nystrom", "-centers", "50")
	if code != 2 || !strings.Contains(e, "-sigma auto -lambda auto") || !strings.Contains(e, "-standardize") {
		t.Errorf("no λ: exit %d, %q; want -sigma auto -lambda auto and -standardize named", code, e)
	}
	headless := write(t, dir, "c.csv", []byte("0,1,2\n0,2,3\n0,3,5\n0,4,4\n"))
	code, _, e = runCmd("fit", "-train", headless, "-sigma", "1", "-lambda", "1e-3", "-features", "2")
	if code != 2 || !strings.Contains(e, "header") || strings.Contains(e, "ambiguous") {
		t.Errorf("-features on a file without a header: exit %d, %q", code, e)
	}
}

// TestCentersInCommandTerms: more centres than distinct rows, and a σ grid
// that cannot be built, are refused in the command's terms.
func TestCentersInCommandTerms(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "%d,%d,%d\n", i%5, (i%5)*2, i)
	}
	five := write(t, dir, "five.csv", []byte(b.String()))
	code, _, e := runCmd("fit", "-train", five, "-method", "nystrom", "-centers", "10", "-sigma", "1", "-lambda", "1e-3")
	if code != 2 || !strings.Contains(e, "-centers 10") || !strings.Contains(e, "5 distinct rows") || strings.Contains(e, "K_mm") {
		t.Errorf("10 centres of 5 distinct rows: exit %d, %q", code, e)
	}
	same := write(t, dir, "same.csv", []byte("1,2,3\n1,2,4\n1,2,5\n"))
	code, _, e = runCmd("fit", "-train", same, "-method", "cholesky", "-sigma", "auto", "-lambda", "1e-3", "-standardize=no")
	if code != 2 || !strings.Contains(e, "-sigma auto") || !strings.Contains(e, "-sigma S") {
		t.Errorf("all rows equal: exit %d, %q; want -sigma auto named, and what to give instead", code, e)
	}
}

// TestPlotToStdout: -plot - writes the SVG to standard output.
func TestPlotToStdout(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	code, out, e := runCmd("fit", "-train", train, "-method", "nystrom", "-centers", "20", "-sigma", "auto", "-lambda", "auto", "-plot", "-", "-json")
	if code != 0 || !strings.Contains(out, "<svg") {
		t.Errorf("exit %d (%s): standard output %.100q, want the SVG", code, e, out)
	}
}

// TestSelectionMemoryAdvice: a streamed selection refused for memory is
// told that it holds O(M²) values a σ, and how many centres fit — not to
// run falkon for its O(nM).
func TestSelectionMemoryAdvice(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	old := debug.SetMemoryLimit(4 << 20)
	defer debug.SetMemoryLimit(old)
	code, _, e := runCmd("fit", "-train", train, "-method", "nystrom", "-centers", "300", "-sigma", "auto", "-lambda", "auto")
	if code != 2 || !strings.Contains(e, "O(M²) values a σ") || !strings.Contains(e, "at most about -centers") || strings.Contains(e, "O(nM)") {
		t.Errorf("exit %d, %q; want the selection's memory and the centres that fit", code, e)
	}
}

// TestFarTestRow: a finite test value far beyond the training rows
// (1.5e308) lies infinitely far from every centre: without
// standardization fit and predict succeed and predict b there; standardized,
// the row lies beyond the float64 range in standard deviations, and the
// run is refused before the selection, naming its row.
func TestFarTestRow(t *testing.T) {
	dir := t.TempDir()
	train := housingColumns(t, dir, "train.csv", 140, 260, housingNames(), true)
	test := housingColumns(t, dir, "test.csv", 260, 270, housingNames(), true)
	raw, _ := os.ReadFile(test)
	lines := strings.Split(string(raw), "\n")
	f := strings.Split(lines[3], ",")
	f[0] = "1.5e308"
	lines[3] = strings.Join(f, ",")
	far := write(t, dir, "far.csv", []byte(strings.Join(lines, "\n")))
	model, pfit, ppred := filepath.Join(dir, "m.json"), filepath.Join(dir, "p1"), filepath.Join(dir, "p2")
	res, _ := runJSON(t, "fit", "-train", train, "-test", far, "-method", "nystrom", "-centers", "20", "-sigma", "3", "-lambda", "auto", "-model", model, "-predictions", pfit)
	if code, _, e := runCmd("predict", "-model", model, "-data", far, "-predictions", ppred); code != 0 {
		t.Fatalf("predict: exit %d: %s", code, e)
	}
	a, b := predictions(t, pfit), predictions(t, ppred)
	if len(a) != 10 || a[2] != res["b"].(float64) || !slices.Equal(a, b) {
		t.Errorf("row 3 predicted %v (b = %v), predict gives %v", a[2], res["b"], b[2])
	}
	code, _, e := runCmd("fit", "-train", train, "-test", far, "-method", "nystrom", "-centers", "20", "-sigma", "auto", "-lambda", "auto")
	if code != 2 || strings.Contains(e, "pass ") || !strings.Contains(e, "-test: row 3, feature f1") {
		t.Errorf("standardized: exit %d, %q; want 2 before the selection, naming row 3", code, e)
	}
}

// TestLaplacianMedian: -kernel laplacian -sigma auto centres its grid on
// the median 1-norm distance between the standardized rows.
func TestLaplacianMedian(t *testing.T) {
	dir := t.TempDir()
	train := housingColumns(t, dir, "train.csv", 140, 260, housingNames(), true)
	res, _ := runJSON(t, "fit", "-train", train, "-kernel", "laplacian", "-method", "nystrom", "-centers", "20", "-sigma", "auto", "-lambda", "auto")
	d := readData(t, train)
	st, err := kernels.StandardizationOf(&d.X)
	if err != nil {
		t.Fatal(err)
	}
	xs, _ := st.Apply(&d.X)
	want, err := loo.MedianDistance(xs, loo.L1, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := res["median_distance"].(float64); got != want {
		t.Errorf("median distance %v, want the 1-norm median %v", got, want)
	}
}

// TestConstantFeatureKept: a constant feature is kept at its value under
// -standardize, with a note naming it — by position in a file without a
// header or in LIBSVM, which cannot leave it out, by name with one — in
// fit, classify and loo alike.
func TestConstantFeatureKept(t *testing.T) {
	dir := t.TempDir()
	var b, h strings.Builder
	h.WriteString("a,b,y\n")
	for i := range 30 {
		row := fmt.Sprintf("0,%g,%d\n", float64(i%7)/7, 2*(i%2)-1)
		b.WriteString(row)
		h.WriteString(row)
	}
	headless := write(t, dir, "c.csv", []byte(b.String()))
	headed := write(t, dir, "h.csv", []byte(h.String()))
	for _, c := range []struct {
		path, name string
	}{{headless, "feature 1 "}, {headed, "feature a "}} {
		for _, args := range [][]string{
			{"fit", "-train", c.path, "-method", "nystrom", "-centers", "5", "-sigma", "auto", "-lambda", "auto"},
			{"classify", "-train", c.path, "-method", "rls", "-sigma", "auto"},
			{"loo", "-train", c.path, "-standardize"},
		} {
			code, _, e := runCmd(args...)
			if code != 0 || !strings.Contains(e, "note: "+c.name) || !strings.Contains(e, "constant") {
				t.Errorf("%v: exit %d, %q; want 0 and a note naming %q", args[:3], code, e, c.name)
			}
		}
	}
}

// TestFarFromTraining: a training feature that barely varies draws a
// warning, and test rows that lie far outside the training scale on it
// are counted, with the worst named by its row, in fit and predict, in
// one unit: standard deviations of the training rows, for a σ-grid model
// and for a length-scale model, whose file composes them with σ_j (the
// same z in fit -test, classify -test and predict).
func TestFarFromTraining(t *testing.T) {
	dir := t.TempDir()
	var tr, te strings.Builder
	tr.WriteString("a,b,y,c\n") // c, the sign of y, is the class
	te.WriteString("a,b,y,c\n")
	for i := range 40 {
		b := 5.0
		if i == 0 {
			b = 5.000001
		}
		y := math.Sin(float64(i) / 6)
		fmt.Fprintf(&tr, "%g,%g,%g,%g\n", float64(i)/40, b, y, math.Copysign(1, y))
	}
	for i := range 10 {
		b := 5.0
		if i%2 == 1 {
			b = 6
		}
		fmt.Fprintf(&te, "%g,%g,%g,%g\n", float64(i)/10, b, 0.5, 1.0)
	}
	train, test := write(t, dir, "train.csv", []byte(tr.String())), write(t, dir, "test.csv", []byte(te.String()))
	for _, c := range []struct {
		name string
		args []string
	}{
		{"fit σ grid", []string{"fit", "-method", "nystrom", "-centers", "10", "-sigma", "auto", "-lambda", "auto"}},
		{"fit ard", []string{"fit", "-method", "nystrom", "-centers", "10", "-sigma", "ard", "-lambda", "auto", "-ard-iters", "5"}},
		{"classify ard", []string{"classify", "-method", "nystrom", "-centers", "10", "-sigma", "ard", "-lambda", "auto", "-ard-iters", "5"}},
	} {
		model := filepath.Join(dir, "m.json")
		target := map[string]string{"fit": "y", "classify": "c"}[c.args[0]]
		code, _, e := runCmd(append(c.args, "-train", train, "-test", test, "-target", target, "-features", "a,b", "-model", model)...)
		if code != 0 || !strings.Contains(e, "feature b") || !strings.Contains(e, "5 of the 10 rows of -test") || !strings.Contains(e, "row 2") {
			t.Errorf("%s: exit %d, %q; want warnings about b and 5 rows of -test, the worst row 2", c.name, code, e)
		}
		pcode, _, pe := runCmd("predict", "-model", model, "-data", test, "-predictions", filepath.Join(dir, "p"))
		if pcode != 0 || !strings.Contains(pe, "5 of the 10 rows") {
			t.Errorf("%s: predict: exit %d, %q; want the 5 far rows counted", c.name, pcode, pe)
		}
		if fz, pz := worstOf(e), worstOf(pe); fz == "" || fz != pz {
			t.Errorf("%s: the worst row is %q in %s -test, %q in predict; want one, in standard deviations of the training rows", c.name, fz, c.args[0], pz)
		}
	}
}

// worstOf returns what the outlying-rows warning in the text e says of
// the worst row ("row 2, feature b, z = 9e+06"), "" without one.
func worstOf(e string) string {
	_, after, ok := strings.Cut(e, "standard deviations of the training rows out on some feature (the worst: ")
	before, _, _ := strings.Cut(after, ")")
	if !ok {
		return ""
	}
	return before
}
