// Package cpuinfo reports what rkhs needs to know about the processor it
// runs on to choose its block sizes: the sizes of the data caches and, for
// the record, the vendor, family and model.
//
// Pure Go without assembly cannot execute CPUID (the standard library's
// internal/cpu is not importable), so on Linux the caches are read from
// /sys/devices/system/cpu/cpu0/cache and the model from /proc/cpuinfo,
// which the kernel fills from CPUID (x86) or the firmware tables (arm64);
// where the cache directory is missing, as in some virtual machines, an
// AMD processor's level-2 size is taken from /proc/cpuinfo instead.
// Elsewhere, or when those files cannot be read (a sandbox, WebAssembly),
// the fields are zero and callers use their defaults.
package cpuinfo

import (
	"strconv"
	"strings"
	"sync"
)

// CPU describes the processor. Sizes are in bytes; zero means unknown.
type CPU struct {
	Vendor string // "GenuineIntel", "AuthenticAMD", … ("" if unknown)
	Family int    // x86 family (cpu family in /proc/cpuinfo)
	Model  int    // x86 model
	Name   string // model name, for the record

	L1D int // level-1 data cache of one core
	L2  int // level-2 cache of one core (as CPU 0 sees it)
	L3  int // last-level cache, shared by the cores listed by the OS
}

// String names the CPU and its caches in one line, for benchmark logs.
func (c CPU) String() string {
	name := c.Name
	if name == "" {
		name = "unknown CPU"
	}
	var b strings.Builder
	b.WriteString(name)
	if c.Vendor != "" {
		b.WriteString(" (" + c.Vendor + " family " + strconv.Itoa(c.Family) + " model " + strconv.Itoa(c.Model) + ")")
	}
	b.WriteString(": L1d " + kib(c.L1D) + ", L2 " + kib(c.L2) + ", L3 " + kib(c.L3))
	return b.String()
}

func kib(n int) string {
	if n == 0 {
		return "?"
	}
	return strconv.Itoa(n/1024) + " KiB"
}

var (
	once     sync.Once
	detected CPU
)

// Detect returns the CPU this process runs on, read once.
func Detect() CPU {
	once.Do(func() { detected = detect() })
	return detected
}

// parseSize parses a cache size as sysfs writes it: "48K", "2048K", "32M"
// or a plain number of bytes. It returns 0 if s is not such a size.
func parseSize(s string) int {
	s = strings.TrimSpace(s)
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, s[:len(s)-1]
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, s[:len(s)-1]
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n * mult
}

// parseCPUInfo fills the vendor, family, model and name from the first
// processor of a /proc/cpuinfo text, and returns its "cache size" in bytes
// (0 if absent): see l2FromCPUInfo for what that size is.
func parseCPUInfo(text string, c *CPU) (cacheSize int) {
	for _, line := range strings.Split(text, "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			if strings.TrimSpace(line) == "" && c.Name != "" {
				return cacheSize // end of the first processor's block
			}
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch key {
		case "cache size":
			// "1024 KB": parseSize's "1024K".
			cacheSize = parseSize(strings.TrimSuffix(strings.ReplaceAll(val, " ", ""), "B"))
		case "vendor_id":
			c.Vendor = val
		case "cpu family":
			c.Family, _ = strconv.Atoi(val)
		case "model":
			c.Model, _ = strconv.Atoi(val)
		case "model name":
			c.Name = val
		}
	}
	return cacheSize
}

// l2FromCPUInfo fills c.L2, when the cache directory gave no sizes at all,
// from the "cache size" of /proc/cpuinfo on an AMD (or Hygon) processor:
// there Linux takes it from CPUID leaf 0x80000006, the level-2 cache of
// one core, whereas on Intel it is the last-level cache, so it is not used
// for other vendors. Virtual machines often have no
// /sys/devices/system/cpu/cpu0/cache (an AMD EPYC guest of a Zen 5 host
// shows "cache size : 1024 KB" and nothing in sysfs); the level-1 and
// level-3 sizes stay unknown.
func l2FromCPUInfo(c *CPU, cacheSize int) {
	if c.L1D != 0 || c.L2 != 0 || c.L3 != 0 || cacheSize <= 0 {
		return
	}
	if c.Vendor == "AuthenticAMD" || c.Vendor == "HygonGenuine" {
		c.L2 = cacheSize
	}
}

// cacheLevel records one cache of /sys/devices/system/cpu/cpu0/cache/index*:
// its level ("1", "2", "3"), type ("Data", "Instruction", "Unified") and
// size (as parseSize reads it).
func cacheLevel(c *CPU, level, typ, size string) {
	n := parseSize(size)
	switch strings.TrimSpace(level) + "/" + strings.TrimSpace(typ) {
	case "1/Data", "1/Unified":
		c.L1D = n
	case "2/Unified", "2/Data":
		c.L2 = n
	case "3/Unified":
		c.L3 = n
	}
}
