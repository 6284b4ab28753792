package rkhsbeam

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// sparseFile writes n LIBSVM rows of d features, two non-zeros each.
func sparseFile(t *testing.T, n, d int) string {
	t.Helper()
	var sb strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&sb, "%d %d:0.5 %d:%g\n", i%3, 1+i%(d/2), d/2+1+i%(d/2), float64(i)/float64(n))
	}
	name := filepath.Join(t.TempDir(), "wide.svm")
	if err := os.WriteFile(name, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestBlocksSizedByMemory: a pass over a small file of wide sparse rows
// (LIBSVM, d = 20000) allocates in proportion to the file and the
// centres, not a block of thousands of dense rows (8192 × d × 8 bytes,
// 1.3 GB here), for the statistics and for a conjugate-gradient product.
func TestBlocksSizedByMemory(t *testing.T) {
	const n, d, m = 50, 20000, 3
	file := sparseFile(t, n, d)
	in := Input{Patterns: []string{file}, Format: "libsvm", Width: d}
	c := linalg.NewDense(m, d, nil)
	for i := 0; i < m; i++ {
		c.Set(i, i, 1)
	}
	spec := kernels.Spec{Type: "gaussian", Sigma: 1}
	// Rows, centres and their encodings: a few MB; allow 64 MiB.
	const budget = 64 << 20
	stats := &statsFileFn{In: in, Kernel: spec}
	var out [][]byte
	got := allocated(func() {
		err := stats.ProcessElement(context.Background(), fileJob{File: file, Prep: encodePrep(&prep{Centers: c})},
			func(b []byte) { out = append(out, b) }, func(string) {})
		if err != nil {
			t.Fatal(err)
		}
	})
	if got > budget || len(out) != 1 {
		t.Errorf("statistics of %d rows of %d features: %d outputs, %.0f MiB allocated, want at most %d", n, d, len(out), float64(got)/(1<<20), budget>>20)
	}
	pass := &passFileFn{In: in, Kernel: spec, Centers: encodeMatrix(c), V: encodeMatrix(linalg.NewDense(m, 1, []float64{1, 2, 3}))}
	got = allocated(func() {
		if _, err := pass.ProcessElement(context.Background(), file); err != nil {
			t.Fatal(err)
		}
	})
	if got > budget {
		t.Errorf("a product over %d rows of %d features: %.0f MiB allocated, want at most %d", n, d, float64(got)/(1<<20), budget>>20)
	}
}

// TestSampleKeepsSparseRows: the bottom-m sample of wide sparse rows holds
// their non-zeros, not dense copies (10 rows of 10⁵ features: 8 MB dense),
// and reads back the same centres.
func TestSampleKeepsSparseRows(t *testing.T) {
	const d, m = 100000, 10
	rows := make([][]float64, m)
	for i := range rows {
		rows[i] = make([]float64, d)
		rows[i][i] = float64(i + 1)
		rows[i][d-1-i] = -0.5
	}
	smp := sample{D: d}
	got := allocated(func() {
		for _, x := range rows {
			smp.add(m, rowKey(1, x), x)
		}
	})
	if got > 1<<20 {
		t.Errorf("a sample of %d sparse rows of %d features allocated %.1f MiB, want under 1", m, d, float64(got)/(1<<20))
	}
	c := smp.dense()
	if c.Rows != m {
		t.Fatalf("%d centres, want %d", c.Rows, m)
	}
	for i := 0; i < m; i++ {
		found := false
		for _, x := range rows {
			if slices.Equal(x, c.Row(i)) {
				found = true
			}
		}
		if !found {
			t.Errorf("centre %d is none of the rows", i)
		}
	}
}
