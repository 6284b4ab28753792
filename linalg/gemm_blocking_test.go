package linalg

import (
	"testing"

	"rkhs/internal/cpuinfo"
)

// TestBlockingFor checks the scaling of the calibrated block sizes to
// other caches against values worked out by hand, and the invariants the
// GEMM driver relies on for every case.
func TestBlockingFor(t *testing.T) {
	k := gemmKernel{name: "test 4×16", mr: 4, nr: 16, kc: 512, mc: 256, jb: 256}
	for _, tc := range []struct {
		name string
		cpu  cpuinfo.CPU
		want blocking
	}{
		{"unknown", cpuinfo.CPU{}, blocking{512, 256, 256, 4096}},
		{"reference", cpuinfo.CPU{L1D: 48 << 10, L2: 2 << 20, L3: 260 << 20}, blocking{512, 256, 256, 4096}},
		// Zen 5: the same L1, half the L2: MC and JB halve.
		{"zen5", cpuinfo.CPU{L1D: 48 << 10, L2: 1 << 20, L3: 32 << 20}, blocking{512, 128, 128, 4096}},
		// Skylake-SP: KC = 512·32/48 = 341 → 336, then MC = 256·(1/2)·(512/336)
		// = 195 → 192 and JB = 195 → 192; NC = 16 MiB/(8·336) = 6241 → 4096,
		// rounded down to a multiple of JB.
		{"skylake-sp", cpuinfo.CPU{L1D: 32 << 10, L2: 1 << 20, L3: 32 << 20}, blocking{336, 192, 192, 4032}},
		// A small L3: the packed B, KC·NC doubles, takes half of it.
		{"small L3", cpuinfo.CPU{L1D: 48 << 10, L2: 2 << 20, L3: 8 << 20}, blocking{512, 256, 256, 1024}},
		// Absurd reports are bounded: an L1 of 1 KiB, an L2 of 1 GiB.
		{"bounded", cpuinfo.CPU{L1D: 1 << 10, L2: 1 << 30, L3: 1 << 20}, blocking{128, 4096, 4096, 4096}},
	} {
		got := blockingFor(k, tc.cpu)
		if got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
	for _, k := range []gemmKernel{scalarKernel, kern} {
		for _, c := range []cpuinfo.CPU{{}, cpuinfo.Detect(), {L1D: 32 << 10, L2: 512 << 10, L3: 4 << 20}, {L1D: 128 << 10, L2: 16 << 20}} {
			b := blockingFor(k, c)
			if b.kc < 64 || b.mc < k.mr || b.mc%k.mr != 0 || b.jb%k.nr != 0 || b.nc%b.jb != 0 || b.nc > gemmNCMax {
				t.Errorf("%s on %+v: blocking %+v breaks an invariant", k.name, c, b)
			}
		}
	}
}
