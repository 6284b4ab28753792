package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeRows writes a CSV file of n rows with the header "a,b,c,y" (none
// when header is empty): y = sin a + b²/2 + c/10 + noise, times scale, or
// with classes a label of three classes.
func writeRows(t *testing.T, path, header string, n int, seed uint64, scale float64) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 2))
	var sb strings.Builder
	if header != "" {
		sb.WriteString(header + "\n")
	}
	for range n {
		a, b, c := 4*r.Float64()-2, 4*r.Float64()-2, 10*r.Float64()
		y := (math.Sin(a) + b*b/2 + c/10 + 0.1*r.NormFloat64()) * scale
		sb.WriteString(f(a) + "," + f(b) + "," + f(c) + "," + f(y) + "\n")
	}
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// refused runs rkhs-beam and fails t unless it exits with status code, in
// one line that contains every part of want.
func refused(t *testing.T, dir string, code int, want []string, args ...string) string {
	t.Helper()
	got, out := rkhsBeam(t, dir, args...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	ok := got == code && len(lines) == 1
	for _, w := range want {
		ok = ok && strings.Contains(out, w)
	}
	if !ok {
		t.Errorf("%s: exit %d:\n%s\nwant exit %d, one line with %q", strings.Join(args, " "), got, out, code, want)
	}
	return out
}

// TestOutputIsNeverAnInput: an output naming an input file, or a file an
// -input glob matches, is refused before any job, whichever verb and
// output flag, and the input is left as it was.
func TestOutputIsNeverAnInput(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, filepath.Join(dir, "a.csv"), "a,b,c,y", 40, 1, 1)
	writeRows(t, filepath.Join(dir, "b.csv"), "a,b,c,y", 40, 2, 1)
	before, _ := os.ReadFile(filepath.Join(dir, "b.csv"))
	sel := []string{"select", "-input", "a.csv,b.csv", "-format", "csv", "-centers", "10", "-lambdas", "1e-6:1e-1:6"}
	fit := []string{"fit", "-input", "*.csv", "-format", "csv", "-sigma", "1", "-lambda", "1e-3", "-centers", "10"}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"select -model", append(sel, "-model", "b.csv"), "-model b.csv and -input b.csv are the same file"},
		{"fit -model a glob matches", append(fit, "-model", "b.csv"), "-model b.csv and the file b.csv that -input *.csv matches are the same file"},
		{"fit -stats", append(fit, "-model", "m.json", "-stats", "./b.csv"), "-stats ./b.csv and the file b.csv that -input *.csv matches"},
		{"fit -dead-letter", append(fit, "-model", "m.json", "-dead-letter", "b.csv"), "-dead-letter b.csv and the file b.csv"},
		{"predict -dead-letter", []string{"predict", "-input", "a.csv", "-format", "csv", "-model", "b.csv", "-output", ".", "-dead-letter", "b.csv"}, "-dead-letter b.csv and -model b.csv are the same file"},
	} {
		refused(t, dir, 2, []string{tc.want}, tc.args...)
		if after, _ := os.ReadFile(filepath.Join(dir, "b.csv")); string(after) != string(before) {
			t.Fatalf("%s: the input file was overwritten", tc.name)
		}
	}
	// A prediction file that is an input file: b.csv.pred predicted from
	// b.csv while being read as data.
	writeRows(t, filepath.Join(dir, "b.csv.pred"), "", 5, 3, 1)
	refused(t, dir, 2, []string{"-output", "b.csv.pred", "are the same file"},
		"predict", "-input", "b.csv,b.csv.pred", "-format", "csv", "-model", "m.json", "-output", ".")
}

// TestGridsAreBounded: a grid's COUNT is bounded and a grid that would
// drop its MAX is refused, as rkhs refuses them, before any job.
func TestGridsAreBounded(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, filepath.Join(dir, "s.csv"), "a,b,c,y", 30, 1, 1)
	sel := []string{"select", "-input", "s.csv", "-format", "csv", "-centers", "5", "-model", "m.json"}
	refused(t, dir, 2, []string{`-lambdas "1e-10:1:9000000000000000000": COUNT`}, append(sel, "-lambdas", "1e-10:1:9000000000000000000")...)
	refused(t, dir, 2, []string{`-sigmas "1:2:1": one value from 1 to 2`}, append(sel, "-lambdas", "1e-3:1:3", "-sigmas", "1:2:1")...)
}

