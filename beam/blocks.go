package rkhsbeam

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"rkhs/linalg"
)

// Every pass over a file — the statistics of a fit, a conjugate-gradient
// product, a prediction — parses its rows into blocks and hands each block
// to the computation whole (regress.NystromStats.Add, kernels.Rows,
// regress.Model.Predict), which is where the time goes. readBlocks is that
// batching, written once.
//
// A block is sized by memory, not by a row count: a row costs its d
// features and the m kernel values (and q outputs) the computation holds
// for it, so a block holds at most blockBytes / (8·(d+m+q)) rows, between
// one and maxBlockRows. The block grows with the file (a file of 500 rows
// gets a block of 500 rows, not of the maximum), so that sparse LIBSVM
// input with 10⁵–10⁶ features costs a worker tens of MiB per file, not
// 8192 dense rows.

// blockBytes is the memory one block of rows may take.
const blockBytes = 32 << 20

// maxBlockRows caps a block of narrow rows: beyond a few thousand rows the
// computation on a block gains nothing from more.
const maxBlockRows = 8192

// blockRows returns the number of rows of a block whose rows each cost
// width float64 values (features, kernel values, outputs): as many as fit
// in blockBytes, at least one and at most maxBlockRows.
func blockRows(width int) int {
	if width < 1 {
		width = 1
	}
	return max(1, min(maxBlockRows, blockBytes/(8*width)))
}

// block is a block of consecutive rows of a file.
type block struct {
	// X holds the features of the rows, n×d, and Y their labels; both are
	// reused by the next block.
	X *linalg.Dense
	Y []float64
	// Bad lists, for each malformed line among these rows (when the caller
	// collects them), the number of rows of the block before it, in order:
	// a malformed line after the last row counts all n. A block may have
	// no rows and only malformed lines.
	Bad []int
}

// Counters of the rows read and the malformed lines set aside by the
// passes that read blocks (one pass of a conjugate-gradient fit counts
// every row once; the passes of a fit add up).
var (
	rowsRead      = beam.NewCounter("rkhs-beam", "rows")
	linesSetAside = beam.NewCounter("rkhs-beam", "malformed lines")
)

// readBlocks reads the rows of a file of d features (d > 0) in blocks of
// at most rows rows and calls each for every block, in the order of the
// file; malformed lines go to bad as in readFile (nil makes the first one
// an error), and are also recorded in the blocks' Bad. A CSV file of
// another width is a *widthError.
func readBlocks(ctx context.Context, in Input, file string, d, rows int, bad badFunc, each func(*block) error) error {
	var b block
	var xs []float64
	flush := func() error {
		n := len(b.Y)
		if n == 0 && len(b.Bad) == 0 {
			return nil
		}
		b.X = linalg.NewDense(n, d, xs[:n*d])
		rowsRead.Inc(ctx, int64(n))
		linesSetAside.Inc(ctx, int64(len(b.Bad)))
		err := each(&b)
		xs, b.Y, b.Bad = xs[:0], b.Y[:0], b.Bad[:0]
		return err
	}
	var onBad badFunc
	if bad != nil {
		onBad = func(e *LineError, text string) {
			b.Bad = append(b.Bad, len(b.Y))
			bad(e, text)
		}
	}
	width := func(l layout) error {
		if l.Width != d {
			return &widthError{File: file, Got: l.Width, Want: d}
		}
		return nil
	}
	err := readFile(ctx, in, file, d, width, func(x []float64, y float64) error {
		if len(xs)+d > cap(xs) { // grow with the file, never beyond a block
			xs = append(make([]float64, 0, min(rows*d, max(2*cap(xs), len(xs)+d))), xs...)
		}
		xs = append(xs, x...)
		b.Y = append(b.Y, y)
		if len(b.Y) == rows {
			return flush()
		}
		return nil
	}, onBad)
	if err != nil {
		return err
	}
	return flush()
}

// Counts returns the rows read and the malformed lines set aside by a job
// that Fit or Predict built (or one pass of FitCG), from its metrics; a
// runner that reports no metrics gives zeros.
func Counts(r beam.PipelineResult) (rows, malformed int64) {
	if r == nil {
		return 0, 0
	}
	for _, c := range r.Metrics().AllMetrics().Counters() {
		if c.Namespace() != "rkhs-beam" {
			continue
		}
		switch c.Name() {
		case "rows":
			rows += c.Result()
		case "malformed lines":
			malformed += c.Result()
		}
	}
	return rows, malformed
}
