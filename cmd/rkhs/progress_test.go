package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"rkhs/loo"
)

// TestAnnounce: a long exact run is announced with its time and memory
// and what would be faster, then followed by progress lines until it
// stops; a short one prints nothing. The speed is fixed, so the estimate
// is known: n = 4000, d = 1 by Cholesky is n²d + n³/3 = 2.14e10 flops, at
// 1e9 flops a second 21 s, and 128 MB.
func TestAnnounce(t *testing.T) {
	oldRate, oldEvery := productRate, progressEvery
	defer func() { productRate, progressEvery = oldRate, oldEvery }()
	productRate = func() float64 { return 1e9 }
	progressEvery = 20 * time.Millisecond

	var b bytes.Buffer
	stop := announce(&b, "fit -method cholesky", "cholesky", 4000, 1)
	time.Sleep(70 * time.Millisecond)
	stop()
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "rkhs fit -method cholesky on 4000 rows: about 21s and 122 MiB of memory") ||
		!strings.Contains(lines[0], "-method falkon") || !strings.Contains(lines[1], "elapsed of about 21s") {
		t.Errorf("announcement:\n%s", b.String())
	}
	n := len(lines)
	time.Sleep(50 * time.Millisecond)
	if got := strings.Count(b.String(), "\n"); got != n {
		t.Errorf("%d lines after stop, %d before", got, n)
	}

	b.Reset()
	announce(&b, "fit -method cholesky", "cholesky", 2000, 1)() // below minAnnounced
	productRate = func() float64 { return 1e12 }
	announce(&b, "loo", "eigen", 4000, 1)() // 0.4 s
	if b.Len() != 0 {
		t.Errorf("short runs announced: %q", b.String())
	}
}

// TestAnnounceSelection: a streamed selection is announced before its
// first pass on any number of rows, its grids alone making it long. At
// 10¹⁰ flops a second the largest grid, 10⁴ σ × 10⁴ λ on 200 rows of 3
// features with 20 centres, is 10⁴ × (2·200·20·3 + 10·200·20 + 200·20² +
// 6·20³ + 200·10⁴·10·(20 + 20)) = 8.00192e12 flops: 13m20s. A command at
// a speed that makes its small grid long prints the estimate first.
func TestAnnounceSelection(t *testing.T) {
	oldRate := productRate
	defer func() { productRate = oldRate }()
	productRate = func() float64 { return 1e10 }
	c := cost{Cost: loo.SelectNystromCost(200, 3, 1, 20, 10000, 10000, 200), order: "10000 σ × 10000 λ"}
	if c.Flops != 8.00192e12 {
		t.Errorf("the largest grid: %g flops, want 8.00192e12", c.Flops)
	}
	var b bytes.Buffer
	announceCost(&b, "fit -method nystrom, choosing σ and λ,", 200, c)()
	if got := b.String(); !strings.HasPrefix(got, "rkhs fit -method nystrom, choosing σ and λ, on 200 rows: about 13m20s and ") || !strings.Contains(got, "(10000 σ × 10000 λ)") {
		t.Errorf("announcement of the largest grid: %q", got)
	}
	if c := loo.SelectNystromCost(200, 3, 1, 20, 20, 100, 0); c.Flops/1e10 > 1 {
		t.Errorf("a small grid by GCV estimated at %g s", c.Flops/1e10)
	}

	productRate = func() float64 { return 1e5 }
	train := knownScales(t, t.TempDir(), "train.csv", 200, 1)
	code, _, stderr := runCmd("fit", "-train", train, "-method", "nystrom", "-centers", "10", "-sigmas", "0.5:4:3", "-lambdas", "1e-6:1e-1:5")
	est, pass := strings.Index(stderr, "rkhs fit -method nystrom, choosing σ and λ, on 200 rows: about "), strings.Index(stderr, "pass 1 of")
	if code != 0 || est < 0 || pass < est {
		t.Errorf("exit %d; the estimate at %d, the first pass at %d:\n%s", code, est, pass, stderr)
	}
}
