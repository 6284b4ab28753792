package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestFalkonSelection: -method falkon with -sigma auto and -lambda auto
// chooses on -select-centers of its centres exactly what -method nystrom
// chooses on the same centres (the pair, the criterion, the whole table),
// then fits falkon on all -centers M at that pair (iterations, M centres
// in the JSON and in the saved model); with M ≤ -select-centers the fit is
// -method nystrom's, bit for bit. The saved model, which carries the
// standardization, predicts raw test rows through rkhs predict as the fit
// did.
func TestFalkonSelection(t *testing.T) {
	dir := t.TempDir()
	train, test := splitHousing(t, dir)
	heart, heartTest := splitSet(t, dir, "heart", "", 0)
	model, pfit, ppred, pnys := filepath.Join(dir, "m.json"), filepath.Join(dir, "p1"), filepath.Join(dir, "p2"), filepath.Join(dir, "p3")
	for _, c := range []struct {
		name, cmd, train, test string
		extra, falkonExtra     []string
		m, sel                 int // -centers, -select-centers (0: not given)
		loo                    string
	}{
		{"fit, M > selection", "fit", train, test, []string{"-lambdas", "1e-5:1e-1:5", "-seed", "3"}, nil, 120, 50, "loo_mse"},
		{"fit gcv, none", "fit", train, test, []string{"-lambdas", "1e-5:1e-1:5", "-criterion", "gcv", "-intercept", "none"}, []string{"-iters", "40"}, 90, 40, "gcv"},
		{"fit, λ given", "fit", train, test, []string{"-lambda", "1e-3"}, nil, 100, 30, "loo_mse"},
		{"fit, M ≤ selection", "fit", train, test, []string{"-lambdas", "1e-5:1e-1:5"}, nil, 40, 0, "loo_mse"},
		{"classify, M > selection", "classify", heart, heartTest, []string{"-lambda", "auto"}, []string{"-iters", "30"}, 100, 40, "loo_error"},
		{"classify, M ≤ selection", "classify", heart, heartTest, []string{"-lambda", "auto"}, nil, 40, 40, "loo_error"},
	} {
		common := append([]string{c.cmd, "-train", c.train, "-test", c.test, "-sigma", "auto"}, c.extra...)
		fal := append(append([]string(nil), common...), "-method", "falkon", "-centers", strconv.Itoa(c.m), "-model", model, "-predictions", pfit)
		fal = append(fal, c.falkonExtra...)
		if c.sel > 0 {
			fal = append(fal, "-select-centers", strconv.Itoa(c.sel))
		}
		got, stderr := runJSON(t, fal...)
		mSel := min(c.m, c.sel)
		if c.sel == 0 {
			mSel = c.m
		}
		want, _ := runJSON(t, append(append([]string(nil), common...), "-method", "nystrom", "-centers", strconv.Itoa(mSel), "-predictions", pnys)...)
		for _, f := range []string{"sigma", "lambda", "median_distance", "criterion", c.loo, "table", "standardized"} {
			if got[f] == nil || !reflect.DeepEqual(got[f], want[f]) {
				t.Errorf("%s: %s = %v, -method nystrom on the %d selection centres %v", c.name, f, got[f], mSel, want[f])
			}
		}
		for _, f := range []string{"fit_seconds", "test_" + map[string]string{"fit": "mse", "classify": "accuracy"}[c.cmd]} {
			if _, ok := got[f].(float64); !ok {
				t.Errorf("%s: %s = %v, want a number", c.name, f, got[f])
			}
		}
		if got["centers"] != float64(c.m) {
			t.Errorf("%s: centers %v, want %d", c.name, got["centers"], c.m)
		}
		a, _ := os.ReadFile(pfit)
		b, _ := os.ReadFile(pnys)
		falkonRan := strings.Contains(stderr, "residual")
		if c.m > mSel {
			// falkon on all M: its iteration lines, a model of M centres,
			// other predictions than the selection's own fit.
			if it, _ := got["iterations"].(float64); it < 1 || !falkonRan || bytes.Equal(a, b) {
				t.Errorf("%s: iterations %v, falkon's lines %v, predictions equal to nystrom's %v: want falkon on all %d centres", c.name, got["iterations"], falkonRan, bytes.Equal(a, b), c.m)
			}
		} else if got["iterations"] != nil || falkonRan || len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s: M ≤ -select-centers: iterations %v, falkon's lines %v, predictions equal %v; want the direct fit of -method nystrom", c.name, got["iterations"], falkonRan, bytes.Equal(a, b))
		}
		// The saved model: M centres, the standardization, the same
		// predictions of the raw test rows through rkhs predict.
		raw, _ := os.ReadFile(model)
		var saved map[string]any
		if err := json.Unmarshal(raw, &saved); err != nil {
			t.Fatalf("%s: model: %v", c.name, err)
		}
		if !strings.Contains(string(raw), "standardization") {
			t.Errorf("%s: the saved model has no standardization", c.name)
		}
		if code, _, e := runCmd("predict", "-model", model, "-data", c.test, "-predictions", ppred); code != 0 {
			t.Fatalf("%s: predict: exit %d: %s", c.name, code, e)
		}
		p, _ := os.ReadFile(ppred)
		if len(a) == 0 || !bytes.Equal(a, p) {
			t.Errorf("%s: the saved model predicts otherwise than the fit", c.name)
		}
	}
}

