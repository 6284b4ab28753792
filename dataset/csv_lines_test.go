package dataset_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"rkhs/dataset"
)

// TestCSVLinesAsReadCSVInfo: read a line at a time, every input gives
// what ReadCSVInfo gives for the whole of it — the same header decision,
// columns, names, rows and labels, or the same error.
func TestCSVLinesAsReadCSVInfo(t *testing.T) {
	inputs := map[string]string{
		"header":          "a,b,c,y\n1,2,3,4\n5,6,7,8\n",
		"no header":       "1,2,3,4\n5,6,7,8\n",
		"number in it":    "x1,2,x3,y\n1,2,3,4\n",
		"bom and crlf":    "\uFEFFa,b,y\r\n1,2,3\r\n\r\n4,5,6\r\n",
		"quoted":          "\"a\",\"b, c\",y\n1,\"2\",3\n",
		"text column":     "a,wd,y\n1,N,3\n2,NW,4\n",
		"missing":         "a,b,y\n1,,3\n2,3,4\n",
		"ragged":          "a,b,y\n1,2,3\n1,2\n",
		"bad field":       "a,b,y\n1,x,3\n",
		"duplicate names": "a,a,y\n1,2,3\n",
	}
	options := map[string]dataset.CSVOptions{
		"detect":          {DetectHeader: true, LabelCol: -1},
		"header":          {Header: true, LabelCol: -1},
		"no header":       {LabelCol: -1},
		"target first":    {DetectHeader: true, Target: "a"},
		"features":        {DetectHeader: true, Target: "y", Features: []string{"b", "a"}},
		"by model names":  {DetectHeader: true, LabelCol: -1, HeaderFeatures: []string{"b", "a"}},
		"unlabelled":      {DetectHeader: true, NoLabel: true},
		"drop missing":    {DetectHeader: true, LabelCol: -1, DropMissing: true},
		"label col out":   {LabelCol: 7},
		"missing feature": {DetectHeader: true, Features: []string{"q"}},
	}
	for in, text := range inputs {
		for on, opt := range options {
			want, info, werr := dataset.ReadCSVInfo(strings.NewReader(text), opt)
			got, header, names, gerr := readLines(text, opt)
			name := in + "/" + on
			switch {
			case werr != nil && strings.Contains(werr.Error(), "no examples"):
				if gerr == nil && got.X.Rows != 0 {
					t.Errorf("%s: %d rows, want none", name, got.X.Rows)
				}
			case werr != nil:
				if gerr == nil || gerr.Error() != werr.Error() || !errors.Is(gerr, dataset.ErrFormat) {
					t.Errorf("%s: got error %v, want %v", name, gerr, werr)
				}
			case gerr != nil:
				t.Errorf("%s: got error %v, want none", name, gerr)
			default:
				wf, wt := info.Names()
				if header != (info.Header != nil) || !slices.Equal(names.features, wf) || names.target != wt ||
					!slices.Equal(got.X.Data, want.X.Data) || !slices.Equal(got.Y, want.Y) || got.X.Cols != want.X.Cols {
					t.Errorf("%s: header %v, names %v %q, X %v, Y %v; want %v, %v %q, %v, %v",
						name, header, names.features, names.target, got.X.Data, got.Y, info.Header != nil, wf, wt, want.X.Data, want.Y)
				}
			}
		}
	}
}

type columnNames struct {
	features []string
	target   string
}

// readLines reads text a line at a time with CSVLines.
func readLines(text string, opt dataset.CSVOptions) (d *dataset.Data, header bool, names columnNames, err error) {
	var c *dataset.CSVLines
	d = &dataset.Data{}
	var x []float64
	for i, s := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if c == nil {
			if c, header, err = dataset.NewCSVLines(s, i+1, opt); err != nil {
				return nil, false, names, err
			}
			names.features, names.target = c.Info().Names()
			x = make([]float64, c.Width())
			if header {
				continue
			}
		}
		label, ok, err := c.Parse(s, i+1, x)
		if err != nil {
			return nil, false, names, err
		}
		if ok {
			d.X.Data = append(d.X.Data, x...)
			if c.Info().Label >= 0 {
				d.Y = append(d.Y, label)
			}
			d.X.Rows++
		}
	}
	d.X.Cols, d.X.Stride = c.Width(), c.Width()
	return d, header, names, nil
}

// ExampleNewCSVLines reads two files a line at a time, as two workers of
// a pipeline would, each by its own header: the columns are found by the
// names a model stores, in whatever order each file has them.
func ExampleNewCSVLines() {
	opt := dataset.CSVOptions{DetectHeader: true, HeaderFeatures: []string{"TEMP", "PRES"}}
	for _, file := range []string{
		"TEMP,PRES,PM2.5\n-0.7,1023,4\n",
		"PM2.5,wd,PRES,TEMP\n7,NW,1024.5,-1.4\n",
	} {
		lines := strings.Split(strings.TrimSpace(file), "\n")
		c, header, err := dataset.NewCSVLines(lines[0], 1, opt)
		if err != nil {
			fmt.Println(err)
			return
		}
		x := make([]float64, c.Width())
		if _, _, err := c.Parse(lines[1], 2, x); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("header", header, "columns", c.Info().Features, "row", x)
	}
	_, _, err := dataset.NewCSVLines("TEMP,PM2.5", 1, opt)
	fmt.Println(err)
	// Output:
	// header true columns [0 1] row [-0.7 1023]
	// header true columns [3 2] row [-1.4 1024.5]
	// dataset: line 1: feature "PRES" is not a column of the header (TEMP, PM2.5)
}
