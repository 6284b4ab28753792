package rkhsbeam

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"rkhs/kernels"
	"rkhs/regress"
)

// TestFitStandardizedExtremeScales: features of magnitude 1e300 and
// 1e-300 beside an ordinary one, split over three files: the moments the
// workers gather, encoded between them and merged, carry the units of
// their sums of squares, so the model's standardization is that of all
// the rows, as kernels.StandardizationOf gives it, to rounding; no sum
// of squares overflows and no feature is called constant.
func TestFitStandardizedExtremeScales(t *testing.T) {
	x, y := readAll(t, "testdata/train-0.csv", "testdata/train-1.csv", "testdata/train-2.csv.gz")
	scale := []float64{1e300, 1, 1e-300}
	dir := t.TempDir()
	var files []string
	var b strings.Builder
	for i := 0; i < x.Rows; i++ {
		fmt.Fprintf(&b, "%.17g", y.Data[i])
		for j, v := range x.Row(i) {
			v *= scale[j%len(scale)]
			x.Set(i, j, v)
			fmt.Fprintf(&b, ",%.17g", v)
		}
		b.WriteByte('\n')
		if i == x.Rows/3 || i == 2*x.Rows/3 || i == x.Rows-1 {
			name := filepath.Join(dir, fmt.Sprintf("part-%d.csv", len(files)))
			if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
			b.Reset()
		}
	}
	out := filepath.Join(t.TempDir(), "model.json")
	err := run(t, func(s beam.Scope) error {
		_, err := Fit(s, FitOptions{Input: Input{Patterns: files, Format: "csv"}, Kernel: kernels.Spec{Type: "gaussian", Sigma: 1.5},
			Lambda: 1e-4, Intercept: regress.FreeIntercept, Centers: 20, Seed: 3, Standardize: true, Model: out})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	checkScale(t, readModel(t, out).Standardization, x)
}
