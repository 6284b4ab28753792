package kernels

import (
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"rkhs/internal/parallel"
	"rkhs/internal/testmat"
	"rkhs/linalg"
)

// streamShapes are the shapes of the streamed-product tests: K narrow
// enough for one block, and wide enough (m ≥ 2¹⁷/8) for blocks of
// minBlockRows rows, so that n = 1 … 300 covers one block, a partial
// block, more blocks than chunks and a ragged last block.
var streamShapes = []struct{ n, m, d int }{
	{1, 20, 3}, {7, 20, 3}, {150, 20, 3},
	{1, 16390, 2}, {9, 16390, 2}, {300, 16390, 2},
}

// dense returns m as a linalg.Dense pointer (for the testmat fixtures).
func dense(m testmat.Matrix) *linalg.Dense {
	d := linalg.Dense(m)
	return &d
}

// naiveNormal returns Kᵀ(K·V) and |K|ᵀ(|K|·|V|) from the full matrix K by
// testmat's naive products: the oracle of NormalMulTo and the scale of its
// rounding errors.
func naiveNormal(k, v testmat.Matrix) (want, scale testmat.Matrix) {
	kt := testmat.T(k)
	want = testmat.Mul(kt, testmat.Mul(k, v))
	ak := testmat.Abs(k)
	scale = testmat.Mul(testmat.T(ak), testmat.Mul(ak, testmat.Abs(v)))
	return want, scale
}

// checkClose reports entries of got farther from want than (n+m+10)·2⁻⁵²
// times scale, the rounding of two sums of n and m terms.
func checkClose(t *testing.T, what string, got *linalg.Dense, want, scale testmat.Matrix, terms int) {
	t.Helper()
	tol := float64(terms+10) * 0x1p-52
	for i := 0; i < want.Rows; i++ {
		for j := 0; j < want.Cols; j++ {
			if g, w := got.At(i, j), want.At(i, j); !(math.Abs(g-w) <= tol*scale.At(i, j)) {
				t.Fatalf("%s[%d][%d] = %v, want %v (scale %v)", what, i, j, g, w, scale.At(i, j))
			}
		}
	}
}

// TestStreamedProducts compares MulTo, MulVecTo, NormalMulTo and
// MulTransTo with naive products of the full cross matrix, for every test
// kernel and q = 1, 3, with padded V, Y and destinations: within the
// rounding of the sums, inputs and padding unchanged, and dst = V allowed
// for NormalMulTo.
func TestStreamedProducts(t *testing.T) {
	for _, tk := range testKernels {
		for _, sh := range streamShapes {
			for _, q := range []int{1, 3} {
				name := fmt.Sprintf("%s/n=%d/m=%d/q=%d", tk.name, sh.n, sh.m, q)
				if testing.Short() && sh.m > 1000 && tk.name != "gaussian" {
					continue
				}
				t.Run(name, func(t *testing.T) {
					rng := testmat.NewRand(uint64(sh.n*7 + sh.m + q))
					x := testmat.Random(rng, sh.n, sh.d, 2)
					z := testmat.Random(rng, sh.m, sh.d, 1)
					v := testmat.Random(rng, sh.m, q, 2)
					y := testmat.Random(rng, sh.n, q, 1)
					inputs := []testmat.Matrix{x.Clone(), z.Clone(), v.Clone(), y.Clone()}
					r, err := NewRows(tk.k, dense(x), dense(z))
					if err != nil {
						t.Fatal(err)
					}
					kf, err := Cross(tk.k, dense(x), dense(z))
					if err != nil {
						t.Fatal(err)
					}
					k := testmat.Matrix(*kf)

					kv := testmat.New(sh.n, q, 2)
					got := r.MulTo(dense(kv), dense(v))
					want := testmat.Mul(k, v)
					scale := testmat.Mul(testmat.Abs(k), testmat.Abs(v))
					checkClose(t, "K·V", got, want, scale, sh.m)
					if !testmat.PaddingIntact(kv) {
						t.Errorf("MulTo wrote into the padding of dst")
					}
					v1 := testmat.New(sh.m, 1, 0)
					for i := range sh.m {
						v1.Set(i, 0, v.At(i, 0))
					}
					got = &linalg.Dense{Rows: sh.n, Cols: 1, Stride: 1, Data: r.MulVecTo(nil, v1.Data)}
					checkClose(t, "K·v", got, testmat.Mul(k, v1), testmat.Mul(testmat.Abs(k), testmat.Abs(v1)), sh.m)

					dst := testmat.New(sh.m, q, 3)
					got = r.NormalMulTo(dense(dst), dense(v))
					want, scale = naiveNormal(k, v)
					checkClose(t, "Kᵀ(K·V)", got, want, scale, sh.n+sh.m)
					if !testmat.PaddingIntact(dst) {
						t.Errorf("NormalMulTo wrote into the padding of dst")
					}

					got = r.MulTransTo(nil, dense(y))
					want = testmat.Mul(testmat.T(k), y)
					scale = testmat.Mul(testmat.T(testmat.Abs(k)), testmat.Abs(y))
					checkClose(t, "Kᵀ·Y", got, want, scale, sh.n)

					for i, m := range []testmat.Matrix{x, z, v, y} {
						if !testmat.Identical(m, inputs[i]) {
							t.Errorf("input %d (X, Z, V, Y) modified", i)
						}
					}

					// dst = V: V is read before dst is written.
					vv := v.Clone()
					r.NormalMulTo(dense(vv), dense(vv))
					if !testmat.Identical(testmat.Matrix(*r.NormalMulTo(dense(testmat.New(sh.m, q, 2)), dense(v))), vv) {
						t.Errorf("NormalMulTo(V, V) differs from NormalMulTo(dst, V)")
					}
				})
			}
		}
	}
}

