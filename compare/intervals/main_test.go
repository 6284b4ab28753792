package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"rkhs/classify"
	"rkhs/interval"
	"rkhs/linalg"
	"rkhs/regress"
)

// rank is the split-conformal quantile: the ⌈level·(n+1)⌉-th smallest.
func TestRank(t *testing.T) {
	r := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}
	for _, c := range []struct{ level, want float64 }{
		{0.5, 5},            // ⌈5⌉
		{0.8, 8},            // ⌈8⌉
		{0.85, 9},           // ⌈8.5⌉
		{0.9, 9},            // ⌈9⌉
		{0.95, math.Inf(1)}, // ⌈9.5⌉ = 10 > 9
		{0.01, 1},           // ⌈0.1⌉
	} {
		if got := rank(r, c.level); got != c.want {
			t.Errorf("rank(1…9, %g) = %g, want %g", c.level, got, c.want)
		}
	}
}

// splitSets on two classes, one column of decision values f: the score of
// the larger label is −f, of the smaller f, and a label is in the set when
// its score is at most the calibration rank.
func TestSplitSets(t *testing.T) {
	// Four calibration rows, labels 2, 2, 1, 2 with f = 0.9, 0.1, −0.5, 0.3:
	// scores −0.9, −0.1, −0.5, −0.3, sorted −0.9, −0.5, −0.3, −0.1.
	p := &problem{labels: []float64{2, 2, 1, 2}, tlabels: []float64{2, 1, 1}}
	p.xt = linalg.NewDense(3, 1, nil)
	fc := linalg.NewDense(4, 1, []float64{0.9, 0.1, -0.5, 0.3})
	// Test f = 0.4 (scores: label 2 −0.4, label 1 0.4), −0.2 (0.2, −0.2),
	// 0 (0, 0).
	ft := linalg.NewDense(3, 1, []float64{0.4, -0.2, 0})
	pred, err := splitSets(p, []int{0, 1, 2, 3}, fc, ft)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ level, cov, size float64 }{
		// ⌈0.6·5⌉ = 3: τ = −0.3: row 0 {2} (−0.4), row 1 {}, row 2 {}.
		{0.6, 1.0 / 3, 1.0 / 3},
		// ⌈0.8·5⌉ = 4: τ = −0.1: row 0 {2}, row 1 {1} (−0.2), row 2 {}.
		{0.8, 2.0 / 3, 2.0 / 3},
		// ⌈0.9·5⌉ = 5 > 4: τ = +∞, every label.
		{0.9, 1, 2},
	} {
		cov, size, err := pred(c.level)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(cov-c.cov) > 1e-15 || math.Abs(size-c.size) > 1e-15 {
			t.Errorf("level %g: coverage %g, size %g; want %g, %g", c.level, cov, size, c.cov, c.size)
		}
	}
}

// The whole program on a small file: every method prints its three
// levels, and the jackknife+ at 0.9 covers about 90 % of the test rows.
func TestRunSmall(t *testing.T) {
	if testing.Short() {
		t.Skip("fits and selections")
	}
	dir := t.TempDir()
	write := func(name string, n int, seed float64) string {
		return writeCSV(t, filepath.Join(dir, name), n, seed, false)
	}
	o := options{train: write("train.csv", 400, 0.1), test: write("test.csv", 300, 0.37), target: "y",
		method: "nystrom", levels: "0.8,0.9,0.95", centers: 50, folds: 5, jackMax: 1000, testRows: 0, seed: 1,
		dump: filepath.Join(dir, "dump")}
	out := captureStdout(t, func() error { return run(o) })
	for _, name := range []string{"jackknife+ | 0.9 |", "CV+ (K = 5) | 0.95 |", "split conformal (20 % calibration) | 0.8 |"} {
		if !strings.Contains(out, name) {
			t.Errorf("no line %q in\n%s", name, out)
		}
	}
	// Jackknife+ at 0.9 on 300 test rows: within three standard errors,
	// 3·√(0.9·0.1/300) ≈ 0.052, of 0.9.
	found := false
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Split(line, " | "); len(f) > 2 && f[0] == "jackknife+" && f[1] == "0.9" {
			found = true
			cov, err := strconv.ParseFloat(f[2], 64)
			if err != nil || math.Abs(cov-0.9) > 0.052 {
				t.Errorf("jackknife+ coverage at 0.9: %q, want within 0.052 of 0.9", f[2])
			}
		}
	}
	if !found {
		t.Errorf("no jackknife+ line at 0.9 in\n%s", out)
	}
	for _, f := range []string{"xtr.f64", "centres.f64", "folds.f64", "jack_lower.f64", "meta.txt"} {
		if _, err := os.Stat(filepath.Join(o.dump, f)); err != nil {
			t.Errorf("dump: %v", err)
		}
	}
}

