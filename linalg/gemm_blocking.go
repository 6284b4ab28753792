package linalg

import "rkhs/internal/cpuinfo"

// Cache blocking of GEMM and SYRK for the CPU at hand.
//
// Each micro-kernel carries the block sizes KC, MC and JB that TestCalibrate
// found best on the Intel Xeon of docs/notes/blocking.md, whose caches are refL1 and
// refL2. On another CPU they are scaled so that each block keeps its share
// of the cache it lives in (see blockedProduct and macroKernel):
//
//   - the micro-panel of A, MR·KC doubles, stays in the L1 data cache while
//     the micro-panels of B stream past it: KC scales with L1;
//   - the packed block of A, MC·KC doubles, and a group of micro-panels of
//     B, KC·JB doubles, share L2: MC·KC and KC·JB scale with L2;
//   - the packed block of B, KC·NC doubles, is read by every core from the
//     shared last-level cache: it takes at most half of L3, and NC is at
//     most 4096.
//
// The sizes come from the operating system (internal/cpuinfo); where it
// reports none, the reference sizes apply. An AMD Zen 5 (48 KiB L1, 1 MiB
// L2 per core) thus gets the AVX-512 kernel's KC = 512 with MC = JB = 128,
// where the reference's MC = JB = 256 would fill twice its L2.
//
// The block sizes change the order of the k sums (KC) and nothing else, so
// results on one machine are bit-identical for any number of goroutines;
// two machines whose caches differ can differ in the last bits, as they
// can when their kernels differ.

// The caches of the machine on which the kernels' block sizes were
// calibrated: Intel Xeon family 6 model 207 (2 cores of a KVM guest).
const (
	refL1 = 48 << 10
	refL2 = 2 << 20
)

// gemmNCMax bounds NC whatever the size of L3: 4096 columns was within
// noise of larger panels on the reference machine (260 MiB of L3).
const gemmNCMax = 4096

// blocking is a set of cache block sizes: KC, MC (a multiple of MR), JB
// (a multiple of NR) and NC (a multiple of JB).
type blocking struct{ kc, mc, jb, nc int }

// blockingFor returns the block sizes of kernel k on a CPU with caches c
// (zero sizes read as the reference's).
func blockingFor(k gemmKernel, c cpuinfo.CPU) blocking {
	l1, l2 := c.L1D, c.L2
	if l1 <= 0 {
		l1 = refL1
	}
	if l2 <= 0 {
		l2 = refL2
	}
	// Scale factors, bounded so that an unusual report (a huge L2 shared
	// by many cores, a tiny L1 of an emulator) cannot make a block absurd.
	s1 := clampf(float64(l1)/refL1, 0.25, 2)
	s2 := clampf(float64(l2)/refL2, 0.125, 4)

	kc := max(64, roundDown(int(float64(k.kc)*s1), 16))
	// MC·KC and KC·JB keep their share of L2 with the new KC.
	grow := s2 * float64(k.kc) / float64(kc)
	mc := max(k.mr, roundDown(int(float64(k.mc)*grow), k.mr))
	jb := max(k.nr, roundDown(int(float64(k.jb)*grow), k.nr))

	nc := gemmNCMax
	if c.L3 > 0 {
		nc = min(nc, c.L3/2/(8*kc))
	}
	nc = max(jb, roundDown(nc, jb))
	return blocking{kc: kc, mc: mc, jb: jb, nc: nc}
}

func clampf(x, lo, hi float64) float64 { return min(max(x, lo), hi) }

func roundDown(x, m int) int { return x / m * m }
