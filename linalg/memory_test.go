package linalg

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

func TestFormatBytes(t *testing.T) {
	for _, c := range []struct {
		b    uint64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1024, "1.00 KiB"},
		{1536, "1.50 KiB"},
		{28_800_000_000, "26.8 GiB"},
		{24684092 * 1024, "23.5 GiB"},
		{1<<30 - 1, "1.00 GiB"},
		{1000 << 20, "1000 MiB"},
		{math.MaxInt64, "8.00 EiB"},
		{math.MaxUint64, "more than 16 EiB"},
	} {
		if got := FormatBytes(c.b); got != c.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", c.b, got, c.want)
		}
	}
}

func TestMemoryErrorWraps(t *testing.T) {
	var err error = &MemoryError{Op: "RLS.Fit", Need: 3 << 30, Limit: 2 << 30, Source: "physical memory"}
	err = fmt.Errorf("fit: %w", err)
	var me *MemoryError
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &me) || me.Need != 3<<30 {
		t.Fatalf("%v: errors.Is/As fail", err)
	}
	if want := "fit: linalg: RLS.Fit needs 3.00 GiB of memory, more than the 2.00 GiB of physical memory"; err.Error() != want {
		t.Errorf("got %q, want %q", err.Error(), want)
	}
}
