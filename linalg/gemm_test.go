package linalg

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"rkhs/internal/cpuinfo"
	"rkhs/internal/testmat"
)

// gemmRef is the naive twin of gemm: C = α·op(A)·op(B) + β·C by the triple
// loop, with the BLAS convention that C is not read when β is 0. It also
// returns bound[i][j] = |α|·(|op(A)|·|op(B)|)ᵢⱼ + |β·Cᵢⱼ|, the scale of the
// rounding error of element (i, j).
func gemmRef(tA, tB Op, alpha float64, a, b testmat.Matrix, beta float64, c testmat.Matrix) (bound testmat.Matrix) {
	opA, opB := a, b
	if tA == Trans {
		opA = testmat.T(a)
	}
	if tB == Trans {
		opB = testmat.T(b)
	}
	bound = testmat.New(c.Rows, c.Cols, 0)
	for i := 0; i < c.Rows; i++ {
		for j := 0; j < c.Cols; j++ {
			var s, sa float64
			for p := 0; p < opA.Cols; p++ {
				s += opA.At(i, p) * opB.At(p, j)
				sa += math.Abs(opA.At(i, p) * opB.At(p, j))
			}
			v := alpha * s
			bd := math.Abs(alpha) * sa
			if beta != 0 {
				v += beta * c.At(i, j)
				bd += math.Abs(beta * c.At(i, j))
			}
			c.Set(i, j, v)
			bound.Set(i, j, bd)
		}
	}
	return bound
}

// componentRatio returns max |got − want| / ((k+2)·ε·bound) over the
// elements, the error measured in units of the componentwise bound
// γ_{k+2}·bound of a k-term dot product; 30 is the usual LAPACK threshold.
func componentRatio(got, want, bound testmat.Matrix, k int) float64 {
	var worst float64
	for i := 0; i < got.Rows; i++ {
		for j := 0; j < got.Cols; j++ {
			diff := math.Abs(got.At(i, j) - want.At(i, j))
			if diff == 0 {
				continue
			}
			r := diff / (float64(k+2) * testmat.Eps * bound.At(i, j))
			if math.IsNaN(r) || math.IsInf(r, 0) {
				return math.Inf(1)
			}
			worst = math.Max(worst, r)
		}
	}
	return worst
}

// gemmSizes straddle every block edge of the kernel and blocking in use
// (MR, NR, KC, MC and NC, read when called, so that a test run with another
// kernel or blocking straddles its edges), the usual 63/64/65 and 127/129,
// and the units of the matrix–vector path.
func gemmSizes() []struct{ m, n, k int } {
	mr, nr, kc, mc, nc := kern.mr, kern.nr, gemmKC, gemmMC, gemmNC
	sizes := []struct{ m, n, k int }{
		{0, 0, 0}, {1, 1, 1}, {0, 3, 2}, {3, 0, 2}, {3, 2, 0},
		{mr - 1, nr - 1, 1}, {mr, nr, 2}, {mr + 1, nr + 1, 3},
		{5, 7, kc - 1}, {9, 3, kc}, {7, 5, kc + 1},
		{mc - 1, 17, 31}, {mc, 18, 32}, {mc + 1, 19, 33},
		{63, 64, 65}, {64, 65, 63}, {65, 63, 64},
		{127, 129, 130}, {129, 127, 2*kc + 3}, {2*mc + 5, 37, 11},
		{1, 300, 7}, {300, 1, 7}, {200, 201, 1},
		// C with one or two columns: the matrix–vector path (gemv.go), across
		// its units (gemvRows, gemvCols) and its four-row steps.
		{gemvRows + 1, 1, 2*kc + 3}, {gemvCols + 3, 2, 9}, {gemvCols - 1, 1, 6}, {2, 2, 4}, {65, 2, 1},
	}
	if nc <= 1024 { // straddle NC too when that stays small
		sizes = append(sizes, struct{ m, n, k int }{mr + 1, nc - 1, 5}, struct{ m, n, k int }{5, nc + 1, kc + 1}, struct{ m, n, k int }{mc + 1, 2*nc + nr + 1, 3})
	}
	return sizes
}

