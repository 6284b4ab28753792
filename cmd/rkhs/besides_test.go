package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rkhs/datasets"
)

// housingColumns writes rows [lo, hi) of the bundled housing data to
// dir/name as CSV with the columns cols, in that order: "f1" … "f13" the
// features, "y" the label, "note" a text column that no reader may parse;
// header false leaves the header line out.
func housingColumns(t *testing.T, dir, name string, lo, hi int, cols []string, header bool) string {
	t.Helper()
	d, err := datasets.Load("housing")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if header {
		b.WriteString(strings.Join(cols, ",") + "\n")
	}
	for i := lo; i < hi; i++ {
		f := make([]string, len(cols))
		for k, c := range cols {
			switch {
			case c == "y":
				f[k] = strconv.FormatFloat(d.Y[i], 'g', -1, 64)
			case c == "note":
				f[k] = "text"
			default:
				j, _ := strconv.Atoi(strings.TrimPrefix(c, "f"))
				f[k] = strconv.FormatFloat(d.X.At(i, j-1), 'g', -1, 64)
			}
		}
		b.WriteString(strings.Join(f, ",") + "\n")
	}
	return write(t, dir, name, []byte(b.String()))
}

// substitute returns args with every argument that is a key of by
// replaced by its value.
func substitute(args []string, by map[string]string) []string {
	a := slices.Clone(args)
	for i, s := range a {
		if v, ok := by[s]; ok {
			a[i] = v
		}
	}
	return a
}

// housingNames are the columns of the housing data in file order.
func housingNames() []string {
	cols := make([]string, 0, 14)
	for j := 1; j <= 13; j++ {
		cols = append(cols, "f"+strconv.Itoa(j))
	}
	return append(cols, "y")
}

// besideLayout is one way a file read beside the training file may lay
// out its columns, and what the command must do with it.
type besideLayout struct {
	name   string
	cols   func() []string
	header bool
	// same: the predictions are those of the training layout, bit for
	// bit; otherwise the run is refused (exit 2) with a message holding
	// want.
	same bool
	want string
}

// besideLayouts are the layouts every file read beside a training file is
// tested with.
var besideLayouts = []besideLayout{
	{name: "header permuted", header: true, same: true, cols: func() []string {
		c := housingNames()
		slices.Reverse(c)
		return c
	}},
	{name: "extra column", header: true, same: true, cols: func() []string {
		c := housingNames()
		return append(c[:5:5], append([]string{"note"}, c[5:]...)...)
	}},
	{name: "missing column", header: true, want: `"f5"`, cols: func() []string {
		return slices.DeleteFunc(housingNames(), func(s string) bool { return s == "f5" })
	}},
	{name: "no header", header: false, same: true, cols: housingNames},
	{name: "another feature count", header: false, want: "12", cols: func() []string {
		return slices.DeleteFunc(housingNames(), func(s string) bool { return s == "f5" })
	}},
}

// besideReaders are the files a verb reads beside the training file, each
// with the command line that reads it (TRAIN, FILE and OUT stand for the
// training file, the file laid out otherwise and the predictions) and,
// for predict, the command that saves the model it reads (MODEL).
// TestEveryFlagHasARow requires a row here for every flag of kind
// besideFlag, by its "verb -flag".
var besideReaders = []struct {
	flag, name  string
	args, model []string
}{
	{"fit -test", "", []string{"fit", "-train", "TRAIN", "-test", "FILE", "-method", "cholesky", "-sigma", "3", "-lambda", "1e-3", "-predictions", "OUT"}, nil},
	{"fit -test", "a selection", []string{"fit", "-train", "TRAIN", "-test", "FILE", "-method", "nystrom", "-centers", "30", "-sigma", "auto", "-lambdas", "1e-4:1e-2:3", "-predictions", "OUT"}, nil},
	{"classify -test", "", []string{"classify", "-train", "TRAIN", "-test", "FILE", "-method", "knn", "-k", "3", "-max-classes", "1000", "-predictions", "OUT"}, nil},
	{"predict -data", "", []string{"predict", "-model", "MODEL", "-data", "FILE", "-predictions", "OUT"},
		[]string{"fit", "-train", "TRAIN", "-method", "cholesky", "-sigma", "3", "-lambda", "1e-3", "-standardize", "-model", "MODEL"}},
}

