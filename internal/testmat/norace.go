//go:build !race

package testmat

// Race reports whether the race detector is on (see race.go).
const Race = false
