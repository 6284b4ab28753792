package main

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rkhs/dataset"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// intervalFiles are housing rows for the tests of -interval: TRAIN (337
// rows), TEST (169 rows), SMALL (20 rows) and a classification training
// and test file, CTRAIN and CTEST.
func intervalFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	all, err := os.ReadFile(housingColumns(t, dir, "all.csv", 0, 506, housingNames(), true))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(all), "\n"), "\n")
	parts := [2]string{lines[0], lines[0]}
	for i, l := range lines[1:] {
		parts[min(i%3, 1)] += strings.TrimSuffix(l, "\n") + "\n" // rows i%3 == 0 are tested: the file is sorted by town
	}
	f := map[string]string{
		"TRAIN": write(t, dir, "train.csv", []byte(parts[1])),
		"TEST":  write(t, dir, "test.csv", []byte(parts[0])),
		"SMALL": housingColumns(t, dir, "small.csv", 140, 160, housingNames(), true),
		"OUT":   filepath.Join(dir, "out"),
		"MODEL": filepath.Join(dir, "model.json"),
	}
	f["CTRAIN"], f["CTEST"] = splitSet(t, dir, "heart", "", 0)
	if code, _, e := runCmd("fit", "-train", f["TRAIN"], "-sigma", "3", "-lambda", "1e-3", "-model", f["MODEL"]); code != 0 {
		t.Fatalf("saving a model: exit %d: %s", code, e)
	}
	return f
}

