package kernels_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
)

// Two features hundreds apart (pressure in hPa, temperature in °C): the
// standardization gives each mean 0 and standard deviation 1.
func ExampleStandardizationOf() {
	x := linalg.NewDense(4, 2, []float64{
		1000, 10,
		1010, 20,
		1020, 10,
		1030, 20,
	})
	s, err := kernels.StandardizationOf(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("mean %.4g, scale %.4g\n", s.Mean, s.Scale)
	z, _ := s.Apply(x)
	for i := 0; i < z.Rows; i++ {
		fmt.Printf("%6.3f\n", z.Row(i))
	}
	// Output:
	// mean [1015 15], scale [11.18 5]
	// [-1.342 -1.000]
	// [-0.447  1.000]
	// [ 0.447 -1.000]
	// [ 1.342  1.000]
}

// A test row is mapped with the training rows' mean and scale, never its
// own.
func ExampleStandardization_Apply() {
	s := &kernels.Standardization{Mean: []float64{1015, 15}, Scale: []float64{10, 5}}
	z, err := s.Apply(linalg.NewDense(1, 2, []float64{1035, 5}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(z.Row(0))
	// A nil Standardization is the identity.
	var none *kernels.Standardization
	z, _ = none.Apply(linalg.NewDense(1, 2, []float64{1035, 5}))
	fmt.Println(z.Row(0))
	// Output:
	// [2 -2]
	// [1035 5]
}

func ExampleStandardization_Validate() {
	s := &kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 0}}
	fmt.Println(s.Validate())
	// Output:
	// kernels: invalid kernel parameter: Standardization.Validate: Scale[1]: 0, must be positive
}

// The moments of shards, computed apart, merge into the moments of the
// whole: how a pipeline standardizes rows it never holds at once.
func ExampleMoments_Merge() {
	x := linalg.NewDense(6, 1, []float64{1, 2, 3, 10, 20, 30})
	var a, b kernels.Moments
	_ = a.Add(x.Slice(0, 3, 0, 1))
	_ = b.Add(x.Slice(3, 6, 0, 1))
	if err := a.Merge(&b); err != nil {
		fmt.Println(err)
		return
	}
	var whole kernels.Moments
	_ = whole.Add(x)
	fmt.Printf("merged: n %d, mean %.6g, sum of squares %.6g\n", a.N, a.Mean, a.SumSq)
	fmt.Printf("whole:  n %d, mean %.6g, sum of squares %.6g\n", whole.N, whole.Mean, whole.SumSq)
	// Output:
	// merged: n 6, mean [11], sum of squares [688]
	// whole:  n 6, mean [11], sum of squares [688]
}

func ExampleMoments_Add() {
	var m kernels.Moments
	for _, rows := range [][]float64{{1, 5}, {3, 5, 5, 5}} { // two batches of rows, two features
		if err := m.Add(linalg.NewDense(len(rows)/2, 2, rows)); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println(m.N, m.Mean, m.SumSq)
	// Output:
	// 3 [3 5] [8 0]
}

// A constant feature cannot be scaled to standard deviation 1: Constant
// names it, and Standardization keeps it at its value, scaled by its
// magnitude.
func ExampleMoments_Constant() {
	var m kernels.Moments
	_ = m.Add(linalg.NewDense(3, 2, []float64{1, 5, 2, 5, 3, 5}))
	fmt.Println(m.Constant())
	s, _ := m.Standardization()
	fmt.Printf("mean %v, scale %.4g\n", s.Mean, s.Scale)
	// Output:
	// [1]
	// mean [2 5], scale [0.8165 5]
}

func ExampleMoments_Standardization() {
	var m kernels.Moments
	_ = m.Add(linalg.NewDense(4, 1, []float64{2, 4, 4, 6}))
	s, err := m.Standardization()
	if err != nil {
		fmt.Println(err)
		return
	}
	// The population standard deviation: √(8/4).
	fmt.Printf("mean %v, scale %.6f\n", s.Mean, s.Scale)
	// Output:
	// mean [4], scale [1.414214]
}

// A feature that is 5 on every training row but one varies in its
// seventh digit only: NearlyConstant names it, for a warning, although
// Standardization accepts it.
func ExampleMoments_NearlyConstant() {
	var m kernels.Moments
	_ = m.Add(linalg.NewDense(4, 2, []float64{1, 5, 2, 5, 3, 5, 4, 5.000001}))
	fmt.Println(m.Constant(), m.NearlyConstant(kernels.NearlyConstantTol))
	// Output:
	// [] [1]
}

// A test row at 6 on a feature that was 5 on every training row but one
// lies millions of standard deviations out: a kernel model would predict
// its intercept there. Outlying counts such rows and names the worst.
func ExampleStandardization_Outlying() {
	train := linalg.NewDense(4, 2, []float64{1, 5, 2, 5, 3, 5, 4, 5.000001})
	s, err := kernels.StandardizationOf(train)
	if err != nil {
		fmt.Println(err)
		return
	}
	test := linalg.NewDense(3, 2, []float64{2.5, 5, 1.5, 6, 9, 5})
	o, err := s.Outlying(test, kernels.DefaultOutlyingLimit)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d of %d rows beyond %g sd; the worst: row %d, feature %d, z = %.2g\n",
		o.Rows, test.Rows, kernels.DefaultOutlyingLimit, o.Row, o.Feature, o.Z)
	// Output:
	// 1 of 3 rows beyond 1000 sd; the worst: row 1, feature 1, z = 2.3e+06
}

// A feature constant in training (the second, 5 on every row) is kept at
// its value, and the standardization remembers it: OffConstant counts the
// test rows that move it, which the model never saw vary, however few
// standard deviations they lie out.
func ExampleStandardization_OffConstant() {
	train := linalg.NewDense(4, 2, []float64{1, 5, 2, 5, 3, 5, 4, 5})
	var m kernels.Moments
	if err := m.Add(train); err != nil {
		fmt.Println(err)
		return
	}
	s, err := m.Standardization()
	if err != nil {
		fmt.Println(err)
		return
	}
	test := linalg.NewDense(3, 2, []float64{2.5, 5, 1.5, 6, 9, 3})
	o, err := s.OffConstant(test)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("constant %v; %d of %d rows off it; the worst: row %d, feature %d, z = %.2g\n", s.Constant, o.Rows, test.Rows, o.Row, o.Feature, o.Z)
	// Output:
	// constant [1]; 2 of 3 rows off it; the worst: row 2, feature 1, z = -0.4
}

// FarRows adds a file's rows block by block and reports what one look at
// the whole file would: here a file of four rows in two blocks, against
// training rows whose second feature is 5 on every row and whose first
// has standard deviation 1.118 (1, 2, 3, 4).
func ExampleFarRows() {
	train := linalg.NewDense(4, 2, []float64{1, 5, 2, 5, 3, 5, 4, 5})
	var m kernels.Moments
	if err := m.Add(train); err != nil {
		fmt.Println(err)
		return
	}
	s, err := m.Standardization()
	if err != nil {
		fmt.Println(err)
		return
	}
	file := linalg.NewDense(4, 2, []float64{2, 5, 2, 6, 5000, 5, 3, 4})
	var f kernels.FarRows
	for _, b := range [][2]int{{0, 2}, {2, 4}} {
		if err := f.Add(s, file.Slice(b[0], b[1], 0, 2)); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Printf("%d rows; %d off the constant feature, the worst row %d (value %g); %d beyond %g sd, the worst row %d, z = %.4g\n",
		f.Rows, f.Off.Rows, f.Off.Row, f.OffValue, f.Far.Rows, kernels.DefaultOutlyingLimit, f.Far.Row, f.Far.Z)
	// Output:
	// 4 rows; 2 off the constant feature, the worst row 1 (value 6); 1 beyond 1000 sd, the worst row 2, z = 4470
}