func TestGemm(t *testing.T) {
	rnd := testmat.NewRand(1)
	ops := []Op{NoTrans, Trans}
	scalars := []struct{ alpha, beta float64 }{{1, 0}, {-0.5, 1}, {2, -1.5}, {0, 0.25}, {1, 1}}
	for si, sz := range gemmSizes() {
		for _, tA := range ops {
			for _, tB := range ops {
				sc := scalars[(si+btoi(bool(tA))+2*btoi(bool(tB)))%len(scalars)]
				pad := si % 3 * 2
				name := fmt.Sprintf("%v%v/m=%d/n=%d/k=%d/alpha=%g/beta=%g/pad=%d", opName(tA), opName(tB), sz.m, sz.n, sz.k, sc.alpha, sc.beta, pad)
				t.Run(name, func(t *testing.T) {
					ar, ac := stored(tA, sz.m, sz.k)
					br, bc := stored(tB, sz.k, sz.n)
					a := testmat.Random(rnd, ar, ac, pad)
					b := testmat.Random(rnd, br, bc, pad+1)
					c := testmat.Random(rnd, sz.m, sz.n, pad)
					if sc.beta == 0 {
						// C must not be read: poison it.
						for i := 0; i < c.Rows; i++ {
							for j := 0; j < c.Cols; j++ {
								c.Set(i, j, math.NaN())
							}
						}
					}
					a0, b0 := a.Clone(), b.Clone()
					want := c.Clone()
					bound := gemmRef(tA, tB, sc.alpha, a, b, sc.beta, want)

					da, db, dc := Dense(a), Dense(b), Dense(c)
					Gemm(tA, tB, sc.alpha, &da, &db, sc.beta, &dc)

					if r := componentRatio(c, want, bound, sz.k); r > 30 {
						t.Errorf("error ratio %.3g, want < 30", r)
					}
					if !testmat.Identical(a, a0) || !testmat.Identical(b, b0) {
						t.Errorf("an input was modified")
					}
					if !testmat.PaddingIntact(c) {
						t.Errorf("padding of C was written")
					}
				})
			}
		}
	}
}

func TestGemmShapePanics(t *testing.T) {
	a := NewDense(3, 4, nil)
	b := NewDense(5, 2, nil)
	c := NewDense(3, 2, nil)
	defer func() {
		if recover() == nil {
			t.Errorf("Gemm with inner dimensions 4 and 5 did not panic")
		}
	}()
	Gemm(NoTrans, NoTrans, 1, a, b, 0, c)
}

// TestMicroKernel checks the micro-kernel in use (and, in every build, the
// scalar one) against the plain loop for every k around the unrolling
// factor, with β = 0 (C not read: it holds NaN) and β ≠ 0.
func TestMicroKernel(t *testing.T) {
	for _, k := range []gemmKernel{kern, scalarKernel} {
		checkMicroKernel(t, k)
	}
}

func checkMicroKernel(t *testing.T, k gemmKernel) {
	t.Helper()
	rnd := testmat.NewRand(2)
	for kc := 0; kc <= 9; kc++ {
		for _, beta := range []float64{0, -0.5} {
			a := testmat.Random(rnd, 1, kc*k.mr, 0).Data
			b := testmat.Random(rnd, 1, kc*k.nr, 0).Data
			c := testmat.Random(rnd, k.mr, k.nr+3, 0)
			if beta == 0 {
				for i := range c.Data {
					c.Data[i] = math.NaN()
				}
			}
			want := c.Clone()
			k.micro(kc, a, b, 1.5, beta, c.Data, c.Stride)
			microKernelRef(k.mr, k.nr, kc, a, b, 1.5, beta, want.Data, want.Stride)
			for i := 0; i < k.mr; i++ {
				for j := 0; j < c.Stride; j++ {
					got, w := c.At(i, j), want.At(i, j)
					if j >= k.nr { // beyond the tile: untouched
						if math.Float64bits(got) != math.Float64bits(w) {
							t.Fatalf("%s kc=%d: (%d,%d) outside the tile was written", k.name, kc, i, j)
						}
						continue
					}
					if d := math.Abs(got - w); !(d <= 1e-14*float64(kc+1)) {
						t.Errorf("%s kc=%d β=%v: (%d,%d) = %v, want %v", k.name, kc, beta, i, j, got, w)
					}
				}
			}
		}
	}
}

