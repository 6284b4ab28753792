package wire

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

// field is one field of an encoding: a word, a 32-bit word, float64
// values or raw bytes.
type field struct {
	kind   byte // 'u', 'w', 'f', 'b'
	u      uint64
	floats []float64
	raw    []byte
}

// write appends the fields to w.
func write(w *Writer, fs []field) {
	for _, f := range fs {
		switch f.kind {
		case 'u':
			w.U64(f.u)
		case 'w':
			w.U32(uint32(f.u))
		case 'f':
			w.Floats(f.floats)
		case 'b':
			w.Bytes(f.raw)
		}
	}
}

// read reads fields of the kinds and sizes of fs from r.
func read(r *Reader, fs []field) []field {
	got := make([]field, len(fs))
	for i, f := range fs {
		got[i].kind = f.kind
		switch f.kind {
		case 'u':
			got[i].u = r.U64()
		case 'w':
			got[i].u = uint64(r.U32())
		case 'f':
			got[i].floats = r.Floats(len(f.floats))
		case 'b':
			got[i].raw = r.Bytes(len(f.raw))
		}
	}
	return got
}

// same reports whether the fields a and b hold the same bits.
func same(a, b []field) bool {
	for i := range a {
		if a[i].u != b[i].u || !bytes.Equal(a[i].raw, b[i].raw) || len(a[i].floats) != len(b[i].floats) {
			return false
		}
		for j, v := range a[i].floats {
			if math.Float64bits(v) != math.Float64bits(b[i].floats[j]) {
				return false
			}
		}
	}
	return true
}

// TestRoundTrip: fields written and read back in order keep their bits
// (NaN, −0, ±Inf included), sit at the offsets the layout says, and
// leave nothing over.
func TestRoundTrip(t *testing.T) {
	fs := []field{
		{kind: 'u', u: math.MaxUint64},
		{kind: 'w', u: 0xdeadbeef},
		{kind: 'f', floats: []float64{0, math.Copysign(0, -1), 1.5, math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64}},
		{kind: 'b', raw: []byte("spec")},
		{kind: 'f', floats: []float64{}},
		{kind: 'u', u: 7},
	}
	w := NewWriter(0)
	w.Header("MAGIC", 3, 4)
	write(w, fs)
	b := w.Encoding()
	if want := 5 + 16 + 8 + 4 + 48 + 4 + 8; len(b) != want {
		t.Fatalf("%d bytes, want %d", len(b), want)
	}
	if got := binary.LittleEndian.Uint64(b[5+16+8+4+16:]); got != math.Float64bits(1.5) {
		t.Errorf("the third float at byte %d: %#x, want the bits of 1.5 %#x", 5+16+8+4+16, got, math.Float64bits(1.5))
	}
	r := NewReader(b)
	r.Magic("MAGIC", "a test")
	r.Expect("other words", 3, 4)
	got := read(r, fs)
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}
	if !same(got, fs) {
		t.Errorf("read back %v, want %v", got, fs)
	}
}

// TestTruncated: every prefix of an encoding is refused by Done, each
// read after the end returns zeros, and a count of values larger than the
// encoding allocates nothing.
func TestTruncated(t *testing.T) {
	w := NewWriter(64)
	w.Header("M1", 9)
	w.Floats([]float64{1, 2, 3})
	w.U32(5)
	b := w.Encoding()
	for n := 0; n < len(b); n++ {
		r := NewReader(b[:n])
		r.Magic("M1", "a test")
		u, f, v := r.U64(), r.Floats(3), r.U32()
		err := r.Done()
		if err == nil {
			t.Fatalf("%d of %d bytes: Done gives nil, want an error", n, len(b))
		}
		if n >= 2 && !strings.Contains(err.Error(), "truncated") {
			t.Errorf("%d bytes: %v, want truncated", n, err)
		}
		if n < 10 && u != 0 || n < 34 && (f != nil || v != 0) {
			t.Errorf("%d bytes: read %d, %v, %d after the end, want zeros", n, u, f, v)
		}
	}
	r := NewReader(b)
	r.Magic("M1", "a test")
	if allocs := testing.AllocsPerRun(10, func() { r.Floats(math.MaxInt) }); allocs != 0 || r.Err() == nil {
		t.Errorf("Floats(MaxInt) of %d bytes: %v allocations, error %v; want none and an error", len(b), allocs, r.Err())
	}
	if NewReader(b).Floats(-1) != nil {
		t.Errorf("Floats(-1) gives values, want nil")
	}
}