// TestFalkonSelectionBadInput: a λ or σ grid with a value ≤ 0,
// -select-centers below 1, without a selection or for another method, and
// labels of one class exit 2 with one line naming the flag (or the class)
// and write nothing.
func TestFalkonSelectionBadInput(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	heart, _ := splitSet(t, dir, "heart", "", 0)
	model, plot, pred := filepath.Join(dir, "m.json"), filepath.Join(dir, "p.svg"), filepath.Join(dir, "pred")
	out := []string{"-model", model, "-plot", plot, "-predictions", pred, "-test", train}
	fit := append([]string{"fit", "-train", train, "-method", "falkon", "-centers", "60"}, out...)
	cls := append([]string{"classify", "-train", heart, "-method", "falkon", "-centers", "60"}, out...)
	one := filepath.Join(dir, "one.csv")
	if err := os.WriteFile(one, []byte("1,2,1\n2,3,1\n3,1,1\n4,4,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	wantBadInput(t, nil, []invocation{
		// One class: refused before the selection's passes.
		{[]string{"classify", "-train", one, "-method", "nystrom", "-centers", "2", "-sigma", "1", "-lambda", "auto", "-model", model, "-test", one}, "the labels of -train: only one class (1); need two or more"},
		{[]string{"classify", "-train", one, "-method", "falkon", "-centers", "3", "-sigma", "1", "-lambda", "auto", "-model", model, "-test", one}, "the labels of -train: only one class (1)"},
		{[]string{"classify", "-train", one, "-method", "nystrom", "-centers", "2", "-sigma", "1", "-lambda", "1e-3", "-model", model, "-test", one}, "the labels of -train: only one class (1)"},
		{append(fit, "-sigma", "auto", "-lambdas", "0:1:3"), `-lambdas "0:1:3": want 0 < MIN ≤ MAX ≤ 1e300 and a whole COUNT ≥ 1`},
		{append(fit, "-sigma", "auto", "-lambdas", "-1e-3:1:3"), `-lambdas "-1e-3:1:3"`},
		{append(fit, "-lambda", "auto", "-sigmas", "0:1:3"), `-sigmas "0:1:3"`},
		{append(cls, "-sigma", "auto", "-lambdas", "0:1:3"), `-lambdas "0:1:3"`},
		{append(fit, "-sigma", "auto", "-lambda", "auto", "-select-centers", "0"), "-select-centers 0: want ≥ 1"},
		{append(cls, "-sigma", "auto", "-lambda", "auto", "-select-centers", "-3"), "-select-centers -3: want ≥ 1"},
		{[]string{"fit", "-train", train, "-method", "falkon", "-centers", "60", "-model", model, "-sigma", "2", "-lambda", "1e-3", "-select-centers", "20"}, "-select-centers is for a selection"},
		{append([]string{"fit", "-train", train, "-method", "nystrom", "-centers", "20", "-sigma", "auto", "-lambda", "auto", "-select-centers", "10"}, out...), "-select-centers is not used by -method nystrom"},
		{append([]string{"classify", "-train", heart, "-method", "falkon", "-sigma", "auto", "-lambda", "auto"}, out...), "-centers is required by -method falkon"},
		{append([]string{"classify", "-train", heart, "-method", "falkon", "-centers", "20", "-sigma", "auto"}, out...), "-lambda is required by -method falkon"},
		// M above the rows fails before the selection, naming -centers.
		{append([]string{"fit", "-train", train, "-method", "falkon", "-centers", "5000", "-select-centers", "20", "-sigma", "2", "-lambda", "auto"}, out...), "-centers 5000: must be between 1 and the 338 rows of the training file"},
	})
	if entries, _ := os.ReadDir(dir); len(entries) != 5 { // train, test, heart-train, heart-test, one.csv
		t.Errorf("the refused runs left files behind: %v", entries)
	}
}
