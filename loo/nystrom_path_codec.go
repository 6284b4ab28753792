package loo

import (
	"rkhs/internal/check"
	"rkhs/internal/wire"
)

// The residual sums of a NystromPath cross a process boundary in a
// binary encoding (MarshalBinary), so that the leave-one-out pass can run
// on many machines and be merged (see "Mergeable sums" in the package
// documentation): each worker builds the path from the same statistics
// with NewNystromPath and ships only what it collected: the number of
// rows added and, for every λ, the sums of the squared leave-one-out and
// training residuals, the sum of the rows' squared leave-one-out errors
// squared (for MSEStdErr) and the count of wrong classes, 8(5L + 8) bytes
// for L values of λ. The path itself (W, the eigenvalues) is not encoded;
// a fingerprint of it (n, q, m, the intercept mode, the λ and a 64-bit
// FNV-1a hash of the bits of W) is, and UnmarshalBinary refuses the sums
// of another path.
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
	w := wire.NewWriter(len(streamMagic) + 8*(7+5*len(p.Lambdas)))
	w.Header(streamMagic, append(p.fingerprint(), uint64(p.seen), p.hashW())...)
	w.Floats(p.Lambdas, p.sse, p.rss, p.sse2)
	for _, v := range p.wrong {
		w.U64(uint64(v))
	}
	return w.Encoding(), nil
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
	const other = "the sums of a path of other statistics, intercept mode or λ"
	nl := len(p.Lambdas)
	r := wire.NewReader(b)
	r.Magic(streamMagic, "a NystromPath's sums")
	r.Expect(other, p.fingerprint()...)
	seen := r.U64()
	r.Expect(other, p.hashW())
	lambdas, sse, rss, sse2 := r.Floats(nl), r.Floats(nl), r.Floats(nl), r.Floats(nl)
	counts := make([]uint64, nl)
	for j := range counts {
		counts[j] = r.U64()
	}
	switch err := r.Done(); {
	case err != nil:
		return check.Wrap(ErrInput, op, "data", err)
	case !sameBits(lambdas, p.Lambdas):
		return inputError(op, "data", "the sums of a path of other λ")
	case seen > uint64(p.n):
		return inputError(op, "data", "%d rows added, the statistics summarise %d", seen, p.n)
	}
	wrong := make([]int, nl)
	for j, v := range p.Lambdas {
		// The squares of the rows' errors may overflow where their sum
		// does not: +Inf is a sum some rows give, NaN or < 0 none.
		if !(sse[j] >= 0) || !(rss[j] >= 0) || !(sse2[j] >= 0) || bad(sse[j]) || bad(rss[j]) || counts[j] > seen {
			return inputError(op, "data", "sums at λ = %g that no rows give", v)
		}
		wrong[j] = int(counts[j])
	}
	p.sse, p.rss, p.sse2, p.wrong, p.seen = sse, rss, sse2, wrong, int(seen)
	return nil
}

// fingerprint returns the sizes and the intercept mode of the path, the
// first words of its encoding: n, q, m, the intercept mode and L.
func (p *NystromPath) fingerprint() []uint64 {
	return []uint64{uint64(p.n), uint64(p.q), uint64(p.m), uint64(p.ic), uint64(len(p.Lambdas))}
}
