package datasets_test

import (
	"fmt"

	"rkhs/datasets"
)

func ExampleLoad() {
	d, err := datasets.Load("housing")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.X.Rows, d.X.Cols, d.Y[0])
	// Output:
	// 506 13 24
}

func ExampleLookup() {
	in, err := datasets.Lookup("sonar")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %s, %d×%d, %s\n", in.Name, in.Task, in.Rows, in.Features, in.Path)
	// Output:
	// sonar: binary, 208×60, classification/sonar_scale
}

func ExampleRaw() {
	raw, _ := datasets.Raw("mpg")
	fmt.Printf("%q\n", raw[:21])
	// Output:
	// "18 1:1 2:0.235142 3:-"
}

func ExampleMustLoad() {
	// For tests and examples: a bundled file that fails to parse is a bug.
	fmt.Println(len(datasets.MustLoad("digits").Y))
	// Output:
	// 1797
}
