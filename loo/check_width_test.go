package loo

import (
	"errors"
	"slices"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestCheckWidth: a σ far below the distances gives a kernel matrix that
// is numerically the identity, one far above all ones, one at the median
// neither; on more than CheckWidthRows rows, or centres, a sample of
// CheckWidthRows is checked; the median is MedianDistanceOf's; bad
// arguments are ErrInput and x is not modified.
func TestCheckWidth(t *testing.T) {
	x := degMat(3, 700, 3)
	before := x.Clone()
	median, err := MedianDistanceOf(kernels.Gaussian{Sigma: 1}, x, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		k       kernels.Kernel
		x       *linalg.Dense
		m       int
		kind    kernels.Degeneracy
		checked int
		of      int
	}{
		{"σ tiny, every row", kernels.Gaussian{Sigma: 1e-6}, x.Slice(0, 40, 0, 3), 0, kernels.NearIdentity, 40, 40},
		{"σ tiny, sampled", kernels.Gaussian{Sigma: 1e-6}, x, 0, kernels.NearIdentity, CheckWidthRows, 700},
		{"σ huge, Laplacian", kernels.Laplacian{Sigma: 1e8}, x, 0, kernels.NearOnes, CheckWidthRows, 700},
		{"σ tiny, centres", kernels.Gaussian{Sigma: 1e-6}, x, 30, kernels.NearIdentity, 30, 30},
		{"σ tiny, centres sampled", kernels.Gaussian{Sigma: 1e-6}, x, 600, kernels.NearIdentity, CheckWidthRows, 600},
		{"σ at the median", kernels.Gaussian{Sigma: median}, x, 0, 0, 0, 0},
	} {
		got, err := CheckWidth(c.k, c.x, c.m, 1)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if c.checked == 0 {
			if got != nil {
				t.Errorf("%s: %+v, want nil", c.name, got)
			}
			continue
		}
		want, _ := MedianDistanceOf(c.k, c.x, 1)
		if got == nil || got.Degenerate.Kind != c.kind || got.Checked != c.checked || got.Of != c.of || got.Centers != (c.m > 0) || got.Median != want {
			t.Errorf("%s: %+v, want %v on %d of %d, median %v", c.name, got, c.kind, c.checked, c.of, want)
		}
	}
	if !slices.Equal(x.Data, before.Data) {
		t.Error("x was modified")
	}
	one := linalg.NewDense(3, 1, []float64{2, 2, 2})
	if got, err := CheckWidth(kernels.Gaussian{Sigma: 1}, one, 0, 1); got != nil || err != nil {
		t.Errorf("equal rows: %+v, %v; want nil, nil (no width can be judged)", got, err)
	}
	for _, c := range []struct {
		name string
		k    kernels.Kernel
		x    *linalg.Dense
		m    int
	}{
		{"linear kernel", kernels.Linear{}, x, 0},
		{"σ < 0", kernels.Gaussian{Sigma: -1}, x, 0},
		{"nil X", kernels.Gaussian{Sigma: 1}, nil, 0},
		{"m < 0", kernels.Gaussian{Sigma: 1}, x, -1},
		{"m > n", kernels.Gaussian{Sigma: 1}, one, 5},
	} {
		if _, err := CheckWidth(c.k, c.x, c.m, 1); !errors.Is(err, ErrInput) {
			t.Errorf("%s: %v, want ErrInput", c.name, err)
		}
	}
}
