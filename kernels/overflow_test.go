package kernels

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"rkhs/linalg"
)

// scaled returns a compact copy of m with every element multiplied by s.
func scaled(m *linalg.Dense, s float64) *linalg.Dense {
	c := linalg.NewDense(m.Rows, m.Cols, nil)
	for i := 0; i < m.Rows; i++ {
		for j, v := range m.Row(i) {
			c.Set(i, j, v*s)
		}
	}
	return c
}

// TestSigmaRange: a σ for which c = 1/(2σ²), the factor the Gaussian uses,
// is +Inf (σ below about 5.27e-155) or 0 (2σ² is +Inf, σ above about
// 9.5e153) is rejected by Validate and so by every entry point; one just
// inside is accepted and keeps the diagonal exactly 1. Laplacian divides by
// σ itself and accepts every positive finite σ.
func TestSigmaRange(t *testing.T) {
	x := data(21, 6, 3, 0, 0)
	for _, tc := range []struct {
		k   Kernel
		msg string // "" for valid
	}{
		{Gaussian{Sigma: 1e-300}, "Sigma: 1e-300 is too small: 1/(2σ²) overflows"},
		{Gaussian{Sigma: 1e-163}, "too small"},
		{Gaussian{Sigma: 5.27e-155}, "too small"},
		{Gaussian{Sigma: 1e200}, "Sigma: 1e+200 is too large: 2σ² overflows"},
		{Gaussian{Sigma: 1e154}, "too large"},
		{Gaussian{Sigma: 5.28e-155}, ""},
		{Gaussian{Sigma: 1e153}, ""},
		{Gaussian{Sigma: math.SmallestNonzeroFloat64}, "too small"},
		{Gaussian{Sigma: math.MaxFloat64}, "too large"},
		{Laplacian{Sigma: 1e-300}, ""},
		{Laplacian{Sigma: math.SmallestNonzeroFloat64}, ""},
		{Laplacian{Sigma: math.MaxFloat64}, ""},
	} {
		t.Run(fmt.Sprintf("%T%+v", tc.k, tc.k), func(t *testing.T) {
			s, _ := SpecOf(tc.k)
			_, specErr := s.Kernel()
			errs := map[string]error{
				"Validate":    tc.k.(Validator).Validate(),
				"Spec.Kernel": specErr,
				"Gram":        gramErr(tc.k, x),
				"Cross":       crossErr(tc.k, x, x),
				"NewRows":     rowsErr(tc.k, x, x),
			}
			for name, err := range errs {
				if tc.msg == "" && err != nil {
					t.Errorf("%s: %v", name, err)
				}
				if tc.msg != "" && (!errors.Is(err, ErrParameter) || !strings.Contains(fmt.Sprint(err), tc.msg)) {
					t.Errorf("%s: err = %v, want ErrParameter containing %q", name, err, tc.msg)
				}
			}
			if tc.msg != "" {
				return
			}
			g, _ := Gram(tc.k, x)
			for i := 0; i < x.Rows; i++ {
				if g.At(i, i) != 1 || tc.k.Eval(x.Row(i), x.Row(i)) != 1 {
					t.Errorf("k(x%d, x%d) = %v (Gram), %v (Eval), want 1", i, i, g.At(i, i), tc.k.Eval(x.Row(i), x.Row(i)))
				}
			}
		})
	}
}

