package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// deterministic returns the part of the report that must depend only on
// the seed and the flags: everything before the times.
func deterministic(s string) string {
	s, _, _ = strings.Cut(s, "## Times")
	return s
}

// TestQuick runs the smoke path (-quick) on digits and heart: the tables
// are there and, unless -short, a second run with the same seed prints
// the same tables.
func TestQuick(t *testing.T) {
	args := []string{"-quick", "-sets", "digits,heart", "-seed", "3"}
	var out bytes.Buffer
	if err := run(args, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{
		"Command: `go run ./experiments/accuracy -seed 3 -quick -sets digits,heart`",
		"| digits | 10 | 420 / 180 |",
		"| heart | 270 × 13 |",
		"| heart | SVM |",
		"Wall time:",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
	if testing.Short() {
		return
	}
	var again bytes.Buffer
	if err := run(args, &again, io.Discard); err != nil {
		t.Fatal(err)
	}
	if a, b := deterministic(got), deterministic(again.String()); a != b {
		t.Errorf("two runs with seed 3 differ:\n%s\n----\n%s", a, b)
	}
}

func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-sets", "iris"}, {"-bogus"}, {"extra"}} {
		if err := run(args, &bytes.Buffer{}, io.Discard); err == nil || !strings.Contains(err.Error(), "usage") {
			t.Errorf("%v: error %v, want a usage error", args, err)
		}
	}
}
