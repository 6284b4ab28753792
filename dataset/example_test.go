package dataset_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"rkhs/dataset"
	"rkhs/linalg"
)

func ExampleReadLIBSVM() {
	// Two examples in LIBSVM sparse format, with the quirks of real files:
	// a "+1" label, a trailing space, exponent notation and no final newline.
	// Index 2 is absent from the first line and so is 0.
	in := "+1 1:0.708333 3:-1 \n-1 2:1e-05 3:0.25"
	d, err := dataset.ReadLIBSVM(strings.NewReader(in), 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d examples, %d features\n", d.X.Rows, d.X.Cols)
	for i, y := range d.Y {
		fmt.Printf("y=%+g x=%.3g\n", y, d.X.Row(i))
	}
	// Output:
	// 2 examples, 3 features
	// y=+1 x=[0.708 0 -1]
	// y=-1 x=[0 1e-05 0.25]
}

func ExampleWriteLIBSVM() {
	x := linalg.NewDense(2, 3, []float64{
		0.5, 0, -2,
		0, 0, 0.125,
	})
	d := &dataset.Data{X: *x, Y: []float64{1, -1}}
	if err := dataset.WriteLIBSVM(os.Stdout, d); err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 1:0.5 3:-2
	// -1 3:0.125
}

func ExampleReadCSV() {
	// A header line, then the features and the label in the last column.
	in := "rooms,age,price\n6.5,30,24.0\n5.9,65.2,21.6\n"
	d, err := dataset.ReadCSV(strings.NewReader(in), dataset.CSVOptions{Header: true, LabelCol: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d examples, %d features\n", d.X.Rows, d.X.Cols)
	for i, y := range d.Y {
		fmt.Printf("y=%.1f x=%.1f\n", y, d.X.Row(i))
	}
	// Output:
	// 2 examples, 2 features
	// y=24.0 x=[6.5 30.0]
	// y=21.6 x=[5.9 65.2]
}

func ExampleWriteCSV() {
	x := linalg.NewDense(2, 2, []float64{
		0.5, -2,
		0, 1e-05,
	})
	d := &dataset.Data{X: *x, Y: []float64{3, 4}}
	opt := dataset.CSVOptions{Header: true, LabelCol: -1, Comma: ';'}
	if err := dataset.WriteCSV(os.Stdout, d, opt); err != nil {
		fmt.Println(err)
	}
	// Output:
	// x1;x2;y
	// 0.5;-2;3
	// 0;1e-05;4
}

func ExampleParseError() {
	in := "1 1:0.5 2:1\n-1 3:1 2:0.5\n"
	_, err := dataset.ReadLIBSVM(strings.NewReader(in), 0)
	var pe *dataset.ParseError
	if errors.As(err, &pe) {
		fmt.Println("line", pe.Line)
	}
	fmt.Println(errors.Is(err, dataset.ErrFormat))
	fmt.Println(err)
	// Output:
	// line 2
	// true
	// dataset: line 2: index 2 after index 3 is descending (indices must be strictly ascending)
}

func ExampleDataError() {
	x := linalg.NewDense(1, 2, nil)
	d := &dataset.Data{X: *x, Y: []float64{1, 2}} // one label too many
	err := dataset.WriteLIBSVM(os.Stdout, d)
	fmt.Println(errors.Is(err, dataset.ErrInvalidData))
	fmt.Println(err)
	// Output:
	// true
	// dataset: 2 labels for 1 rows of X
}

// ExampleReadCSVInfo reads a file laid out like the Beijing air-quality
// data: a quoted header, detected because none of its fields is a number;
// the label and the features chosen by name, the text column wd left
// unread; the row with a missing value dropped and counted.
func ExampleReadCSVInfo() {
	in := "\"No\",\"PM2.5\",\"TEMP\",\"wd\",\"PRES\"\r\n" +
		"1,4,-0.7,\"NNW\",1023\r\n" +
		"2,NA,-1.1,\"N\",1023.2\r\n" +
		"3,7,-1.4,\"NW\",1024.5\r\n"
	d, info, err := dataset.ReadCSVInfo(strings.NewReader(in), dataset.CSVOptions{
		DetectHeader: true, Target: "PM2.5", Features: []string{"TEMP", "PRES"}, DropMissing: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.X.Rows, "rows, labels", d.Y, "dropped", info.Dropped)
	fmt.Println("row 0:", d.X.Row(0))
	_, err = dataset.ReadCSV(strings.NewReader(in), dataset.CSVOptions{DetectHeader: true, Target: "PM2.5"})
	fmt.Println(err)
	// Output:
	// 2 rows, labels [4 7] dropped 1
	// row 0: [-0.7 1023]
	// dataset: line 2: field 4 ("wd"): "NNW" is not a decimal number
}

// A compressed file is read as a plain one: its compression is found by
// its first bytes.
func ExampleDecompress() {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("x,y\n1,2\n3,4\n"))
	w.Close()
	r, err := dataset.Decompress(bufio.NewReader(&gz))
	if err != nil {
		panic(err)
	}
	d, err := dataset.ReadCSV(r, dataset.CSVOptions{Header: true, LabelCol: -1})
	if err != nil {
		panic(err)
	}
	fmt.Println(d.X.Rows, d.Y)
	// Output: 2 [2 4]
}

// A file read with -target on another column than the last cannot be
// matched by a headerless file read by position.
func ExampleCSVInfo_NotPositional() {
	_, info, err := dataset.ReadCSVInfo(strings.NewReader("y,a,b\n1,2,3\n"), dataset.CSVOptions{Header: true, LabelCol: -1, Target: "y"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", info.NotPositional())
	// Output: "its label y is column 1 of 3, not the last"
}

// A data file read by its name: CSV for a name ending in .csv, the header
// detected and the label the last column, compressed or not.
func ExampleReadFile() {
	path := filepath.Join(os.TempDir(), "rkhs-example-readfile.csv")
	if err := os.WriteFile(path, []byte("x,y,label\n1,2,0.5\n3,4,-1\n"), 0o644); err != nil {
		panic(err)
	}
	defer os.Remove(path)
	d, info, err := dataset.ReadFile(path, "", dataset.CSVOptions{DetectHeader: true, LabelCol: -1})
	if err != nil {
		panic(err)
	}
	features, target := info.Names()
	fmt.Println(dataset.FormatOf(path), d.X.Rows, features, target, d.Y)
	// Output: csv 2 [x y] label [0.5 -1]
}

// Widen pads a LIBSVM file read beside a wider one: its last feature,
// zero on every row, is not written in the file.
func ExampleData_Widen() {
	d, err := dataset.ReadLIBSVM(strings.NewReader("1 1:0.5\n-1 2:2\n"), 0) // 0: as many features as the file shows
	if err != nil {
		fmt.Println(err)
		return
	}
	d.Widen(3)
	fmt.Println(d.X.Rows, d.X.Cols, d.X.Row(0), d.X.Row(1))
	// Output: 2 3 [0.5 0 0] [0 2 0]
}

// Labels gives the labels as the n×1 matrix the fits take, sharing them.
func ExampleData_Labels() {
	d := &dataset.Data{X: *linalg.NewDense(3, 1, []float64{1, 2, 3}), Y: []float64{0.5, -1, 2}}
	y := d.Labels()
	y.Set(1, 0, 7)
	fmt.Println(y.Rows, y.Cols, d.Y)
	// Output: 3 1 [0.5 7 2]
}