// TestBesideFilesByName: every file read beside a training file is read
// by the training file's column names when both have a header — the
// columns in another order or with another column among them give the
// same predictions bit for bit, a missing column is refused naming it —
// and by position when it has none, its width checked.
func TestBesideFilesByName(t *testing.T) {
	dir := t.TempDir()
	train := housingColumns(t, dir, "train.csv", 0, 150, housingNames(), true)
	ref := housingColumns(t, dir, "ref.csv", 150, 200, housingNames(), true)
	for _, r := range besideReaders {
		r.name = strings.TrimSuffix(r.flag+", "+r.name, ", ")
		model := filepath.Join(dir, "model.json")
		subst := func(args []string, file, out string) []string {
			return substitute(args, map[string]string{"TRAIN": train, "FILE": file, "OUT": out, "MODEL": model})
		}
		if r.model != nil {
			if code, _, e := runCmd(subst(r.model, "", "")...); code != 0 {
				t.Fatalf("%s: saving the model: exit %d: %s", r.name, code, e)
			}
		}
		want := filepath.Join(dir, "want")
		if code, _, e := runCmd(subst(r.args, ref, want)...); code != 0 {
			t.Fatalf("%s, the training layout: exit %d: %s", r.name, code, e)
		}
		wantP, _ := os.ReadFile(want)
		for k, l := range besideLayouts {
			file := housingColumns(t, dir, fmt.Sprintf("layout%d.csv", k), 150, 200, l.cols(), l.header)
			got := filepath.Join(dir, "got")
			os.Remove(got)
			code, _, e := runCmd(subst(r.args, file, got)...)
			gotP, _ := os.ReadFile(got)
			switch {
			case l.same && (code != 0 || len(wantP) == 0 || !bytes.Equal(gotP, wantP)):
				t.Errorf("%s, %s: exit %d (%s), predictions equal %v; want the training layout's", r.name, l.name, code, e, bytes.Equal(gotP, wantP))
			case !l.same && (code != 2 || !strings.Contains(e, l.want) || strings.Count(e, "\n") != 1):
				t.Errorf("%s, %s: exit %d, %q; want 2 and one line naming %s", r.name, l.name, code, e, l.want)
			}
		}
	}
}

// TestTestFileWithoutLabel: a test file that lacks the label column is
// told so, by name with a header and by its width without one, never as a
// file of fewer features.
func TestTestFileWithoutLabel(t *testing.T) {
	dir := t.TempDir()
	names := housingNames()
	train := housingColumns(t, dir, "train.csv", 0, 100, names, true)
	for _, c := range []struct {
		name   string
		header bool
		want   string
	}{
		{"with a header", true, `"y"`},
		{"without a header", false, "label"},
	} {
		test := housingColumns(t, dir, "test.csv", 100, 120, names[:13], c.header)
		code, _, e := runCmd("fit", "-train", train, "-test", test, "-sigma", "3", "-lambda", "1e-3")
		if code != 2 || !strings.Contains(e, c.want) || strings.Contains(e, "has 12") {
			t.Errorf("%s: exit %d, %q; want 2 and a message about the missing label", c.name, code, e)
		}
	}
}

// TestPredictUnlabelledAdvice: a headerless file whose width equals the
// model's is read with its last column as the label; the message names
// both readings and does not steer the user to read a label as a feature.
func TestPredictUnlabelledAdvice(t *testing.T) {
	dir := t.TempDir()
	names := housingNames()
	train := housingColumns(t, dir, "train.csv", 0, 100, names, true)
	model := filepath.Join(dir, "m.json")
	if code, _, e := runCmd("fit", "-train", train, "-sigma", "3", "-lambda", "1e-3", "-model", model); code != 0 {
		t.Fatal(e)
	}
	// 12 features and the label: 13 columns, as many as the model's features.
	short := housingColumns(t, dir, "short.csv", 100, 120, append(names[:12:12], "y"), false)
	code, _, e := runCmd("predict", "-model", model, "-data", short)
	if code != 2 || !strings.Contains(e, "-unlabelled") || !strings.Contains(e, "lacks a feature") {
		t.Errorf("exit %d, %q; want 2, naming -unlabelled only for a file without a label", code, e)
	}
}

// TestPredictHeaderHint: an error about a header that was read as one
// does not suggest -header yes.
func TestPredictHeaderHint(t *testing.T) {
	dir := t.TempDir()
	names := housingNames()
	train := housingColumns(t, dir, "train.csv", 0, 100, names, true)
	model := filepath.Join(dir, "m.json")
	if code, _, e := runCmd("fit", "-train", train, "-sigma", "3", "-lambda", "1e-3", "-model", model); code != 0 {
		t.Fatal(e)
	}
	lacking := housingColumns(t, dir, "lacking.csv", 100, 120, slices.Delete(slices.Clone(names), 4, 5), true)
	code, _, e := runCmd("predict", "-model", model, "-data", lacking)
	if code != 2 || !strings.Contains(e, `"f5"`) || strings.Contains(e, "-header yes") {
		t.Errorf("exit %d, %q; want 2 naming f5 and no -header hint", code, e)
	}
}

