//go:build !linux

package memlimit

// systemLimit knows no limit outside Linux: only the address space and the
// Go memory limit apply.
func systemLimit() (uint64, string) { return 0, "" }
