package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rkhs/internal/cli"
	"rkhs/kernels"
	"rkhs/linalg"
)

// beijingLike writes train and test CSV files shaped like the Beijing
// air-quality data: pressure near 1000 hPa, temperature near 15 °C, wind
// near 2 m/s, rain (constant 0 when constRain), and a target that depends
// smoothly on all of them once they are on one scale. It returns the
// paths and the raw rows, for writing standardized copies.
func beijingLike(t *testing.T, dir string, constRain bool) (train, test string, xs [2]*linalg.Dense, ys [2][]float64) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(1, 2))
	for f, n := range []int{120, 40} {
		x := linalg.NewDense(n, 4, nil)
		y := make([]float64, n)
		for i := 0; i < n; i++ {
			pres, temp, wind := 1010+10*rnd.NormFloat64(), 15+10*rnd.NormFloat64(), 2+rnd.ExpFloat64()
			rain := 0.0
			if !constRain {
				rain = 0.3 * rnd.ExpFloat64()
			}
			copy(x.Row(i), []float64{pres, temp, wind, rain})
			y[i] = 80 + 40*math.Sin((pres-1010)/10) + 30*math.Tanh((temp-15)/10) - 20*(wind-2) + 10*rain + rnd.NormFloat64()
		}
		xs[f], ys[f] = x, y
	}
	train, test = filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	writeCSV(t, train, xs[0], ys[0])
	writeCSV(t, test, xs[1], ys[1])
	return train, test, xs, ys
}

// writeCSV writes rows with the header PRES,TEMP,WSPM,RAIN,PM2.5, every
// number as %.17g, which reads back as the same float64.
func writeCSV(t *testing.T, path string, x *linalg.Dense, y []float64) {
	t.Helper()
	var b strings.Builder
	b.WriteString("PRES,TEMP,WSPM,RAIN,PM2.5\n")
	for i := 0; i < x.Rows; i++ {
		for _, v := range x.Row(i) {
			fmt.Fprintf(&b, "%.17g,", v)
		}
		fmt.Fprintf(&b, "%.17g\n", y[i])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fitJSON runs rkhs with args and decodes its -json result.
func fitJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	code, out, e := runCmd(args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, e)
	}
	var res map[string]any
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v: %v in %q", args, err, out)
	}
	return res
}

