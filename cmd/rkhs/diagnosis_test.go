package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"rkhs/dataset"
	"rkhs/internal/cli"
	"rkhs/internal/memlimit"
	"rkhs/linalg"
	"rkhs/model"
	"rkhs/regress"
)

// continuous writes n rows of two features and a label x0·3 + noise
// written with 4 decimals: almost every label is distinct.
func continuous(t *testing.T, dir string, n int) string {
	var b strings.Builder
	for i := range n {
		x0, x1 := float64((i*7919)%1000)/1000, float64((i*104729)%997)/997
		fmt.Fprintf(&b, "%g,%g,%.4f\n", x0, x1, 3*x0+x1/10)
	}
	return write(t, dir, "cont.csv", []byte(b.String()))
}

// TestManyClassesRefused: a label with nearly as many values as rows is a
// regression target: classify refuses it with one line that names rkhs
// fit, whatever the method, before fitting; -max-classes lets it through.
func TestManyClassesRefused(t *testing.T) {
	p := continuous(t, t.TempDir(), 600)
	for _, m := range []string{"rls", "falkon", "knn", "perceptron", "logistic", "svm"} {
		args := []string{"classify", "-train", p, "-method", m}
		if m != "rls" && m != "knn" && m != "perceptron" {
			args = append(args, "-lambda", "1e-3")
		}
		if m == "falkon" {
			args = append(args, "-centers", "20")
		}
		code, _, e := runCmd(args...)
		if code != 2 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "distinct labels in 600 rows") || !strings.Contains(e, "rkhs fit") {
			t.Errorf("%s: exit %d, %q; want 2 and a pointer to rkhs fit", m, code, e)
		}
	}
	if code, out, e := runCmd("classify", "-train", p, "-method", "knn", "-max-classes", "1000", "-json"); code != 0 || !strings.Contains(out, `"classes":[`) {
		t.Errorf("-max-classes 1000: exit %d, %q", code, e)
	}
	if code, _, e := runCmd("classify", "-train", p, "-method", "knn", "-max-classes", "-1"); code != 2 || !strings.Contains(e, "-max-classes") {
		t.Errorf("-max-classes -1: exit %d, %q", code, e)
	}
}

// TestClassesTooLarge: a classification too large for memory because of
// its classes (the n×classes one-vs-all targets) exits 2 with one line
// that blames the classes, for rls and falkon; nothing is allocated first
// (the library checks, see classify's TestTargetsTooLarge).
func TestClassesTooLarge(t *testing.T) {
	p := continuous(t, t.TempDir(), 600)
	old := debug.SetMemoryLimit(2 << 20) // the 600×600 kernel matrix fits, 600×598 targets and their copy do not
	defer debug.SetMemoryLimit(old)
	for _, m := range []string{"rls", "falkon"} {
		args := []string{"classify", "-train", p, "-method", m, "-lambda", "1e-3", "-max-classes", "1000"}
		if m == "falkon" {
			args = append(args, "-centers", "10")
		}
		code, _, e := runCmd(args...)
		if code != 2 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "with 600 classes needs") || !strings.Contains(e, "fewer classes fit") || strings.Contains(e, "run -method falkon") {
			t.Errorf("%s: exit %d, %q; want one line about the classes", m, code, e)
		}
	}
}

// TestMemoryAdvice: the advice of a refusal fits the case: exact fits are
// pointed to falkon; falkon and nystrom hear the largest M that fits; loo,
// which has no -method, is not told to use one.
func TestMemoryAdvice(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 4000 {
		fmt.Fprintf(&b, "%d,%d,%d\n", i%101, i%103, i%7)
	}
	p := write(t, dir, "d.csv", []byte(b.String()))
	old := debug.SetMemoryLimit(100 << 20)
	defer debug.SetMemoryLimit(old)
	fits := regress.FalkonMaxCenters(4000, 2, 1, func() uint64 { l, _ := memlimit.Limit(); return l }())
	if fits < 100 || regress.FalkonMemory(4000, fits, 2, 1) > 100<<20 || regress.FalkonMemory(4000, fits+1, 2, 1) <= 100<<20 {
		t.Fatalf("largestCenters = %d under 100 MiB", fits)
	}
	for _, c := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"fit", "-method", "cholesky", "-lambda", "1"}, "-method falkon -centers M", ""},
		{[]string{"fit", "-method", "falkon", "-lambda", "1", "-centers", "4000"}, fmt.Sprintf("at most -centers %d fits", fits), "instead"},
		{[]string{"fit", "-method", "nystrom", "-lambda", "1", "-centers", "4000"}, fmt.Sprintf("-method falkon, at most -centers %d", fits), ""},
		{[]string{"loo"}, "rows at most", "instead"},
	} {
		args := append([]string{c.args[0], "-train", p}, c.args[1:]...)
		code, _, e := runCmd(args...)
		if code != 2 || strings.Count(e, "\n") != 1 || !strings.Contains(e, c.want) || (c.not != "" && strings.Contains(e, c.not)) {
			t.Errorf("%v: exit %d, %q; want %q", c.args, code, e, c.want)
		}
	}
}

