package main

import (
	"bytes"
	"flag"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rkhs/internal/cli/clitest"
)

// The tests of this file are generated from the tables of the command —
// the verbs, their flags and kinds, the methods — so that a verb, a flag
// or a method added later gets its rows without anyone remembering:
// TestEveryFlagHasARow fails until it has them.

// outputRuns are, for every output flag ("verb -flag"), a command line
// that writes it to OUT and, where the verb has another output, that one
// to OTHER (TRAIN, TEST and MODEL are a training file, a test file and a
// saved model).
var outputRuns = map[string][]string{
	"fit -model":            {"fit", "-train", "TRAIN", "-test", "TEST", "-sigma", "3", "-lambda", "1e-3", "-model", "OUT", "-predictions", "OTHER"},
	"fit -predictions":      {"fit", "-train", "TRAIN", "-test", "TEST", "-sigma", "3", "-lambda", "1e-3", "-predictions", "OUT", "-model", "OTHER"},
	"fit -plot":             {"fit", "-train", "TRAIN", "-method", "nystrom", "-centers", "20", "-sigma", "auto", "-lambdas", "1e-3:1e-1:3", "-plot", "OUT", "-model", "OTHER"},
	"classify -model":       {"classify", "-train", "TRAIN", "-test", "TEST", "-method", "knn", "-max-classes", "1000", "-model", "OUT", "-predictions", "OTHER"},
	"classify -predictions": {"classify", "-train", "TRAIN", "-test", "TEST", "-method", "knn", "-max-classes", "1000", "-predictions", "OUT", "-model", "OTHER"},
	"classify -plot":        {"classify", "-train", "CTRAIN", "-method", "rls", "-sigmas", "2:4:2", "-plot", "OUT", "-model", "OTHER"},
	"predict -predictions":  {"predict", "-model", "MODEL", "-data", "TEST", "-predictions", "OUT"},
}

// methodRuns are, for every method of every verb ("verb method"), and
// for every method whose route offers -sigma ard once more with it
// ("verb method ard"), the flags that fit it on a small training file;
// fit and classify run them with -test and -predictions and -model, and
// predict must give the same predictions from the model.
var methodRuns = map[string][]string{
	"fit cholesky":         {"-sigma", "3", "-lambda", "1e-3"},
	"fit eigen":            {"-sigma", "3", "-lambda", "1e-3", "-intercept", "penalized"},
	"fit tikh":             {"-sigma", "3", "-lambda", "1e-3"},
	"fit tsvd":             {"-sigma", "3", "-lambda", "1e-4"},
	"fit cg":               {"-sigma", "3", "-iters", "20"},
	"fit landweber":        {"-sigma", "3", "-iters", "20"},
	"fit nu":               {"-sigma", "3", "-iters", "20"},
	"fit nystrom":          {"-centers", "30", "-sigma", "auto", "-lambda", "auto"},
	"fit falkon":           {"-centers", "40", "-select-centers", "20", "-sigma", "auto", "-lambdas", "1e-3:1e-1:3"},
	"classify rls":         {"-sigma", "auto"},
	"classify perceptron":  {"-sigma", "3", "-iters", "10"},
	"classify knn":         {"-sigma", "3", "-k", "3"},
	"classify logistic":    {"-sigma", "3", "-lambda", "1e-3", "-iters", "50"},
	"classify svm":         {"-sigma", "3", "-lambda", "1e-3", "-iters", "50"},
	"classify nystrom":     {"-centers", "30", "-sigma", "3", "-lambda", "1e-3"},
	"classify falkon":      {"-centers", "30", "-sigma", "auto", "-lambda", "auto", "-standardize=no"},
	"fit nystrom ard":      {"-centers", "30", "-sigma", "ard", "-lambdas", "1e-6:1e-2:5", "-ard-iters", "10"},
	"fit falkon ard":       {"-centers", "40", "-select-centers", "20", "-sigma", "ard", "-lambdas", "1e-4:1e-2:3", "-ard-iters", "10"},
	"classify nystrom ard": {"-centers", "30", "-sigma", "ard", "-lambda", "auto", "-ard-iters", "10", "-criterion", "gcv"},
	"classify falkon ard":  {"-centers", "30", "-select-centers", "15", "-sigma", "ard", "-lambda", "auto", "-ard-iters", "10"},
}

// verbFlags returns the flag set of verb v, registered as a run registers
// it.
func verbFlags(v *verb) *flagSet {
	fs := newFlagSet(v.name)
	v.setup(fs)
	return fs
}