// TestPredictDropMissing: predict -drop-missing keeps line i for row i of
// the data: a dropped row's line is NaN, the others are the predictions
// of the rows read.
func TestPredictDropMissing(t *testing.T) {
	dir := t.TempDir()
	names := housingNames()
	train := housingColumns(t, dir, "train.csv", 0, 100, names, true)
	model := filepath.Join(dir, "m.json")
	if code, _, e := runCmd("fit", "-train", train, "-sigma", "3", "-lambda", "1e-3", "-model", model); code != 0 {
		t.Fatal(e)
	}
	full := housingColumns(t, dir, "full.csv", 100, 110, names, true)
	raw, _ := os.ReadFile(full)
	lines := strings.Split(string(raw), "\n")
	fields := strings.Split(lines[3], ",") // line 4: row 3 of the data
	fields[1] = "NA"
	lines[3] = strings.Join(fields, ",")
	holed := write(t, dir, "holed.csv", []byte(strings.Join(lines, "\n")))
	_, want, _ := runCmd("predict", "-model", model, "-data", full)
	code, got, e := runCmd("predict", "-model", model, "-data", holed, "-drop-missing")
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	if code != 0 || len(g) != len(w) || g[2] != "NaN" {
		t.Fatalf("exit %d (%s), %d lines, line 3 %q; want %d lines and NaN for the dropped row", code, e, len(g), g[min(2, len(g)-1)], len(w))
	}
	for i := range w {
		if i != 2 && g[i] != w[i] {
			t.Errorf("line %d: %q, want %q", i+1, g[i], w[i])
		}
	}
}

// TestBesideFilesHeaderless: every file read beside a training file
// (besideReaders) × every training layout a headerless file cannot share
// — the label not the last column (-target), -features a subset: the file
// with the training file's header is read (exit 0); the same file without
// it is refused in one line that says why and names the header to give,
// or, for predict, whose model does not record where the label was, read
// by position with one note saying so (or refused for its width).
func TestBesideFilesHeaderless(t *testing.T) {
	dir := t.TempDir()
	first := append([]string{"y"}, housingNames()[:13]...)
	for _, l := range []struct {
		name  string
		cols  []string
		flags []string
		why   string
	}{
		{"label first", first, []string{"-target", "y"}, "its label y is column 1 of 14, not the last"},
		{"features a subset", housingNames(), []string{"-features", "f1,f3,f6,f13"}, "its features are 4 of its 14 columns"},
	} {
		train := housingColumns(t, dir, "train.csv", 0, 150, l.cols, true)
		headed := housingColumns(t, dir, "headed.csv", 150, 200, l.cols, true)
		bare := housingColumns(t, dir, "bare.csv", 150, 200, l.cols, false)
		for _, r := range besideReaders {
			name := strings.TrimSuffix(r.flag+", "+r.name, ", ") + ", " + l.name
			model := filepath.Join(dir, "model.json")
			subst := func(args []string, file string) []string {
				return substitute(args, map[string]string{"TRAIN": train, "FILE": file, "OUT": filepath.Join(dir, "out"), "MODEL": model})
			}
			trainArgs := func(args []string) []string { return append(subst(args, ""), l.flags...) }
			run := func(file string) (int, string) {
				args := subst(r.args, file)
				if r.model == nil {
					args = append(args, l.flags...)
				} else if code, _, e := runCmd(trainArgs(r.model)...); code != 0 {
					t.Fatalf("%s: saving the model: exit %d: %s", name, code, e)
				}
				code, _, e := runCmd(args...)
				return code, e
			}
			if code, e := run(headed); code != 0 {
				t.Errorf("%s, with the training header: exit %d: %s", name, code, e)
			}
			code, e := run(bare)
			switch {
			case r.model == nil && (code != 2 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "has no header") || !strings.Contains(e, l.why) || !strings.Contains(e, strings.Join(l.cols, ","))):
				t.Errorf("%s, without a header: exit %d, %q; want 2 and one line saying %q and naming the header", name, code, e, l.why)
			case r.model != nil && code == 0 && strings.Count(e, "has no header: its columns are read by position as") != 1,
				r.model != nil && code != 0 && (code != 2 || strings.Count(e, "\n") != 1):
				t.Errorf("%s, without a header: exit %d, %q; want one note that the columns are read by position, or a one-line refusal", name, code, e)
			}
		}
	}
}
