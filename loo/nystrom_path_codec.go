package loo

import (
	"encoding/binary"
	"hash/fnv"
	"math"
)

// The residual sums of a NystromPath cross a process boundary in a
// binary encoding (MarshalBinary), so that the leave-one-out pass can run
// on many machines and be merged: each worker builds the path from the
// same statistics with NewNystromPath — bit for bit the same path, the
// computation being deterministic — adds its rows, and ships only what it
// collected: the number of rows added and, for every λ, the sums of the
// squared leave-one-out and training residuals, the sum of the rows'
// squared leave-one-out errors squared (for MSEStdErr) and the count of
// wrong classes, 8(5L + 8) bytes for L values of λ. The path itself (W, the
// eigenvalues) is not encoded; a fingerprint of it (n, q, m, the
// intercept mode, the λ and a 64-bit FNV-1a hash of the bits of W) is, and
// UnmarshalBinary refuses the sums of another path.
//
// Layout, little-endian: the 8 bytes "rkhsNSS2", then n, q, m, the
// intercept mode, L, the rows added and the hash as uint64, then the L
// λ, the L sums of squared leave-one-out residuals, the L sums of squared
// training residuals and the L sums of the rows' squared leave-one-out
// errors squared as float64 bits, then the L counts as uint64. ("rkhsNSS1",
// the encoding without the third sums, is refused.)

// streamMagic opens the encoding of a NystromPath's sums.
const streamMagic = "rkhsNSS2"

// MarshalBinary encodes the sums the stream has collected with the
// fingerprint of its path (see the layout above); the path itself is not
// encoded. It implements encoding.BinaryMarshaler. An error wraps ErrInput
// for a nil or zero NystromPath.
func (p *NystromPath) MarshalBinary() ([]byte, error) {
	if err := p.ready("NystromPath.MarshalBinary"); err != nil {
		return nil, err
	}
	nl := len(p.Lambdas)
	b := make([]byte, 0, len(streamMagic)+8*(7+5*nl))
	b = append(b, streamMagic...)
	for _, v := range p.header() {
		b = binary.LittleEndian.AppendUint64(b, v)
	}
	for _, vs := range [][]float64{p.Lambdas, p.sse, p.rss, p.sse2} {
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	for _, v := range p.wrong {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	return b, nil
}

// UnmarshalBinary replaces the sums of p by those that MarshalBinary
// encoded from a stream of the same path: p must have been made by
// NewNystromPath from the same statistics, intercept mode and λ (checked
// by the fingerprint). Decoding the encoding of a fresh path resets p;
// merging the sums of two workers is UnmarshalBinary into one stream and
// Merge of another. It implements encoding.BinaryUnmarshaler. On error p
// is unchanged; errors wrap ErrInput: a nil or zero p, a truncated or
// malformed encoding, sums of another path, or sums that are negative, not
// finite or of more rows than the statistics summarise.
func (p *NystromPath) UnmarshalBinary(b []byte) error {
	const op = "NystromPath.UnmarshalBinary"
	if err := p.ready(op); err != nil {
		return err
	}
	nl := len(p.Lambdas)
	if len(b) < len(streamMagic) || string(b[:len(streamMagic)]) != streamMagic {
		return inputError(op, "data", "not the encoding of a NystromPath's sums")
	}
	b = b[len(streamMagic):]
	want := p.header()
	if len(b) < 8*len(want) {
		return inputError(op, "data", "truncated: %d bytes", len(b)+len(streamMagic))
	}
	u := func(i int) uint64 { return binary.LittleEndian.Uint64(b[8*i:]) }
	seen := u(5)
	for i, v := range want {
		if i != 5 && u(i) != v {
			return inputError(op, "data", "the sums of a path of other statistics, intercept mode or λ")
		}
	}
	if len(b) != 8*(len(want)+5*nl) {
		return inputError(op, "data", "%d bytes, want %d", len(b)+len(streamMagic), len(streamMagic)+8*(len(want)+5*nl))
	}
	if seen > uint64(p.n) {
		return inputError(op, "data", "%d rows added, the statistics summarise %d", seen, p.n)
	}
	at := len(want)
	for j := 0; j < nl; j++ {
		if math.Float64bits(p.Lambdas[j]) != u(at+j) {
			return inputError(op, "data", "the sums of a path of other λ")
		}
	}
	sse, rss, sse2, wrong := make([]float64, nl), make([]float64, nl), make([]float64, nl), make([]int, nl)
	for j := 0; j < nl; j++ {
		sse[j] = math.Float64frombits(u(at + nl + j))
		rss[j] = math.Float64frombits(u(at + 2*nl + j))
		sse2[j] = math.Float64frombits(u(at + 3*nl + j))
		w := u(at + 4*nl + j)
		// The squares of the rows' errors may overflow where their sum
		// does not: +Inf is a sum some rows give, NaN or < 0 none.
		if !(sse[j] >= 0) || !(rss[j] >= 0) || !(sse2[j] >= 0) || bad(sse[j]) || bad(rss[j]) || w > seen {
			return inputError(op, "data", "sums at λ = %g that no rows give", p.Lambdas[j])
		}
		wrong[j] = int(w)
	}
	p.sse, p.rss, p.sse2, p.wrong, p.seen = sse, rss, sse2, wrong, int(seen)
	return nil
}

// header returns the fingerprint of the path and the rows added (at index
// 5), the uint64 words that follow the magic.
func (p *NystromPath) header() []uint64 {
	return []uint64{uint64(p.n), uint64(p.q), uint64(p.m), uint64(p.ic), uint64(len(p.Lambdas)), uint64(p.seen), p.hashW()}
}

// hashFloats returns the 64-bit FNV-1a hash of the bits of the values of
// vs in order, each as 8 little-endian bytes: the fingerprint an encoding
// carries of matrices too large to carry whole.
func hashFloats(vs ...[]float64) uint64 {
	h := fnv.New64a()
	var w [8]byte
	for _, s := range vs {
		for _, v := range s {
			binary.LittleEndian.PutUint64(w[:], math.Float64bits(v))
			h.Write(w[:])
		}
	}
	return h.Sum64()
}