// TestEveryFlagHasARow walks the verbs and the methods: every flag that
// names a file or a directory has a kind; every output flag a row in
// outputRuns, every file read beside a training file a row in
// besideReaders; every flag a method reads is a flag of each verb that
// offers it; every method of every verb a row in methodRuns, and one
// with -sigma ard where its route offers it.
func TestEveryFlagHasARow(t *testing.T) {
	var beside []string
	for _, r := range besideReaders {
		beside = append(beside, r.flag)
	}
	for _, v := range verbs {
		fs := verbFlags(v)
		fs.VisitAll(func(f *flag.Flag) {
			key := v.name + " -" + f.Name
			placeholder, _ := flag.UnquoteUsage(f)
			kind := fs.kinds[f.Name]
			switch {
			case (placeholder == "file" || placeholder == "DIR") && kind == valueFlag:
				t.Errorf("%s names a %s but has no kind (register it with flagSet.file)", key, placeholder)
			case kind == outputFlag && outputRuns[key] == nil:
				t.Errorf("%s is an output without a row in outputRuns", key)
			case kind == besideFlag && !slices.Contains(beside, key):
				t.Errorf("%s is read beside a training file without a row in besideReaders", key)
			}
		})
		for _, m := range methodsOf(v.name) {
			for _, name := range m.own() {
				if fs.Lookup(name) == nil {
					t.Errorf("-method %s of %s reads -%s, which %s does not define", m.name, v.name, name, v.name)
				}
			}
			if methodRuns[v.name+" "+m.name] == nil {
				t.Errorf("%s -method %s has no row in methodRuns", v.name, m.name)
			}
			if m.selects.scales() && methodRuns[v.name+" "+m.name+" ard"] == nil {
				t.Errorf("%s -method %s offers -sigma ard without a row %q in methodRuns", v.name, m.name, v.name+" "+m.name+" ard")
			}
		}
	}
	for key := range outputRuns {
		if v, f, _ := strings.Cut(key, " -"); verbFlags(verbs[slices.IndexFunc(verbs, func(x *verb) bool { return x.name == v })]).kinds[f] != outputFlag {
			t.Errorf("outputRuns has %s, which is not an output", key)
		}
	}
}

// tinyFiles writes the small files the generated tests run on: a
// training and a test file of the housing data with a header, a
// classification training file, and a model saved from the first.
func tinyFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	f := map[string]string{
		"TRAIN": housingColumns(t, dir, "train.csv", 140, 260, housingNames(), true), // rows where no feature is constant
		"TEST":  housingColumns(t, dir, "test.csv", 260, 300, housingNames(), true),
		"MODEL": filepath.Join(dir, "model.json"),
	}
	heart, _ := splitSet(t, dir, "heart", "", 90)
	f["CTRAIN"] = heart
	if code, _, e := runCmd("fit", "-train", f["TRAIN"], "-sigma", "3", "-lambda", "1e-3", "-model", f["MODEL"]); code != 0 {
		t.Fatalf("saving a model: exit %d: %s", code, e)
	}
	return f
}

// TestOutputFlags runs every output flag of every verb on every path of
// clitest.Cases: refused before anything runs (exit 2, the inputs
// untouched), or written where the case says.
func TestOutputFlags(t *testing.T) {
	for key, args := range outputRuns {
		for _, c := range clitest.Cases {
			t.Run(key+"/"+c.Name, func(t *testing.T) {
				dir := t.TempDir()
				files := tinyFiles(t, dir)
				input := files[args[slices.IndexFunc(args, func(a string) bool { return a == "-train" || a == "-data" })+1]]
				before, _ := os.ReadFile(input)
				env := clitest.Env{Dir: dir, Input: input}
				if slices.Contains(args, "OTHER") {
					env.Other = filepath.Join(dir, "other.out")
				}
				path, want, check := c.Path(t, env)
				files["OUT"], files["OTHER"] = path, env.Other
				code, out, e := runCmd(substitute(args, files)...)
				if after, _ := os.ReadFile(input); !bytes.Equal(before, after) {
					t.Errorf("%s: the input %s changed", path, input)
				}
				if want == clitest.Refused {
					if code != 2 || strings.Count(e, "\n") != 1 || strings.Contains(e, "pass ") {
						t.Errorf("%s: exit %d, %q; want one line of refusal, exit 2, before anything runs", path, code, e)
					}
					return
				}
				if code != 0 {
					t.Fatalf("%s: exit %d: %s", path, code, e)
				}
				check(t, []byte(out))
			})
		}
	}
}

