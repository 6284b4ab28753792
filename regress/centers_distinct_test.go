package regress

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestCentresDistinct: Nystrom and Falkon follow one rule for the centres,
// m distinct rows of X: on 1000 rows holding 10 distinct values, 10
// centres are the 10 values and 11 are an error naming Centers, for both.
func TestCentersDistinct(t *testing.T) {
	const n = 1000
	x := linalg.NewDense(n, 1, nil)
	y := linalg.NewDense(n, 1, nil)
	for i := range n {
		x.Data[i] = float64(i % 10)
		y.Data[i] = float64(i%10) + float64(i%3)
	}
	k := kernels.Gaussian{Sigma: 1}
	fits := map[string]func(m int) ([]int, error){
		"Nystrom": func(m int) ([]int, error) {
			f, err := Nystrom{Kernel: k, Lambda: 1e-4, Centers: m, Seed: 1, Intercept: FreeIntercept}.Fit(x, y)
			if err != nil {
				return nil, err
			}
			return f.Indices, nil
		},
		"Falkon": func(m int) ([]int, error) {
			f, err := Falkon{Kernel: k, Lambda: 1e-4, Centers: m, Seed: 1, Intercept: FreeIntercept}.Fit(x, y)
			if err != nil {
				return nil, err
			}
			return f.Indices, nil
		},
	}
	for name, fit := range fits {
		idx, err := fit(10)
		if err != nil {
			t.Fatalf("%s, 10 centres: %v", name, err)
		}
		seen := map[float64]bool{}
		for _, i := range idx {
			seen[x.Data[i]] = true
		}
		if len(idx) != 10 || len(seen) != 10 {
			t.Errorf("%s: %d centres with %d distinct values, want 10 and 10", name, len(idx), len(seen))
		}
		_, err = fit(11)
		var ie *linalg.InputError
		if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != "Centers" {
			t.Errorf("%s, 11 centres of 10 distinct rows: err = %v, want ErrInput naming Centers", name, err)
		}
	}
}

// TestNystromCentersAsFits: NystromCenters returns the centres Nystrom and
// Falkon draw with the same seed, on distinct rows and on rows with many
// repeats (−0 counted as +0), and refuses more centres than distinct rows
// with an error naming Centers.
func TestNystromCentersAsFits(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	distinct := linalg.NewDense(300, 3, nil)
	for i := range distinct.Data {
		distinct.Data[i] = rnd.NormFloat64()
	}
	repeats := linalg.NewDense(400, 2, nil)
	for i := range repeats.Data {
		repeats.Data[i] = float64(rnd.IntN(6)) // 36 distinct rows at most
	}
	repeats.Set(7, 0, math.Copysign(0, -1))
	k := kernels.Gaussian{Sigma: 1}
	for _, c := range []struct {
		name string
		x    *linalg.Dense
		m    int
		seed uint64
	}{
		{"distinct", distinct, 40, 1},
		{"distinct, seed 9", distinct, 300, 9},
		{"repeats", repeats, 30, 4},
	} {
		before := c.x.Clone()
		got, err := NystromCenters(c.x, c.m, c.seed)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(c.x.Data, before.Data) {
			t.Errorf("%s: NystromCenters modified X", c.name)
		}
		y := linalg.NewDense(c.x.Rows, 1, nil)
		ny, err := Nystrom{Kernel: k, Lambda: 1e-3, Centers: c.m, Seed: c.seed}.Fit(c.x, y)
		if err != nil {
			t.Fatal(err)
		}
		fa, err := Falkon{Kernel: k, Lambda: 1e-3, Centers: c.m, Seed: c.seed}.Fit(c.x, y)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Data, ny.Centers.Data) || !slices.Equal(got.Data, fa.Model.Centers.Data) {
			t.Errorf("%s: NystromCenters differs from the centres of Nystrom or Falkon", c.name)
		}
	}
	_, err := NystromCenters(repeats, 37, 1)
	var ie *linalg.InputError
	if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != "Centers" {
		t.Errorf("37 centres of at most 36 distinct rows: err = %v, want ErrInput naming Centers", err)
	}
}

// TestCenterOrderDraws: the centres NystromCenters draws are the rows at
// the first m distinct places of CenterOrder (FirstDistinct over the rows
// in that order), in row order, on rows with many repeats and with none,
// for several m and seeds.
func TestCenterOrderDraws(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, distinct := range []int{7, 1000} {
		const n = 500
		x := linalg.NewDense(n, 2, nil)
		for i := range n {
			v := float64(r.IntN(distinct))
			x.Set(i, 0, v)
			x.Set(i, 1, -v/3)
		}
		for _, m := range []int{1, 5, 7} {
			for seed := range uint64(3) {
				want, err := NystromCenters(x, m, seed)
				if err != nil {
					t.Fatal(err)
				}
				order := CenterOrder(n, seed)
				in := linalg.NewDense(n, 2, nil)
				for i, k := range order {
					copy(in.Row(i), x.Row(k))
				}
				var at []int
				for _, i := range FirstDistinct(in, m) {
					at = append(at, order[i])
				}
				slices.Sort(at)
				got := linalg.NewDense(len(at), 2, nil)
				for i, k := range at {
					copy(got.Row(i), x.Row(k))
				}
				if !slices.Equal(got.Data, want.Data) {
					t.Errorf("%d distinct values, m = %d, seed %d: %v, NystromCenters %v", distinct, m, seed, got.Data, want.Data)
				}
			}
		}
	}
	if got := FirstDistinct(linalg.NewDense(3, 1, []float64{0, math.Copysign(0, -1), 1}), 3); !slices.Equal(got, []int{0, 2}) {
		t.Errorf("FirstDistinct of 0, −0, 1: %v, want [0 2] (−0 is 0)", got)
	}
}
