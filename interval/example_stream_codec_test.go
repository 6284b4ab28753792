package interval_test

import (
	"fmt"

	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/regress"
)

// Streamed CV+ with the rows split over two workers: each sums its shard's
// fold statistics and ships their encoding; the driver decodes and merges
// them, fits the fold models and ships the merged statistics back; each
// worker rebuilds the same fits, collects its shard's residuals and ships
// them; the driver decodes them into a pass of its own fits and merges.
func ExampleFoldStats_MarshalBinary() {
	x, y, xt := data(400)
	centers, err := regress.NystromCenters(x, 15, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	ks := []kernels.Kernel{kernels.Gaussian{Sigma: 1}}
	const folds, seed, lambda = 10, 7, 1e-3
	shards := [][2]int{{0, 250}, {250, 400}} // rows a…b of each worker
	sums := make([][]byte, len(shards))
	for w, sh := range shards { // on the workers: the first pass
		fs, err := interval.NewFoldStats(ks, centers, folds, seed, sh[0])
		if err == nil {
			err = fs.Add(x.Slice(sh[0], sh[1], 0, 1), y.Slice(sh[0], sh[1], 0, 1))
		}
		if err == nil {
			sums[w], err = fs.MarshalBinary()
		}
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	var all interval.FoldStats // on the driver
	for w, b := range sums {
		var fs interval.FoldStats
		if err := fs.UnmarshalBinary(b); err != nil {
			fmt.Println(err)
			return
		}
		if w == 0 {
			all = fs
		} else if err := all.Merge(&fs); err != nil {
			fmt.Println(err)
			return
		}
	}
	merged, err := all.MarshalBinary()
	if err != nil {
		fmt.Println(err)
		return
	}
	fits, err := all.Models(lambda, regress.FreeIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	var pass *interval.CVPass
	for _, sh := range shards { // on the workers: the second pass
		var fs interval.FoldStats
		err := fs.UnmarshalBinary(merged)
		var wfits *interval.FoldFits
		if err == nil {
			wfits, err = fs.Models(lambda, regress.FreeIntercept)
		}
		var wp *interval.CVPass
		if err == nil {
			wp, err = wfits.Pass(sh[0])
		}
		if err == nil {
			err = wp.Add(x.Slice(sh[0], sh[1], 0, 1), y.Slice(sh[0], sh[1], 0, 1))
		}
		var b []byte
		if err == nil {
			b, err = wp.MarshalBinary()
		}
		var p *interval.CVPass // back on the driver
		if err == nil {
			p, err = fits.Pass(0)
		}
		if err == nil {
			err = p.UnmarshalBinary(b)
		}
		if err == nil && pass != nil {
			err = pass.Merge(p)
		} else if err == nil {
			pass = p
		}
		if err != nil {
			fmt.Println(err)
			return
		}
	}
	cv, err := pass.CV()
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, err := cv.Predict(xt, 0.9)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d rows, %d fold models; %.2f in [%.2f, %.2f]\n", cv.Rows(), len(cv.Models()), iv.Prediction.At(1, 0), iv.Lower.At(1, 0), iv.Upper.At(1, 0))
	// Output:
	// 400 rows, 10 fold models; 0.25 in [0.04, 0.45]
}