// TestIntervalRefusals: every misuse of -interval, -interval-method and
// -folds is refused with exit 2 and a line that says why — before
// anything is fitted, but for a streamed selection's CV+, whose folds are
// drawn with the rows counted after the selection (its last line, as
// rkhs-beam select says it).
func TestIntervalRefusals(t *testing.T) {
	files := intervalFiles(t, t.TempDir())
	fit := []string{"fit", "-train", "TRAIN", "-test", "TEST", "-sigma", "3", "-lambda", "1e-3"}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"level 0", append(fit, "-interval", "0"), "strictly between 0 and 1"},
		{"level 1", append(fit, "-interval", "1"), "strictly between 0 and 1"},
		{"level above 1", append(fit, "-interval", "1.5"), "strictly between 0 and 1"},
		{"negative level", append(fit, "-interval", "-0.1"), "strictly between 0 and 1"},
		{"NaN level", append(fit, "-interval", "NaN"), "strictly between 0 and 1"},
		{"level out of reach", []string{"fit", "-train", "SMALL", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.99"}, "20 rows give finite intervals only up to level n/(n+1) = 0.9524; at 0.99 every interval is the whole line"},
		{"one fold", append(fit, "-interval", "0.9", "-interval-method", "cv+", "-folds", "1"), "-folds 1: want K ≥ 2"},
		{"more folds than rows", []string{"fit", "-train", "SMALL", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.9", "-interval-method", "cv+", "-folds", "21"}, "-folds 21: want 2 ≤ K ≤ n = 20"},
		{"nystrom, more folds than rows", []string{"fit", "-train", "SMALL", "-method", "nystrom", "-centers", "5", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.9", "-interval-method", "cv+", "-folds", "21"}, "-folds 21: want 2 ≤ K ≤ n = 20"},
		{"streamed selection, more folds than rows", []string{"fit", "-train", "SMALL", "-method", "nystrom", "-centers", "5", "-sigma", "auto", "-lambda", "auto", "-interval", "0.9", "-folds", "21"}, "-folds 21: want 2 ≤ K ≤ n = 20"},
		{"nystrom, level out of reach", []string{"fit", "-train", "SMALL", "-method", "nystrom", "-centers", "5", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.99"}, "20 rows give finite intervals only up to level n/(n+1) = 0.9524"},
		{"method without intervals", append(fit, "-method", "tikh", "-interval", "0.9"), "-interval is offered by -method cholesky, eigen, nystrom and falkon, not tikh"},
		{"iterative method", []string{"fit", "-train", "TRAIN", "-sigma", "3", "-method", "cg", "-interval", "0.9"}, "not cg"},
		{"falkon jackknife+", []string{"fit", "-train", "TRAIN", "-method", "falkon", "-centers", "30", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.9", "-interval-method", "jackknife+"}, "use cv+"},
		{"unknown interval method", append(fit, "-interval", "0.9", "-interval-method", "split"), `-interval-method "split" is not offered`},
		{"interval method alone", append(fit, "-interval-method", "cv+"), "-interval-method is for -interval LEVEL"},
		{"folds alone", append(fit, "-folds", "5"), "-folds is for -interval LEVEL"},
		{"folds with jackknife+", append(fit, "-interval", "0.9", "-folds", "5"), "-folds is for -interval-method cv+"},
		{"plot without test", []string{"fit", "-train", "TRAIN", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.9", "-plot", "OUT"}, "give -test"},
		{"classify knn", []string{"classify", "-train", "CTRAIN", "-method", "knn", "-sigma", "3", "-interval", "0.9"}, "-interval is offered by -method rls and nystrom, not knn"},
		{"classify falkon", []string{"classify", "-train", "CTRAIN", "-method", "falkon", "-centers", "30", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.9"}, "not falkon"},
		{"classify cv+fold", []string{"classify", "-train", "CTRAIN", "-method", "rls", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.9", "-interval-method", "cv+fold"}, "use jackknife+ or cv+"},
		{"cv+fold at a fixed pair", append(fit, "-interval", "0.9", "-interval-method", "cv+fold"), "give -sigma auto or -lambda auto"},
		{"predict without interval data", []string{"predict", "-model", "MODEL", "-data", "TEST", "-interval", "0.9"}, "holds no interval data: jackknife+ needs the factorization of the training rows"},
		{"predict level", []string{"predict", "-model", "MODEL", "-data", "TEST", "-interval", "2"}, "strictly between 0 and 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, e := runCmd(substitute(c.args, files)...)
			if strings.HasPrefix(c.name, "streamed selection") { // the refusal is the last line
				e = e[strings.LastIndex(strings.TrimSuffix(e, "\n"), "\n")+1:]
			}
			if code != 2 || !strings.Contains(e, c.want) || strings.Count(e, "\n") != 1 {
				t.Errorf("exit %d, %q; want exit 2 and one line with %q", code, e, c.want)
			}
		})
	}
}

// readCSV reads a CSV file of intervals or label sets: its header and
// its rows split at commas.
func readCSV(t *testing.T, path string) (header string, rows [][]string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for _, l := range lines[1:] {
		rows = append(rows, strings.Split(l, ","))
	}
	return lines[0], rows
}

// TestFitIntervals: for every method with intervals, the coverage and the
// mean width -json reports are those of the intervals -predictions
// writes, measured again on the test file's targets; jackknife+ of eigen
// equals cholesky's to rounding; a CV+ model file gives rkhs predict
// -interval the same intervals, bit for bit; -plot draws the coverage.
func TestFitIntervals(t *testing.T) {
	dir := t.TempDir()
	files := intervalFiles(t, dir)
	test := readTargets(t, files["TEST"])
	byMethod := map[string][][]string{}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"cholesky jackknife+", []string{"-method", "cholesky", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.8"}},
		{"eigen jackknife+", []string{"-method", "eigen", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.8"}},
		{"cholesky cv+", []string{"-method", "cholesky", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.8", "-interval-method", "cv+", "-folds", "5"}},
		{"eigen cv+", []string{"-method", "eigen", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.8", "-interval-method", "cv+", "-folds", "5"}},
		{"nystrom jackknife+", []string{"-method", "nystrom", "-centers", "60", "-sigma", "3", "-lambda", "1e-3", "-interval", "0.8"}},
		{"nystrom auto cv+", []string{"-method", "nystrom", "-centers", "60", "-sigma", "auto", "-lambdas", "1e-4:1e-2:3", "-interval", "0.8"}},
		{"falkon ard cv+", []string{"-method", "falkon", "-centers", "60", "-select-centers", "30", "-sigma", "ard", "-lambdas", "1e-4:1e-2:3", "-ard-iters", "5", "-interval", "0.8"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			pred, model := filepath.Join(dir, c.name+".csv"), filepath.Join(dir, c.name+".json")
			res, _ := runJSON(t, append([]string{"fit", "-train", files["TRAIN"], "-test", files["TEST"], "-predictions", pred, "-model", model}, c.args...)...)
			method := map[bool]string{false: "jackknife+", true: "cv+"}[strings.Contains(c.name, "cv+")]
			if res["interval_level"] != 0.8 || res["interval_method"] != method || (res["interval_after_choice"] == true) != (strings.Contains(c.name, "auto") || strings.Contains(c.name, "ard")) {
				t.Errorf("level %v method %v after choice %v", res["interval_level"], res["interval_method"], res["interval_after_choice"])
			}
			header, rows := readCSV(t, pred)
			if header != "prediction,lower,upper" || len(rows) != len(test) {
				t.Fatalf("header %q, %d rows for %d test rows", header, len(rows), len(test))
			}
			var in, width float64
			for i, r := range rows {
				lo, _ := strconv.ParseFloat(r[1], 64)
				hi, _ := strconv.ParseFloat(r[2], 64)
				if !(lo <= hi) {
					t.Fatalf("row %d: [%v, %v]", i, lo, hi)
				}
				if lo <= test[i] && test[i] <= hi {
					in++
				}
				width += hi - lo
			}
			cover, mean := in/float64(len(rows)), width/float64(len(rows))
			if res["test_coverage"] != cover || math.Abs(res["interval_mean_width"].(float64)-mean) > 1e-12*mean {
				t.Errorf("coverage %v width %v; the file's %v and %v", res["test_coverage"], res["interval_mean_width"], cover, mean)
			}
			if cover < 0.6 || cover > 0.97 {
				t.Errorf("coverage %v at 0.8 on 169 rows: outside 0.8 ± 5 standard errors", cover)
			}
			byMethod[c.name] = rows
			if method != "cv+" {
				return
			}
			again := filepath.Join(dir, c.name+".predict.csv")
			if code, _, e := runCmd("predict", "-model", model, "-data", files["TEST"], "-interval", "0.8", "-predictions", again); code != 0 {
				t.Fatalf("predict: exit %d: %s", code, e)
			}
			a, _ := os.ReadFile(pred)
			b, _ := os.ReadFile(again)
			if string(a) != string(b) {
				t.Errorf("rkhs predict -interval wrote other intervals than fit")
			}
		})
	}
	for _, pair := range [][2]string{{"cholesky jackknife+", "eigen jackknife+"}, {"cholesky cv+", "eigen cv+"}} {
		a, b := byMethod[pair[0]], byMethod[pair[1]]
		for i := range a {
			for j := range a[i] {
				x, _ := strconv.ParseFloat(a[i][j], 64)
				y, _ := strconv.ParseFloat(b[i][j], 64)
				if math.Abs(x-y) > 1e-6*(1+math.Abs(x)) {
					t.Fatalf("%s and %s: row %d column %d %v and %v", pair[0], pair[1], i, j, x, y)
				}
			}
		}
	}
	plot := filepath.Join(dir, "calibration.svg")
	if code, _, e := runCmd("fit", "-train", files["TRAIN"], "-test", files["TEST"], "-sigma", "3", "-lambda", "1e-3", "-interval", "0.9", "-plot", plot); code != 0 {
		t.Fatalf("-plot: exit %d: %s", code, e)
	}
	if b, _ := os.ReadFile(plot); !strings.Contains(string(b), "coverage on the test file") || !strings.Contains(string(b), "nominal") {
		t.Errorf("-plot with -interval: no calibration panel in %.200s", b)
	}
}

// readTargets returns the last column of a CSV file with a header.
func readTargets(t *testing.T, path string) []float64 {
	_, rows := readCSV(t, path)
	y := make([]float64, len(rows))
	for i, r := range rows {
		y[i], _ = strconv.ParseFloat(r[len(r)-1], 64)
	}
	return y
}

// TestClassifyLabelSets: classify -interval writes label,set a row, the
// predicted label first, and reports the coverage and mean size of those
// sets, which a larger level does not make smaller.
func TestClassifyLabelSets(t *testing.T) {
	dir := t.TempDir()
	files := intervalFiles(t, dir)
	labels := map[string]bool{"-1": true, "1": true}
	size := map[string]float64{}
	for _, m := range [][]string{{"-method", "rls", "-sigma", "3", "-lambda", "1e-3"}, {"-method", "nystrom", "-centers", "40", "-sigma", "3", "-lambda", "1e-3"},
		{"-method", "rls", "-sigma", "3", "-lambda", "1e-3", "-interval-method", "cv+"}, {"-method", "nystrom", "-centers", "40", "-sigma", "3", "-lambda", "1e-3", "-interval-method", "cv+", "-folds", "5"}} {
		name := strings.Join(m, " ")
		for _, level := range []string{"0.7", "0.95"} {
			pred := filepath.Join(dir, strings.ReplaceAll(name, " ", "_")+level+".csv")
			res, _ := runJSON(t, append([]string{"classify", "-train", files["CTRAIN"], "-test", files["CTEST"], "-predictions", pred, "-interval", level}, m...)...)
			header, rows := readCSV(t, pred)
			if header != "label,set" || len(rows) != int(res["n_test"].(float64)) {
				t.Fatalf("%s %s: header %q, %d rows", m[1], level, header, len(rows))
			}
			var total float64
			for i, r := range rows {
				set := strings.Split(r[1], "|")
				if r[1] == "" {
					set = nil
				}
				for _, l := range set {
					if !labels[l] {
						t.Fatalf("%s row %d: label %q", m[1], i, l)
					}
				}
				if !labels[r[0]] || len(r) != 2 {
					t.Fatalf("%s row %d: %q", m[1], i, r)
				}
				total += float64(len(set))
			}
			if got := res["set_mean_size"].(float64); math.Abs(got-total/float64(len(rows))) > 1e-12 {
				t.Errorf("%s %s: set_mean_size %v, the file's %v", m[1], level, got, total/float64(len(rows)))
			}
			if c := res["test_coverage"].(float64); !(c > 0.5 && c <= 1) {
				t.Errorf("%s %s: coverage %v", m[1], level, c)
			}
			size[name+level] = total
		}
		if size[name+"0.95"] < size[name+"0.7"] {
			t.Errorf("%s: sets at 0.95 smaller than at 0.7: %v", m[1], size)
		}
	}
}

// TestFitIntervalsChosenInFolds: -interval-method cv+fold writes the
// intervals of interval.RLSCVChosen on the same rows, grids and folds, to
// rounding, prints their coverage, and says no note of a choice made on
// the same rows; a streamed nystrom selection runs it too.
func TestFitIntervalsChosenInFolds(t *testing.T) {
	dir := t.TempDir()
	files := intervalFiles(t, dir)
	pred := filepath.Join(dir, "pred.csv")
	args := []string{"fit", "-train", files["TRAIN"], "-test", files["TEST"], "-predictions", pred, "-sigma", "3", "-lambdas", "1e-4:1e-2:3", "-interval", "0.8", "-interval-method", "cv+fold", "-folds", "5"}
	code, out, e := runCmd(args...)
	if code != 0 || !strings.Contains(out, "by cv+fold: coverage") || strings.Contains(out, "note:") {
		t.Fatalf("exit %d, output %q %q: want the coverage by cv+fold and no note", code, out, e)
	}
	res, _ := runJSON(t, args...)
	if res["interval_method"] != "cv+fold" || res["interval_after_choice"] == true || res["test_coverage"] == nil {
		t.Errorf("method %v after choice %v coverage %v", res["interval_method"], res["interval_after_choice"], res["test_coverage"])
	}
	read := func(path string) (*linalg.Dense, *linalg.Dense) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		d, err := dataset.ReadCSV(f, dataset.CSVOptions{Header: true, LabelCol: -1})
		if err != nil {
			t.Fatal(err)
		}
		return &d.X, linalg.NewDense(len(d.Y), 1, d.Y)
	}
	x, y := read(files["TRAIN"])
	xt, _ := read(files["TEST"])
	folds, err := interval.Folds(x.Rows, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	kernel := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
	cv, err := interval.RLSCVChosen(kernel, []float64{3}, loo.Geometric(1e-4, 1e-2, 3), regress.FreeIntercept, x, y, folds)
	if err != nil {
		t.Fatal(err)
	}
	iv, err := cv.Predict(xt, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	_, rows := readCSV(t, pred)
	for i, r := range rows {
		for j, want := range []float64{iv.Prediction.At(i, 0), iv.Lower.At(i, 0), iv.Upper.At(i, 0)} {
			got, _ := strconv.ParseFloat(r[j], 64)
			if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
				t.Fatalf("row %d column %d: %v, the library's %v", i, j, got, want)
			}
		}
	}
	res, _ = runJSON(t, "fit", "-train", files["TRAIN"], "-test", files["TEST"], "-method", "nystrom", "-centers", "60", "-sigma", "auto", "-lambdas", "1e-4:1e-2:3", "-interval", "0.8", "-interval-method", "cv+fold", "-folds", "5")
	if c, _ := res["test_coverage"].(float64); c < 0.6 || c > 0.97 {
		t.Errorf("nystrom cv+fold: coverage %v at 0.8 on 169 rows", res["test_coverage"])
	}
}