// microKernelRef is the plain twin of every micro-kernel: an mr×nr tile.
func microKernelRef(mr, nr, kc int, a, b []float64, alpha, beta float64, c []float64, ldc int) {
	for i := 0; i < mr; i++ {
		for j := 0; j < nr; j++ {
			var s float64
			for p := 0; p < kc; p++ {
				s += a[p*mr+i] * b[p*nr+j]
			}
			if beta == 0 {
				c[i*ldc+j] = alpha * s
			} else {
				c[i*ldc+j] = beta*c[i*ldc+j] + alpha*s
			}
		}
	}
}

// detProcs are the goroutine counts the determinism tests compare: with
// up to 16 goroutines the pieces of blockedProduct fall in different places
// of the block rows for every count.
var detProcs = []int{1, 2, 3, 8, 16}

// tinyBlocking has block sizes small enough that products of a few hundred
// rows and columns span many block rows, column blocks and k blocks, and
// are cut into many pieces.
func tinyBlocking() blocking {
	return blocking{kc: 24, mc: 3 * kern.mr, jb: 2 * kern.nr, nc: 6 * kern.nr}
}

// TestGemmDeterministic: bit-identical results with 1 to 16 goroutines, on
// sizes large enough to be split and with ragged edges, with the blocking
// in use and with tinyBlocking (many pieces, odd shapes).
func TestGemmDeterministic(t *testing.T) {
	rnd := testmat.NewRand(3)
	type shape struct{ m, n, k int }
	for _, tc := range []struct {
		bl    blocking
		sizes []shape
	}{
		{blocking{gemmKC, gemmMC, gemmJB, gemmNC}, []shape{{301, 277, 300}, {37, 1001, 260}, {700, 9, 513}, {2*gemvCols + 5, 2, 301}, {2*gemvCols + 5, 1, 99}}},
		{tinyBlocking(), []shape{{97, 83, 70}, {5, 211, 49}, {203, 7, 51}, {64, 64, 64}, {131, 3, 200}}},
	} {
		withBlocking(tc.bl, func() {
			for _, sz := range tc.sizes {
				for _, tA := range []Op{NoTrans, Trans} {
					for _, tB := range []Op{NoTrans, Trans} {
						ar, ac := stored(tA, sz.m, sz.k)
						br, bc := stored(tB, sz.k, sz.n)
						a := testmat.Random(rnd, ar, ac, 1)
						b := testmat.Random(rnd, br, bc, 0)
						c0 := testmat.Random(rnd, sz.m, sz.n, 3)
						var first testmat.Matrix
						for _, procs := range detProcs {
							c := c0.Clone()
							da, db, dc := Dense(a), Dense(b), Dense(c)
							withProcs(t, procs, func() { Gemm(tA, tB, 0.75, &da, &db, 1.25, &dc) })
							if procs == 1 {
								first = c
							} else if !testmat.Identical(c, first) {
								t.Errorf("%+v %v%v %v: GOMAXPROCS=%d differs from GOMAXPROCS=1", tc.bl, opName(tA), opName(tB), sz, procs)
							}
						}
					}
				}
			}
		})
	}
}

