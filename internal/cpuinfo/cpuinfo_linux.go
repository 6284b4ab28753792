package cpuinfo

import (
	"os"
	"path/filepath"
	"strconv"
)

func detect() CPU {
	var c CPU
	var cacheSize int
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		cacheSize = parseCPUInfo(string(b), &c)
	}
	dir := "/sys/devices/system/cpu/cpu0/cache"
	for i := 0; i < 8; i++ {
		idx := filepath.Join(dir, "index"+strconv.Itoa(i))
		level, err1 := os.ReadFile(filepath.Join(idx, "level"))
		typ, err2 := os.ReadFile(filepath.Join(idx, "type"))
		size, err3 := os.ReadFile(filepath.Join(idx, "size"))
		if err1 != nil || err2 != nil || err3 != nil {
			break
		}
		cacheLevel(&c, string(level), string(typ), string(size))
	}
	l2FromCPUInfo(&c, cacheSize)
	return c
}
