// Package datasets embeds the small real data sets that rkhs's tests,
// examples and the `rkhs paper` command use: the eight LIBSVM regression sets
// of Prato & Zanni (2012) and five classification sets. README.md in this
// directory gives each set's source, citation and licence.
//
// The files are compiled into any binary that imports this package (about
// 2.7 MB); nothing is read from disk or the network.
package datasets

import (
	"bytes"
	"embed"
	"fmt"

	"rkhs/dataset"
)

//go:embed README.md regression classification
var files embed.FS

// Info describes one bundled data set.
type Info struct {
	Name     string // as given to Load, e.g. "housing"
	Path     string // file inside this package
	Task     string // "regression", "binary" or "multiclass"
	Rows     int
	Features int
}

// All lists the bundled sets: the regression sets of the experiment of
// Prato and Zanni (2012) first, in their order, then the classification
// sets. The names are those of the first column of README.md.
var All = []Info{
	{"abalone", "regression/abalone_scale", "regression", 4177, 8},
	{"bodyfat", "regression/bodyfat_scale", "regression", 252, 14},
	{"cpusmall", "regression/cpusmall_scale", "regression", 8192, 12},
	{"housing", "regression/housing_scale", "regression", 506, 13},
	{"mg", "regression/mg_scale", "regression", 1385, 6},
	{"mpg", "regression/mpg_scale", "regression", 392, 7},
	{"space_ga", "regression/space_ga_scale", "regression", 3107, 6},
	{"triazines", "regression/triazines_scale", "regression", 186, 60},
	{"heart", "classification/heart_scale", "binary", 270, 13},
	{"breast-cancer", "classification/breast-cancer_scale", "binary", 683, 10},
	{"diabetes", "classification/diabetes_scale", "binary", 768, 8},
	{"sonar", "classification/sonar_scale", "binary", 208, 60},
	{"digits", "classification/digits.csv", "multiclass", 1797, 64},
}

// Lookup returns the Info of the named set.
func Lookup(name string) (Info, error) {
	for _, in := range All {
		if in.Name == name {
			return in, nil
		}
	}
	return Info{}, fmt.Errorf("datasets: no bundled data set %q", name)
}

// Raw returns the file of the named set as stored.
func Raw(name string) ([]byte, error) {
	in, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	return files.ReadFile(in.Path)
}

// Load parses the named set: LIBSVM files with their documented feature
// count (so that trailing all-zero columns are kept), digits.csv with the
// label in the last column.
func Load(name string) (*dataset.Data, error) {
	in, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	raw, err := files.ReadFile(in.Path)
	if err != nil {
		return nil, err
	}
	if in.Name == "digits" {
		return dataset.ReadCSV(bytes.NewReader(raw), dataset.CSVOptions{LabelCol: -1})
	}
	return dataset.ReadLIBSVM(bytes.NewReader(raw), in.Features)
}

// MustLoad is Load for tests and examples: it panics on error, which for a
// bundled file means the package itself is broken.
func MustLoad(name string) *dataset.Data {
	d, err := Load(name)
	if err != nil {
		panic(err)
	}
	return d
}