// TestStandardizeRule: -standardize yes reads as the usage writes it, and
// auto is on whenever σ is chosen from the data — with -sigmas too, as in
// rkhs; -standardize=no turns it off.
func TestStandardizeRule(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, filepath.Join(dir, "s.csv"), "a,b,c,y", 40, 1, 1)
	sel := []string{"select", "-input", "s.csv", "-format", "csv", "-centers", "8", "-lambdas", "1e-6:1e-1:6", "-sigmas", "0.5:4:4", "-json"}
	for _, tc := range []struct {
		extra []string
		want  bool
	}{
		{nil, true},
		{[]string{"-standardize", "yes"}, true},
		{[]string{"-standardize", "no"}, false},
		{[]string{"-standardize=no"}, false},
	} {
		model := filepath.Join(dir, "m.json")
		args := append(append(append([]string{}, sel...), tc.extra...), "-model", model)
		code, out := rkhsBeam(t, dir, args...)
		b, _ := os.ReadFile(model)
		os.Remove(model)
		if code != 0 {
			t.Errorf("%v: exit %d:\n%s", tc.extra, code, out)
			continue
		}
		var res struct{ Standardized bool }
		json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &res)
		if got := strings.Contains(string(b), `"standardization"`); got != tc.want || res.Standardized != tc.want {
			t.Errorf("%v: the model standardizes %v, -json says %v; want %v", tc.extra, got, res.Standardized, tc.want)
		}
	}
}

// TestDataRefusals: data that a selection cannot use is refused in one
// line that names the cause: a continuous label given as classes, labels
// whose squares overflow.
func TestDataRefusals(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, filepath.Join(dir, "s.csv"), "a,b,c,y", 80, 1, 1)
	writeRows(t, filepath.Join(dir, "huge.csv"), "a,b,c,y", 80, 1, 1e300)
	sel := []string{"select", "-format", "csv", "-lambdas", "1e-6:1e-1:6", "-model", "m.json"}
	refused(t, dir, 2, []string{"80 distinct labels in 80 rows, more than 20", "continuous target", "-max-classes"},
		append(sel, "-input", "s.csv", "-centers", "10", "-sigmas", "1:1:1", "-classes")...)
	refused(t, dir, 2, []string{"labels: values up to ", "e+300 in magnitude", "scale them"},
		append(sel, "-input", "huge.csv", "-centers", "10", "-sigmas", "1:1:1")...)
	if _, err := os.Stat(filepath.Join(dir, "m.json")); err == nil {
		t.Error("a refused selection wrote its model")
	}
	// -max-classes raises the limit, as in rkhs classify; chosen by GCV,
	// the score is no error rate, so -json has no loo_error (as rkhs).
	code, out, errOut := rkhsBeamStreams(t, dir, append(sel, "-input", "s.csv", "-centers", "10", "-sigmas", "1:1:1", "-classes", "-max-classes", "80", "-criterion", "gcv", "-json")...)
	var res map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("-max-classes 80: exit %d:\n%s%s", code, out, errOut)
	}
	if v, ok := res["loo_error"]; ok {
		t.Errorf("-criterion gcv -classes: loo_error %v, but the score is GCV's", v)
	}
}

