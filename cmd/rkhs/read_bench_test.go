package main

import (
	"os"
	"testing"
)

// BenchmarkReadLarge reads the CSV file named by $RKHS_LARGE_CSV (plain or
// gzip), as fit -target PM2.5 -features TEMP,PRES,DEWP,WSPM -drop-missing
// would: for example the twelve Beijing air-quality files of
// ../shared/data/large/beijing_air_quality concatenated under one header,
// 420,768 rows. It is skipped when the variable is not set.
func BenchmarkReadLarge(b *testing.B) {
	path := os.Getenv("RKHS_LARGE_CSV")
	if path == "" {
		b.Skip("set RKHS_LARGE_CSV to a large CSV file with the Beijing air-quality columns")
	}
	df := dataFlags{target: "PM2.5", features: "TEMP,PRES,DEWP,WSPM", dropMissing: true}
	for b.Loop() {
		d, _, err := df.readData(path)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(d.X.Rows), "rows")
	}
}
