// Package wire is the binary encoding of rkhs's mergeable sums
// (regress.NystromStats, loo.NystromPath, loo.ScaleStats, loo.ScaleLOO,
// loo.ScaleAdjoint), written once: a header of a magic string and words,
// then words, float64 values and raw bytes, all little-endian, with
// nothing between them. A Writer appends them; a Reader reads them back
// with a sticky error, so that a decoder reads every field, then checks
// once (Done) that nothing was missing and nothing is left over.
//
// The encoding of a sum carries a fingerprint of what it was computed
// from — the sizes, the parameters and a hash of matrices too large to
// carry (HashFloats) — and a decoder refuses the sums of anything else
// (Reader.Expect).
package wire

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
)

// A Writer appends the fields of an encoding to a byte slice. The zero
// value is an empty encoding.
type Writer struct {
	b []byte
}

// NewWriter returns a Writer whose encoding has room for size bytes.
func NewWriter(size int) *Writer { return &Writer{b: make([]byte, 0, max(size, 0))} }

// Header appends the magic string and the words that follow it.
func (w *Writer) Header(magic string, words ...uint64) {
	w.b = append(w.b, magic...)
	w.U64(words...)
}

// U64 appends words.
func (w *Writer) U64(words ...uint64) {
	for _, u := range words {
		w.b = binary.LittleEndian.AppendUint64(w.b, u)
	}
}

// U32 appends a 32-bit word.
func (w *Writer) U32(u uint32) { w.b = binary.LittleEndian.AppendUint32(w.b, u) }

// Floats appends the bits of the values of vs in order.
func (w *Writer) Floats(vs ...[]float64) {
	for _, v := range vs {
		for _, x := range v {
			w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(x))
		}
	}
}

// Bytes appends p as it is.
func (w *Writer) Bytes(p []byte) { w.b = append(w.b, p...) }

// Encoding returns the bytes appended so far; later appends may reuse
// them.
func (w *Writer) Encoding() []byte { return w.b }

// A Reader reads the fields of an encoding in order. The first field that
// cannot be read (the encoding ends first, a magic or a fingerprint
// differs) sets its error; every read after it returns zeros, so a decoder
// can read all its fields and check once. A Reader never panics and never
// allocates more than the encoding's own size.
type Reader struct {
	b    []byte // the fields not read yet
	size int    // of the whole encoding
	err  error
}

// NewReader returns a Reader of the encoding b, which it does not modify.
func NewReader(b []byte) *Reader { return &Reader{b: b, size: len(b)} }

// take returns the next n bytes, or nil and sets the error when fewer are
// left.
func (r *Reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.err = fmt.Errorf("truncated: the %d bytes end inside the field at byte %d", r.size, r.size-len(r.b))
		r.b = nil
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}

// Magic reads the magic string of the encoding of what ("a NystromPath's
// sums"); another, or too few bytes for it, sets the error "not the
// encoding of" what.
func (r *Reader) Magic(magic, what string) {
	if r.err == nil && (len(r.b) < len(magic) || string(r.b[:len(magic)]) != magic) {
		r.err = fmt.Errorf("not the encoding of %s", what)
	}
	r.take(len(magic))
}

// Expect reads len(want) words, a fingerprint; if one differs from want,
// it sets the error to why ("the sums of another path").
func (r *Reader) Expect(why string, want ...uint64) {
	for _, u := range want {
		if r.U64() != u && r.err == nil {
			r.err = errors.New(why)
		}
	}
}

// U64 reads a word.
func (r *Reader) U64() uint64 {
	if p := r.take(8); p != nil {
		return binary.LittleEndian.Uint64(p)
	}
	return 0
}

// U32 reads a 32-bit word.
func (r *Reader) U32() uint32 {
	if p := r.take(4); p != nil {
		return binary.LittleEndian.Uint32(p)
	}
	return 0
}

// Floats reads n float64 values into a new slice (nil after an error,
// and when n values do not fit in the bytes left).
func (r *Reader) Floats(n int) []float64 {
	if n > len(r.b)/8 {
		n = -1 // too few bytes: take fails without allocating
	}
	p := r.take(8 * n)
	if p == nil {
		return nil
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(p[8*i:]))
	}
	return v
}

// Bytes reads n bytes; the result shares the encoding's memory.
func (r *Reader) Bytes(n int) []byte { return r.take(n) }

// Len returns the number of bytes not read yet.
func (r *Reader) Len() int { return len(r.b) }

// Err returns the error of the first field that could not be read, or nil.
func (r *Reader) Err() error { return r.err }

// Done returns Err, or an error if bytes are left over: the encoding is
// longer than its fields.
func (r *Reader) Done() error {
	if r.err == nil && len(r.b) > 0 {
		return fmt.Errorf("%d bytes, want %d", r.size, r.size-len(r.b))
	}
	return r.err
}

// HashFloats returns the 64-bit FNV-1a hash of the bits of the values of
// vs in order, each as 8 little-endian bytes: the fingerprint an encoding
// carries of matrices too large to carry whole.
func HashFloats(vs ...[]float64) uint64 {
	h := fnv.New64a()
	var b [8]byte
	for _, v := range vs {
		for _, x := range v {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
			h.Write(b[:])
		}
	}
	return h.Sum64()
}
