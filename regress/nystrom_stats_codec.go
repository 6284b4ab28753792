package regress

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"math"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/internal/wire"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Statistics are saved in a compact binary form (written and read with
// internal/wire; they follow the protocol of the mergeable sums stated in
// package loo), all integers and float64 values little-endian:
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
	w := wire.NewWriter(8 + 4 + 4 + len(s.spec) + 32 + 8 + 32 + 8*(m*d+m+m*(m+1)/2+(m+2)*s.q) + 4)
	w.Header(statsMagic)
	w.U32(statsVersion)
	w.U32(uint32(len(s.spec)))
	w.Bytes(s.spec)
	w.U64(uint64(m), uint64(d), uint64(s.q), uint64(s.n))
	w.Floats([]float64{s.jitter})
	w.Bytes(s.fp[:])
	w.Floats(s.centers.Data, s.mu, s.ybar)
	for i := 0; i < m; i++ {
		w.Floats(s.mm.Row(i)[:i+1])
	}
	if s.q > 0 {
		w.Floats(s.cy.Data)
	}
	w.Floats(s.syy)
	w.U32(crc32.Checksum(w.Encoding(), statsCRC))
	return w.Encoding(), nil
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
	t, err := decodeStats(op, data)
	if err == nil {
		err = t.checkDecoded(op)
	}
	switch {
	case err != nil:
		return err
	case s.centers != nil && s.fp != t.fp:
		return statsDataError(op, "statistics of another kernel or centre set: %s, want %s", t.describe(), s.describe())
	case s.centers != nil && s.jitter != t.jitter:
		return statsDataError(op, "made with the jitter δ = %g of K_mm, want δ = %g", t.jitter, s.jitter)
	case s.centers != nil:
		t.l = s.l // the same kernel, centres and δ: the same L
	}
	*s = *t
	return nil
}

// statsDataError is the error of an encoding UnmarshalBinary refuses.
func statsDataError(op, format string, args ...any) error {
	return check.Input(ErrInput, op, "data", format, args...)
}

// decodeStats reads the statistics of an encoding whose checksum, magic,
// version, sizes and kernel are right, and says why otherwise.
func decodeStats(op string, data []byte) (*NystromStats, error) {
	if len(data) < 8+4+4+4 || string(data[:8]) != statsMagic {
		return nil, statsDataError(op, "not Nyström statistics (no %q header)", statsMagic)
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if got := crc32.Checksum(body, statsCRC); got != sum {
		return nil, statsDataError(op, "checksum %08x, the file says %08x: the data are damaged or truncated", got, sum)
	}
	r := wire.NewReader(body[8:])
	if v := r.U32(); v != statsVersion {
		return nil, statsDataError(op, "version %d, this build reads version %d", v, statsVersion)
	}
	t := &NystromStats{spec: bytes.Clone(r.Bytes(int(r.U32())))}
	m, d, q, n := r.U64(), r.U64(), r.U64(), r.U64()
	t.jitter = math.Float64frombits(r.U64())
	copy(t.fp[:], r.Bytes(32))
	// Count the values in uint64: m, d and q are at most 2²⁸.
	want := m*d + m + m*(m+1)/2 + (m+2)*q
	switch {
	case r.Err() != nil:
		return nil, statsDataError(op, "truncated header")
	case m < 1 || d < 1 || m > maxStatsDim || d > maxStatsDim || q > maxStatsDim || n > uint64(math.MaxInt):
		return nil, statsDataError(op, "sizes m = %d, d = %d, q = %d, n = %d out of range", m, d, q, n)
	case uint64(r.Len()) != 8*want:
		return nil, statsDataError(op, "%d bytes of values for m = %d, d = %d, q = %d, want %d", r.Len(), m, d, q, 8*want)
	}
	if err := memlimit.Check(op, memlimit.Floats(int(m), int(m+d+q+2))); err != nil {
		return nil, err
	}
	t.n, t.q = int(n), int(q)
	return t, t.readValues(op, r, int(m), int(d))
}

// readValues reads the kernel of the spec and the m×d centres and sums
// that follow the header.
func (t *NystromStats) readValues(op string, r *wire.Reader, m, d int) error {
	var sp kernels.Spec
	if err := json.Unmarshal(t.spec, &sp); err != nil {
		return check.Wrap(ErrInput, op, "kernel", err)
	}
	k, err := sp.Kernel()
	if err != nil {
		return kernelError(op, "kernel", err)
	}
	t.kernel, t.centers = k, linalg.NewDense(m, d, r.Floats(m*d))
	t.mu, t.ybar = r.Floats(m), r.Floats(t.q)
	t.mm = linalg.NewDense(m, m, nil)
	for i := 0; i < m; i++ {
		copy(t.mm.Row(i)[:i+1], r.Floats(i+1))
	}
	if t.q == 0 {
		t.ybar = nil
		return nil
	}
	t.cy, t.syy = linalg.NewDense(m, t.q, r.Floats(m*t.q)), r.Floats(t.q)
	return nil
}

// checkDecoded checks decoded statistics: the fingerprint of their kernel
// and centres, finite values, distinct centres.
func (t *NystromStats) checkDecoded(op string) error {
	if fp := fingerprint(t.spec, t.centers); fp != t.fp {
		return statsDataError(op, "fingerprint does not match the kernel and centres of the file")
	}
	if (t.n == 0) != (t.q == 0) {
		return statsDataError(op, "%d rows with %d outputs", t.n, t.q)
	}
	if !(t.jitter >= 0 && t.jitter < math.Inf(1)) {
		return statsDataError(op, "jitter δ = %g", t.jitter)
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
		return statsDataError(op, "centre rows %d and %d are identical", i, j)
	}
	return nil
}