// TestRefusals: trailing bytes, another magic and another fingerprint
// are refused with their own message, and the first error sticks.
func TestRefusals(t *testing.T) {
	w := NewWriter(0)
	w.Header("ABCD", 1, 2)
	b := w.Encoding()
	for _, c := range []struct {
		name string
		b    []byte
		fp   []uint64
		want string
	}{
		{"trailing bytes", append(bytes.Clone(b), 0), []uint64{1, 2}, "21 bytes, want 20"},
		{"another magic", append([]byte("ABCE"), b[4:]...), []uint64{1, 2}, "not the encoding of a test"},
		{"another fingerprint", b, []uint64{1, 3}, "another test"},
		{"another magic and fingerprint", append([]byte("ABCE"), b[4:]...), []uint64{9, 9}, "not the encoding of a test"},
		{"empty", nil, []uint64{1, 2}, "not the encoding of a test"},
	} {
		r := NewReader(c.b)
		r.Magic("ABCD", "a test")
		r.Expect("another test", c.fp...)
		if err := r.Done(); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// TestHashFloats: the hash is FNV-1a (Fowler, Noll and Vo) of the
// little-endian bits, computed here from its definition: the offset basis
// 14695981039346656037, then for each byte an exclusive or and a
// multiplication by the prime 1099511628211; the slices are one sequence.
func TestHashFloats(t *testing.T) {
	fnv1a := func(vs ...float64) uint64 {
		h := uint64(14695981039346656037)
		for _, v := range vs {
			for k := 0; k < 8; k++ {
				h ^= math.Float64bits(v) >> (8 * k) & 0xff
				h *= 1099511628211
			}
		}
		return h
	}
	for _, c := range []struct {
		name string
		vs   [][]float64
		want uint64
	}{
		{"nothing", nil, fnv1a()},
		{"empty slices", [][]float64{{}, {}}, fnv1a()},
		{"one value", [][]float64{{1}}, fnv1a(1)},
		{"split anywhere", [][]float64{{1, -0.5}, {}, {math.Pi}}, fnv1a(1, -0.5, math.Pi)},
		{"−0 is not 0", [][]float64{{math.Copysign(0, -1)}}, fnv1a(math.Copysign(0, -1))},
	} {
		if got := HashFloats(c.vs...); got != c.want {
			t.Errorf("%s: %#x, want %#x", c.name, got, c.want)
		}
	}
	if HashFloats([]float64{0}) == HashFloats([]float64{math.Copysign(0, -1)}) {
		t.Errorf("0 and −0 hash alike")
	}
}

// fieldsOf turns fuzz input into fields: each byte chooses a kind and a
// size, and the bytes after it are the field's content.
func fieldsOf(data []byte) []field {
	var fs []field
	for len(data) > 0 {
		op, n := data[0], int(data[0]>>2)
		data = data[1:]
		n = min(n, len(data))
		switch op % 4 {
		case 0:
			var p [8]byte
			copy(p[:], data[:min(8, len(data))])
			fs = append(fs, field{kind: 'u', u: binary.LittleEndian.Uint64(p[:])})
		case 1:
			fs = append(fs, field{kind: 'w', u: uint64(n) << 24})
		case 2:
			v := make([]float64, n/8)
			for i := range v {
				v[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
			}
			fs = append(fs, field{kind: 'f', floats: v})
		case 3:
			fs = append(fs, field{kind: 'b', raw: bytes.Clone(data[:n])})
		}
		data = data[n:]
	}
	return fs
}

// FuzzRoundTrip: any fields read back as written, twice the same bytes;
// every shorter encoding and every longer one is refused; and a Reader
// over any bytes (the fuzz input itself) never panics.
func FuzzRoundTrip(f *testing.F) {
	f.Add([]byte{}, uint(0))
	f.Add([]byte("\x00abcdefgh\x21\x42\x40\x00\x00\x00\x00\x00\x00\xf0\x3f"), uint(5))
	f.Fuzz(func(t *testing.T, data []byte, cut uint) {
		fs := fieldsOf(data)
		encode := func() []byte {
			w := NewWriter(len(data))
			w.Header("FUZZ", uint64(len(fs)))
			write(w, fs)
			return w.Encoding()
		}
		b := encode()
		if again := encode(); !bytes.Equal(again, b) {
			t.Fatalf("two encodings of the same fields differ")
		}
		r := NewReader(b)
		r.Magic("FUZZ", "fuzz input")
		r.Expect("other fields", uint64(len(fs)))
		if got := read(r, fs); r.Done() != nil || !same(got, fs) {
			t.Fatalf("read back %v (%v), want %v", got, r.Done(), fs)
		}
		short := NewReader(b[:int(cut%uint(len(b)))])
		short.Magic("FUZZ", "fuzz input")
		short.Expect("other fields", uint64(len(fs)))
		read(short, fs)
		if short.Done() == nil {
			t.Fatalf("%d of %d bytes read without an error", cut%uint(len(b)), len(b))
		}
		long := NewReader(append(bytes.Clone(b), 0))
		long.Magic("FUZZ", "fuzz input")
		long.Expect("other fields", uint64(len(fs)))
		read(long, fs)
		if long.Done() == nil {
			t.Fatalf("a trailing byte read without an error")
		}
		any := NewReader(data)
		any.Magic("FUZZ", "fuzz input")
		any.U64()
		any.Floats(int(cut))
		any.Bytes(int(cut))
		any.U32()
		any.Done()
	})
}
