package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"rkhs/cmd/rkhs/internal/paper"
	"strings"
	"testing"
)

// TestPaperQuick runs the experiment on the two smallest sets and checks
// its outputs: the table, the JSON (every curve complete and consistent),
// and one SVG per set.
func TestPaperQuick(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runCmd("paper", "-sets", "triazines,bodyfat", "-out", dir, "-seed", "3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "| triazines (124/62) | linear |") || !strings.Contains(out, "CG on [K 1]") {
		t.Errorf("table lacks rows:\n%s", out)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Experiments []paper.Experiment `json:"experiments"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Experiments) != 4 {
		t.Fatalf("%d experiments, want 4", len(res.Experiments))
	}
	for _, e := range res.Experiments {
		if len(e.Curves) != 4 {
			t.Errorf("%s/%s: %d curves", e.Set, e.Kernel, len(e.Curves))
		}
		for _, c := range e.Curves {
			want := 100 // λ values
			if c.Param == "t" {
				want = 50 // CG iterations
			}
			if len(c.Values) != want || len(c.TestMSE) != want {
				t.Errorf("%s/%s %s: %d values, %d errors", e.Set, e.Kernel, c.Method, len(c.Values), len(c.TestMSE))
			}
			for _, m := range c.TestMSE {
				if m < c.BestMSE {
					t.Errorf("%s/%s %s: best %v is not the minimum (%v)", e.Set, e.Kernel, c.Method, c.BestMSE, m)
				}
			}
			if c.NearBest <= 0 || c.NearBest > 1 {
				t.Errorf("%s: near_best %v", c.Method, c.NearBest)
			}
		}
		if e.Kernel == "gaussian" && !(e.Sigma > 0) {
			t.Errorf("%s: σ %v", e.Set, e.Sigma)
		}
	}
	for _, name := range []string{"triazines.svg", "bodyfat.svg", "table.md"} {
		if b, err := os.ReadFile(filepath.Join(dir, name)); err != nil || len(b) < 100 {
			t.Errorf("%s: %v (%d bytes)", name, err, len(b))
		}
	}
	if code, _, _ := runCmd("paper", "-sets", "iris"); code != 2 {
		t.Errorf("unknown set: exit %d", code)
	}
}
