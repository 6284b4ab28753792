package linalg

// microKernelFunc computes one MR×NR tile C = β·C + α·A·B from a packed
// micro-panel a of A (MR values per step of k) and b of B (NR values per
// step), C starting at c with row stride ldc; when β is 0, C is not read.
type microKernelFunc func(kc int, a, b []float64, alpha, beta float64, c []float64, ldc int)

// gemmKernel is a micro-kernel with its register block MR×NR and the
// cache blocks KC, MC and JB it was calibrated with on the Intel Xeon of
// docs/notes/blocking.md (MC a multiple of MR, JB of NR), which blockingFor scales
// to the caches of the CPU at hand.
type gemmKernel struct {
	name       string
	mr, nr     int
	kc, mc, jb int
	micro      microKernelFunc
}

// maxTile bounds MR·NR over all kernels (the edge-tile buffer).
const maxTile = 128

// scalarKernel is the portable micro-kernel, the default of every build and
// the oracle of the SIMD ones: a 4×2 tile held in eight float64 locals.
// amd64 has 16 SSE registers and Go's internal ABI reserves one, so the 8
// accumulators, the MR+NR operands and the loop state must fit in 15. Among
// the shapes tried while writing it (2×2, 2×3, 3×2, 4×2, 2×4, 3×3, 5×2, 6×2,
// 3×4, 4×3, 4×4, unrolled 1, 2 or 4 times; in-cache speed on one core) 4×2
// unrolled four times was the best compromise: 10.2 GFLOP/s at GOAMD64=v1
// and 11.9 at v3, where 6×2 reached 13.3 at v3 but only 6.6 at v1 and 4×4
// spilled to the stack (4.7 and 6.8). Eight independent accumulators are
// enough to hide the 4-cycle latency of an add or fused multiply-add issued
// two per cycle. BenchmarkMicroKernel measures the kernel in use alone.
//
// The order of the loads matters as much as the shape: SSE's multiply
// overwrites an operand, so each value of A used twice costs a register
// copy, and loading the four values of A before using them left no room for
// the copies (the compiler spilled one value of A to the stack every step).
// Loading each value of A just before its two multiply-adds keeps the loop
// in 12 registers. On an AMD EPYC (Zen 5 class, 2026-11-26), old and new
// alternating on two cores: Gemm n=2048 faster in each of three rounds
// (12.8 → 14.3, 15.3 → 18.3, 13.9 → 14.1 GFLOP/s), the kernel in cache
// 7.1 → 7.6, 7.0 → 9.4, 7.4 → 7.5
// (compare/results/scalar-kernel-ab-amd-2026-11-26.txt). The sums and
// their order, hence the results, are unchanged to the bit.
var scalarKernel = gemmKernel{name: "scalar 4×2", mr: 4, nr: 2, kc: 384, mc: 64, jb: 256, micro: microKernel}

// kern is the micro-kernel in use, chosen once when the package is
// initialized: scalarKernel, unless a build with GOEXPERIMENT=simd finds
// AVX-512 or AVX2 with FMA on amd64 (gemm_kernel_simd.go) or runs on arm64
// with Go 1.27 (NEON, gemm_kernel_simd128.go). Every product uses
// it, so within one build on one machine results do not depend on the
// number of goroutines; they can differ in the last bits between kernels.
var kern = chooseKernel()

// macroKernel multiplies the packed mc×kc block of A (ap) by the packed kc×nc
// block of B (bp) and updates the mc×nc block of C at c (row stride ldc):
// C = β·C + α·A·B, tile by tile (loops jr and ir of BLIS).
//
// Unlike BLIS, the ir loop runs inside a loop over groups of gemmJB columns
// and outside jr: within a group, consecutive tiles lie side by side in the
// same MR rows of C, so C is read and written as MR sequential streams the
// hardware prefetcher follows, while the group's micro-panels of B, KC·JB
// doubles, stay in L2 and the micro-panel of A in L1. In the BLIS order
// (jr outside ir) each tile is MR·ldc doubles below the last: every tile of
// C missed the caches, which cost the AVX-512 kernel 40% at n=2048 (42 vs
// 73 GFLOP/s with KC=256, MC=256; scalar kernel 13 vs 17).
//
// With tri = lower (upper), only the elements with diag + i ≥ j
// (diag + i ≤ j) are written, where (i, j) is the position in the block and
// diag is the row of the block's first row minus the column of its first
// column in the whole matrix; tiles wholly outside the triangle are skipped.
// tmp (at least MR·NR values) holds edge tiles; it comes from the caller's
// pooled workspace because the kernel is called through a function value,
// which would make a local array escape to the heap.
func macroKernel(mc, nc, kc int, alpha float64, ap, bp []float64, beta float64, c []float64, ldc int, tri triangle, diag int, tmp []float64) {
	MR, NR, micro := kern.mr, kern.nr, kern.micro
	for jg := 0; jg < nc; jg += gemmJB { // groups of gemmJB columns
		for ir := 0; ir < mc; ir += MR { // loop 1 (ir): micro-panels of A, MR rows
			mr := min(MR, mc-ir)
			for jr := jg; jr < min(nc, jg+gemmJB); jr += NR { // loop 2 (jr): micro-panels of B, NR columns
				nr := min(NR, nc-jr)
				b := bp[jr*kc : jr*kc+NR*kc]
				// Tile rows diag+ir … diag+ir+mr-1 against columns jr … jr+nr-1.
				partial := mr < MR || nr < NR
				switch tri {
				case lower:
					if diag+ir+mr-1 < jr {
						continue // wholly above the diagonal
					}
					partial = partial || diag+ir < jr+nr-1
				case upper:
					if diag+ir > jr+nr-1 {
						continue // wholly below the diagonal
					}
					partial = partial || diag+ir+mr-1 > jr
				}
				a := ap[ir*kc : ir*kc+MR*kc]
				if !partial {
					micro(kc, a, b, alpha, beta, c[ir*ldc+jr:], ldc)
					continue
				}
				// Edge or diagonal tile: compute the whole tile aside, then
				// write the part that belongs to C.
				micro(kc, a, b, alpha, 0, tmp[:MR*NR], NR)
				for i := 0; i < mr; i++ {
					row := c[(ir+i)*ldc+jr:][:nr]
					for j := range row {
						switch {
						case tri == lower && diag+ir+i < jr+j,
							tri == upper && diag+ir+i > jr+j:
							continue
						case beta == 0:
							row[j] = tmp[i*NR+j]
						default:
							row[j] = beta*row[j] + tmp[i*NR+j]
						}
					}
				}
			}
		}
	}
}

