package memlimit

import (
	"os"
	"path"
)

// systemLimit returns the smaller of the cgroup memory limit and the
// physical memory, and which it is; 0 when neither can be read.
func systemLimit() (uint64, string) {
	var limit uint64
	var source string
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		if v := parseMeminfo(string(b)); v > 0 {
			limit, source = v, "physical memory"
		}
	}
	if v := cgroupLimit(); v > 0 && (limit == 0 || v < limit) {
		limit, source = v, "cgroup memory limit"
	}
	return limit, source
}

// cgroupLimit reads the memory limit of the process's cgroup: the
// smallest limit from its own group up to the root of the hierarchy it
// sees (a container's namespace), in cgroup v2's memory.max or, if there
// is none, v1's memory.limit_in_bytes. 0 means no limit found.
func cgroupLimit() uint64 {
	self, _ := os.ReadFile("/proc/self/cgroup")
	if v := smallestUp("/sys/fs/cgroup", cgroupPath(string(self), ""), "memory.max"); v > 0 {
		return v
	}
	return smallestUp("/sys/fs/cgroup/memory", cgroupPath(string(self), "memory"), "memory.limit_in_bytes")
}

// smallestUp returns the smallest limit in the files root/group/…/file,
// from group up to root (0 when none can be read).
func smallestUp(root, group, file string) uint64 {
	var limit uint64
	p := path.Clean("/" + group)
	for {
		if b, err := os.ReadFile(path.Join(root, p, file)); err == nil {
			if v := parseCgroupLimit(string(b)); v > 0 && (limit == 0 || v < limit) {
				limit = v
			}
		}
		if p == "/" {
			return limit
		}
		p = path.Dir(p)
	}
}
