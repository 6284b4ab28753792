package main

import (
	"fmt"
	"math"
	"os"
	"strings"

	"rkhs/classify"
	"rkhs/dataset"
	"rkhs/loo"
)

// accuracy returns the fraction of d's rows that model labels correctly.
func accuracy(model predictor, d *dataset.Data) (float64, error) {
	p, err := model.Predict(&d.X)
	if err != nil {
		return 0, err
	}
	return classify.Accuracy(d.Y, p)
}

// medianDistance is the median Euclidean distance between rows of the
// training set (a seeded sample of 500 rows when it has more).
func medianDistance(d *dataset.Data, seed uint64) (float64, error) {
	return loo.MedianDistance(&d.X, loo.L2, 500, seed)
}

// meanStd returns the mean and the sample standard deviation of v.
func meanStd(v []float64) (mean, sd float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	if len(v) < 2 {
		return mean, 0
	}
	for _, x := range v {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(v)-1))
}

func scaled(f []float64, m float64) []float64 {
	out := make([]float64, len(f))
	for i, v := range f {
		out[i] = v * m
	}
	return out
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func list(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "{" + strings.Join(s, ", ") + "}"
}

func listInt(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return "{" + strings.Join(s, ", ") + "}"
}

// writeSplit writes a training and a test set, CSV (label last) or
// LIBSVM; the numbers are written so that they read back bit for bit.
func writeSplit(trainPath, testPath string, train, test *dataset.Data, csv bool) error {
	for _, f := range []struct {
		path string
		d    *dataset.Data
	}{{trainPath, train}, {testPath, test}} {
		var b strings.Builder
		var err error
		if csv {
			err = dataset.WriteCSV(&b, f.d, dataset.CSVOptions{LabelCol: -1})
		} else {
			err = dataset.WriteLIBSVM(&b, f.d)
		}
		if err == nil {
			err = os.WriteFile(f.path, []byte(b.String()), 0o644)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// cpuModel returns the processor name from /proc/cpuinfo, or "unknown
// CPU" where there is none.
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}