// TestHeadersAndColumns: a CSV header is found as rkhs finds it (-header
// auto: a first line with no number), -target and -features name columns
// as in rkhs, and the LIBSVM width is -width; the old -features D is
// refused with the new spelling.
func TestHeadersAndColumns(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, filepath.Join(dir, "s.csv"), "a,b,c,y", 40, 1, 1)
	fit := []string{"fit", "-format", "csv", "-sigma", "1", "-lambda", "1e-3", "-centers", "8", "-model", "m.json"}
	if code, out := rkhsBeam(t, dir, append(fit, "-input", "s.csv")...); code != 0 || !strings.Contains(out, "40 rows read") {
		t.Errorf("a file with a header: exit %d:\n%s", code, out)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "m.json"))
	var m struct {
		FeatureNames []string `json:"feature_names"`
		TargetName   string   `json:"target_name"`
	}
	if json.Unmarshal(b, &m); !slices.Equal(m.FeatureNames, []string{"a", "b", "c"}) || m.TargetName != "y" {
		t.Errorf("the model names the columns %v and %q, want a,b,c and y", m.FeatureNames, m.TargetName)
	}
	if code, out := rkhsBeam(t, dir, append(fit, "-input", "s.csv", "-target", "a", "-features", "y,c")...); code != 0 || !strings.Contains(out, "40 rows read") {
		t.Errorf("-target a -features y,c: exit %d:\n%s", code, out)
	}
	b, _ = os.ReadFile(filepath.Join(dir, "m.json"))
	if json.Unmarshal(b, &m); !slices.Equal(m.FeatureNames, []string{"y", "c"}) || m.TargetName != "a" {
		t.Errorf("the model names the columns %v and %q, want y,c and a", m.FeatureNames, m.TargetName)
	}
	// -header alone is yes, as the boolean -header was; -header no reads
	// the header as data, and the error does not blame the guess.
	if code, out := rkhsBeam(t, dir, append(fit, "-input", "s.csv", "-header")...); code != 0 || !strings.Contains(out, "40 rows read") {
		t.Errorf("-header alone: exit %d:\n%s", code, out)
	}
	if out := refused(t, dir, 1, []string{`s.csv:1: field 1: "a" is not a decimal number`}, append(fit, "-input", "s.csv", "-header", "no")...); strings.Contains(out, "-header yes") {
		t.Errorf("-header no: the error suggests -header yes: %s", out)
	}
	// A header with a number in it is read as data; the error says so.
	os.WriteFile(filepath.Join(dir, "num.csv"), []byte("x1,2,x3,y\n1,2,3,4\n2,3,4,5\n"), 0o644)
	refused(t, dir, 1, []string{"num.csv:1", "-header yes"}, append(fit, "-input", "num.csv", "-centers", "1")...)
	refused(t, dir, 2, []string{"-target and -features: predict reads"}, "predict", "-input", "s.csv", "-format", "csv", "-model", "m.json", "-output", ".", "-features", "a,b")
	os.WriteFile(filepath.Join(dir, "s.svm"), []byte("1 1:0.5 2:1\n2 1:1 3:2\n3 2:1 3:1\n"), 0o644)
	libsvm := []string{"fit", "-input", "s.svm", "-format", "libsvm", "-sigma", "1", "-lambda", "1e-3", "-centers", "2", "-model", "m.json"}
	refused(t, dir, 2, []string{"-features 3", "-width 3"}, append(libsvm, "-features", "3")...)
	refused(t, dir, 2, []string{"-features 3", "names CSV columns", "-width 3"}, append(fit, "-input", "s.csv", "-features", "3")...)
	refused(t, dir, 2, []string{"-width 3", "LIBSVM"}, append(fit, "-input", "s.csv", "-width", "3")...)
	if code, out := rkhsBeam(t, dir, append(libsvm, "-width", "3")...); code != 0 {
		t.Errorf("-width 3: exit %d:\n%s", code, out)
	}
}

// TestOutputsThroughLinksAndStdout: an output that is a symbolic link is
// written through it, and "-" is standard output.
func TestOutputsThroughLinksAndStdout(t *testing.T) {
	dir := t.TempDir()
	writeRows(t, filepath.Join(dir, "s.csv"), "a,b,c,y", 30, 1, 1)
	os.WriteFile(filepath.Join(dir, "real.json"), []byte("old"), 0o644)
	if err := os.Symlink("real.json", filepath.Join(dir, "link.json")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	fit := []string{"fit", "-input", "s.csv", "-format", "csv", "-sigma", "1", "-lambda", "1e-3", "-centers", "5"}
	if code, out := rkhsBeam(t, dir, append(fit, "-model", "link.json")...); code != 0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if st, err := os.Lstat(filepath.Join(dir, "link.json")); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Errorf("link.json is no longer a link (%v)", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "real.json")); !strings.Contains(string(b), "rkhs.regress.Model") {
		t.Errorf("the link's target holds %.40q", b)
	}
	code, out := rkhsBeam(t, dir, append(fit, "-model", "-")...)
	if _, err := os.Stat(filepath.Join(dir, "-")); code != 0 || !strings.Contains(out, `"rkhs.regress.Model"`) || err == nil {
		t.Errorf("-model -: exit %d, a file named - %v:\n%.300s", code, err == nil, out)
	}
	// The model written to standard output is a line of its own, before
	// the table, in fit and select alike.
	for _, args := range [][]string{fit, {"select", "-input", "s.csv", "-format", "csv", "-sigmas", "1:2:2", "-lambdas", "1e-3:1e-2:2", "-centers", "5"}} {
		code, stdout, _ := rkhsBeamStreams(t, dir, append(args, "-model", "-")...)
		first, _, _ := strings.Cut(stdout, "\n")
		if code != 0 || !json.Valid([]byte(first)) {
			t.Errorf("%s -model -: exit %d, the first line of standard output is not the model's JSON:\n%.300s", args[0], code, stdout)
		}
	}
}

