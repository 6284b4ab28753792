// Package compare benchmarks rkhs beside gonum on the same operations.
//
// It is a separate module (its own go.mod, which requires gonum and replaces
// rkhs with the parent directory) so that the rkhs module itself stays free
// of dependencies. Run it with
//
//	cd compare && go test -bench .
//
// Benchmarks are named Operation/library/size, for example
// BenchmarkGemm/rkhs/n=2048 and BenchmarkGemm/gonum/n=2048, so benchstat or
// a reader can set the two side by side.
package compare
