package interval

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// shardStats sums rows a…b of x, y into a FoldStats numbered from a, in
// two Add calls of odd sizes, and returns its encoding.
func shardStats(t testing.TB, ks []kernels.Kernel, centers, x, y *linalg.Dense, k int, seed uint64, a, b int) []byte {
	t.Helper()
	f, err := NewFoldStats(ks, centers, k, seed, a)
	if err != nil {
		t.Fatal(err)
	}
	mid := a + (b-a)/3
	for _, r := range [][2]int{{a, mid}, {mid, b}} {
		if r[1] > r[0] {
			if err := f.Add(x.Slice(r[0], r[1], 0, x.Cols), y.Slice(r[0], r[1], 0, y.Cols)); err != nil {
				t.Fatal(err)
			}
		}
	}
	enc, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

// decodeStats decodes a FoldStats encoding.
func decodeFoldStats(t testing.TB, enc []byte) *FoldStats {
	t.Helper()
	f := new(FoldStats)
	if err := f.UnmarshalBinary(enc); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFoldStatsWireEqualsInMemory: both passes of a streamed CV+ with
// every shard crossing a process boundary — per-shard FoldStats encoded
// and merged by the driver in order, the merged statistics sent back to
// each worker, which rebuilds the fits and encodes its CVPass, decoded and
// merged by the driver — give the CV of the same shards merged in memory
// bit for bit (their saved forms are the same bytes), in every intercept
// mode, with one shard or three. A decoded FoldStats re-encodes to the
// same bytes.
func TestFoldStatsWireEqualsInMemory(t *testing.T) {
	x, y, _ := problem(43, 1200, 1, 2)
	centers := x.Slice(0, 20, 0, 2).Clone()
	const k, seed, lambda = 4, 5, 1e-3
	ks := []kernels.Kernel{kernels.Gaussian{Sigma: 1}}
	for _, ic := range intercepts {
		for _, cuts := range [][]int{nil, {300, 901}} {
			t.Run(fmt.Sprintf("%v/shards=%d", ic, len(cuts)+1), func(t *testing.T) {
				want, err := streamCV(t, ks, centers, x, y, k, seed, cuts, lambda, ic, nil).MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				bounds := append(append([]int{0}, cuts...), x.Rows)
				var all *FoldStats
				for s := 0; s+1 < len(bounds); s++ {
					enc := shardStats(t, ks, centers, x, y, k, seed, bounds[s], bounds[s+1])
					f := decodeFoldStats(t, enc)
					if again, err := f.MarshalBinary(); err != nil || !bytes.Equal(again, enc) {
						t.Fatalf("a decoded FoldStats re-encodes to other bytes (%v)", err)
					}
					if all == nil {
						all = f
					} else if err := all.Merge(f); err != nil {
						t.Fatal(err)
					}
				}
				merged, err := all.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				fits, err := all.Models(lambda, ic)
				if err != nil {
					t.Fatal(err)
				}
				var pass *CVPass
				for s := 0; s+1 < len(bounds); s++ {
					a, b := bounds[s], bounds[s+1]
					wfits, err := decodeFoldStats(t, merged).Models(lambda, ic)
					if err != nil {
						t.Fatal(err)
					}
					wp, err := wfits.Pass(a)
					if err != nil {
						t.Fatal(err)
					}
					if err := wp.Add(x.Slice(a, b, 0, x.Cols), y.Slice(a, b, 0, y.Cols)); err != nil {
						t.Fatal(err)
					}
					enc, err := wp.MarshalBinary()
					if err != nil {
						t.Fatal(err)
					}
					p, err := fits.Pass(0)
					if err != nil {
						t.Fatal(err)
					}
					if err := p.UnmarshalBinary(enc); err != nil {
						t.Fatal(err)
					}
					if p.Rows() != b-a {
						t.Fatalf("decoded pass has %d rows, want %d", p.Rows(), b-a)
					}
					if pass == nil {
						pass = p
					} else if err := pass.Merge(p); err != nil {
						t.Fatal(err)
					}
				}
				cv, err := pass.CV()
				if err != nil {
					t.Fatal(err)
				}
				got, err := cv.MarshalJSON()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Error("the CV of encoded shards differs from the CV merged in memory")
				}
			})
		}
	}
}

// smallFoldStats returns the encoding of a small FoldStats of two kernels
// and the fits and an encoded pass of a one-kernel one, the seeds of the
// fuzz tests and the cases of the error test.
func smallFoldStats(t testing.TB) (stats2 []byte, fits *FoldFits, pass []byte) {
	t.Helper()
	x, y, _ := problem(7, 40, 1, 1)
	centers := x.Slice(0, 3, 0, 2).Clone()
	stats2 = shardStats(t, []kernels.Kernel{kernels.Gaussian{Sigma: 1}, kernels.Gaussian{Sigma: 2}}, centers, x, y, 2, 3, 0, x.Rows)
	one := decodeFoldStats(t, shardStats(t, []kernels.Kernel{kernels.Gaussian{Sigma: 1}}, centers, x, y, 2, 3, 0, x.Rows))
	fits, err := one.Models(1e-2, regress.NoIntercept)
	if err != nil {
		t.Fatal(err)
	}
	p, err := fits.Pass(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Add(x.Slice(0, 25, 0, 2), y.Slice(0, 25, 0, 1)); err != nil {
		t.Fatal(err)
	}
	if pass, err = p.MarshalBinary(); err != nil {
		t.Fatal(err)
	}
	return stats2, fits, pass
}

// TestFoldStatsWireErrors: the decoders refuse damaged, truncated or
// foreign encodings with ErrInput and leave their receiver unchanged.
func TestFoldStatsWireErrors(t *testing.T) {
	stats2, fits, pass := smallFoldStats(t)
	word := func(b []byte, at int, v uint64) []byte {
		c := bytes.Clone(b)
		binary.LittleEndian.PutUint64(c[at:], v)
		return c
	}
	const hdr = len(foldStatsMagic)
	for name, b := range map[string][]byte{
		"empty":        nil,
		"magic":        append([]byte("rkhsXXXX"), stats2[hdr:]...),
		"truncated":    stats2[:len(stats2)-1],
		"trailing":     append(bytes.Clone(stats2), 0),
		"one fold":     word(stats2, hdr, 1),
		"no kernel":    word(stats2, hdr+8, 0),
		"rows":         word(stats2, hdr+24, 39),
		"no outputs":   word(stats2, hdr+32, 0),
		"part length":  word(stats2, hdr+48, 1<<40),
		"damaged part": func() []byte { c := bytes.Clone(stats2); c[hdr+100] ^= 1; return c }(),
	} {
		f := decodeFoldStats(t, stats2)
		before, _ := f.MarshalBinary()
		err := f.UnmarshalBinary(b)
		if !errors.Is(err, ErrInput) {
			t.Errorf("%s: error %v, want ErrInput", name, err)
		}
		if after, _ := f.MarshalBinary(); !bytes.Equal(after, before) {
			t.Errorf("%s: the FoldStats changed on error", name)
		}
	}
	other, err := decodeFoldStats(t, stats2).Choose(loo.SelectNystrom{Sigmas: []float64{1, 2}, Lambdas: loo.Geometric(1e-4, 1, 3), Criterion: loo.GCV})
	if err != nil {
		t.Fatal(err)
	}
	const phdr = len(cvPassMagic)
	for name, c := range map[string]struct {
		fits *FoldFits
		b    []byte
	}{
		"other fits": {other, pass},
		"truncated":  {fits, pass[:len(pass)-8]},
		"trailing":   {fits, append(bytes.Clone(pass), 0)},
		"rows":       {fits, word(pass, phdr+8*6+8, 24)},
		"count":      {fits, word(pass, phdr+8*8, 1<<40)},
		"negative":   {fits, word(pass, len(pass)-8, 0xbff0000000000000)},
	} {
		p, err := c.fits.Pass(0)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.UnmarshalBinary(c.b); !errors.Is(err, ErrInput) {
			t.Errorf("%s: error %v, want ErrInput", name, err)
		}
		if p.Rows() != 0 {
			t.Errorf("%s: the pass changed on error", name)
		}
	}
	var zero CVPass
	if err := zero.UnmarshalBinary(pass); !errors.Is(err, ErrInput) {
		t.Errorf("zero pass: error %v, want ErrInput", err)
	}
	if _, err := (*FoldStats)(nil).MarshalBinary(); !errors.Is(err, ErrInput) {
		t.Errorf("nil FoldStats: error %v, want ErrInput", err)
	}
}

// FuzzFoldStatsUnmarshal: the decoder never panics, and what it accepts
// re-encodes to bytes that decode to the same encoding.
func FuzzFoldStatsUnmarshal(f *testing.F) {
	stats2, _, _ := smallFoldStats(f)
	f.Add(stats2)
	f.Add(stats2[:len(stats2)/2])
	f.Fuzz(func(t *testing.T, b []byte) {
		var s FoldStats
		if s.UnmarshalBinary(b) != nil {
			return
		}
		enc, err := s.MarshalBinary()
		if err != nil {
			t.Fatalf("a decoded FoldStats does not encode: %v", err)
		}
		again, err := decodeFoldStats(t, enc).MarshalBinary()
		if err != nil || !bytes.Equal(again, enc) {
			t.Fatalf("re-encoding differs (%v)", err)
		}
	})
}

// FuzzCVPassUnmarshal: the decoder never panics, and what it accepts
// re-encodes to the same bytes.
func FuzzCVPassUnmarshal(f *testing.F) {
	_, fits, pass := smallFoldStats(f)
	f.Add(pass)
	f.Add(pass[:len(pass)-3])
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := fits.Pass(0)
		if err != nil {
			t.Fatal(err)
		}
		if p.UnmarshalBinary(b) != nil {
			return
		}
		enc, err := p.MarshalBinary()
		if err != nil || !bytes.Equal(enc, b) {
			t.Fatalf("re-encoding differs (%v)", err)
		}
	})
}
