package kernels

import (
	"fmt"
	"math"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/linalg"
)

// TestBlockRows: elems/m rows, clamped to [8, 2¹⁴]; nonsense sizes panic.
func TestBlockRows(t *testing.T) {
	for _, c := range []struct{ m, elems, want int }{
		{100, CacheBlockElems, 1310},
		{600, GemmBlockElems, 1747},
		{4000, GemmBlockElems, 262},
		{1 << 10, GemmBlockElems, 1 << 10},
		{0, CacheBlockElems, 1 << 14},   // no columns: the upper bound
		{1, GemmBlockElems, 1 << 14},    // narrow K: the upper bound
		{1 << 17, GemmBlockElems, 8},    // wide K: the lower bound
		{1<<17 + 1, CacheBlockElems, 8}, // fewer than one row's values
	} {
		if got := BlockRows(c.m, c.elems); got != c.want {
			t.Errorf("BlockRows(%d, %d) = %d, want %d", c.m, c.elems, got, c.want)
		}
	}
	for _, c := range []struct{ m, elems int }{{-1, 100}, {10, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("BlockRows(%d, %d): no panic", c.m, c.elems)
				}
			}()
			BlockRows(c.m, c.elems)
		}()
	}
}

// sameBlock reports where got differs from want, bit for bit; "" if
// nowhere.
func sameBlock(got, want *linalg.Dense) string {
	if got.Rows != want.Rows || got.Cols != want.Cols {
		return fmt.Sprintf("%d×%d, want %d×%d", got.Rows, got.Cols, want.Rows, want.Cols)
	}
	for i := range want.Rows {
		for j, w := range want.Row(i) {
			if g := got.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
				return fmt.Sprintf("[%d][%d] = %v, want %v", i, j, g, w)
			}
		}
	}
	return ""
}

// blockCases are the shapes of the iterator tests: n below the block
// rows, a multiple of them, one row, and a ragged last block.
var blockCases = []struct{ n, rows int }{
	{1, 1}, {1, 5}, {7, 20}, {12, 4}, {12, 12}, {13, 4}, {30, 7},
}

// TestRowsBlocks: Rows.Blocks gives the blocks BlockTo gives, bit for
// bit, in order and covering every row once, for kernels whose products
// come from dotSmall (d = 3), from Gemm (d = 20) and pair by pair, even
// when the caller overwrites each block; a break ends the pass.
func TestRowsBlocks(t *testing.T) {
	rng := testmat.NewRand(3)
	for _, d := range []int{3, 20} {
		z := dense(testmat.Random(rng, 9, d, 0))
		for _, k := range []Kernel{Gaussian{Sigma: 2}, Laplacian{Sigma: 3}, Polynomial{Degree: 2, Offset: 1}, sumKernel{}} {
			for _, c := range blockCases {
				x := dense(testmat.Random(rng, c.n, d, 0))
				r, err := NewRows(k, x, z)
				if err != nil {
					t.Fatal(err)
				}
				next := 0
				for i0, kb := range r.Blocks(c.rows) {
					want := r.BlockTo(nil, i0, min(i0+c.rows, c.n))
					if i0 != next {
						t.Fatalf("%T, d=%d, n=%d, rows %d: block at %d, want %d", k, d, c.n, c.rows, i0, next)
					}
					if diff := sameBlock(kb, want); diff != "" {
						t.Fatalf("%T, d=%d, n=%d, rows %d: block at %d: %s", k, d, c.n, c.rows, i0, diff)
					}
					for i := range kb.Data {
						kb.Data[i] = math.NaN() // the caller may overwrite the block
					}
					next += kb.Rows
				}
				if next != c.n {
					t.Errorf("%T, d=%d, n=%d, rows %d: blocks cover %d rows", k, d, c.n, c.rows, next)
				}
				blocks := 0
				for range r.Blocks(1) {
					blocks++
					break
				}
				if blocks != 1 {
					t.Errorf("%T: a break after the first block: %d blocks", k, blocks)
				}
			}
		}
	}
}

// sumKernel is a kernel of no family this package prepares: evaluated pair
// by pair.
type sumKernel struct{}

func (sumKernel) Eval(x, z []float64) float64 {
	var s float64
	for i := range x {
		s += x[i] + z[i]
	}
	return s
}

// TestWidthsBlocks: every width's block of Widths.Blocks is the block
// Rows.BlockTo gives for that width's kernel, bit for bit, for the
// Gaussian kernel (inner products by dotSmall and by Gemm) and the
// Laplacian; a WidthsBlock made for the larger blocks serves a pass of
// smaller ones on the same storage; Kernel of a block no iterator gave
// panics.
func TestWidthsBlocks(t *testing.T) {
	rng := testmat.NewRand(4)
	families := []struct {
		name string
		d    int
		ks   []Kernel
	}{
		{"gaussian", 3, []Kernel{Gaussian{Sigma: 0.5}, Gaussian{Sigma: 2}, Gaussian{Sigma: 7}}},
		{"gaussian", 20, []Kernel{Gaussian{Sigma: 3}, Gaussian{Sigma: 9}}},
		{"laplacian", 4, []Kernel{Laplacian{Sigma: 1}, Laplacian{Sigma: 5}}},
	}
	for _, f := range families {
		z := dense(testmat.Random(rng, 11, f.d, 0))
		for _, c := range blockCases {
			x := dense(testmat.Random(rng, c.n, f.d, 0))
			w, err := NewWidths(f.ks, x, z)
			if err != nil {
				t.Fatal(err)
			}
			var rows []*Rows
			for _, k := range f.ks {
				r, err := NewRows(k, x, z)
				if err != nil {
					t.Fatal(err)
				}
				rows = append(rows, r)
			}
			store := NewWidthsBlock(c.rows, z.Rows)
			var first *float64
			for _, b := range []int{c.rows, max(1, c.rows/3)} {
				next := 0
				for i0, blk := range w.Blocks(b, store) {
					if blk != store || i0 != next {
						t.Fatalf("%s d=%d, n=%d, rows %d: block at %d (want %d), in the WidthsBlock given: %v", f.name, f.d, c.n, b, i0, next, blk == store)
					}
					for s, r := range rows {
						kb := blk.Kernel(s)
						if diff := sameBlock(kb, r.BlockTo(nil, i0, min(i0+b, c.n))); diff != "" {
							t.Fatalf("%s d=%d, n=%d, rows %d: width %d, block at %d: %s", f.name, f.d, c.n, b, s, i0, diff)
						}
						if first == nil {
							first = &kb.Data[0]
						} else if &kb.Data[0] != first {
							t.Fatalf("%s d=%d, n=%d, rows %d: the kernel block moved to new storage", f.name, f.d, c.n, b)
						}
					}
					next += blk.kb.Rows
				}
				if next != c.n {
					t.Errorf("%s d=%d, n=%d, rows %d: blocks cover %d rows", f.name, f.d, c.n, b, next)
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("Kernel of the zero WidthsBlock: no panic")
		}
	}()
	new(WidthsBlock).Kernel(0)
}
