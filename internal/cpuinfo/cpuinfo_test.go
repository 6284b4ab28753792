package cpuinfo

import "testing"

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"48K", 48 << 10}, {"2048K\n", 2 << 20}, {"32M", 32 << 20}, {"1G", 1 << 30},
		{"512", 512}, {"", 0}, {"K", 0}, {"-4K", 0}, {"12Q", 0},
	} {
		if got := parseSize(tc.in); got != tc.want {
			t.Errorf("parseSize(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// A Zen 5 as Linux describes it: the first processor's block is read, the
// second ignored.
const zen5 = `processor	: 0
vendor_id	: AuthenticAMD
cpu family	: 26
model		: 2
model name	: AMD EPYC 9B45
cache size	: 1024 KB

processor	: 1
vendor_id	: GenuineIntel
model		: 99
`

func TestParseCPUInfo(t *testing.T) {
	var c CPU
	size := parseCPUInfo(zen5, &c)
	want := CPU{Vendor: "AuthenticAMD", Family: 26, Model: 2, Name: "AMD EPYC 9B45"}
	if c != want {
		t.Errorf("got %+v, want %+v", c, want)
	}
	if size != 1<<20 {
		t.Errorf("cache size %d, want 1 MiB", size)
	}
}

// TestL2FromCPUInfo: the "cache size" of /proc/cpuinfo becomes L2 only on
// AMD and Hygon processors whose cache directory gave nothing.
func TestL2FromCPUInfo(t *testing.T) {
	amd := CPU{Vendor: "AuthenticAMD", Family: 26}
	for _, tc := range []struct {
		name   string
		c      CPU
		size   int
		wantL2 int
	}{
		{"AMD without sysfs", amd, 1 << 20, 1 << 20},
		{"Hygon without sysfs", CPU{Vendor: "HygonGenuine"}, 512 << 10, 512 << 10},
		{"Intel: cache size is L3", CPU{Vendor: "GenuineIntel"}, 105 << 20, 0},
		{"AMD with sysfs L2", CPU{Vendor: "AuthenticAMD", L2: 512 << 10}, 1 << 20, 512 << 10},
		{"AMD with sysfs L1 only", CPU{Vendor: "AuthenticAMD", L1D: 32 << 10}, 1 << 20, 0},
		{"AMD, no cache size", amd, 0, 0},
	} {
		c := tc.c
		l2FromCPUInfo(&c, tc.size)
		if c.L2 != tc.wantL2 {
			t.Errorf("%s: L2 = %d, want %d", tc.name, c.L2, tc.wantL2)
		}
		if c.L1D != tc.c.L1D || c.L3 != tc.c.L3 {
			t.Errorf("%s: L1d or L3 changed: %+v", tc.name, c)
		}
	}
}

func TestCacheLevel(t *testing.T) {
	var c CPU
	for _, idx := range [][3]string{
		{"1", "Data", "48K"}, {"1", "Instruction", "32K"}, {"2", "Unified", "1024K"}, {"3", "Unified", "32768K"},
	} {
		cacheLevel(&c, idx[0], idx[1], idx[2])
	}
	if c.L1D != 48<<10 || c.L2 != 1<<20 || c.L3 != 32<<20 {
		t.Errorf("got L1d %d, L2 %d, L3 %d; want 48 KiB, 1 MiB, 32 MiB", c.L1D, c.L2, c.L3)
	}
}

// TestDetect only checks that detection does not fail and is stable; the
// values depend on the machine and are logged.
func TestDetect(t *testing.T) {
	c := Detect()
	t.Log(c)
	if c != Detect() {
		t.Errorf("Detect changed between calls")
	}
	if c.L1D < 0 || c.L2 < 0 || c.L3 < 0 {
		t.Errorf("negative cache size: %+v", c)
	}
}
