package memlimit

import (
	"bufio"
	"slices"
	"strconv"
	"strings"
)

// parseMeminfo returns MemTotal of a /proc/meminfo text in bytes, or 0.
func parseMeminfo(text string) uint64 {
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0
		}
		kb, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil || kb > 1<<53 {
			return 0
		}
		return kb * 1024
	}
	return 0
}

// unlimitedCgroup: cgroup v1 writes "no limit" as the largest multiple of
// the page size below 2⁶³; any value from 2⁶² up is taken as no limit.
const unlimitedCgroup = 1 << 62

// parseCgroupLimit returns the limit in a cgroup memory.max (v2: a number
// or "max") or memory.limit_in_bytes (v1) file, or 0 for no limit or an
// unreadable value.
func parseCgroupLimit(text string) uint64 {
	s := strings.TrimSpace(text)
	if s == "max" {
		return 0
	}
	v, err := strconv.ParseUint(s, 10, 64)
	if err != nil || v >= unlimitedCgroup {
		return 0
	}
	return v
}

// cgroupPath returns the path of the process's group from the text of
// /proc/self/cgroup: for cgroup v2 (controller "") the line "0::/path",
// for v1 the line "N:…,controller,…:/path"; "" when there is none.
func cgroupPath(text, controller string) string {
	for line := range strings.SplitSeq(text, "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 {
			continue
		}
		if controller == "" && f[0] == "0" && f[1] == "" {
			return strings.TrimSpace(f[2])
		}
		if controller != "" && slices.Contains(strings.Split(f[1], ","), controller) {
			return strings.TrimSpace(f[2])
		}
	}
	return ""
}