// TestEachBlock checks the visitor's contract: every row of K exactly
// once, in blocks that equal BlockTo's rows bit for bit; the blocks of a
// chunk in increasing order; as many chunks as asked, whatever GOMAXPROCS.
func TestEachBlock(t *testing.T) {
	rng := testmat.NewRand(5)
	for _, sh := range streamShapes {
		x := dense(testmat.Random(rng, sh.n, sh.d, 1))
		z := dense(testmat.Random(rng, sh.m, sh.d, 0))
		r, err := NewRows(Gaussian{Sigma: 0.9}, x, z)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunks := range []int{1, 3, 64} {
			seen := make([]int, sh.n)
			next := make([]int, chunks) // the next row chunk c may start at
			bad := make([]string, chunks)
			r.EachBlock(chunks, func(c, i0 int, kb *linalg.Dense) {
				if i0 < next[c] {
					bad[c] = fmt.Sprintf("block at row %d after row %d", i0, next[c])
				}
				next[c] = i0 + kb.Rows
				want := r.BlockTo(nil, i0, i0+kb.Rows)
				if !testmat.Identical(testmat.Matrix(*kb), testmat.Matrix(*want)) {
					bad[c] = fmt.Sprintf("block at row %d differs from BlockTo", i0)
				}
				for i := i0; i < i0+kb.Rows; i++ {
					seen[i]++ // rows of different chunks are disjoint
				}
			})
			if s := strings.Join(bad, ""); s != "" {
				t.Errorf("n=%d m=%d chunks=%d: %s", sh.n, sh.m, chunks, s)
			}
			for i, s := range seen {
				if s != 1 {
					t.Fatalf("n=%d m=%d chunks=%d: row %d visited %d times", sh.n, sh.m, chunks, i, s)
				}
			}
		}
	}
}

// streamFixture returns K(X, Z) for the Gaussian kernel with n points and
// m centres in 3 dimensions, and random V (m×q) and Y (n×q).
func streamFixture(t *testing.T, seed uint64, n, m, q int) (r *Rows, v, y *linalg.Dense) {
	rng := testmat.NewRand(seed)
	x, z := dense(testmat.Random(rng, n, 3, 0)), dense(testmat.Random(rng, m, 3, 0))
	v, y = dense(testmat.Random(rng, m, q, 0)), dense(testmat.Random(rng, n, q, 0))
	r, err := NewRows(Gaussian{Sigma: 0.7}, x, z)
	if err != nil {
		t.Fatal(err)
	}
	return r, v, y
}

