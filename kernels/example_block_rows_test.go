package kernels_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
)

// The rows of a block of each target, for K of 100 and of 4000 columns.
func ExampleBlockRows() {
	for _, m := range []int{100, 4000} {
		fmt.Println(m, kernels.BlockRows(m, kernels.CacheBlockElems), kernels.BlockRows(m, kernels.GemmBlockElems))
	}
	// Output:
	// 100 1310 10485
	// 4000 32 262
}

// A pass over K(X, X) in blocks of 2 rows: its row sums, block by block.
func ExampleRows_Blocks() {
	x := linalg.NewDense(5, 1, []float64{0, 1, 2, 3, 4})
	r, _ := kernels.NewRows(kernels.Linear{}, x, x)
	for i0, kb := range r.Blocks(2) {
		sums := make([]float64, kb.Rows)
		for i := range kb.Rows {
			for _, v := range kb.Row(i) {
				sums[i] += v
			}
		}
		fmt.Println(i0, sums)
	}
	// Output:
	// 0 [0 10]
	// 2 [20 30]
	// 4 [40]
}

// One pass over the rows for two widths of the Gaussian kernel: the
// distances of each block computed once, the block of each width from
// them.
func ExampleWidths_Blocks() {
	x := linalg.NewDense(3, 1, []float64{0, 1, 2})
	z := linalg.NewDense(2, 1, []float64{0, 2})
	ks := []kernels.Kernel{kernels.Gaussian{Sigma: 0.5}, kernels.Gaussian{Sigma: 2}}
	w, _ := kernels.NewWidths(ks, x, z)
	for i0, blk := range w.Blocks(2, nil) {
		for s := range w.Len() {
			fmt.Printf("rows from %d, σ = %g: %.4f\n", i0, ks[s].(kernels.Gaussian).Sigma, blk.Kernel(s).Data)
		}
	}
	// Output:
	// rows from 0, σ = 0.5: [1.0000 0.0003 0.1353 0.1353]
	// rows from 0, σ = 2: [1.0000 0.6065 0.8825 0.8825]
	// rows from 2, σ = 0.5: [0.0003 1.0000]
	// rows from 2, σ = 2: [0.6065 1.0000]
}

// Two passes over the same rows share the storage of one WidthsBlock with
// room for the larger blocks: the kernel row sums of blocks of 3 rows, then
// of 1.
func ExampleNewWidthsBlock() {
	x := linalg.NewDense(3, 1, []float64{0, 1, 2})
	w, _ := kernels.NewWidths([]kernels.Kernel{kernels.Laplacian{Sigma: 1}}, x, x)
	store := kernels.NewWidthsBlock(3, 3)
	for _, rows := range []int{3, 1} {
		sums := make([]float64, x.Rows)
		for i0, blk := range w.Blocks(rows, store) {
			kb := blk.Kernel(0)
			for i := range kb.Rows {
				for _, v := range kb.Row(i) {
					sums[i0+i] += v
				}
			}
		}
		fmt.Printf("blocks of %d rows: %.4f\n", rows, sums)
	}
	// Output:
	// blocks of 3 rows: [1.5032 1.7358 1.5032]
	// blocks of 1 rows: [1.5032 1.7358 1.5032]
}

// The block of each width, from the distances the block shares.
func ExampleWidthsBlock_Kernel() {
	x := linalg.NewDense(2, 1, []float64{0, 1})
	ks := []kernels.Kernel{kernels.Laplacian{Sigma: 1}, kernels.Laplacian{Sigma: 4}}
	w, _ := kernels.NewWidths(ks, x, x)
	for _, blk := range w.Blocks(2, nil) {
		for s := range w.Len() {
			kb := blk.Kernel(s) // valid until the next call of Kernel
			fmt.Printf("width %d: %.4f\n", s, kb.Data)
		}
	}
	// Output:
	// width 0: [1.0000 0.3679 0.3679 1.0000]
	// width 1: [1.0000 0.7788 0.7788 1.0000]
}