// TestOverflow: finite data so far from 0 that a Linear or Polynomial
// kernel value overflows is an ErrData error of Gram, GramTo, Cross,
// CrossTo and NewRows, never a matrix with NaN or ±Inf. The Gaussian
// values of such data are those of Eval, computed from the differences of
// the rows (0 where the distance overflows), as are all values of data
// scaled by 1e150 (squared norms near 1e300, inside the bounds).
// Laplacian's values are finite for all finite data (a distance that
// overflows gives exp(−∞) = 0, the correctly rounded value), so it never
// errs.
func TestOverflow(t *testing.T) {
	x0 := data(22, 30, 5, 2, 0) // entries in [−1, 1)
	z0 := data(23, 17, 5, 0, 0.5)
	for _, tc := range []struct {
		name  string
		k     Kernel
		scale float64
		err   bool // want ErrData; otherwise the values of Eval
	}{
		{"linear/1", Linear{}, 1, false},
		{"linear/1e150", Linear{}, 1e150, false},
		{"linear/1e300", Linear{}, 1e300, true},
		{"polynomial/1e150", Polynomial{Degree: 3, Offset: 1}, 1e150, true}, // (1e300)³
		{"polynomial/1e300", Polynomial{Degree: 3, Offset: 1}, 1e300, true},
		{"polynomial{400,10}/1", Polynomial{Degree: 400, Offset: 10}, 1, true},    // ~10⁴⁰⁰
		{"polynomial{400,0}/0.1", Polynomial{Degree: 400, Offset: 0}, 0.1, false}, // bound 0.075⁴⁰⁰ fits
		{"polynomial{2,1e200}/1", Polynomial{Degree: 2, Offset: 1e200}, 1, true},
		{"gaussian/1e150", Gaussian{Sigma: 0.8}, 1e150, false}, // 1 and 0
		{"gaussian/1e300", Gaussian{Sigma: 0.8}, 1e300, false}, // ∞ − ∞ in the matrix form
		{"gaussian σ=1e150/1e150", Gaussian{Sigma: 0.8e150}, 1e150, false},
		{"gaussian σ=1e153/1e300", Gaussian{Sigma: 1e153}, 1e300, false},
		{"gaussian σ=1e153/1e154", Gaussian{Sigma: 1e153}, 1e154, false}, // values between 0 and 1
		{"gaussian/1e308", Gaussian{Sigma: 1}, 1e308, false},
		{"laplacian/1e150", Laplacian{Sigma: 2}, 1e150, false},
		{"laplacian/1e300", Laplacian{Sigma: 2}, 1e300, false},
		{"laplacian/1e308", Laplacian{Sigma: 2}, 1e308, false}, // ‖x − z‖₁ = +Inf
	} {
		t.Run(tc.name, func(t *testing.T) {
			x, z := scaled(x0, tc.scale), scaled(z0, tc.scale)
			g, gerr := Gram(tc.k, x)
			lower := linalg.NewDense(x.Rows, x.Rows, nil)
			_, lerr := GramTo(lower, tc.k, x, linalg.Lower)
			c, cerr := Cross(tc.k, x, z)
			r, rerr := NewRows(tc.k, x, z)
			if tc.err {
				for name, err := range map[string]error{"Gram": gerr, "GramTo": lerr, "Cross": cerr, "NewRows": rerr} {
					if !errors.Is(err, ErrData) || !strings.Contains(fmt.Sprint(err), "overflows on data this large") {
						t.Errorf("%s: err = %v, want ErrData (overflow)", name, err)
					}
				}
				return
			}
			for name, err := range map[string]error{"Gram": gerr, "GramTo": lerr, "Cross": cerr, "NewRows": rerr} {
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
			}
			// Tolerance: 1e-12 of the largest value a dot kernel can take
			// here (|xᵀz| ≤ 5·scale²·1.5), of 1 for the others.
			tol := 1e-12
			if _, ok := tc.k.(dotKernel); ok {
				tol *= math.Max(1, tc.k.Eval(make([]float64, 5), make([]float64, 5))) + 8*tc.scale*tc.scale
			}
			near := func(what string, i, j int, got, want float64) {
				t.Helper()
				if math.IsNaN(got) || math.IsInf(got, 0) || !(math.Abs(got-want) <= tol) {
					t.Fatalf("%s[%d][%d] = %v, Eval %v", what, i, j, got, want)
				}
			}
			for i := 0; i < x.Rows; i++ {
				for j := 0; j < x.Rows; j++ {
					want := tc.k.Eval(x.Row(i), x.Row(j))
					near("Gram", i, j, g.At(i, j), want)
					if j <= i {
						near("GramTo lower", i, j, lower.At(i, j), want)
					}
				}
			}
			blk := r.BlockTo(nil, 0, x.Rows)
			kv := r.MulVecTo(nil, make([]float64, z.Rows))
			for i := 0; i < x.Rows; i++ {
				if kv[i] != 0 {
					t.Fatalf("(K·0)[%d] = %v", i, kv[i])
				}
				for j := 0; j < z.Rows; j++ {
					want := tc.k.Eval(x.Row(i), z.Row(j))
					near("Cross", i, j, c.At(i, j), want)
					if blk.At(i, j) != c.At(i, j) {
						t.Fatalf("BlockTo[%d][%d] = %v, Cross %v", i, j, blk.At(i, j), c.At(i, j))
					}
				}
			}
		})
	}
}

