package wire_test

import (
	"fmt"

	"rkhs/internal/wire"
)

// The encoding of a mergeable sum: a magic, the fingerprint of what the
// sums were computed from (here a size and a hash of a matrix), the rows
// added, the sums. A decoder reads every field, then checks once.
func Example() {
	w := []float64{0.5, -1, 2}
	enc := wire.NewWriter(0)
	enc.Header("sumsEX01", 3, wire.HashFloats(w))
	enc.U64(10)
	enc.Floats([]float64{1.25, 4})

	decode := func(b []byte, w []float64) {
		r := wire.NewReader(b)
		r.Magic("sumsEX01", "an example's sums")
		r.Expect("the sums of another matrix", uint64(len(w)), wire.HashFloats(w))
		rows, sums := r.U64(), r.Floats(2)
		if err := r.Done(); err != nil {
			fmt.Println("refused:", err)
			return
		}
		fmt.Println(rows, "rows, sums", sums)
	}
	b := enc.Encoding()
	decode(b, w)
	decode(b, []float64{0.5, -1, 2.5})
	decode(b[:len(b)-1], w)
	decode(append(b, 0), w)
	decode([]byte("sumsEX00"), w)
	// Output:
	// 10 rows, sums [1.25 4]
	// refused: the sums of another matrix
	// refused: truncated: the 47 bytes end inside the field at byte 32
	// refused: 49 bytes, want 48
	// refused: not the encoding of an example's sums
}