// TestValidationHeldOut: with -val, the training figures are those of the
// rows fitted, not of the held-out ones too: train_mse (fit) and the
// training accuracy (classify) equal what the saved model gives on the
// fitted part of the split, and the text says the validation size and
// its final error.
func TestValidationHeldOut(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 400 {
		x := float64((i*37)%400) / 400
		fmt.Fprintf(&b, "%g,%g,%d\n", x, float64(i%13)/13, map[bool]int{true: 1}[x > 0.5])
	}
	p := write(t, dir, "d.csv", []byte(b.String()))
	full, _, err := (&dataFlags{format: "auto", header: cli.Header{}}).readData(p)
	if err != nil {
		t.Fatal(err)
	}
	fitPart, valPart := full.Split(1-0.25, 1)
	modelPath := filepath.Join(dir, "m.json")
	for _, cmd := range []string{"fit", "classify"} {
		code, out, e := runCmd(cmd, "-train", p, "-method", "falkon", "-centers", "30", "-lambda", "1e-4", "-val", "0.25", "-json", "-model", modelPath)
		if code != 0 {
			t.Fatalf("%s: exit %d, %s", cmd, code, e)
		}
		var res map[string]any
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		raw, _ := os.ReadFile(modelPath)
		m, err := model.Load(raw)
		if err != nil {
			t.Fatal(err)
		}
		score := func(d *dataset.Data) float64 {
			pr, err := m.Predict(&d.X)
			if err != nil {
				t.Fatal(err)
			}
			if cmd == "fit" {
				e, _ := cli.MSE(d.Y, pr)
				return e
			}
			right := 0
			for i, v := range d.Y {
				if pr.At(i, 0) == v {
					right++
				}
			}
			return float64(right) / float64(len(d.Y))
		}
		trainKey, valKey := "train_mse", "val_mse"
		if cmd == "classify" {
			trainKey, valKey = "train_accuracy", "val_accuracy"
		}
		if res["n_train"] != float64(fitPart.X.Rows) || res["n_val"] != float64(valPart.X.Rows) ||
			res[trainKey] != score(fitPart) || res[valKey] != score(valPart) {
			t.Errorf("%s: n_train %v n_val %v %s %v %s %v; want %d, %d, %v, %v", cmd, res["n_train"], res["n_val"], trainKey, res[trainKey], valKey, res[valKey],
				fitPart.X.Rows, valPart.X.Rows, score(fitPart), score(valPart))
		}
		_, text, _ := runCmd(cmd, "-train", p, "-method", "falkon", "-centers", "30", "-lambda", "1e-4", "-val", "0.25")
		if !strings.Contains(text, fmt.Sprintf("n_val %d", valPart.X.Rows)) || !strings.Contains(text, "validation") {
			t.Errorf("%s: text output lacks the validation size and error:\n%s", cmd, text)
		}
	}
}