// TestProductPieces: for every goroutine count, the pieces of each band of
// blockedProduct (here one band of every block row of the step) cover each
// cell (block row × micro-panel) that meets the triangle exactly once and
// no other, and their work differs from the band's mean by less than one
// cell. It logs the split of a GEMM and a SYRK of order 4096, and of the
// 4000×64 product of a back-transformation, for 16 goroutines with the
// blocking of an AVX-512 Xeon.
func TestProductPieces(t *testing.T) {
	xeon := blocking{kc: 512, mc: 192, jb: 256, nc: 4096}
	for _, tc := range []struct {
		bl   blocking
		m, n int
		tri  triangle
		log  bool
	}{
		{xeon, 4096, 4096, full, true}, {xeon, 4096, 4096, lower, true}, {xeon, 4096, 4096, upper, false},
		{xeon, 1000, 9000, full, false}, {xeon, 100, 100, lower, false}, {xeon, 1, 5000, full, false},
		{tinyBlocking(), 97, 83, full, false}, {tinyBlocking(), 101, 101, lower, false}, {tinyBlocking(), 101, 101, upper, false},
		{tinyBlocking(), 7, 300, full, false}, {tinyBlocking(), 300, 1, full, false},
		{xeon, 4000, 64, full, true}, {xeon, 4000, 64, lower, false}, {tinyBlocking(), 200, 20, full, false},
	} {
		withBlocking(tc.bl, func() {
			NR := kern.nr
			blockRows := (tc.m + gemmMC - 1) / gemmMC
			for _, p := range []int{1, 2, 3, 8, 16, 64} {
				ws := getWorkspace(p, 0, 0, blockRows)
				j := &ws.job
				*j = productJob{c: Dense{Rows: tc.m, Cols: tc.n, Stride: tc.n}, tri: tc.tri, mc: gemmMC, ws: ws}
				for jc := 0; jc < tc.n; jc += gemmNC {
					nc := min(gemmNC, tc.n-jc)
					ibLo, ibHi := j.setColumns(jc, nc)
					j.setBand(ibLo, ibHi, p)
					panels := (nc + NR - 1) / NR
					covered := make([]int, blockRows*panels)
					total := j.weight[len(j.weight)-1]
					var segments int
					least, most := total, int64(0)
					for u := range j.pieces {
						var work int64
						j.segments(u, func(r, s0, s1 int) {
							segments++
							for s := s0; s < s1; s++ {
								covered[(j.ibLo+r)*panels+s]++
							}
							work += int64(j.rows(r)) * int64(s1-s0)
						})
						if d := work - total/int64(j.pieces); d > int64(gemmMC) || d < -int64(gemmMC) { // less than one cell from the mean
							t.Errorf("%+v p=%d jc=%d: piece %d has work %d, mean %d", tc, p, jc, u, work, total/int64(j.pieces))
						}
						least, most = min(least, work), max(most, work)
					}
					for ib := range blockRows {
						ic, mc := ib*gemmMC, min(gemmMC, tc.m-ib*gemmMC)
						for s := range panels {
							c0, c1 := jc+s*NR, jc+min(nc, (s+1)*NR)-1 // first and last column of the cell
							want := 1
							if (tc.tri == lower && c0 > ic+mc-1) || (tc.tri == upper && c1 < ic) {
								want = 0
							}
							if got := covered[ib*panels+s]; got != want {
								t.Fatalf("%+v p=%d jc=%d: cell (%d, %d) covered %d times, want %d", tc, p, jc, ib, s, got, want)
							}
						}
					}
					if tc.log && p == 16 && jc == 0 {
						t.Logf("m=%d n=%d tri=%d MC=%d NR=%d NC=%d, 16 goroutines: %d block rows × %d micro-panels, %d pieces (%.1f per goroutine) of work %d–%d (mean %.0f, in rows × micro-panels) in %d segments of block rows",
							tc.m, tc.n, tc.tri, gemmMC, NR, gemmNC, blockRows, panels, j.pieces, float64(j.pieces)/16, least, most, float64(total)/float64(j.pieces), segments)
					}
				}
				*j = productJob{}
				putWorkspace(ws)
			}
		})
	}
}

// withProcs runs f with GOMAXPROCS set to procs. It panics if the setting
// does not take (so that a determinism test cannot pass by running serially
// every time): teamSize must offer procs goroutines for a large job. On
// WebAssembly, whose runtime runs one thread only, it skips the test.
func withProcs(t testing.TB, procs int, f func()) {
	t.Helper()
	testmat.SkipSingleThreaded(t)
	old := runtime.GOMAXPROCS(procs)
	defer runtime.GOMAXPROCS(old)
	if got := teamSize(1<<20, 1e12); got != procs {
		panic(fmt.Sprintf("GOMAXPROCS(%d) gives a team of %d", procs, got))
	}
	f()
}

// withBlocking runs f with the block sizes bl, restoring the chosen ones
// afterwards.
func withBlocking(bl blocking, f func()) {
	saved := blocking{gemmKC, gemmMC, gemmJB, gemmNC}
	defer func() { gemmKC, gemmMC, gemmJB, gemmNC = saved.kc, saved.mc, saved.jb, saved.nc }()
	gemmKC, gemmMC, gemmJB, gemmNC = bl.kc, bl.mc, bl.jb, bl.nc
	f()
}

// smallBlocking is a blocking of the kernel in use small enough that
// modest sizes cross every block edge more than once: KC = 8, MC = 2·MR,
// JB = 2·NR, NC = 4·NR.
func smallBlocking() blocking {
	return blocking{kc: 8, mc: 2 * kern.mr, jb: 2 * kern.nr, nc: 4 * kern.nr}
}

