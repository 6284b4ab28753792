package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// write writes data to dir/name and returns the path.
func write(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCSVFirstRow: a CSV whose first row has a missing value is never
// re-read as if that row were a header (which silently lost it): every
// subcommand reports the cell, exit 2; -drop-missing drops it and says so.
func TestCSVFirstRow(t *testing.T) {
	dir := t.TempDir()
	na := write(t, dir, "na.csv", []byte("1,NA,3\n4,5,6\n7,8,9\n10,11,12\n"))
	bom := write(t, dir, "bom.csv", []byte("\uFEFF1,2,3\n4,5,6\n7,8,9\n10,11,12\n"))
	empty := write(t, dir, "empty.csv", []byte("1,,3\n4,5,6\n7,8,9\n10,11,12\n"))
	for _, args := range [][]string{
		{"fit", "-train", na, "-kernel", "linear", "-lambda", "0.1"},
		{"fit", "-train", empty, "-kernel", "linear", "-lambda", "0.1"},
		{"loo", "-train", na, "-kernel", "linear"},
		{"classify", "-train", na, "-kernel", "linear", "-lambda", "0.1"},
	} {
		code, _, e := runCmd(args...)
		if code != 2 || !strings.Contains(e, "line 1: field 2") || !strings.Contains(e, "missing value") {
			t.Errorf("%v: exit %d, %q; want 2 and line 1 field 2 named", args, code, e)
		}
	}
	code, out, e := runCmd("fit", "-train", na, "-kernel", "linear", "-lambda", "0.1", "-drop-missing", "-json")
	if code != 0 || !strings.Contains(e, "dropped 1 of 4 rows") || !strings.Contains(out, `"n_train":3`) {
		t.Errorf("-drop-missing: exit %d, stdout %q, stderr %q", code, out, e)
	}
	code, out, e = runCmd("fit", "-train", bom, "-kernel", "linear", "-lambda", "0.1", "-json")
	if code != 0 || !strings.Contains(out, `"n_train":4`) {
		t.Errorf("byte-order mark: exit %d, stdout %q, stderr %q; want all 4 rows", code, out, e)
	}
}

// TestCSVWidths: the columns of a CSV file without a header are
// positional, so a test or predict file of another width is an error
// naming both widths, not zero-padding; with headers, the test file's
// columns are found by the training file's names;
// LIBSVM files may still be narrower. predict reads a features-only CSV
// by the names the model stores when it has a header, and only when told
// (-unlabelled) when it has none, and then predicts as on the labelled
// file.
func TestCSVWidths(t *testing.T) {
	dir := t.TempDir()
	wide := write(t, dir, "wide.csv", []byte("x1,x2,y\n0,0,1\n1,0,2\n0,1,3\n1,1,4\n"))
	narrow := write(t, dir, "narrow.csv", []byte("x1,y\n0,1\n1,2\n"))
	features := write(t, dir, "features.csv", []byte("x1,x2\n0,0\n1,0\n0,1\n1,1\n"))
	bare := write(t, dir, "bare.csv", []byte("0,0\n1,0\n0,1\n1,1\n"))
	model := filepath.Join(dir, "m.json")
	bwide := write(t, dir, "bwide.csv", []byte("0,0,1\n1,0,2\n0,1,3\n1,1,4\n"))
	bnarrow := write(t, dir, "bnarrow.csv", []byte("0,1\n1,2\n"))
	for _, args := range [][]string{
		{"fit", "-train", bwide, "-test", bnarrow, "-kernel", "linear", "-lambda", "1e-9"},
		{"fit", "-train", bnarrow, "-test", bwide, "-kernel", "linear", "-lambda", "1e-9"},
		{"classify", "-train", bwide, "-test", bnarrow, "-kernel", "linear", "-lambda", "1e-3"},
	} {
		if code, _, e := runCmd(args...); code != 2 || !strings.Contains(e, "2 features") || !strings.Contains(e, "1 feature") {
			t.Errorf("%v: exit %d, %q; want 2 naming both widths", args, code, e)
		}
	}
	if code, _, e := runCmd("fit", "-train", wide, "-test", narrow, "-kernel", "linear", "-lambda", "1e-9"); code != 2 || !strings.Contains(e, `feature "x2" is not a column of the header`) {
		t.Errorf("a test file lacking a column of the training header: exit %d, %q; want 2 naming it", code, e)
	}
	if code, _, e := runCmd("fit", "-train", narrow, "-test", wide, "-kernel", "linear", "-lambda", "1e-9"); code != 0 {
		t.Errorf("a test file with a column more than the training header: exit %d, %q; want it read by name", code, e)
	}
	if code, _, e := runCmd("fit", "-train", wide, "-kernel", "linear", "-lambda", "1e-9", "-model", model); code != 0 {
		t.Fatalf("fit: %s", e)
	}
	if code, _, e := runCmd("predict", "-model", model, "-data", bare); code != 2 || !strings.Contains(e, "-unlabelled") {
		t.Errorf("predict on a features-only CSV without a header: exit %d, %q; want 2 and a pointer to -unlabelled", code, e)
	}
	_, labelled, _ := runCmd("predict", "-model", model, "-data", wide)
	// With a header, the model's names find the features; without one,
	// -unlabelled says there is no label column.
	for _, args := range [][]string{{features}, {features, "-unlabelled"}, {bare, "-unlabelled"}} {
		code, unlabelled, e := runCmd(append([]string{"predict", "-model", model, "-data"}, args...)...)
		if code != 0 || unlabelled != labelled || strings.Count(unlabelled, "\n") != 4 {
			t.Errorf("predict %v: exit %d (%s), %q; want the predictions on the labelled file %q", args, code, e, unlabelled, labelled)
		}
	}
	// LIBSVM: trailing zero features are not written, so narrower files pad.
	lwide := write(t, dir, "wide.libsvm", []byte("1 1:1 2:1\n2 1:2 2:1\n3 2:3\n"))
	lnarrow := write(t, dir, "narrow.libsvm", []byte("1 1:1\n2 1:2\n"))
	if code, _, e := runCmd("fit", "-train", lwide, "-test", lnarrow, "-kernel", "linear", "-lambda", "1e-3"); code != 0 {
		t.Errorf("LIBSVM test file narrower: exit %d, %s", code, e)
	}
}

// TestCSVColumnsByName: the Beijing air-quality layout (quoted header,
// CRLF, NA cells, text columns) — a bad cell below the header names its
// line and column instead of blaming the header; -target and -features
// choose columns, leaving the text ones unread; gzip input is read.
func TestCSVColumnsByName(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join("testdata", "beijing_head.csv"))
	if err != nil {
		t.Fatal(err)
	}
	plain := write(t, dir, "air.csv", raw)
	gz := write(t, dir, "air.csv.gz", gzipped(t, raw))
	for _, p := range []string{plain, gz} {
		code, _, e := runCmd("fit", "-train", p, "-lambda", "0.1")
		if code != 2 || !strings.Contains(e, `line 2: field 16 ("wd"): "N" is not a decimal number`) {
			t.Errorf("%s: exit %d, %q; want the text column wd named", p, code, e)
		}
		code, _, e = runCmd("fit", "-train", p, "-lambda", "0.1", "-target", "PM2.5", "-features", "TEMP,PRES,SO2,WSPM")
		if code != 2 || !strings.Contains(e, `line 18: field 8 ("SO2"): "NA" is a missing value`) {
			t.Errorf("%s with -target: exit %d, %q; want the NA cell named", p, code, e)
		}
		code, out, e := runCmd("fit", "-train", p, "-lambda", "0.1", "-kernel", "linear", "-target", "PM2.5", "-features", "TEMP,PRES,SO2,WSPM", "-drop-missing", "-json")
		var res map[string]any
		if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res["features"].(float64) != 4 || res["n_train"].(float64) != 20 {
			t.Errorf("%s -drop-missing: exit %d, %q, %q; want 20 rows of 4 features", p, code, out, e)
		}
		if !strings.Contains(e, "dropped 1 of 21 rows") {
			t.Errorf("%s: stderr %q does not count the dropped row", p, e)
		}
	}
	if code, _, e := runCmd("fit", "-train", plain, "-lambda", "0.1", "-target", "PM25"); code != 2 || !strings.Contains(e, `target "PM25" is not a column`) {
		t.Errorf("unknown target: exit %d, %q", code, e)
	}
	xz := write(t, dir, "air.csv.xz", []byte("\xfd7zXZ\x00\x00\x04"))
	if code, _, e := runCmd("fit", "-train", xz, "-lambda", "0.1"); code != 2 || !strings.Contains(e, "xz-compressed input is not supported") {
		t.Errorf("xz: exit %d, %q", code, e)
	}
	tsv := write(t, dir, "skin.txt", []byte("74\t85\t123\t1\r\n73\t84\t122\t2\r\n72\t83\t121\t1\r\n"))
	if code, _, e := runCmd("fit", "-train", tsv, "-lambda", "0.1"); code != 2 || !strings.Contains(e, "-format csv or tsv") {
		t.Errorf("tab-separated read as LIBSVM: exit %d, %q; want a pointer to -format", code, e)
	}
	if code, out, e := runCmd("fit", "-train", tsv, "-lambda", "0.1", "-format", "tsv", "-json"); code != 0 || !strings.Contains(out, `"features":3`) {
		t.Errorf("-format tsv: exit %d, %q, %q", code, out, e)
	}
}