// TestStreamDeterministic requires NormalMulTo, MulTransTo and a column
// sum through EachBlock to be bit-identical at GOMAXPROCS 1, 2 and 8.
func TestStreamDeterministic(t *testing.T) {
	testmat.SkipSingleThreaded(t)
	const m = 16390
	r, v, y := streamFixture(t, 6, 400, m, 2)
	colSums := func() []float64 {
		const chunks = 5
		parts := make([][]float64, chunks)
		r.EachBlock(chunks, func(c, _ int, kb *linalg.Dense) {
			if parts[c] == nil {
				parts[c] = make([]float64, m)
			}
			for i := range kb.Rows {
				for j, k := range kb.Row(i) {
					parts[c][j] += k
				}
			}
		})
		s := make([]float64, m)
		for _, p := range parts {
			for j := range p {
				s[j] += p[j]
			}
		}
		return s
	}
	var n0, t0 *linalg.Dense
	var s0 []float64
	for _, procs := range []int{1, 2, 8} {
		old := runtime.GOMAXPROCS(procs)
		nv, ty, s := r.NormalMulTo(nil, v), r.MulTransTo(nil, y), colSums()
		runtime.GOMAXPROCS(old)
		if procs == 1 {
			n0, t0, s0 = nv, ty, s
			continue
		}
		if !testmat.Identical(testmat.Matrix(*nv), testmat.Matrix(*n0)) {
			t.Errorf("GOMAXPROCS=%d: Kᵀ(K·V) differs from GOMAXPROCS=1", procs)
		}
		if !testmat.Identical(testmat.Matrix(*ty), testmat.Matrix(*t0)) {
			t.Errorf("GOMAXPROCS=%d: Kᵀ·Y differs from GOMAXPROCS=1", procs)
		}
		for j := range s {
			if math.Float64bits(s[j]) != math.Float64bits(s0[j]) {
				t.Fatalf("GOMAXPROCS=%d: column sum %d differs from GOMAXPROCS=1", procs, j)
			}
		}
	}
}

// TestMulToDeterministic requires MulTo and MulVecTo, run through the
// engine in many blocks (d = 3, inner products by dotSmall; d = 20, by
// Gemm), to be bit-identical at GOMAXPROCS 1, 2 and 8, to have split the
// work over goroutines, and to agree with the naive dense K·V.
func TestMulToDeterministic(t *testing.T) {
	testmat.SkipSingleThreaded(t)
	for _, sh := range []struct{ n, m, d, q int }{{400, 16390, 3, 3}, {300, 2000, 20, 2}} {
		rng := testmat.NewRand(uint64(sh.d))
		x, z := testmat.Random(rng, sh.n, sh.d, 0), testmat.Random(rng, sh.m, sh.d, 0)
		v := testmat.Random(rng, sh.m, sh.q, 0)
		r, err := NewRows(Gaussian{Sigma: 0.7}, dense(x), dense(z))
		if err != nil {
			t.Fatal(err)
		}
		if b := streamRows(sh.m); b >= sh.n {
			t.Fatalf("d=%d: the test needs several blocks, a block has %d rows", sh.d, b)
		}
		col := make([]float64, sh.m)
		for i := range col {
			col[i] = v.At(i, 0)
		}
		var kv0 *linalg.Dense
		var vec0 []float64
		for _, procs := range []int{1, 2, 8} {
			old := runtime.GOMAXPROCS(procs)
			splits := parallel.Splits()
			kv, vec := r.MulTo(nil, dense(v)), r.MulVecTo(nil, col)
			split := parallel.Splits() > splits
			runtime.GOMAXPROCS(old)
			if procs == 1 {
				kv0, vec0 = kv, vec
				kf, err := Cross(Gaussian{Sigma: 0.7}, dense(x), dense(z))
				if err != nil {
					t.Fatal(err)
				}
				k := testmat.Matrix(*kf)
				checkClose(t, "K·V", kv, testmat.Mul(k, v), testmat.Mul(testmat.Abs(k), testmat.Abs(v)), sh.m)
				continue
			}
			if !split {
				t.Errorf("d=%d, GOMAXPROCS=%d: MulTo and MulVecTo ran on one goroutine", sh.d, procs)
			}
			if !testmat.Identical(testmat.Matrix(*kv), testmat.Matrix(*kv0)) {
				t.Errorf("d=%d, GOMAXPROCS=%d: K·V differs from GOMAXPROCS=1", sh.d, procs)
			}
			for i := range vec {
				if math.Float64bits(vec[i]) != math.Float64bits(vec0[i]) {
					t.Fatalf("d=%d, GOMAXPROCS=%d: (K·v)[%d] = %v, %v at GOMAXPROCS=1", sh.d, procs, i, vec[i], vec0[i])
				}
			}
		}
		for i := range vec0 {
			if vec0[i] != kv0.At(i, 0) && !closeTo(vec0[i], kv0.At(i, 0), 100) {
				t.Fatalf("d=%d: MulVecTo[%d] = %v, MulTo %v", sh.d, i, vec0[i], kv0.At(i, 0))
			}
		}
	}
}

