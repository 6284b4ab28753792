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

// TestGramTriangles: with Lower or Upper only that triangle of dst is
// written, the other keeps its values, and the triangle written is the one
// of the full matrix bit for bit; an empty destination is allocated and
// returned.
func TestGramTriangles(t *testing.T) {
	const n = 40
	for _, tk := range testKernels {
		x := data(2, n, 3, 0, 0)
		full, err := Gram(tk.k, x)
		if err != nil {
			t.Fatal(err)
		}
		for _, ul := range []linalg.Uplo{linalg.Lower, linalg.Upper, linalg.All} {
			dst := linalg.NewDense(n, n, nil)
			for i := range dst.Data {
				dst.Data[i] = -7
			}
			got, err := GramTo(dst, tk.k, x, ul)
			if err != nil || got != dst {
				t.Fatalf("%s %v: GramTo returned %p, %v; want dst %p", tk.name, ul, got, err, dst)
			}
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					in := ul == linalg.All || (ul == linalg.Lower) == (j <= i) || i == j
					switch v := dst.At(i, j); {
					case in && v != full.At(i, j) && !(tk.name != "laplacian" && ul == linalg.Upper):
						t.Fatalf("%s %v: (%d,%d) = %v, Gram gives %v", tk.name, ul, i, j, v, full.At(i, j))
					case in && math.Abs(v-full.At(i, j)) > 1e-13:
						t.Fatalf("%s %v: (%d,%d) = %v, Gram gives %v", tk.name, ul, i, j, v, full.At(i, j))
					case !in && v != -7:
						t.Fatalf("%s %v: (%d,%d) outside the triangle written", tk.name, ul, i, j)
					}
				}
			}
		}
		got, err := GramTo(nil, tk.k, x, linalg.Lower)
		if err != nil || got.Rows != n || got.Cols != n {
			t.Fatalf("%s: GramTo(nil) = %v, %v; want a new %d×%d matrix", tk.name, got, err, n, n)
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

// TestCrossAndRows: Cross agrees with Eval pair by pair, and BlockTo gives
// the rows of Cross bit for bit, for every test kernel, with padded data.
// (The products of Rows are checked by TestStreamedProducts.)
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
		})
	}
}