// TestOverflowBoundOnly: the cheap bound fails but no value overflows, so
// the full check of the rows it does not cover finds nothing and the
// result stands; and an overflow in the one row the bound does not cover is
// found and named.
func TestOverflowBoundOnly(t *testing.T) {
	big := linalg.NewDense(3, 2, []float64{
		1e200, 0, // ‖x‖² overflows, but x ⊥ z₀
		1, 1,
		-2, 0.5,
	})
	zbig := linalg.NewDense(2, 2, []float64{0, 1e200, 2, 3})
	// Gaussian: ‖x₀ − μ‖² ≈ 1.44e308 is above the bound's max/8, yet the
	// distances are finite.
	far := linalg.NewDense(2, 2, []float64{1.2e154, 0, 0, 1})
	zfar := linalg.NewDense(2, 2, []float64{0, 0, 0, 1})
	for _, tc := range []struct {
		name string
		k    Kernel
		x, z *linalg.Dense
	}{
		{"linear", Linear{}, big, zbig},
		{"polynomial", Polynomial{Degree: 1, Offset: 3}, big, zbig},
		{"gaussian", Gaussian{Sigma: 1}, far, zfar},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if p := prepare(tc.k, tc.z); valuesFit(tc.k, maxNorm(p.xNorms(tc.x)), p.zmax) {
				t.Fatal("test data: the bound covers every value")
			}
			c, err := Cross(tc.k, tc.x, tc.z)
			if err != nil {
				t.Fatal(err)
			}
			r, err := NewRows(tc.k, tc.x, tc.z)
			if err != nil {
				t.Fatal(err)
			}
			blk := r.BlockTo(nil, 0, tc.x.Rows)
			for i := 0; i < tc.x.Rows; i++ {
				for j := 0; j < tc.z.Rows; j++ {
					want := tc.k.Eval(tc.x.Row(i), tc.z.Row(j))
					if got := c.At(i, j); !closeTo(got, want, math.Abs(want)) || blk.At(i, j) != got {
						t.Errorf("K[%d][%d] = %v (Cross), %v (Rows), Eval %v", i, j, got, blk.At(i, j), want)
					}
				}
			}
		})
	}

	// Ordinary data but for row 5, whose products with Z overflow.
	x := data(24, 9, 4, 0, 0)
	z := data(25, 6, 4, 0, 0)
	for j := range x.Row(5) {
		x.Set(5, j, 1e120*x.At(5, j))
	}
	cube := Polynomial{Degree: 3}
	for name, err := range map[string]error{
		"Cross":   crossErr(cube, x, z),
		"NewRows": rowsErr(cube, x, z),
		"Gram":    gramErr(cube, x),
	} {
		want := "the kernel value of row 6 of X and row 1 of Z is "
		if name == "Gram" {
			want = "the kernel value of rows 6 and 1 of X is "
		}
		if !errors.Is(err, ErrData) || !strings.Contains(fmt.Sprint(err), want) {
			t.Errorf("%s: err = %v, want ErrData containing %q", name, err, want)
		}
	}
}

// TestPowFits: the bound on (|g| + |c|)^p against the largest float64.
func TestPowFits(t *testing.T) {
	for _, tc := range []struct {
		t    float64
		n    int
		want bool
	}{
		{0, 1000, true},
		{1, 1000, true}, // (1 + 2⁻²⁰)¹⁰⁰⁰ ≈ 1.001
		{2, 1022, true},
		{2, 1024, false},
		{1e300, 1, true},
		{1e300, 2, false},
		{math.MaxFloat64, 1, false},
		{math.Inf(1), 1, false},
		{math.NaN(), 1, false},
		{10, 400, false},
	} {
		if got := powFits(tc.t, tc.n); got != tc.want {
			t.Errorf("powFits(%v, %d) = %v, want %v", tc.t, tc.n, got, tc.want)
		}
	}
}