// Every CV+ row of a run: with -per-fold the two honest variants print
// their levels and cover about 90 % at 0.9 as the CV+ at the chosen pair
// does, for intervals and for label sets; for classes the row from the
// folds' statistics says that package interval has no such sets.
func TestRunCVRows(t *testing.T) {
	if testing.Short() {
		t.Skip("fits and selections")
	}
	dir := t.TempDir()
	write := func(name string, n int, seed float64, classes bool) string {
		return writeCSV(t, filepath.Join(dir, name), n, seed, classes)
	}
	cvRows := []string{"CV+ (K = 5)", "CV+ (K = 5), σ and λ re-chosen per fold",
		"CV+ (K = 5), σ and λ re-chosen per fold, from the folds' statistics"}
	for _, c := range []struct {
		name    string
		classes bool
	}{{"regression", false}, {"classes", true}} {
		t.Run(c.name, func(t *testing.T) {
			o := options{train: write(c.name+"-train.csv", 300, 0.1, c.classes), test: write(c.name+"-test.csv", 300, 0.37, c.classes),
				target: "y", classes: c.classes, perFold: true, method: "nystrom", levels: "0.8,0.9,0.95", centers: 30,
				folds: 5, jackMax: 1000, seed: 1}
			out := captureStdout(t, func() error { return run(o) })
			lines := strings.Split(out, "\n")
			for _, name := range cvRows {
				var rows [][]string
				for _, line := range lines {
					if f := strings.Split(line, " | "); len(f) > 2 && f[0] == name {
						rows = append(rows, f)
					}
				}
				if c.classes && name == cvRows[2] {
					if len(rows) != 1 || !strings.HasPrefix(rows[0][2], "no such label sets in package interval") {
						t.Errorf("%s: rows %q, want one saying package interval has no such label sets", name, rows)
					}
					continue
				}
				if len(rows) != 3 || rows[1][1] != "0.9" {
					t.Errorf("%s: rows %q, want one at each of the three levels", name, rows)
					continue
				}
				// Within three standard errors, 3·√(0.9·0.1/300) ≈ 0.052, of 0.9.
				if cov, err := strconv.ParseFloat(rows[1][2], 64); err != nil || math.Abs(cov-0.9) > 0.052 {
					t.Errorf("%s: coverage at 0.9 %q, want within 0.052 of 0.9", name, rows[1][2])
				}
			}
		})
	}
}

// foldSets, the brute-force count of the per-fold row, on the fold models
// of interval.ClassifyNystromCV (each a Nyström classifier on the rows
// outside its fold at λ·n/n₋ₖ, the penalty nλ of the full fit held) gives
// the coverage and mean set size of interval's own CV+ label sets.
func TestFoldSetsIsCVPlus(t *testing.T) {
	dir := t.TempDir()
	read := func(name string, n int, seed float64) ([]float64, *linalg.Dense) {
		d, err := readCSV(writeCSV(t, filepath.Join(dir, name), n, seed, true), "y")
		if err != nil {
			t.Fatal(err)
		}
		return d.Y, &d.X
	}
	p := &problem{}
	p.labels, p.x = read("train.csv", 200, 0.1)
	p.tlabels, p.xt = read("test.csv", 150, 0.37)
	p.sigma, p.lambda = 0.5, 1e-3
	var err error
	if p.centres, err = regress.NystromCenters(p.x, 30, 1); err != nil {
		t.Fatal(err)
	}
	folds, err := interval.Folds(p.x.Rows, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := interval.ClassifyNystromCV(p.nystrom(p.centres), false, p.x, p.labels, folds)
	if err != nil {
		t.Fatal(err)
	}
	models := make([]*classify.RLSModel, len(folds))
	for k, rest := range complements(p.x.Rows, folds) {
		cfg := p.nystrom(p.centres)
		cfg.Lambda = p.lambda * float64(p.x.Rows) / float64(len(rest))
		labels := make([]float64, len(rest))
		for r, i := range rest {
			labels[r] = p.labels[i]
		}
		ck, err := interval.ClassifyNystrom(cfg, false, rows(p.x, rest), labels)
		if err != nil {
			t.Fatal(err)
		}
		models[k] = ck.Model()
	}
	pred, err := foldSets(p, models, folds)
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []float64{0.5, 0.8, 0.9, 0.95} {
		s, err := c.Predict(p.xt, level)
		if err != nil {
			t.Fatal(err)
		}
		wantCov, wantSize := s.Coverage(p.tlabels)
		cov, size, err := pred(level)
		if err != nil {
			t.Fatal(err)
		}
		if cov != wantCov || size != wantSize {
			t.Errorf("level %g: coverage %g, size %g; interval.ClassifyNystromCV: %g, %g", level, cov, size, wantCov, wantSize)
		}
	}
}

// writeCSV writes n rows a,b,y of a deterministic scramble (the
// golden-ratio sequence from seed, two coordinates) to path: y a smooth
// function plus a bounded error, or for classes the label 0 or 1 of a
// noisy half-plane.
func writeCSV(t *testing.T, path string, n int, seed float64, classes bool) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("a,b,y\n")
	x := seed
	for range n {
		x = math.Mod(x+0.6180339887498949, 1)
		z := math.Mod(x*7.123, 1)
		e := math.Mod(x*13.37, 1) - 0.5
		y := math.Sin(3*x) + z*z + 0.2*e
		if classes {
			y = 0
			if x+z+0.1*e > 1 {
				y = 1
			}
		}
		b.WriteString(strings.Join([]string{ftoa(2*x - 1), ftoa(2*z - 1), ftoa(y)}, ","))
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func captureStdout(t *testing.T, f func() error) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	ferr := f()
	os.Stdout = old
	w.Close()
	out := <-done
	if ferr != nil {
		t.Fatal(ferr)
	}
	return out
}
