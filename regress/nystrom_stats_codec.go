package regress

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"math"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Statistics are saved in a compact binary form, all integers and float64
// values little-endian:
//
//	magic    8 bytes "RKHSNYST"
//	version  uint32 (1)
//	spec     uint32 length, then the kernel's kernels.Spec as JSON
//	m d q n  uint64 each (q = 0 when n = 0)
//	δ        float64: the jitter of K_mm the features were made with
//	fp       32 bytes: SHA-256 of the kernel's Spec and the centres
//	centres  m·d float64, row-major
//	μ ȳ      m and q float64
//	M        m(m+1)/2 float64: its lower triangle, row by row
//	C s      m·q (row-major) and q float64
//	crc      uint32: CRC-32C (Castagnoli) of every byte before it
//
// about 4m² bytes. Values are stored bit for bit, so a decoded copy merges
// and solves exactly as the original.
const (
	statsMagic   = "RKHSNYST"
	statsVersion = 1
	// maxStatsDim bounds m, d and q in a file, far above what fits in
	// memory, so that sizes can be multiplied without overflow.
	maxStatsDim = 1 << 28
)

var statsCRC = crc32.MakeTable(crc32.Castagnoli)

// MarshalBinary encodes the statistics in the format above. It fails with
// an InputError wrapping ErrInput for the zero value.
func (s *NystromStats) MarshalBinary() ([]byte, error) {
	if err := s.ready("NystromStats.MarshalBinary"); err != nil {
		return nil, err
	}
	m, d := s.centers.Rows, s.centers.Cols
	size := 8 + 4 + 4 + len(s.spec) + 32 + 8 + 32 + 8*(m*d+m+m*(m+1)/2+(m+2)*s.q) + 4
	b := make([]byte, 0, size)
	b = append(b, statsMagic...)
	b = binary.LittleEndian.AppendUint32(b, statsVersion)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(s.spec)))
	b = append(b, s.spec...)
	for _, v := range []int{m, d, s.q, s.n} {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	b = appendFloats(b, []float64{s.jitter})
	b = append(b, s.fp[:]...)
	b = appendFloats(b, s.centers.Data)
	b = appendFloats(b, s.mu)
	b = appendFloats(b, s.ybar)
	for i := 0; i < m; i++ {
		b = appendFloats(b, s.mm.Row(i)[:i+1])
	}
	if s.q > 0 {
		b = appendFloats(b, s.cy.Data)
	}
	b = appendFloats(b, s.syy)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, statsCRC)), nil
}

