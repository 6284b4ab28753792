package main

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rkhs/dataset"
	"rkhs/regress"
)

// TestSelectEqualsRkhs: rkhs-beam select and the selection of rkhs —
// rkhs fit -method nystrom -sigma auto -lambda auto, and rkhs classify
// with -classes — on the same rows, grids and standardization (the
// default of both, since σ is chosen) and the same centres choose the
// same pair, with tables equal to 1e-10 relative, for each criterion.
//
// The centres: rkhs draws its own, regress.NystromCenters with -seed on
// the training rows; rkhs-beam draws another sample (a hash of the rows),
// so it is given the rows rkhs draws as a -centers-file, in the training
// file's units, which it standardizes by the moments of the rows as rkhs
// standardizes the rows it draws them from. rkhs is built from its
// source by the go command (the test is skipped without one, and in
// -short mode).
func TestSelectEqualsRkhs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds rkhs")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build rkhs with")
	}
	dir := t.TempDir()
	rkhs := filepath.Join(dir, "rkhs")
	if out, err := exec.Command(goTool, "build", "-o", rkhs, "rkhs/cmd/rkhs").CombinedOutput(); err != nil {
		t.Fatalf("go build rkhs/cmd/rkhs: %v\n%s", err, out)
	}
	const m, seed = 15, "7"
	writeRows(t, filepath.Join(dir, "train.csv"), "a,b,c,y", 120, 3, 1)
	d, err := dataset.ReadCSV(strings.NewReader(readString(t, filepath.Join(dir, "train.csv"))), dataset.CSVOptions{DetectHeader: true, LabelCol: -1})
	if err != nil {
		t.Fatal(err)
	}
	// The same rows with three classes of y, for classify.
	var cb strings.Builder
	cb.WriteString("a,b,c,y\n")
	for i := range d.X.Rows {
		x := d.X.Row(i)
		cb.WriteString(f(x[0]) + "," + f(x[1]) + "," + f(x[2]) + "," + strconv.Itoa((int(math.Floor(d.Y[i]))%3+3)%3) + "\n")
	}
	os.WriteFile(filepath.Join(dir, "classes.csv"), []byte(cb.String()), 0o644)
	s, _ := strconv.ParseUint(seed, 10, 64)
	c, err := regress.NystromCenters(&d.X, m, s)
	if err != nil {
		t.Fatal(err)
	}
	var centers strings.Builder
	centers.WriteString("a,b,c\n")
	for i := range c.Rows {
		x := c.Row(i)
		centers.WriteString(f(x[0]) + "," + f(x[1]) + "," + f(x[2]) + "\n")
	}
	os.WriteFile(filepath.Join(dir, "centres.csv"), []byte(centers.String()), 0o644)

	grids := []string{"-sigmas", "0.25:4:5", "-lambdas", "1e-8:1e-1:8"}
	for _, tc := range []struct {
		name       string
		rkhs, beam []string
	}{
		{"fit, loo", []string{"fit", "-train", "train.csv", "-method", "nystrom"}, []string{"-input", "train.csv"}},
		{"fit, gcv", []string{"fit", "-train", "train.csv", "-method", "nystrom", "-criterion", "gcv"}, []string{"-input", "train.csv", "-criterion", "gcv"}},
		{"classify, loo", []string{"classify", "-train", "classes.csv", "-method", "nystrom"}, []string{"-input", "classes.csv", "-classes"}},
	} {
		args := append(append(tc.rkhs, "-centers", strconv.Itoa(m), "-seed", seed, "-sigma", "auto", "-lambda", "auto", "-json"), grids...)
		cmd := exec.Command(rkhs, args...)
		cmd.Dir = dir
		want, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: rkhs %s: %v", tc.name, strings.Join(args, " "), err)
		}
		args = append(append([]string{"select", "-format", "csv", "-centers-file", "centres.csv", "-json", "-model", "m.json"}, tc.beam...), grids...)
		code, got, said := rkhsBeamStreams(t, dir, args...)
		if code != 0 {
			t.Fatalf("%s: rkhs-beam %s: exit %d: %s", tc.name, strings.Join(args, " "), code, said)
		}
		var r, b selectionJSON
		if err := json.Unmarshal(want, &r); err != nil {
			t.Fatalf("%s: rkhs -json: %v\n%s", tc.name, err, want)
		}
		if err := json.Unmarshal([]byte(got), &b); err != nil {
			t.Fatalf("%s: rkhs-beam -json: %v\n%s", tc.name, err, got)
		}
		if b.Sigma != r.Sigma || b.Lambda != r.Lambda || b.Table.Criterion != r.Table.Criterion {
			t.Errorf("%s: rkhs-beam chose σ = %g, λ = %g by %s; rkhs σ = %g, λ = %g by %s", tc.name, b.Sigma, b.Lambda, b.Table.Criterion, r.Sigma, r.Lambda, r.Table.Criterion)
		}
		if len(b.Table.Scores) != len(r.Table.Scores) || len(r.Table.Scores) != 5 {
			t.Fatalf("%s: %d rows of scores, rkhs %d, want 5", tc.name, len(b.Table.Scores), len(r.Table.Scores))
		}
		for a := range r.Table.Scores {
			for j, w := range r.Table.Scores[a] {
				g := b.Table.Scores[a][j]
				if e := math.Abs(g-w) / math.Abs(w); !(e <= 1e-10) && !(w == 0 && g == 0) {
					t.Errorf("%s: score at σ = %g, λ = %g: %.15g, rkhs %.15g", tc.name, r.Table.Sigmas[a], r.Table.Lambdas[j], g, w)
				}
			}
		}
	}
}

// selectionJSON is what both commands' -json say of a selection.
type selectionJSON struct {
	Sigma, Lambda float64
	Table         struct {
		Criterion       string
		Sigmas, Lambdas []float64
		Scores          [][]float64
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
