//go:build race

package testmat

// Race reports whether the race detector is on. Under it sync.Pool drops
// what it holds at random, so tests that count allocations of pooled
// workspaces skip.
const Race = true