// TestTooLargeCommand: a fit too large for memory exits 2 at once with one
// line saying what was asked, the memory needed and available, and what
// to run instead; the iterative methods stream instead of failing.
func TestTooLargeCommand(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 600 {
		b.WriteString(strings.Repeat("1", 1+i%3) + "," + strings.Repeat("2", 1+i%2) + "\n")
	}
	p := write(t, dir, "d.csv", []byte(b.String()))
	old := debug.SetMemoryLimit(1 << 20)
	defer debug.SetMemoryLimit(old)
	for _, m := range []string{"cholesky", "eigen", "tikh", "tsvd"} {
		code, _, e := runCmd("fit", "-train", p, "-lambda", "0.1", "-method", m)
		if code != 2 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "fit -method "+m+" on 600 rows needs") ||
			!strings.Contains(e, "more than the 1.00 MiB of Go memory limit") || !strings.Contains(e, "-method falkon -centers M") {
			t.Errorf("%s: exit %d, %q", m, code, e)
		}
	}
	for _, m := range []string{"cg", "landweber", "nu"} {
		if code, _, e := runCmd("fit", "-train", p, "-method", m, "-iters", "3"); code != 0 {
			t.Errorf("%s under a 1 MiB limit: exit %d, %q; want it to stream", m, code, e)
		}
	}
	if code, _, e := runCmd("classify", "-train", p, "-method", "svm", "-lambda", "0.1"); code != 2 || !strings.Contains(e, "classify -method svm on 600 rows needs") {
		t.Errorf("classify: exit %d, %q", code, e)
	}
	if code, _, e := runCmd("loo", "-train", p); code != 2 || !strings.Contains(e, "loo on 600 rows needs") {
		t.Errorf("loo: exit %d, %q", code, e)
	}
}
