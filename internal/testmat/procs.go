package testmat

import (
	"runtime"
	"testing"
)

// SkipSingleThreaded skips a test that compares results across GOMAXPROCS
// settings when the runtime cannot run goroutines in parallel: on
// WebAssembly (GOARCH=wasm) GOMAXPROCS stays 1 whatever is asked, so such a
// test would compare a serial run with itself.
func SkipSingleThreaded(t testing.TB) {
	t.Helper()
	if runtime.GOARCH == "wasm" {
		t.Skip("GOARCH=wasm runs one thread: GOMAXPROCS cannot be raised")
	}
}