// TestFitStandardize: with features hundreds apart and σ = 1,
// -standardize turns a model that predicts little better than the mean
// into a useful one; its test predictions are those of a fit on files
// standardized by hand with the training rows' moments (never the test
// file's own), bit for bit; the saved model takes raw rows in rkhs
// predict; and without -standardize (or with -standardize=no) the model
// file has no standardization.
func TestFitStandardize(t *testing.T) {
	dir := t.TempDir()
	train, test, xs, ys := beijingLike(t, dir, false)
	s, err := kernels.StandardizationOf(xs[0])
	if err != nil {
		t.Fatal(err)
	}
	trainS, testS := filepath.Join(dir, "trainS.csv"), filepath.Join(dir, "testS.csv")
	for f, path := range []string{trainS, testS} {
		z, err := s.Apply(xs[f])
		if err != nil {
			t.Fatal(err)
		}
		writeCSV(t, path, z, ys[f])
	}
	for _, method := range [][]string{
		{"-method", "cholesky", "-lambda", "1e-3"},
		{"-method", "falkon", "-centers", "30", "-lambda", "1e-3"},
	} {
		files := func(tag string) (string, string) {
			return filepath.Join(dir, tag+".json"), filepath.Join(dir, tag+".pred")
		}
		common := append([]string{"fit", "-target", "PM2.5", "-sigma", "1", "-json"}, method...)
		run := func(tag, tr, te string, extra ...string) map[string]any {
			model, pred := files(tag)
			return fitJSON(t, append(append(common, "-train", tr, "-test", te, "-model", model, "-predictions", pred), extra...)...)
		}
		on := run("on", train, test, "-standardize")
		off := run("off", train, test)
		no := run("no", train, test, "-standardize=no")
		hand := run("hand", trainS, testS)
		if on["standardized"] != true || off["standardized"] != nil || no["standardized"] != nil {
			t.Errorf("%v: standardized %v, %v, %v; want true, absent, absent", method, on["standardized"], off["standardized"], no["standardized"])
		}
		if on["test_mse"].(float64) > 0.5*off["test_mse"].(float64) {
			t.Errorf("%v: test MSE %v standardized, %v raw: want at most half", method, on["test_mse"], off["test_mse"])
		}
		read := func(tag, ext string) []byte {
			b, err := os.ReadFile(filepath.Join(dir, tag+ext))
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
		if !bytes.Equal(read("on", ".pred"), read("hand", ".pred")) || on["test_mse"] != hand["test_mse"] || on["train_mse"] != hand["train_mse"] {
			t.Errorf("%v: -standardize predicts otherwise than a fit on files standardized by hand", method)
		}
		if !bytes.Contains(read("on", ".json"), []byte(`"standardization":{"mean":[`)) || bytes.Contains(read("off", ".json"), []byte("standardization")) || !bytes.Equal(read("off", ".json"), read("no", ".json")) {
			t.Errorf("%v: model files: standardization saved only with -standardize, and -standardize=no is the default here", method)
		}
		model, pred := files("on")
		code, out, e := runCmd("predict", "-model", model, "-data", test)
		if want, _ := os.ReadFile(pred); code != 0 || out != string(want) {
			t.Errorf("%v: rkhs predict on raw rows: exit %d (%s), same predictions: %v", method, code, e, out == string(want))
		}
	}
}

// TestClassifyLOOStandardize: rkhs classify -standardize saves a model
// that takes raw rows in rkhs predict, and predicts as a fit on files
// standardized by hand; rkhs loo -standardize gives the leave-one-out
// curve of the standardized rows.
func TestClassifyLOOStandardize(t *testing.T) {
	dir := t.TempDir()
	_, _, xs, ys := beijingLike(t, dir, false)
	for f := range ys {
		for i, v := range ys[f] {
			ys[f][i] = math.Copysign(1, v-80)
		}
	}
	s, _ := kernels.StandardizationOf(xs[0])
	paths := map[string]string{}
	for f, name := range []string{"train", "test"} {
		paths[name] = filepath.Join(dir, name+".csv")
		writeCSV(t, paths[name], xs[f], ys[f])
		z, _ := s.Apply(xs[f])
		paths[name+"S"] = filepath.Join(dir, name+"S.csv")
		writeCSV(t, paths[name+"S"], z, ys[f])
	}
	for _, method := range [][]string{{"-method", "rls"}, {"-method", "knn", "-k", "3"}, {"-method", "svm", "-lambda", "1e-3", "-iters", "100"}} {
		common := append([]string{"classify", "-target", "PM2.5", "-sigma", "1"}, method...)
		model, p1, p2 := filepath.Join(dir, "m.json"), filepath.Join(dir, "p1"), filepath.Join(dir, "p2")
		if code, _, e := runCmd(append(common, "-train", paths["train"], "-test", paths["test"], "-standardize", "-model", model, "-predictions", p1)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", method, code, e)
		}
		if code, _, e := runCmd(append(common, "-train", paths["trainS"], "-test", paths["testS"], "-predictions", p2)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", method, code, e)
		}
		want, _ := os.ReadFile(p2)
		if got, _ := os.ReadFile(p1); !bytes.Equal(got, want) {
			t.Errorf("%v: -standardize predicts otherwise than a fit on files standardized by hand", method)
		}
		if code, out, e := runCmd("predict", "-model", model, "-data", paths["test"]); code != 0 || out != string(want) {
			t.Errorf("%v: rkhs predict on raw rows: exit %d (%s), same labels: %v", method, code, e, out == string(want))
		}
	}
	loo := func(train string, extra ...string) string {
		res := fitJSON(t, append([]string{"loo", "-train", train, "-target", "PM2.5", "-sigma", "1", "-lambdas", "1e-6:1:7", "-json"}, extra...)...)
		delete(res, "seconds")
		b, _ := json.Marshal(res)
		return string(b)
	}
	if got, want := loo(paths["train"], "-standardize"), loo(paths["trainS"]); got != want {
		t.Errorf("loo -standardize:\n%s\nloo on the file standardized by hand:\n%s", got, want)
	}
}

// TestStandardizeErrors: a constant feature is kept at its value, with a
// note naming it; an unknown value of the flag is a usage error; the
// default follows -sigma auto.
func TestStandardizeErrors(t *testing.T) {
	dir := t.TempDir()
	train, test, _, _ := beijingLike(t, dir, true)
	model := filepath.Join(dir, "m.json")
	for _, args := range [][]string{
		{"fit", "-train", train, "-test", test, "-target", "PM2.5", "-lambda", "1e-3", "-standardize", "-model", model},
		{"classify", "-train", train, "-target", "WSPM", "-features", "PRES,RAIN", "-max-classes", "1000", "-method", "knn", "-standardize", "-model", model},
		{"loo", "-train", train, "-target", "PM2.5", "-standardize"},
	} {
		code, _, e := runCmd(args...)
		if code != 0 || !strings.Contains(e, "note: feature RAIN (every value 0) is constant in the 120 training rows: kept at its value") {
			t.Errorf("%s with a constant feature: exit %d, %q; want it kept, with a note naming RAIN", args[0], code, e)
		}
	}
	if code, _, e := runCmd("fit", "-train", train, "-lambda", "1", "-standardize=maybe"); code != 2 || !strings.Contains(e, "want auto, yes or no") {
		t.Errorf("-standardize=maybe: exit %d, %q", code, e)
	}
	// The usage's "-standardize yes" reads as written, in every verb.
	for _, args := range [][]string{
		{"fit", "-train", train, "-target", "PM2.5", "-lambda", "1", "-standardize", "yes"},
		{"classify", "-train", train, "-target", "PM2.5", "-method", "knn", "-max-classes", "1000", "-standardize", "yes"},
		{"loo", "-train", train, "-target", "PM2.5", "-standardize", "yes"},
	} {
		if code, _, e := runCmd(args...); code != 0 || !strings.Contains(e, "features standardized") {
			t.Errorf("%s -standardize yes: exit %d, %q", args[0], code, e)
		}
	}
	for _, c := range []struct {
		mode      string
		sigmaAuto bool
		want      bool
	}{{"", false, false}, {"", true, true}, {"auto", true, true}, {"yes", false, true}, {"no", true, false}} {
		f := cli.Standardize{Mode: c.mode}
		if got := f.On(c.sigmaAuto); got != c.want {
			t.Errorf("-standardize %q with -sigma auto %v: on %v, want %v", c.mode, c.sigmaAuto, got, c.want)
		}
	}
}
