package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
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