// TestDamagedCompressed: a gzip or bzip2 file that is truncated, has a
// bad checksum or trailing padding is bad input (exit 2) named with its
// file and what is wrong, not a failed computation (1).
func TestDamagedCompressed(t *testing.T) {
	dir := t.TempDir()
	plain := []byte(strings.Repeat("1,2,3\n4,5,9\n2,2,4\n", 300))
	gz := gzipped(t, plain)
	bz, err := os.ReadFile(filepath.Join("testdata", "sum.csv.bz2"))
	if err != nil {
		t.Fatal(err)
	}
	flip := func(b []byte, i int) []byte { c := append([]byte(nil), b...); c[i] ^= 0xff; return c }
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"trunc.csv.gz", gz[:len(gz)/2], "damaged gzip data"},
		{"crc.csv.gz", flip(gz, len(gz)-6), "damaged gzip data"},
		{"pad.csv.gz", append(append([]byte(nil), gz...), make([]byte, 64)...), "damaged gzip data"},
		{"trunc.csv.bz2", bz[:len(bz)-20], "damaged bzip2 data"},
		{"crc.csv.bz2", flip(bz, len(bz)-3), "damaged bzip2 data"},
		{"pad.csv.bz2", append(append([]byte(nil), bz...), make([]byte, 64)...), "damaged bzip2 data"},
	} {
		p := write(t, dir, c.name, c.data)
		code, _, e := runCmd("fit", "-train", p, "-kernel", "linear", "-lambda", "1")
		if code != 2 || !strings.Contains(e, p) || !strings.Contains(e, c.want) {
			t.Errorf("%s: exit %d, %q; want 2 and %q", c.name, code, e, c.want)
		}
	}
	if code, _, e := runCmd("fit", "-train", filepath.Join("testdata", "sum.csv.bz2"), "-kernel", "linear", "-lambda", "1"); code != 0 {
		t.Errorf("intact bzip2: exit %d, %q", code, e)
	}
}

// TestCSVDialects: files written in another CSV dialect are named as such,
// with the flag that reads them; -comma reads another separator.
func TestCSVDialects(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name, data string
		args       []string
		code       int
		want, not  string
	}{
		{"semi.csv", "a;b;y\n1;2;3\n4;5;6\n2;2;4\n", nil, 2, "-comma ';'", ""},
		{"semi2.csv", "a;b;y\n1;2;3\n4;5;6\n2;2;4\n", []string{"-comma", ";"}, 0, "", ""},
		{"tab.csv", "a\tb\ty\n1\t2\t3\n4\t5\t6\n", nil, 2, `-format tsv`, ""},
		{"tab2.csv", "a\tb\ty\n1\t2\t3\n4\t5\t6\n2\t2\t4\n", []string{"-comma", `\t`}, 0, "", ""},
		{"trail.csv", "a,b,y,\n1,2,3,\n4,5,6,\n", nil, 2, `trailing ","`, "-drop-missing"},
		{"numhdr.csv", "2020,2021,y\n1,2,3\n4,5,6\n2,2,4\n", nil, 2, "-header yes", ""},
		{"numhdr2.csv", "2020,2021,y\n1,2,3\n4,5,6\n2,2,4\n", []string{"-header", "yes"}, 0, "", ""},
		{"quote.csv", "a,b,y\n1,2,3\n\"4,5,6\n7,8,9\n1,2,3\n", nil, 2, "line 3: a quoted field opens", ""},
		{"none.csv", "a,b,y\n1,2,3\n4,None,6\n7,#N/A,9\n2,2,4\n", nil, 2, `"None" is a missing value`, ""},
		{"cr.csv", "a,b,y\r1,2,3\r4,5,6\r", nil, 2, "carriage return", ""},
	} {
		p := write(t, dir, c.name, []byte(c.data))
		args := append([]string{"fit", "-train", p, "-kernel", "linear", "-lambda", "1"}, c.args...)
		code, _, e := runCmd(args...)
		if code != c.code || !strings.Contains(e, c.want) || (c.not != "" && strings.Contains(e, c.not)) {
			t.Errorf("%s %v: exit %d, %q; want %d and %q", c.name, c.args, code, e, c.code, c.want)
		}
	}
	p := write(t, dir, "x.svm", []byte("1 1:2\n"))
	for _, bad := range [][]string{{"-comma", ";;"}, {"-comma", `"`}, {"-comma", ";", "-format", "libsvm"}} {
		args := append([]string{"fit", "-train", p, "-kernel", "linear", "-lambda", "1"}, bad...)
		if code, _, e := runCmd(args...); code != 2 || !strings.Contains(e, "-comma") {
			t.Errorf("%v: exit %d, %q; want 2 naming -comma", bad, code, e)
		}
	}
}

