package dataset

import (
	"fmt"
	"slices"
	"testing"

	"rkhs/linalg"
)

func TestSplit(t *testing.T) {
	n := 10
	d := &Data{X: *linalg.NewDense(n, 2, nil), Y: make([]float64, n)}
	for i := 0; i < n; i++ {
		d.X.Set(i, 0, float64(i))
		d.X.Set(i, 1, float64(-i))
		d.Y[i] = float64(i)
	}
	tr, te := d.Split(2.0/3, 7)
	if len(tr.Y) != 7 || len(te.Y) != 3 {
		t.Fatalf("split sizes %d/%d, want 7/3", len(tr.Y), len(te.Y))
	}
	all := append(append([]float64(nil), tr.Y...), te.Y...)
	slices.Sort(all)
	for i, v := range all {
		if v != float64(i) {
			t.Fatalf("rows lost or repeated: %v", all)
		}
	}
	if !slices.IsSorted(tr.Y) || !slices.IsSorted(te.Y) {
		t.Errorf("parts not in original order: %v %v", tr.Y, te.Y)
	}
	for i, y := range tr.Y {
		if tr.X.At(i, 0) != y || tr.X.At(i, 1) != -y {
			t.Errorf("row %d of train does not match its label", i)
		}
	}
	tr2, _ := d.Split(2.0/3, 7)
	tr3, _ := d.Split(2.0/3, 8)
	if !slices.Equal(tr.Y, tr2.Y) {
		t.Errorf("same seed, different split")
	}
	if slices.Equal(tr.Y, tr3.Y) {
		t.Errorf("seeds 7 and 8 give the same split (possible but unlikely; the test would need another seed)")
	}
}

func ExampleData_Split() {
	d := &Data{X: *linalg.NewDense(6, 1, []float64{0, 1, 2, 3, 4, 5}), Y: []float64{0, 1, 2, 3, 4, 5}}
	train, test := d.Split(2.0/3, 1)
	fmt.Println(len(train.Y), len(test.Y), "rows; test labels", test.Y)
	// Output:
	// 4 2 rows; test labels [0 5]
}

func ExampleData_Subset() {
	d := &Data{X: *linalg.NewDense(3, 1, []float64{10, 20, 30}), Y: []float64{1, 2, 3}}
	s := d.Subset([]int{2, 0})
	fmt.Println(s.X.Data, s.Y)
	// Output:
	// [30 10] [3 1]
}
