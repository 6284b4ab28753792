package kernels

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/linalg"
)

// cosine is a user-defined kernel: it reaches only the generic path.
type cosine struct{}

func (cosine) Eval(x, z []float64) float64 {
	return Linear{}.Eval(x, z) / math.Sqrt(Linear{}.Eval(x, x)*Linear{}.Eval(z, z))
}

var testKernels = []struct {
	name string
	k    Kernel
}{
	{"linear", Linear{}},
	{"polynomial", Polynomial{Degree: 3, Offset: 1}},
	{"gaussian", Gaussian{Sigma: 0.8}},
	{"laplacian", Laplacian{Sigma: 2}},
	{"user", cosine{}},
}

// data returns an n×d matrix with stride d+pad (padding = testmat.Pad),
// entries uniform in [−1, 1) shifted by offset.
func data(seed uint64, n, d, pad int, offset float64) *linalg.Dense {
	m := testmat.Random(testmat.NewRand(seed), n, d, pad)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			m.Set(i, j, m.At(i, j)+offset)
		}
	}
	dm := linalg.Dense(m)
	return &dm
}

// closeTo reports whether got agrees with the pairwise value want to a few
// ulps of the scale of the entry.
func closeTo(got, want, scale float64) bool {
	return math.Abs(got-want) <= 1e-12*math.Max(1, scale)
}

func TestGramMatchesPairwise(t *testing.T) {
	for _, tk := range testKernels {
		for _, n := range []int{1, 2, 7, 64, 130} {
			t.Run(fmt.Sprintf("%s/n=%d", tk.name, n), func(t *testing.T) {
				x := data(1, n, 5, 3, 0)
				x0 := testmat.Matrix(*x).Clone()
				g, err := Gram(tk.k, x)
				if err != nil {
					t.Fatal(err)
				}
				for i := 0; i < n; i++ {
					for j := 0; j < n; j++ {
						want := tk.k.Eval(x.Row(i), x.Row(j))
						if got := g.At(i, j); !closeTo(got, want, 10) {
							t.Fatalf("K[%d][%d] = %v, pairwise %v", i, j, got, want)
						}
						if g.At(i, j) != g.At(j, i) {
							t.Fatalf("K not symmetric at (%d,%d)", i, j)
						}
					}
				}
				if !testmat.Identical(testmat.Matrix(*x), x0) {
					t.Errorf("Gram modified X")
				}
			})
		}
	}
}

// TestGramLowerOnly: the strict upper triangle of dst is not written.
func TestGramLowerOnly(t *testing.T) {
	for _, tk := range testKernels {
		x := data(2, 40, 3, 0, 0)
		dst := linalg.NewDense(40, 40, nil)
		for i := range dst.Data {
			dst.Data[i] = -7
		}
		if err := GramTo(dst, tk.k, x, true); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 40; i++ {
			for j := i + 1; j < 40; j++ {
				if dst.At(i, j) != -7 {
					t.Fatalf("%s: upper (%d,%d) written", tk.name, i, j)
				}
			}
			if dst.At(i, 0) == -7 {
				t.Fatalf("%s: lower row %d not written", tk.name, i)
			}
		}
	}
}

// TestGaussianFarFromOrigin: data at distance 1e4 from the origin with unit
// spread. Without centring, ‖x‖² + ‖z‖² − 2xᵀz would lose about 8 digits to
// cancellation (ε·1e8·d ≈ 1e-7 absolute on distances of order 1).
func TestGaussianFarFromOrigin(t *testing.T) {
	x := data(3, 50, 4, 0, 1e4)
	k := Gaussian{Sigma: 0.5}
	g, err := Gram(k, x)
	if err != nil {
		t.Fatal(err)
	}
	z := data(4, 20, 4, 0, 1e4)
	c, err := Cross(k, x, z)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		for j := 0; j < 50; j++ {
			if want := k.Eval(x.Row(i), x.Row(j)); math.Abs(g.At(i, j)-want) > 1e-10 {
				t.Fatalf("Gram[%d][%d] = %v, pairwise %v", i, j, g.At(i, j), want)
			}
		}
		for j := 0; j < 20; j++ {
			if want := k.Eval(x.Row(i), z.Row(j)); math.Abs(c.At(i, j)-want) > 1e-10 {
				t.Fatalf("Cross[%d][%d] = %v, pairwise %v", i, j, c.At(i, j), want)
			}
		}
	}
}