// The register block of the scalar micro-kernel.
const (
	gemmMR = 4
	gemmNR = 2
)

// microKernel is the scalar micro-kernel (see scalarKernel): the 4×2 tile
// C = β·C + α·A·B, where a is a packed micro-panel of A (4 values per step
// of k), b a packed micro-panel of B (2 values per step) and C starts at c
// with row stride ldc. When β is 0, C is not read.
//
// The loop over k keeps the tile in the eight accumulators cij and is
// unrolled four times; each step loads the two values of B, then each
// value of A just before its two multiply-adds (MR+NR loads and MR·NR
// multiply-adds a step).
func microKernel(kc int, a, b []float64, alpha, beta float64, c []float64, ldc int) {
	var c00, c01, c10, c11, c20, c21, c30, c31 float64
	a = a[:kc*gemmMR]
	b = b[:kc*gemmNR]
	// Invariant: len(a) = MR·(steps left), len(b) = NR·(steps left).
	for len(a) >= 4*gemmMR && len(b) >= 4*gemmNR {
		b0, b1 := b[0], b[1]
		ai := a[0]
		c00 += ai * b0
		c01 += ai * b1
		ai = a[1]
		c10 += ai * b0
		c11 += ai * b1
		ai = a[2]
		c20 += ai * b0
		c21 += ai * b1
		ai = a[3]
		c30 += ai * b0
		c31 += ai * b1
		b0, b1 = b[2], b[3]
		ai = a[4]
		c00 += ai * b0
		c01 += ai * b1
		ai = a[5]
		c10 += ai * b0
		c11 += ai * b1
		ai = a[6]
		c20 += ai * b0
		c21 += ai * b1
		ai = a[7]
		c30 += ai * b0
		c31 += ai * b1
		b0, b1 = b[4], b[5]
		ai = a[8]
		c00 += ai * b0
		c01 += ai * b1
		ai = a[9]
		c10 += ai * b0
		c11 += ai * b1
		ai = a[10]
		c20 += ai * b0
		c21 += ai * b1
		ai = a[11]
		c30 += ai * b0
		c31 += ai * b1
		b0, b1 = b[6], b[7]
		ai = a[12]
		c00 += ai * b0
		c01 += ai * b1
		ai = a[13]
		c10 += ai * b0
		c11 += ai * b1
		ai = a[14]
		c20 += ai * b0
		c21 += ai * b1
		ai = a[15]
		c30 += ai * b0
		c31 += ai * b1
		a = a[4*gemmMR:]
		b = b[4*gemmNR:]
	}
	for len(a) >= gemmMR && len(b) >= gemmNR {
		b0, b1 := b[0], b[1]
		ai := a[0]
		c00 += ai * b0
		c01 += ai * b1
		ai = a[1]
		c10 += ai * b0
		c11 += ai * b1
		ai = a[2]
		c20 += ai * b0
		c21 += ai * b1
		ai = a[3]
		c30 += ai * b0
		c31 += ai * b1
		a = a[gemmMR:]
		b = b[gemmNR:]
	}
	r0 := c[0:2:2]
	r1 := c[ldc : ldc+2 : ldc+2]
	r2 := c[2*ldc : 2*ldc+2 : 2*ldc+2]
	r3 := c[3*ldc : 3*ldc+2 : 3*ldc+2]
	if beta == 0 {
		r0[0], r0[1] = alpha*c00, alpha*c01
		r1[0], r1[1] = alpha*c10, alpha*c11
		r2[0], r2[1] = alpha*c20, alpha*c21
		r3[0], r3[1] = alpha*c30, alpha*c31
		return
	}
	r0[0], r0[1] = beta*r0[0]+alpha*c00, beta*r0[1]+alpha*c01
	r1[0], r1[1] = beta*r1[0]+alpha*c10, beta*r1[1]+alpha*c11
	r2[0], r2[1] = beta*r2[0]+alpha*c20, beta*r2[1]+alpha*c21
	r3[0], r3[1] = beta*r3[0]+alpha*c30, beta*r3[1]+alpha*c31
}