// TestPredictOffConstant: rkhs-beam predict warns, as rkhs predict does
// (report.OffConstantLine), when rows of an input file differ from a
// feature constant in the training rows: how many, and the worst by its
// row in the file, across the blocks the worker reads (the file is longer
// than one); a file whose rows keep the value draws no warning.
func TestPredictOffConstant(t *testing.T) {
	dir := t.TempDir()
	var train, test, same strings.Builder
	train.WriteString("a,b,c,y\n")
	test.WriteString("a,b,c,y\n")
	same.WriteString("a,b,c,y\n")
	r := rand.New(rand.NewPCG(1, 1))
	for range 60 {
		a, b := r.NormFloat64(), r.NormFloat64()
		train.WriteString(f(a) + "," + f(b) + ",5," + f(a+b*b) + "\n")
	}
	const n = 5000
	for i := range n {
		c := "5"
		switch i {
		case 3:
			c = "6"
		case 4321:
			c = "9"
		}
		test.WriteString("0.5,-0.5," + c + ",0\n")
		same.WriteString("0.5,-0.5,5,0\n")
	}
	os.WriteFile(filepath.Join(dir, "train.csv"), []byte(train.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "test.csv"), []byte(test.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "same.csv"), []byte(same.String()), 0o644)
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	if code, _, said := rkhsBeamStreams(t, dir, "select", "-input", "train.csv", "-format", "csv", "-centers", "20", "-model", "m.json"); code != 0 {
		t.Fatalf("rkhs-beam select: exit %d: %s", code, said)
	}
	code, _, said := rkhsBeamStreams(t, dir, "predict", "-input", "test.csv,same.csv", "-format", "csv", "-model", "m.json", "-output", "out")
	want := "2 of the 5000 rows of test.csv differ from the value feature c held on every training row (the worst: row 4322, 9 against 5)"
	if code != 0 || !strings.Contains(said, "rkhs-beam predict: warning: "+want) || strings.Count(said, "warning") != 1 {
		t.Errorf("rkhs-beam predict: exit %d:\n%s\nwant exit 0 and one warning: %s", code, said, want)
	}
}

// TestPredictOutlyingEqualsRkhs: test rows far outside the training scale
// of a feature that barely varies are counted, with the worst named by
// its row, feature and z, in one unit, standard deviations of the
// training rows, by rkhs fit -test, rkhs predict and rkhs-beam predict,
// for a σ-grid model and for a length-scale model (whose file composes
// the standard deviations with σ_j). rkhs is built from its source (the
// test is skipped in -short mode).
func TestPredictOutlyingEqualsRkhs(t *testing.T) {
	rkhsCommand(t) // skips in -short mode, or without the go command
	dir := t.TempDir()
	var train, test strings.Builder
	train.WriteString("a,b,y\n")
	test.WriteString("a,b,y\n")
	for i := range 40 {
		b := "5"
		if i == 0 {
			b = "5.000001"
		}
		train.WriteString(f(float64(i)/40) + "," + b + "," + f(math.Sin(float64(i)/6)) + "\n")
	}
	for i := range 10 {
		b := "5"
		if i%2 == 1 {
			b = "6"
		}
		test.WriteString(f(float64(i)/10) + "," + b + ",0.5\n")
	}
	os.WriteFile(filepath.Join(dir, "train.csv"), []byte(train.String()), 0o644)
	os.WriteFile(filepath.Join(dir, "test.csv"), []byte(test.String()), 0o644)
	os.Mkdir(filepath.Join(dir, "out"), 0o755)
	for _, sigma := range []string{"auto", "ard"} {
		fit := []string{"fit", "-train", "train.csv", "-test", "test.csv", "-method", "nystrom", "-centers", "10", "-sigma", sigma, "-lambda", "auto", "-model", "m.json"}
		if sigma == "ard" {
			fit = append(fit, "-ard-iters", "5")
		}
		r, b := runBoth(t, dir, fit, []string{"predict", "-input", "test.csv", "-format", "csv", "-model", "m.json", "-output", "out"})
		fitWorst, beamWorst := worstOf(r.stderr), worstOf(b.stderr)
		cmd := exec.Command(rkhsCommand(t), "predict", "-model", "m.json", "-data", "test.csv", "-predictions", "p.txt")
		cmd.Dir = dir
		pe, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("rkhs predict: %v: %s", err, pe)
		}
		predictWorst := worstOf(string(pe))
		if fitWorst == "" || fitWorst != predictWorst || fitWorst != beamWorst || !strings.Contains(b.stderr, "5 of the 10 rows of test.csv lie more than 1000") {
			t.Errorf("-sigma %s: the worst row is %q in rkhs fit -test, %q in rkhs predict, %q in rkhs-beam predict; want one, in standard deviations of the training rows:\n%s", sigma, fitWorst, predictWorst, beamWorst, b.stderr)
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