// TestStreamAllocs requires NormalMulTo and MulTransTo to allocate nothing
// once their pooled workspaces have grown, here with 50 blocks per call.
func TestStreamAllocs(t *testing.T) {
	if testmat.Race {
		t.Skip("the race detector empties sync.Pool at random")
	}
	const m, q = 16390, 1
	r, v, y := streamFixture(t, 7, 400, m, q)
	out := linalg.NewDense(m, q, nil)
	if a := testing.AllocsPerRun(5, func() { r.NormalMulTo(out, v) }); a != 0 {
		t.Errorf("NormalMulTo: %v allocations per call", a)
	}
	if a := testing.AllocsPerRun(5, func() { r.MulTransTo(out, y) }); a != 0 {
		t.Errorf("MulTransTo: %v allocations per call", a)
	}
}

// TestStreamPanics checks the shape panics of the streamed products.
func TestStreamPanics(t *testing.T) {
	x := dense(testmat.Random(testmat.NewRand(8), 5, 2, 0))
	r, err := NewRows(Gaussian{Sigma: 1}, x, x)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"NormalMulTo V rows", func() { r.NormalMulTo(nil, linalg.NewDense(4, 1, nil)) }},
		{"NormalMulTo dst", func() { r.NormalMulTo(linalg.NewDense(5, 2, nil), linalg.NewDense(5, 1, nil)) }},
		{"MulTransTo Y rows", func() { r.MulTransTo(nil, linalg.NewDense(6, 1, nil)) }},
		{"MulTransTo dst", func() { r.MulTransTo(linalg.NewDense(4, 1, nil), linalg.NewDense(5, 1, nil)) }},
		{"MulTo V rows", func() { r.MulTo(nil, linalg.NewDense(4, 1, nil)) }},
		{"MulTo dst", func() { r.MulTo(linalg.NewDense(5, 2, nil), linalg.NewDense(5, 1, nil)) }},
		{"MulVecTo v", func() { r.MulVecTo(nil, make([]float64, 4)) }},
		{"MulVecTo dst", func() { r.MulVecTo(make([]float64, 4), make([]float64, 5)) }},
		{"EachBlock chunks", func() { r.EachBlock(0, func(int, int, *linalg.Dense) {}) }},
	} {
		func() {
			defer func() {
				if p := recover(); p == nil {
					t.Errorf("%s: no panic", c.name)
				} else if s, ok := p.(string); !ok || !strings.HasPrefix(s, "kernels: ") {
					t.Errorf("%s: panic %v, want a message starting with \"kernels: \"", c.name, p)
				}
			}()
			c.f()
		}()
	}
}
