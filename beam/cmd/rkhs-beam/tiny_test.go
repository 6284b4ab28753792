package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestTinySelect: rkhs-beam select, σ grid and length scales, on 2, 3 or
// 5 rows draws the one warning rkhs gives that the rows are too few; on
// 30 rows, none.
func TestTinySelect(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{2, 3, 5, 30} {
		name := fmt.Sprintf("rows%d.csv", n)
		writeRows(t, filepath.Join(dir, name), "a,b,c,y", n, 1, 1)
		for _, extra := range [][]string{nil, {"-sigma", "ard", "-ard-iters", "3"}} {
			args := append([]string{"select", "-input", name, "-format", "csv", "-lambdas", "1e-6:1e-2:3", "-centers", "2", "-model", "m.json"}, extra...)
			code, out := rkhsBeam(t, dir, args...)
			if code != 0 {
				t.Errorf("%d rows %v: exit %d: %s", n, extra, code, out)
				continue
			}
			got := strings.Count(out, "warning: only ")
			if want := map[bool]int{true: 1, false: 0}[n <= 5]; got != want {
				t.Errorf("%d rows %v: %d warnings about the rows, want %d:\n%s", n, extra, got, want, out)
			}
		}
	}
}
