package loo

import (
	"errors"
	"math"
	"testing"

	"rkhs/kernels"
	"rkhs/regress"
)

// TestNystromPathCodec: the sums of two workers, each on a path built
// from the same statistics, encoded, decoded into a third path and merged,
// give bit for bit the leave-one-out MSE, training MSE, error rate and the
// sums of MSEStdErr of the two merged in process, and to rounding those of
// one stream over all the rows; a fresh path's encoding resets a stream;
// the sums of another path, an older encoding, truncated or corrupted data
// are refused and leave the stream unchanged.
func TestNystromPathCodec(t *testing.T) {
	x, y := housing(200)
	k := kernels.Gaussian{Sigma: 1.5}
	lambdas := Geometric(1e-4, 1, 4)
	s, _ := streamSetup(t, k, x, y, 60)
	path := func(ls []float64) *NystromPath {
		p, err := NewNystromPath(s, regress.FreeIntercept, ls)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := path(lambdas)
	streamAll(t, one, x, y, 64)
	a, b := path(lambdas), path(lambdas)
	streamAll(t, a, x.Slice(0, 120, 0, x.Cols), y.Slice(0, 120, 0, y.Cols), 64)
	streamAll(t, b, x.Slice(120, 200, 0, x.Cols), y.Slice(120, 200, 0, y.Cols), 64)
	ea, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	eb, _ := b.MarshalBinary()
	c, d := path(lambdas), path(lambdas)
	if err := c.UnmarshalBinary(ea); err != nil {
		t.Fatal(err)
	}
	if err := d.UnmarshalBinary(eb); err != nil {
		t.Fatal(err)
	}
	if err := c.Merge(d); err != nil {
		t.Fatal(err)
	}
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*NystromPath{a, c} {
		if p.Rows() != 200 {
			t.Fatalf("%d rows after the merge, want 200", p.Rows())
		}
	}
	for _, f := range []func(*NystromPath) ([]float64, error){(*NystromPath).MSE, (*NystromPath).TrainMSE, (*NystromPath).ErrorRate, sumOfSquares} {
		want, _ := f(a)
		got, _ := f(c)
		all, _ := f(one)
		for j := range lambdas {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Errorf("λ=%g: decoded and merged %v, merged in process %v", lambdas[j], got[j], want[j])
			}
			if r := math.Abs(got[j]-all[j]) / math.Max(all[j], 1e-300); r > 1e-12 {
				t.Errorf("λ=%g: merged %v, one stream %v", lambdas[j], got[j], all[j])
			}
		}
	}

	fresh, _ := path(lambdas).MarshalBinary()
	if err := c.UnmarshalBinary(fresh); err != nil || c.Rows() != 0 {
		t.Errorf("decoding a fresh path: %d rows, %v; want 0 rows", c.Rows(), err)
	}
	if err := c.UnmarshalBinary(ea); err != nil {
		t.Fatal(err)
	}
	corrupt := append([]byte(nil), ea...)
	corrupt[len(corrupt)-8*4*len(lambdas)+7] ^= 0x80 // the sign of the first λ's sum of squared leave-one-out residuals
	older := append([]byte(nil), ea...)
	copy(older, "rkhsNSS1") // the encoding without the sums of MSEStdErr
	bad := map[string][]byte{
		"empty":        nil,
		"not ours":     []byte("rkhsNSS0xxxxxxxx"),
		"older":        older,
		"truncated":    ea[:len(ea)-1],
		"longer":       append(append([]byte(nil), ea...), 0),
		"corrupt sums": corrupt,
	}
	other, _ := path(lambdas[:3]).MarshalBinary()
	bad["other λ"] = other
	pi, err := NewNystromPath(s, regress.PenalizedIntercept, lambdas)
	if err != nil {
		t.Fatal(err)
	}
	bad["other intercept"], _ = pi.MarshalBinary()
	s2, _ := streamSetup(t, kernels.Gaussian{Sigma: 2}, x, y, 60)
	p2, _ := NewNystromPath(s2, regress.FreeIntercept, lambdas)
	bad["other statistics"], _ = p2.MarshalBinary()
	want, _ := c.MSE()
	for name, data := range bad {
		err := c.UnmarshalBinary(data)
		if !errors.Is(err, ErrInput) {
			t.Errorf("%s: got %v, want ErrInput", name, err)
		}
		if got, _ := c.MSE(); c.Rows() != 120 || math.Float64bits(got[0]) != math.Float64bits(want[0]) {
			t.Errorf("%s: the refused data changed the stream", name)
		}
	}
	if _, err := new(NystromPath).MarshalBinary(); !errors.Is(err, ErrInput) {
		t.Errorf("MarshalBinary of the zero value: %v", err)
	}
	if err := new(NystromPath).UnmarshalBinary(ea); !errors.Is(err, ErrInput) {
		t.Errorf("UnmarshalBinary into the zero value: %v", err)
	}
}

// sumOfSquares returns the sums of the rows' squared errors squared that
// MSEStdErr reads (every row added, its standard error is 0 and says
// nothing of them).
func sumOfSquares(p *NystromPath) ([]float64, error) {
	return append([]float64(nil), p.sse2...), nil
}