// TestMessagesInFlags: errors speak the command's flags, said once; -val
// errors count the rows left to fit; unlabelled LIBSVM is told it needs a
// label.
func TestMessagesInFlags(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	heart, _ := splitSet(t, dir, "heart", "", 200)
	for _, c := range []struct {
		args      []string
		want, not string
	}{
		{[]string{"classify", "-train", heart, "-method", "falkon", "-centers", "5000", "-lambda", "1e-3"}, "-centers 5000", "invalid input: Falkon.Fit: Centers: regress"},
		{[]string{"classify", "-train", heart, "-method", "falkon", "-centers", "50", "-lambda", "1e-3", "-intercept", "penalized"}, "-intercept penalized", "NoIntercept"},
		{[]string{"fit", "-train", train, "-method", "falkon", "-centers", "50", "-lambda", "1e-3", "-intercept", "penalized"}, "-intercept penalized", "NoIntercept"},
		{[]string{"fit", "-train", train, "-method", "falkon", "-centers", "50", "-lambda", "1e-3", "-val", "0.99"}, "-val 0.99 leaves 3 of the 338 rows of -train to fit", ""},
	} {
		code, _, e := runCmd(c.args...)
		if code != 2 || !strings.Contains(e, c.want) || (c.not != "" && strings.Contains(e, c.not)) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args[1:], code, e, c.want)
		}
	}
	model := filepath.Join(dir, "m.json")
	if code, _, e := runCmd("fit", "-train", train, "-kernel", "linear", "-lambda", "1", "-model", model); code != 0 {
		t.Fatal(e)
	}
	ul := write(t, dir, "ul.svm", []byte("1:0.5 2:1\n"))
	if code, _, e := runCmd("predict", "-model", model, "-data", ul); code != 2 || !strings.Contains(e, "LIBSVM line starts with its label") || strings.Contains(e, "-format csv") {
		t.Errorf("unlabelled LIBSVM: exit %d, %q", code, e)
	}
}

// TestCosmetics: the help of -iters states each default once; counts of
// one are singular; an output that would overwrite another output or an
// input is refused before anything runs.
func TestCosmetics(t *testing.T) {
	dir := t.TempDir()
	_, _, help := runCmd("fit", "-h")
	if strings.Contains(help, "(default 20) (default") {
		t.Errorf("-iters help: %q", help)
	}
	train, test := splitHousing(t, dir)
	if code, out, _ := runCmd("fit", "-train", train, "-method", "cg", "-iters", "1"); code != 0 || !strings.Contains(out, " 1 iteration\n") {
		t.Errorf("cg -iters 1: %q", out)
	}
	one := write(t, dir, "one.csv", []byte("1,2\n2,3\n3,5\n"))
	two := write(t, dir, "two.csv", []byte("1,1,2\n2,2,3\n"))
	if code, _, e := runCmd("fit", "-train", one, "-test", two, "-lambda", "1"); code != 2 || !strings.Contains(e, "has 1 feature:") {
		t.Errorf("widths: %q", e)
	}
	same := filepath.Join(dir, "same")
	for _, args := range [][]string{
		{"fit", "-train", train, "-test", test, "-lambda", "1", "-model", same, "-predictions", same},
		{"classify", "-train", train, "-test", test, "-method", "knn", "-model", same, "-predictions", same},
		{"fit", "-train", train, "-test", test, "-lambda", "1", "-predictions", test},
		{"fit", "-train", train, "-lambda", "1", "-model", train},
		{"predict", "-model", filepath.Join(dir, "m.json"), "-data", test, "-predictions", test},
	} {
		if code, _, e := runCmd(args...); code != 2 || !strings.Contains(e, "same file") {
			t.Errorf("%v: exit %d, %q; want a refusal", args, code, e)
		}
	}
	if _, err := os.Stat(same); err == nil {
		t.Errorf("%s was written", same)
	}
}

// TestAnnounceFalkon: a Falkon run with a large M is announced with its
// time and memory as an exact one is; a small one is not.
func TestAnnounceFalkon(t *testing.T) {
	oldRate := productRate
	defer func() { productRate = oldRate }()
	productRate = func() float64 { return 1e9 }
	var b strings.Builder
	announceCost(&b, "fit -method falkon", 100000, cost{Cost: regress.FalkonCost(100000, 10, 8000, 1, 20)})() // 1 GiB: within a 32-bit or wasm address space too
	if !strings.HasPrefix(b.String(), "rkhs fit -method falkon on 100000 rows: about ") || !strings.Contains(b.String(), "of memory") {
		t.Errorf("announcement: %q", b.String())
	}
	b.Reset()
	announceCost(&b, "fit -method falkon", 100000, cost{Cost: regress.FalkonCost(100000, 10, 100, 1, 20)})()
	if b.Len() != 0 {
		t.Errorf("a short falkon run announced: %q", b.String())
	}
	_ = linalg.FormatBytes
}