func appendFloats(b []byte, v []float64) []byte {
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

// UnmarshalBinary decodes statistics saved by MarshalBinary into s. Into
// the zero value it takes the kernel and the centres of the file; into
// statistics made by NewNystromStats (or decoded before) it refuses a file
// for another kernel or centre set. s is unchanged on error.
//
// Errors wrap ErrInput: data too short or of the wrong size, another
// magic number or version, a checksum that does not match (a damaged
// file), a kernel Spec that does not decode or is invalid (also
// kernels.ErrParameter), a fingerprint that does not match the kernel and
// centres of the file, sizes that disagree, non-finite values (also
// linalg.ErrNotFinite), centres with two identical rows, or the kernel or
// centres of the file differing from those of s; a *linalg.MemoryError
// (linalg.ErrTooLarge) if the statistics do not fit in memory.
func (s *NystromStats) UnmarshalBinary(data []byte) error {
	const op = "NystromStats.UnmarshalBinary"
	bad := func(format string, args ...any) error { return check.Input(ErrInput, op, "data", format, args...) }
	if len(data) < 8+4+4+4 || string(data[:8]) != statsMagic {
		return bad("not Nyström statistics (no %q header)", statsMagic)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if got := crc32.Checksum(body, statsCRC); got != sum {
		return bad("checksum %08x, the file says %08x: the data are damaged or truncated", got, sum)
	}
	rd := statsReader{b: body[8:]}
	if v := rd.u32(); v != statsVersion {
		return bad("version %d, this build reads version %d", v, statsVersion)
	}
	spec := bytes.Clone(rd.bytes(int(rd.u32())))
	var dims [4]uint64
	for i := range dims {
		dims[i] = rd.u64()
	}
	jitter := math.Float64frombits(rd.u64())
	var fp [32]byte
	copy(fp[:], rd.bytes(32))
	if rd.short {
		return bad("truncated header")
	}
	if dims[0] < 1 || dims[1] < 1 || dims[0] > maxStatsDim || dims[1] > maxStatsDim || dims[2] > maxStatsDim || dims[3] > uint64(math.MaxInt) {
		return bad("sizes m = %d, d = %d, q = %d, n = %d out of range", dims[0], dims[1], dims[2], dims[3])
	}
	m, d, q, n := int(dims[0]), int(dims[1]), int(dims[2]), int(dims[3])
	if !(jitter >= 0 && jitter < math.Inf(1)) {
		return bad("jitter δ = %g", jitter)
	}
	if (n == 0) != (q == 0) {
		return bad("%d rows with %d outputs", n, q)
	}
	// Count the values in uint64: m, d and q are at most 2²⁸.
	want := uint64(m)*uint64(d) + uint64(m) + uint64(m)*uint64(m+1)/2 + uint64(m+2)*uint64(q)
	if uint64(len(rd.b)) != 8*want {
		return bad("%d bytes of values for m = %d, d = %d, q = %d, want %d", len(rd.b), m, d, q, 8*want)
	}
	if err := memlimit.Check(op, memlimit.Floats(m, m+d+q+2)); err != nil {
		return err
	}
	var sp kernels.Spec
	if err := json.Unmarshal(spec, &sp); err != nil {
		return check.Wrap(ErrInput, op, "kernel", err)
	}
	k, err := sp.Kernel()
	if err != nil {
		return kernelError(op, "kernel", err)
	}
	t := &NystromStats{kernel: k, spec: spec, n: n, q: q, jitter: jitter}
	t.centers = linalg.NewDense(m, d, rd.floats(m*d))
	t.mu = rd.floats(m)
	t.ybar = rd.floats(q)
	t.mm = linalg.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		copy(t.mm.Row(i)[:i+1], rd.floats(i+1))
	}
	if q > 0 {
		t.cy = linalg.NewDense(m, q, rd.floats(m*q))
	} else {
		t.ybar, t.cy = nil, nil
	}
	t.syy = rd.floats(q)
	if q == 0 {
		t.syy = nil
	}
	if t.fp = fingerprint(spec, t.centers); t.fp != fp {
		return bad("fingerprint does not match the kernel and centres of the file")
	}
	for _, v := range [][]float64{t.centers.Data, t.mu, t.ybar, t.syy} {
		if err := check.Vector(ErrInput, op, "data", v); err != nil {
			return err
		}
	}
	for _, a := range []*linalg.Dense{t.mm, t.cy} {
		if a != nil {
			if err := check.Finite(ErrInput, op, "data", a); err != nil {
				return err
			}
		}
	}
	if i, j, dup := duplicateRow(t.centers); dup {
		return bad("centre rows %d and %d are identical", i, j)
	}
	if s.centers != nil && s.fp != t.fp {
		return bad("statistics of another kernel or centre set: %s, want %s", t.describe(), s.describe())
	}
	if s.centers != nil && s.jitter != t.jitter {
		return bad("made with the jitter δ = %g of K_mm, want δ = %g", t.jitter, s.jitter)
	}
	if s.centers != nil {
		t.l = s.l // the same kernel, centres and δ: the same L
	}
	*s = *t
	return nil
}

// statsReader reads little-endian values from b, noting when it runs out.
type statsReader struct {
	b     []byte
	short bool
}

func (r *statsReader) bytes(n int) []byte {
	if n < 0 || n > len(r.b) {
		r.short, r.b = true, nil
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *statsReader) u32() uint32 {
	if b := r.bytes(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (r *statsReader) u64() uint64 {
	if b := r.bytes(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// floats reads n float64 values (the caller has checked the length).
func (r *statsReader) floats(n int) []float64 {
	v := make([]float64, n)
	b := r.bytes(8 * n)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v
}
