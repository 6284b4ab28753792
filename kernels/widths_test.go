package kernels

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"rkhs/linalg"
)

// TestWidthsMatchRows checks that every width's block equals, bit for bit,
// the block Rows gives for the kernel of that width, for both product
// paths of the Gaussian kernel (d ≤ maxSmallDot and above) and for the
// Laplacian kernel, on rows far from the origin (centring matters).
func TestWidthsMatchRows(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name  string
		d     int
		gauss bool
	}{
		{"gaussian d=3", 3, true},
		{"gaussian d=24", 24, true},
		{"laplacian d=5", 5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, m := 300, 70
			x, z := linalg.NewDense(n, tc.d, nil), linalg.NewDense(m, tc.d, nil)
			for _, a := range []*linalg.Dense{x, z} {
				for i := range a.Data {
					a.Data[i] = 5 + rnd.NormFloat64()
				}
			}
			var ks []Kernel
			for _, s := range []float64{0.3, 1, 2.5, 7} {
				if tc.gauss {
					ks = append(ks, Gaussian{Sigma: s * math.Sqrt(float64(tc.d))})
				} else {
					ks = append(ks, Laplacian{Sigma: s * float64(tc.d)})
				}
			}
			w, err := NewWidths(ks, x, z)
			if err != nil {
				t.Fatal(err)
			}
			for _, blk := range [][2]int{{0, n}, {17, 211}, {299, 300}} {
				sh := w.SharedTo(nil, blk[0], blk[1])
				for s, k := range ks {
					r, err := NewRows(k, x, z)
					if err != nil {
						t.Fatal(err)
					}
					want := r.BlockTo(nil, blk[0], blk[1])
					got := w.KernelTo(nil, sh, s, blk[0])
					for i, v := range want.Data {
						if math.Float64bits(got.Data[i]) != math.Float64bits(v) {
							t.Fatalf("rows %v width %d: entry %d is %v, Rows gives %v", blk, s, i, got.Data[i], v)
						}
					}
				}
			}
			// dst = shared consumes the shared part and gives the same.
			sh := w.SharedTo(nil, 0, n)
			last := w.KernelTo(nil, sh, len(ks)-1, 0)
			w.KernelTo(sh, sh, len(ks)-1, 0)
			for i, v := range last.Data {
				if math.Float64bits(sh.Data[i]) != math.Float64bits(v) {
					t.Fatalf("in place: entry %d is %v, want %v", i, sh.Data[i], v)
				}
			}
		})
	}
}

func TestWidthsErrors(t *testing.T) {
	x := linalg.NewDense(2, 1, []float64{0, 1})
	// Centred on their mean, −5.7e307, the first value overflows to +Inf,
	// and its distance to itself is ∞ − ∞.
	huge := linalg.NewDense(3, 1, []float64{1.7e308, -1.7e308, -1.7e308})
	for _, tc := range []struct {
		name string
		ks   []Kernel
		x    *linalg.Dense
		want error
	}{
		{"none", nil, x, ErrParameter},
		{"linear", []Kernel{Linear{}}, x, ErrParameter},
		{"mixed", []Kernel{Gaussian{Sigma: 1}, Laplacian{Sigma: 1}}, x, ErrParameter},
		{"bad sigma", []Kernel{Gaussian{Sigma: 1}, Gaussian{Sigma: -1}}, x, ErrParameter},
		{"overflow", []Kernel{Gaussian{Sigma: 1}, Gaussian{Sigma: 2}}, huge, ErrData},
	} {
		_, err := NewWidths(tc.ks, tc.x, tc.x)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
}