// TestFitPredictAgree: for every method of fit and classify, the
// predictions -predictions writes for -test are those rkhs predict gives
// from the model -model saved, bit for bit.
func TestFitPredictAgree(t *testing.T) {
	dir := t.TempDir()
	files := tinyFiles(t, dir)
	heartTrain, heartTest := splitSet(t, dir, "heart", "", 150)
	for key, args := range methodRuns {
		verb, name := strings.Fields(key)[0], strings.Fields(key)[1]
		train, test := files["TRAIN"], files["TEST"]
		if verb == "classify" {
			train, test = heartTrain, heartTest
		}
		model, fitP, predP := filepath.Join(dir, "m.json"), filepath.Join(dir, "fit.p"), filepath.Join(dir, "predict.p")
		full := append([]string{verb, "-train", train, "-test", test, "-method", name, "-model", model, "-predictions", fitP}, args...)
		if code, _, e := runCmd(full...); code != 0 {
			t.Errorf("%s: exit %d: %s", key, code, e)
			continue
		}
		if code, _, e := runCmd("predict", "-model", model, "-data", test, "-predictions", predP); code != 0 {
			t.Errorf("%s: predict: exit %d: %s", key, code, e)
			continue
		}
		a, _ := os.ReadFile(fitP)
		b, _ := os.ReadFile(predP)
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: fit wrote other predictions than predict gives from the model", key)
		}
	}
}

// permutedRows writes the rows of a headed CSV file in another order (a
// fixed permutation), header first.
func permutedRows(t *testing.T, src, dst string) string {
	t.Helper()
	raw, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	rows := lines[1:]
	perm := make([]string, len(rows))
	for i := range rows {
		perm[i] = rows[(i*37+11)%len(rows)] // 37 is prime to the row counts used
	}
	return write(t, filepath.Dir(dst), filepath.Base(dst), []byte(lines[0]+"\n"+strings.Join(perm, "\n")+"\n"))
}

// near reports whether a and b agree to 1e-9 relative.
func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// predictions reads a file of predictions, one a line.
func predictions(t *testing.T, path string) []float64 {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var p []float64
	for _, s := range strings.Fields(string(raw)) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		p = append(p, v)
	}
	return p
}

// TestInvariances: permuting the training rows leaves a selection's
// choice (exact, and streamed on every row as centres) and an exact fit's
// predictions unchanged to rounding; scaling a feature by c > 0 under
// -standardize leaves the predictions unchanged to rounding.
func TestInvariances(t *testing.T) {
	dir := t.TempDir()
	train := housingColumns(t, dir, "train.csv", 140, 201, housingNames(), true) // 61 rows, 37 prime to it; no feature constant
	test := housingColumns(t, dir, "test.csv", 300, 330, housingNames(), true)
	permuted := permutedRows(t, train, filepath.Join(dir, "perm.csv"))
	for _, args := range [][]string{
		{"fit", "-method", "cholesky", "-sigma", "auto", "-lambda", "auto"},
		{"fit", "-method", "nystrom", "-centers", "61", "-sigma", "auto", "-lambdas", "1e-6:1e-1:6"},
		{"fit", "-method", "cholesky", "-sigma", "3", "-lambda", "1e-3"},
	} {
		var got [2]map[string]any
		var pred [2][]float64
		for i, tr := range []string{train, permuted} {
			p := filepath.Join(dir, "p"+strconv.Itoa(i))
			got[i], _ = runJSON(t, append(args, "-train", tr, "-test", test, "-predictions", p)...)
			pred[i] = predictions(t, p)
		}
		for _, f := range []string{"sigma", "lambda", "loo_mse", "test_mse"} {
			a, _ := got[0][f].(float64)
			b, _ := got[1][f].(float64)
			if (got[0][f] == nil) != (got[1][f] == nil) || !near(a, b) {
				t.Errorf("%v: %s %v on the rows, %v on them permuted", args[1:], f, got[0][f], got[1][f])
			}
		}
		for i := range pred[0] {
			if !near(pred[0][i], pred[1][i]) {
				t.Errorf("%v: prediction %d: %v, %v with the rows permuted", args[1:], i, pred[0][i], pred[1][i])
				break
			}
		}
	}
	// f5 (the nitric oxides, about 0.5) × 1000 in both files.
	scaled := func(src, name string) string {
		raw, _ := os.ReadFile(src)
		lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
		for i := 1; i < len(lines); i++ {
			f := strings.Split(lines[i], ",")
			v, _ := strconv.ParseFloat(f[4], 64)
			f[4] = strconv.FormatFloat(v*1000, 'g', -1, 64)
			lines[i] = strings.Join(f, ",")
		}
		return write(t, dir, name, []byte(strings.Join(lines, "\n")+"\n"))
	}
	var pred [2][]float64
	for i, files := range [][2]string{{train, test}, {scaled(train, "strain.csv"), scaled(test, "stest.csv")}} {
		p := filepath.Join(dir, "s"+strconv.Itoa(i))
		if code, _, e := runCmd("fit", "-train", files[0], "-test", files[1], "-standardize", "-sigma", "3", "-lambda", "1e-3", "-predictions", p); code != 0 {
			t.Fatalf("exit %d: %s", code, e)
		}
		pred[i] = predictions(t, p)
	}
	for i := range pred[0] {
		if !near(pred[0][i], pred[1][i]) {
			t.Errorf("prediction %d: %v, %v with a feature × 1000 under -standardize", i, pred[0][i], pred[1][i])
			break
		}
	}
}
