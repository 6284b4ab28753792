package memlimit

import (
	"errors"
	"math"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"rkhs/linalg"
)

func TestFloatsSaturates(t *testing.T) {
	for _, c := range []struct {
		dims []int
		want uint64
	}{
		{nil, 8},
		{[]int{3}, 24},
		{[]int{1000, 1000}, 8e6},
		{[]int{60000, 60000}, 28_800_000_000},
		{[]int{-1, 5}, 0},
		{[]int{1 << 30, 1 << 30, 16}, math.MaxUint64}, // 2⁶⁷ bytes
		{[]int{1 << 30, 1 << 30, 1 << 30}, math.MaxUint64},
	} {
		if got := Floats(c.dims...); got != c.want {
			t.Errorf("Floats(%v) = %d, want %d", c.dims, got, c.want)
		}
	}
	if got := Sum(math.MaxUint64-1, 2); got != math.MaxUint64 {
		t.Errorf("Sum overflowing = %d, want MaxUint64", got)
	}
	if got := Sum(1, 2, 3); got != 6 {
		t.Errorf("Sum(1, 2, 3) = %d, want 6", got)
	}
}

// withGoLimit runs f with the Go memory limit set to b bytes and restores
// the previous limit.
func withGoLimit(t *testing.T, b int64, f func()) {
	t.Helper()
	old := debug.SetMemoryLimit(b)
	defer debug.SetMemoryLimit(old)
	f()
}

func TestCheckGoLimit(t *testing.T) {
	withGoLimit(t, 64<<20, func() {
		limit, source := Limit()
		if limit != 64<<20 || source != "Go memory limit" {
			t.Fatalf("Limit() = %d, %q, want %d, Go memory limit", limit, source, 64<<20)
		}
		if err := Check("small", Floats(100, 100)); err != nil {
			t.Errorf("Check(100×100) = %v, want nil", err)
		}
		err := Check("RLS.Fit", Floats(5000, 5000))
		var me *linalg.MemoryError
		if !errors.Is(err, linalg.ErrTooLarge) || !errors.As(err, &me) {
			t.Fatalf("Check(5000×5000) = %v, want a *MemoryError wrapping ErrTooLarge", err)
		}
		if me.Need != 200_000_000 || me.Limit != 64<<20 || me.Source != "Go memory limit" || me.Op != "RLS.Fit" {
			t.Errorf("MemoryError = %+v", *me)
		}
		want := "linalg: RLS.Fit needs 191 MiB of memory, more than the 64.0 MiB of Go memory limit"
		if err.Error() != want {
			t.Errorf("message\n got %q\nwant %q", err.Error(), want)
		}
	})
}

// TestCheckOverflow: a size whose count of elements overflows int (on
// 64-bit and on 32-bit targets) is refused whatever the limits.
func TestCheckOverflow(t *testing.T) {
	n := 1 << 16 // n² overflows int on 386
	if math.MaxInt > math.MaxInt32 {
		n = math.MaxInt >> 30 // n² overflows int on 64-bit targets
	}
	if err := Check("Gram", Floats(n, n)); !errors.Is(err, linalg.ErrTooLarge) {
		t.Errorf("Check(%d×%d) = %v, want ErrTooLarge", n, n, err)
	}
	if limit, _ := Limit(); limit == 0 || limit > math.MaxInt {
		t.Errorf("Limit() = %d, want in (0, MaxInt]", limit)
	}
}

func TestParseSystem(t *testing.T) {
	meminfo := "MemTotal:       24684092 kB\nMemFree:         1000 kB\n"
	if got, want := parseMeminfo(meminfo), uint64(24684092*1024); got != want {
		t.Errorf("parseMeminfo = %d, want %d", got, want)
	}
	for _, bad := range []string{"", "MemTotal: x kB", "MemTotal: 12 MB", "MemFree: 3 kB", "MemTotal: 99999999999999999999 kB"} {
		if got := parseMeminfo(bad); got != 0 {
			t.Errorf("parseMeminfo(%q) = %d, want 0", bad, got)
		}
	}
	for _, c := range []struct {
		text string
		want uint64
	}{
		{"max\n", 0},
		{"4294967296\n", 1 << 32},
		{"9223372036854771712\n", 0}, // v1's "no limit"
		{"", 0},
		{"-1", 0},
	} {
		if got := parseCgroupLimit(c.text); got != c.want {
			t.Errorf("parseCgroupLimit(%q) = %d, want %d", c.text, got, c.want)
		}
	}
	self := "9:name=systemd:/\n4:memory:/jobs/a1\n2:cpu,cpuacct:/\n0::/user.slice/x\n"
	if got := cgroupPath(self, ""); got != "/user.slice/x" {
		t.Errorf("cgroupPath v2 = %q", got)
	}
	if got := cgroupPath(self, "memory"); got != "/jobs/a1" {
		t.Errorf("cgroupPath v1 = %q", got)
	}
	if got := cgroupPath("4:cpu:/\n", "memory"); got != "" {
		t.Errorf("cgroupPath without memory = %q", got)
	}
}

// FuzzParseSystem checks that the parsers do not panic on any text and
// that what they return comes from it: a nonzero result's digits (a
// substring of any decimal form, leading zeros included) and a path occur
// in the text. The KiB and unlimited checks hold by construction; they
// guard against a change of the parsers.
func FuzzParseSystem(f *testing.F) {
	f.Add("MemTotal:       24684092 kB\n")
	f.Add("max\n")
	f.Add("0::/a/b\n4:memory:/c\n")
	f.Add("MemTotal: 0012 kB\n")
	f.Fuzz(func(t *testing.T, s string) {
		if v := parseMeminfo(s); v%1024 != 0 {
			t.Errorf("parseMeminfo(%q) = %d, not a count of KiB", s, v)
		} else if v > 0 && (!strings.Contains(s, "MemTotal:") || !strings.Contains(s, strconv.FormatUint(v/1024, 10))) {
			t.Errorf("parseMeminfo(%q) = %d KiB, not in the text", s, v/1024)
		}
		if v := parseCgroupLimit(s); v >= unlimitedCgroup {
			t.Errorf("parseCgroupLimit(%q) = %d, an unlimited value", s, v)
		} else if v > 0 && !strings.Contains(s, strconv.FormatUint(v, 10)) {
			t.Errorf("parseCgroupLimit(%q) = %d, not in the text", s, v)
		}
		for _, c := range []string{"", "memory"} {
			if p := cgroupPath(s, c); strings.Contains(p, "\n") || !strings.Contains(s, p) {
				t.Errorf("cgroupPath(%q, %q) = %q, not a part of one line", s, c, p)
			}
		}
	})
}