// TestGemmBlockEdges runs TestGemm and TestSyrk with smallBlocking, whose
// block edges (KC, MC, JB and NC, each crossed and straddled by the sizes
// of those tests) the default blocking reaches only for large matrices,
// and checks that the result does not depend on the number of goroutines.
func TestGemmBlockEdges(t *testing.T) {
	withBlocking(smallBlocking(), func() {
		t.Run("Gemm", TestGemm)
		t.Run("Syrk", TestSyrk)
		t.Run("GemmDeterministic", TestGemmDeterministic)
	})
}

// withKernel runs f with k as the micro-kernel in use, with its block
// sizes for this CPU, restoring the chosen ones afterwards.
func withKernel(k gemmKernel, f func()) {
	saved := kern
	defer func() { kern = saved }()
	kern = k
	withBlocking(blockingFor(k, cpuinfo.Detect()), f)
}

// refKernel is microKernelRef as a micro-kernel of shape mr×nr.
func refKernel(mr, nr int) gemmKernel {
	return gemmKernel{
		name: fmt.Sprintf("ref %d×%d", mr, nr), mr: mr, nr: nr, kc: 256, mc: 16 * mr, jb: 8 * nr,
		micro: func(kc int, a, b []float64, alpha, beta float64, c []float64, ldc int) {
			microKernelRef(mr, nr, kc, a, b, alpha, beta, c, ldc)
		},
	}
}

// TestGemmDriverShapes runs the GEMM and SYRK suites, with the default
// and the small blocking, with reference micro-kernels of shapes no
// kernel has today (NR not dividing 256 nor a power of two, MR odd), so
// that the driver's packing, chunking and edge handling do not assume
// the shapes of the current kernels.
func TestGemmDriverShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("slow with the reference kernel")
	}
	for _, k := range []gemmKernel{refKernel(3, 24), refKernel(5, 6)} {
		t.Run(k.name, func(t *testing.T) {
			withKernel(k, func() {
				t.Run("Gemm", TestGemm)
				t.Run("Syrk", TestSyrk)
				t.Run("GemmDeterministic", TestGemmDeterministic)
				t.Run("BlockEdges", TestGemmBlockEdges)
			})
		})
	}
}

// TestGemmSteadyStateAllocs: once the pooled packing buffers exist, Gemm
// allocates nothing on one goroutine, and with two goroutines only their
// starts (one per k block of KC).
func TestGemmSteadyStateAllocs(t *testing.T) {
	if testmat.Race {
		t.Skip("the race detector empties sync.Pool at random")
	}
	rnd := testmat.NewRand(8)
	n, k := 160, 2*gemmKC+1 // three k blocks
	a := Dense(testmat.Random(rnd, n, k, 0))
	b := Dense(testmat.Random(rnd, k, n, 0))
	c := Dense(testmat.New(n, n, 0))
	for _, tc := range []struct{ procs, max int }{{1, 0}, {2, 3}} {
		withProcs(t, tc.procs, func() {
			got := testing.AllocsPerRun(20, func() { Gemm(NoTrans, NoTrans, 1, &a, &b, 0, &c) })
			if int(got) > tc.max {
				t.Errorf("GOMAXPROCS=%d: %v allocations per Gemm, want at most %d", tc.procs, got, tc.max)
			}
			// The matrix–vector path, both ways, with a packed B column.
			for _, tA := range []Op{NoTrans, Trans} {
				v, cv := b.Slice(0, n, 0, 2), c.Slice(0, n, 0, 2)
				got := testing.AllocsPerRun(20, func() { Gemm(tA, NoTrans, 1, a.Slice(0, n, 0, n), v, 0, cv) })
				if int(got) > tc.max {
					t.Errorf("GOMAXPROCS=%d: %v allocations per %sN matrix–vector Gemm, want at most %d", tc.procs, got, opName(tA), tc.max)
				}
			}
		})
	}
}

// stored returns the shape of the matrix that op(X) = X or Xᵀ must have
// for op(X) to be r×c.
func stored(t Op, r, c int) (int, int) {
	if t == Trans {
		return c, r
	}
	return r, c
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func opName(t Op) string {
	if t == Trans {
		return "T"
	}
	return "N"
}