func TestCrossAndRows(t *testing.T) {
	for _, tk := range testKernels {
		t.Run(tk.name, func(t *testing.T) {
			x := data(5, 37, 6, 1, 0.5)
			z := data(6, 23, 6, 2, -0.25)
			c, err := Cross(tk.k, x, z)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 37; i++ {
				for j := 0; j < 23; j++ {
					if want := tk.k.Eval(x.Row(i), z.Row(j)); !closeTo(c.At(i, j), want, 10) {
						t.Fatalf("Cross[%d][%d] = %v, pairwise %v", i, j, c.At(i, j), want)
					}
				}
			}
			r, err := NewRows(tk.k, x, z)
			if err != nil {
				t.Fatal(err)
			}
			blk := r.BlockTo(nil, 10, 30)
			for i := 0; i < 20; i++ {
				for j := 0; j < 23; j++ {
					if blk.At(i, j) != c.At(10+i, j) {
						t.Fatalf("BlockTo row %d col %d = %v, Cross gives %v", 10+i, j, blk.At(i, j), c.At(10+i, j))
					}
				}
			}
			v, u := make([]float64, 23), make([]float64, 37)
			for j := range v {
				v[j] = math.Sin(float64(j))
			}
			for i := range u {
				u[i] = math.Cos(float64(i))
			}
			kv, ktu := r.MulVecTo(nil, v), r.MulTransVecTo(nil, u)
			kvm := r.MulTo(nil, linalg.NewDense(23, 1, v))
			for i := range kv {
				if !closeTo(kvm.At(i, 0), kv[i], 100) {
					t.Errorf("MulTo[%d] = %v, MulVecTo %v", i, kvm.At(i, 0), kv[i])
				}
			}
			for i := 0; i < 37; i++ {
				var s float64
				for j := 0; j < 23; j++ {
					s += c.At(i, j) * v[j]
				}
				if !closeTo(kv[i], s, 100) {
					t.Errorf("(K·v)[%d] = %v, want %v", i, kv[i], s)
				}
			}
			for j := 0; j < 23; j++ {
				var s float64
				for i := 0; i < 37; i++ {
					s += c.At(i, j) * u[i]
				}
				if !closeTo(ktu[j], s, 100) {
					t.Errorf("(Kᵀ·u)[%d] = %v, want %v", j, ktu[j], s)
				}
			}
		})
	}
}

// TestRowsBlocks: a Rows product in many blocks (a tiny block size forced
// through a large m) equals the one-block product.
func TestRowsManyBlocks(t *testing.T) {
	x := data(7, 300, 3, 0, 0)
	z := data(8, 5000, 3, 0, 0) // 2²⁰/5000 = 209 rows a block: two blocks
	r, err := NewRows(Gaussian{Sigma: 1}, x, z)
	if err != nil {
		t.Fatal(err)
	}
	if r.blockRows() >= 300 {
		t.Fatalf("test needs several blocks, block has %d rows", r.blockRows())
	}
	u := make([]float64, 300)
	for i := range u {
		u[i] = float64(i%7) - 3
	}
	got := r.MulTransVecTo(nil, u)
	c, _ := Cross(Gaussian{Sigma: 1}, x, z)
	for j := 0; j < 5000; j += 97 {
		var s float64
		for i := 0; i < 300; i++ {
			s += c.At(i, j) * u[i]
		}
		if !closeTo(got[j], s, 300) {
			t.Errorf("(Kᵀu)[%d] = %v, want %v", j, got[j], s)
		}
	}
}