// TestFarRow: one test row with a value of 1.5e308 among ordinary rows,
// against ordinary centres (the shape of a prediction at a row far outside
// the data), both with few columns (dotSmall) and many (Gemm): its
// Gaussian values are exactly 0, as Eval gives them, in Cross, in the
// blocks of Rows (BlockTo, EachBlock) and in Widths; every other row is
// the one of the same data without the far row, bit for bit; and the
// Gram matrix of the rows with the centres agrees with Eval.
func TestFarRow(t *testing.T) {
	for _, d := range []int{3, 40} {
		z := data(31, 17, d, 0, 0)
		x := data(32, 9, d, 0, 0)
		far := x.Clone()
		far.Set(4, d-1, 1.5e308)
		g := Gaussian{Sigma: 0.9}
		plain, err := Cross(g, x, z)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Cross(g, far, z)
		if err != nil {
			t.Fatalf("d=%d: Cross: %v", d, err)
		}
		r, err := NewRows(g, far, z)
		if err != nil {
			t.Fatalf("d=%d: NewRows: %v", d, err)
		}
		blk := r.BlockTo(nil, 0, far.Rows)
		each := linalg.NewDense(far.Rows, z.Rows, nil)
		r.EachBlock(1, func(_, i0 int, kb *linalg.Dense) { each.Slice(i0, i0+kb.Rows, 0, z.Rows).Copy(kb) })
		w, err := NewWidths([]Kernel{Gaussian{Sigma: 2}, g}, far, z)
		if err != nil {
			t.Fatalf("d=%d: NewWidths: %v", d, err)
		}
		wk := w.KernelTo(nil, w.SharedTo(nil, 0, far.Rows), 1, 0)
		for i := range far.Rows {
			for j := range z.Rows {
				want := plain.At(i, j)
				if i == 4 {
					want = 0
				}
				for name, m := range map[string]*linalg.Dense{"Cross": got, "BlockTo": blk, "EachBlock": each, "Widths": wk} {
					if v := m.At(i, j); math.Float64bits(v) != math.Float64bits(want) {
						t.Fatalf("d=%d %s[%d][%d] = %v, want %v", d, name, i, j, v, want)
					}
				}
			}
		}
		if e := g.Eval(far.Row(4), z.Row(0)); e != 0 {
			t.Fatalf("Eval = %v, want 0", e)
		}
		all := linalg.NewDense(far.Rows+z.Rows, d, nil)
		all.Slice(0, far.Rows, 0, d).Copy(far)
		all.Slice(far.Rows, all.Rows, 0, d).Copy(z)
		gram, err := Gram(g, all)
		if err != nil {
			t.Fatalf("d=%d: Gram: %v", d, err)
		}
		for i := range all.Rows {
			for j := range all.Rows {
				if want := g.Eval(all.Row(i), all.Row(j)); !closeTo(gram.At(i, j), want, 1) {
					t.Fatalf("d=%d Gram[%d][%d] = %v, Eval %v", d, i, j, gram.At(i, j), want)
				}
			}
		}
	}
}

// TestFarRowNaN: where centring itself overflows — a centre at 1.7e308
// whose distance from the centres' mean, −5.7e307, is beyond the largest
// float64, and a row beyond it on the same side — the value is NaN, an
// ErrData error naming the rows 1-based, not a matrix with NaN.
func TestFarRowNaN(t *testing.T) {
	z := linalg.NewDense(3, 1, []float64{1.7e308, -1.7e308, -1.7e308})
	x := linalg.NewDense(2, 1, []float64{0, 1.7e308})
	want := "the kernel value of row 2 of X and row 1 of Z is NaN"
	for name, err := range map[string]error{"Cross": crossErr(Gaussian{Sigma: 1}, x, z), "NewRows": rowsErr(Gaussian{Sigma: 1}, x, z)} {
		if !errors.Is(err, ErrData) || !strings.Contains(fmt.Sprint(err), want) {
			t.Errorf("%s: %v, want ErrData containing %q", name, err, want)
		}
	}
}