// TestKernelErrors: every invalid argument — a bad parameter, nil, empty,
// malformed or non-finite data, mismatched sets — is a *linalg.InputError
// naming the call and the argument, never a panic; NaN or ±Inf in data or
// parameters is also linalg.ErrNotFinite.
func TestKernelErrors(t *testing.T) {
	good := data(9, 4, 3, 0, 0)
	nan := data(9, 4, 3, 0, 0)
	nan.Set(2, 1, math.NaN())
	other := data(9, 4, 2, 0, 0)
	short := &linalg.Dense{Rows: 4, Cols: 3, Stride: 3, Data: make([]float64, 11)}
	badStride := &linalg.Dense{Rows: 4, Cols: 3, Stride: 2, Data: make([]float64, 12)}
	for _, tc := range []struct {
		name      string
		err       error
		want      error
		op, arg   string
		notFinite bool
	}{
		{"sigma 0", gramErr(Gaussian{}, good), ErrParameter, "Gram", "k.Sigma", false},
		{"sigma negative", gramErr(Laplacian{Sigma: -1}, good), ErrParameter, "Gram", "k.Sigma", false},
		{"sigma NaN", gramErr(Gaussian{Sigma: math.NaN()}, good), ErrParameter, "Gram", "k.Sigma", true},
		{"sigma Inf", gramErr(Gaussian{Sigma: math.Inf(1)}, good), ErrParameter, "Gram", "k.Sigma", true},
		{"degree 0", gramErr(Polynomial{}, good), ErrParameter, "Gram", "k.Degree", false},
		{"offset NaN", gramErr(Polynomial{Degree: 2, Offset: math.NaN()}, good), ErrParameter, "Gram", "k.Offset", true},
		{"nil kernel", gramErr(nil, good), ErrParameter, "Gram", "k", false},
		{"NaN data", gramErr(Linear{}, nan), ErrData, "Gram", "X: row 3, column 2", true},
		{"nil data", gramErr(Linear{}, nil), ErrData, "Gram", "X", false},
		{"short data", gramErr(Gaussian{Sigma: 1}, short), ErrData, "Gram", "X", false},
		{"stride < cols", gramErr(Linear{}, badStride), ErrData, "Gram", "X", false},
		{"GramTo nil data", gramToErr(Linear{}, nil), ErrData, "GramTo", "X", false},
		{"GramTo nil kernel", gramToErr(nil, good), ErrParameter, "GramTo", "k", false},
		{"GramTo NaN", gramToErr(Gaussian{Sigma: 1}, nan), ErrData, "GramTo", "X: row 3, column 2", true},
		{"NaN in Z", crossErr(Linear{}, good, nan), ErrData, "Cross", "Z: row 3, column 2", true},
		{"NaN in X", crossErr(Gaussian{Sigma: 1}, nan, good), ErrData, "Cross", "X: row 3, column 2", true},
		{"Cross nil X", crossErr(Linear{}, nil, good), ErrData, "Cross", "X", false},
		{"Cross nil Z", crossErr(Linear{}, good, nil), ErrData, "Cross", "Z", false},
		{"Cross short Z", crossErr(Linear{}, good, short), ErrData, "Cross", "Z", false},
		{"Cross nil kernel", crossErr(nil, good, good), ErrParameter, "Cross", "k", false},
		{"CrossTo NaN", crossToErr(Linear{}, nan, good), ErrData, "CrossTo", "X: row 3, column 2", true},
		{"columns differ", crossErr(Linear{}, good, other), ErrData, "Cross", "Z", false},
		{"rows: columns differ", rowsErr(Linear{}, good, other), ErrData, "NewRows", "Z", false},
		{"rows: nil X", rowsErr(Linear{}, nil, good), ErrData, "NewRows", "X", false},
		{"rows: nil Z", rowsErr(Linear{}, good, nil), ErrData, "NewRows", "Z", false},
		{"rows: nil kernel", rowsErr(nil, good, good), ErrParameter, "NewRows", "k", false},
		{"rows: NaN", rowsErr(Polynomial{Degree: 2}, good, nan), ErrData, "NewRows", "Z: row 3, column 2", true},
		{"spec of a user kernel", specErr(userKernel{}), ErrParameter, "SpecOf", "k", false},
		{"spec of unknown type", specKernelErr(Spec{Type: "rbf"}), ErrParameter, "Spec.Kernel", "Type", false},
		{"spec sigma NaN", specKernelErr(Spec{Type: "gaussian", Sigma: math.NaN()}), ErrParameter, "Spec.Kernel", "Sigma", true},
	} {
		var ie *linalg.InputError
		arg, cell, _ := strings.Cut(tc.arg, ": ") // a data element: "X: row 3, column 2"
		if !errors.As(tc.err, &ie) || !errors.Is(tc.err, tc.want) || ie.Op != tc.op || ie.Arg != arg || !strings.HasPrefix(ie.Reason, cell) {
			t.Errorf("%s: err = %v, want an InputError of %s on %s wrapping %v", tc.name, tc.err, tc.op, tc.arg, tc.want)
			continue
		}
		if got := errors.Is(tc.err, linalg.ErrNotFinite); got != tc.notFinite {
			t.Errorf("%s: errors.Is(err, linalg.ErrNotFinite) = %v, want %v", tc.name, got, tc.notFinite)
		}
	}
	// Sets without rows are not errors: their matrices are empty.
	empty := &linalg.Dense{}
	if g, err := Gram(Linear{}, empty); err != nil || !g.IsEmpty() {
		t.Errorf("Gram of no points = %v, %v; want an empty matrix", g, err)
	}
	if c, err := Cross(Gaussian{Sigma: 1}, empty, good); err != nil || c.Rows != 0 {
		t.Errorf("Cross at no points = %v, %v; want 0×4", c, err)
	}
	if c, err := Cross(Gaussian{Sigma: 1}, good, empty); err != nil || c.Rows != 4 || c.Cols != 0 {
		t.Errorf("Cross against no points = %v, %v; want 4×0", c, err)
	}
	r, err := NewRows(Gaussian{Sigma: 1}, good, empty)
	if err != nil {
		t.Fatalf("NewRows against no points: %v", err)
	}
	if v := r.MulVecTo(nil, nil); len(v) != 4 || v[0] != 0 {
		t.Errorf("K·v against no points = %v, want 4 zeros", v)
	}
}

// TestDestinationPanics: a non-empty destination of the wrong shape, or a
// triangle that is not Lower, Upper or All, is a programming error.
func TestDestinationPanics(t *testing.T) {
	x := data(9, 4, 3, 0, 0)
	for name, f := range map[string]func(){
		"GramTo shape":    func() { GramTo(linalg.NewDense(3, 4, nil), Linear{}, x, linalg.All) },
		"GramTo triangle": func() { GramTo(nil, Linear{}, x, linalg.Uplo(7)) },
		"CrossTo shape":   func() { CrossTo(linalg.NewDense(4, 3, nil), Linear{}, x, x) },
		"CrossTo short":   func() { CrossTo(&linalg.Dense{Rows: 4, Cols: 4, Stride: 4, Data: make([]float64, 3)}, Linear{}, x, x) },
	} {
		func() {
			defer func() {
				if msg, _ := recover().(string); !strings.HasPrefix(msg, "kernels: ") {
					t.Errorf("%s: panic %q, want one starting with \"kernels: \"", name, msg)
				}
			}()
			f()
		}()
	}
}

type userKernel struct{}

func (userKernel) Eval(x, z []float64) float64 { return 0 }

func gramToErr(k Kernel, x *linalg.Dense) error {
	_, err := GramTo(nil, k, x, linalg.Lower)
	return err
}

func crossToErr(k Kernel, x, z *linalg.Dense) error {
	_, err := CrossTo(nil, k, x, z)
	return err
}

func specErr(k Kernel) error {
	_, err := SpecOf(k)
	return err
}

func specKernelErr(s Spec) error {
	_, err := s.Kernel()
	return err
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
			r, _ := NewRows(tk.k, z, x)
			tv := r.MulVecTo(nil, u)
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
					t.Fatalf("%s: GOMAXPROCS=%d: K(Z, X)·u differs at %d", tk.name, procs, j)
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