func TestKernelErrors(t *testing.T) {
	good := data(9, 4, 3, 0, 0)
	nan := data(9, 4, 3, 0, 0)
	nan.Set(2, 1, math.NaN())
	other := data(9, 4, 2, 0, 0)
	for _, tc := range []struct {
		name string
		err  error
		want error
		msg  string
	}{
		{"sigma 0", gramErr(Gaussian{}, good), ErrParameter, "Sigma 0"},
		{"sigma negative", gramErr(Laplacian{Sigma: -1}, good), ErrParameter, "Sigma -1"},
		{"sigma NaN", gramErr(Gaussian{Sigma: math.NaN()}, good), ErrParameter, "NaN"},
		{"sigma Inf", gramErr(Gaussian{Sigma: math.Inf(1)}, good), ErrParameter, "+Inf"},
		{"degree 0", gramErr(Polynomial{}, good), ErrParameter, "Degree 0"},
		{"offset NaN", gramErr(Polynomial{Degree: 2, Offset: math.NaN()}, good), ErrParameter, "Offset NaN"},
		{"nil kernel", gramErr(nil, good), ErrParameter, "nil"},
		{"NaN data", gramErr(Linear{}, nan), ErrData, "X[2][1] is NaN"},
		{"NaN in Z", crossErr(Linear{}, good, nan), ErrData, "Z[2][1]"},
		{"NaN in X", crossErr(Gaussian{Sigma: 1}, nan, good), ErrData, "X[2][1]"},
		{"columns differ", crossErr(Linear{}, good, other), ErrData, "3 columns, Z has 2"},
		{"rows: columns differ", rowsErr(Linear{}, good, other), ErrData, "columns"},
	} {
		if !errors.Is(tc.err, tc.want) || !strings.Contains(fmt.Sprint(tc.err), tc.msg) {
			t.Errorf("%s: err = %v, want %v containing %q", tc.name, tc.err, tc.want, tc.msg)
		}
	}
}

func gramErr(k Kernel, x *linalg.Dense) error {
	_, err := Gram(k, x)
	return err
}

func crossErr(k Kernel, x, z *linalg.Dense) error {
	_, err := Cross(k, x, z)
	return err
}

func rowsErr(k Kernel, x, z *linalg.Dense) error {
	_, err := NewRows(k, x, z)
	return err
}

func TestKernelsDeterministic(t *testing.T) {
	testmat.SkipSingleThreaded(t)
	x := data(10, 700, 8, 0, 0)
	z := data(11, 300, 8, 0, 0)
	u := make([]float64, 700)
	for i := range u {
		u[i] = math.Sin(float64(i))
	}
	for _, tk := range testKernels {
		var g0, c0 *linalg.Dense
		var t0 []float64
		for _, procs := range []int{1, 2, 8} {
			old := runtime.GOMAXPROCS(procs)
			g, _ := Gram(tk.k, x)
			c, _ := Cross(tk.k, x, z)
			r, _ := NewRows(tk.k, x, z)
			tv := r.MulTransVecTo(nil, u)
			runtime.GOMAXPROCS(old)
			if procs == 1 {
				g0, c0, t0 = g, c, tv
				continue
			}
			if !testmat.Identical(testmat.Matrix(*g), testmat.Matrix(*g0)) || !testmat.Identical(testmat.Matrix(*c), testmat.Matrix(*c0)) {
				t.Errorf("%s: GOMAXPROCS=%d: Gram or Cross differs from GOMAXPROCS=1", tk.name, procs)
			}
			for j := range tv {
				if math.Float64bits(tv[j]) != math.Float64bits(t0[j]) {
					t.Fatalf("%s: GOMAXPROCS=%d: Kᵀu differs at %d", tk.name, procs, j)
				}
			}
		}
	}
}

func TestPowInt(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		n    int
		want float64
	}{{2, 1, 2}, {2, 10, 1024}, {-3, 3, -27}, {0.5, 2, 0.25}, {1.5, 5, 7.59375}} {
		if got := powInt(tc.x, tc.n); got != tc.want {
			t.Errorf("powInt(%v, %d) = %v, want %v", tc.x, tc.n, got, tc.want)
		}
	}
}
