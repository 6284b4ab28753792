package regress

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestNystromStatsGram: for every intercept mode, Gram's G and R equal ZᵀZ
// and ZᵀY₀ of the features of its frame formed explicitly (Z = B − 1sᵀ,
// B = K_nm·L⁻ᵀ) to rounding, G's triangles mirror each other exactly, YY
// is ‖Y₀‖², w solves L·w = 1, and the statistics are unchanged;
// GramInPlace gives the same problem bit for bit and leaves the zero
// value.
func TestNystromStatsGram(t *testing.T) {
	x, y, c := statsProblem(700, 3, 2, 30)
	k := kernels.Gaussian{Sigma: 1.2}
	st, err := NewNystromStats(k, c)
	if err == nil {
		err = st.Add(x, y)
	}
	if err != nil {
		t.Fatal(err)
	}
	file := encode(t, st)
	knm, err := kernels.Cross(k, x, c)
	if err != nil {
		t.Fatal(err)
	}
	n, m, q := x.Rows, c.Rows, y.Cols
	for _, ic := range intercepts {
		g, err := st.Gram(ic)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(encode(t, st), file) {
			t.Fatalf("%v: Gram changed the statistics", ic)
		}
		// Z = K_nm·L⁻ᵀ − 1sᵀ, Y₀ = Y − 1ȳᵀ (free) or Y.
		z := knm.Clone()
		zt := linalg.NewDense(m, n, nil)
		for i := range n {
			for j := range m {
				zt.Set(j, i, z.At(i, j))
			}
		}
		linalg.Trsm(linalg.Lower, linalg.NoTrans, g.L, zt)
		y0 := y.Clone()
		var yy []float64
		for k := range q {
			var s float64
			for i := range n {
				if ic == FreeIntercept {
					y0.Set(i, k, y0.At(i, k)-g.YBar[k])
				}
				s += y0.At(i, k) * y0.At(i, k)
			}
			yy = append(yy, s)
		}
		for j := range m {
			row := zt.Row(j)
			for i := range row {
				row[i] -= g.Shift[j]
			}
		}
		wantG := linalg.NewDense(m, m, nil)
		linalg.Gemm(linalg.NoTrans, linalg.Trans, 1, zt, zt, 0, wantG)
		wantR := linalg.NewDense(m, q, nil)
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, zt, y0, 0, wantR)
		if e := relDiff(g.G, wantG); e > 1e-12 {
			t.Errorf("%v: G differs from ZᵀZ by %.2g relative", ic, e)
		}
		if e := relDiff(g.R, wantR); e > 1e-12 {
			t.Errorf("%v: R differs from ZᵀY₀ by %.2g relative", ic, e)
		}
		for i := range m {
			for j := range i {
				if math.Float64bits(g.G.At(i, j)) != math.Float64bits(g.G.At(j, i)) {
					t.Fatalf("%v: G[%d][%d] = %v, G[%d][%d] = %v", ic, i, j, g.G.At(i, j), j, i, g.G.At(j, i))
				}
			}
		}
		for k := range q {
			if e := math.Abs(g.YY[k]-yy[k]) / yy[k]; e > 1e-12 {
				t.Errorf("%v: YY[%d] = %v, want %v", ic, k, g.YY[k], yy[k])
			}
		}
		if g.N != n || len(g.Shift) != m {
			t.Errorf("%v: N = %d, %d shifts, want %d and %d", ic, g.N, len(g.Shift), n, m)
		}
		if (g.W != nil) != (ic == PenalizedIntercept) {
			t.Errorf("%v: W %v", ic, g.W)
		} else if g.W != nil {
			lw := make([]float64, m)
			for i := range m {
				for j := 0; j <= i; j++ {
					lw[i] += g.L.At(i, j) * g.W[j]
				}
				if math.Abs(lw[i]-1) > 1e-12 {
					t.Errorf("%v: (L·w)[%d] = %v, want 1", ic, i, lw[i])
				}
			}
		}

		var spent NystromStats
		if err := spent.UnmarshalBinary(file); err != nil {
			t.Fatal(err)
		}
		h, err := spent.GramInPlace(ic)
		if err != nil {
			t.Fatal(err)
		}
		vec := func(v []float64) *linalg.Dense { return linalg.NewDense(1, len(v), v) }
		if !sameBitsDense(h.G, g.G) || !sameBitsDense(h.R, g.R) || !sameBitsDense(vec(h.YY), vec(g.YY)) ||
			!sameBitsDense(vec(h.Shift), vec(g.Shift)) || !sameBitsDense(vec(h.W), vec(g.W)) ||
			!sameBitsDense(vec(h.YBar), vec(g.YBar)) || !sameBitsDense(h.L, g.L) || h.N != g.N || h.Jitter != g.Jitter {
			t.Errorf("%v: GramInPlace gives another problem than Gram", ic)
		}
		if spent.Rows() != 0 || spent.Kernel() != nil || !errors.Is(spent.Add(x, y), ErrInput) {
			t.Errorf("%v: the statistics after GramInPlace are not the zero value", ic)
		}
	}
}

// TestNystromStatsGramErrors: the zero value, statistics of no rows and an
// unknown intercept mode are ErrInput errors of both methods, and a failed
// GramInPlace leaves the statistics as they were.
func TestNystromStatsGramErrors(t *testing.T) {
	x, y, c := statsProblem(50, 2, 1, 5)
	k := kernels.Laplacian{Sigma: 1}
	empty, _ := NewNystromStats(k, c)
	full, _ := NewNystromStats(k, c)
	if err := full.Add(x, y); err != nil {
		t.Fatal(err)
	}
	file := encode(t, full)
	for _, c := range []struct {
		name string
		s    *NystromStats
		ic   Intercept
	}{
		{"zero value", new(NystromStats), FreeIntercept},
		{"nil", nil, FreeIntercept},
		{"no rows", empty, FreeIntercept},
		{"unknown intercept", full, Intercept(9)},
	} {
		if _, err := c.s.Gram(c.ic); !errors.Is(err, ErrInput) {
			t.Errorf("Gram, %s: %v, want an ErrInput", c.name, err)
		}
		if _, err := c.s.GramInPlace(c.ic); !errors.Is(err, ErrInput) {
			t.Errorf("GramInPlace, %s: %v, want an ErrInput", c.name, err)
		}
	}
	if !bytes.Equal(encode(t, full), file) {
		t.Error("a failed GramInPlace changed the statistics")
	}
}
