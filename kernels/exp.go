package kernels

import "math"

// A pure-Go e^x for x ≤ 0, the range of the Gaussian kernel, about twice
// as fast as math.Exp (BenchmarkExp) and within 0.512 ulp of the exact
// value where the result is a normal float64.
//
// Method (Tang, "Table-driven implementation of the exponential function
// in IEEE floating-point arithmetic", 1989): with N = 512,
//
//	x = (N·e + j)·ln2/N + r,   0 ≤ j < N,   |r| ≤ ln2/(2N) ≈ 0.00068,
//	e^x = 2^e · 2^(j/N) · e^r.
//
// k = N·e + j is the integer nearest to x·N/ln2, rounded by adding
// 1.5·2⁵², which leaves 2⁵¹ + k in the low 52 bits of the sum: its low 9
// bits are j, and the bits above them shifted to the exponent field add
// e to it (modulo 2⁶⁴, the 2⁵¹ falls off), so no integer k is formed. r is
// computed with ln2/N in two parts (Cody and Waite), the first with 32
// significant bits so that k times it is exact, which makes r accurate to
// far below an ulp of the result. 2^(j/N) is a table entry T_j, the
// nearest float64, with its relative error t_j = (2^(j/N) − T_j)/T_j
// (|t_j| < 2⁻⁵³) stored beside it and added to r: T_j·e^(r + t_j) differs
// from 2^(j/N)·e^r by less than t_j²/2 relative. e^ρ − 1 for ρ = r + t_j
// is its Taylor polynomial of degree 4, ρ + ρ²·(1/2 + ρ/6 + ρ²/24), whose
// remainder ρ⁵/120 is below 1.2e-18 relative (0.011 ulp). The result is
// s + s·p with s = T_j·2^e (exponent bits added to T_j's): one rounding of
// a sum whose second term is below 0.0007·s. Hence the error bound for a
// normal result: 0.5 ulp for that rounding, plus at most 0.011 ulp for the
// truncation and far less for the rest — at most 0.512 ulp (TestExpNeg
// measures it against a 200-bit reference: 0.509).
//
// Cost. The loop is bound by the throughput of the floating-point units
// (every operation is scalar SSE2 at GOAMD64=v1, no fused multiply-add):
// 8 multiplications and 9 additions per element. The 8 KiB table buys
// the degree 4 (N = 128 needs degree 5, two multiplications and an
// addition more), and the range test is on the integer bits of the
// shifted sum rather than a floating-point compare.
//
// Underflow. For k ≥ −1010·N (x ≥ −700.08…) e ≥ −1010, so s is normal,
// and s·p is either normal or below 2⁻¹⁰²², where rounding it to the
// subnormal spacing 2⁻¹⁰⁷⁴ errs by less than 2⁻⁶⁴·s. Below, where results
// come near or into the subnormal range, expNegSmall forms s as
// T_j·2^(e+128), at least 2⁻⁹⁵⁰ for x ≥ −746, and multiplies s + s·p by
// 2⁻¹²⁸ at the end: exactly where the result is normal; where it is
// subnormal (x < −708.39) that product is a second rounding, so the error
// there is at most 1 ulp of the subnormal spacing (measured: 0.75). Keeping
// s far from the subnormal range also keeps s·p out of it: arithmetic that
// produces a subnormal number is a microcode assist on most x86 CPUs, 100
// cycles or more, which here only results below e^−700 pay. Arguments
// below −745.2 (where e^x < 2⁻¹⁰⁷⁵ rounds to 0, −Inf included) give 0 and
// NaN gives NaN; kernel rows take expNegSmall for pairs more than 37.4σ
// apart.
//
// Against math.Exp, which is itself up to 1.4 ulps from e^x on amd64
// (TestExpNeg), expNeg differs by at most 2 ulps. Exactly: e^0 = e^−0 = 1,
// e^−Inf = 0, e^NaN = NaN. Arguments above 0 are outside the contract
// (up to about 620 they are still right, beyond that they are not).

const (
	expTableBits = 9
	expN         = 1 << expTableBits
	// expShift rounds x·N/ln2 to an integer: adding it to a value of
	// magnitude below 2⁵¹ leaves a float64 in [2⁵², 2⁵³), whose spacing is 1.
	expShift     = 0x1.8p52
	expShiftBits = 0x4338000000000000 // math.Float64bits(expShift)
	expInvLn2N   = expN / math.Ln2
	// ln2/N in two parts: the high one has 32 significant bits, so that k
	// times it is exact for |k| < 2²¹ (x ≥ −746 gives |k| ≤ 551,045).
	expLn2HiN = 0x1.62e42feep-1 / expN
	expLn2LoN = 0x1.a39ef35793c76p-33 / expN
	// expMinK is the least k of expNeg's loop: e ≥ −1010.
	expMinK = -1010 * expN
	// expZeroArg: below it e^x < 2⁻¹⁰⁷⁵ (ln 2⁻¹⁰⁷⁵ = −745.1332…) rounds to 0.
	expZeroArg = -745.2
	// In expNegSmall s is T_j·2^(e+expScaleBias), at least 2⁻⁹⁵⁰ for
	// e ≥ −1078, and the result is multiplied by expUnbias =
	// 2^−expScaleBias at the end.
	expScaleBias = 128
	expUnbias    = 0x1p-128
)

// Taylor coefficients 1/n! of e^ρ − 1 beyond the linear term.
const (
	expC2 = 1.0 / 2
	expC3 = 1.0 / 6
	expC4 = 1.0 / 24
)

// expNeg sets x[i] = e^x[i] for every i, each x[i] ≤ 0 or NaN (see above):
// within 0.512 ulp of the exact value for results of at least 2⁻¹⁰²², 1 ulp
// below (subnormal results); exactly 1 at ±0. The loop body is the whole
// algorithm for k in [expMinK, 0] (expReduce and expScale are inlined),
// so that there is no call per element; the test of k is one unsigned
// comparison of the bits u of the shifted sum, which also sends NaN and
// ±Inf (whose bits are far outside) to expNegSmall.
func expNeg(x []float64) {
	for i, v := range x {
		kd := v*expInvLn2N + expShift
		u := math.Float64bits(kd)
		if u-(expShiftBits+expMinK) > -expMinK { // k < expMinK or k > 0, NaN, ±Inf
			x[i] = expNegSmall(v)
			continue
		}
		x[i] = expScale(expReduce(v, kd-expShift), u, 0)
	}
}

// expNegSmall returns e^v for v whose k is outside [expMinK, 0], or NaN: 0
// below expZeroArg, NaN for NaN, otherwise T_j·2^(e+128)·e^ρ rounded, then
// scaled by 2⁻¹²⁸.
func expNegSmall(v float64) float64 {
	if !(v >= expZeroArg) { // a result that rounds to 0, −Inf, or NaN
		if v != v {
			return v
		}
		return 0
	}
	kd := v*expInvLn2N + expShift
	return expScale(expReduce(v, kd-expShift), math.Float64bits(kd), expScaleBias) * expUnbias
}

// expReduce returns r = v − k·ln2/N for k as a float64 (kd): |r| ≤
// ln2/(2N) up to rounding.
func expReduce(v, kd float64) float64 {
	return v - kd*expLn2HiN - kd*expLn2LoN
}

// expScale returns T_j·2^(e+b)·e^ρ, rounded once: ρ = r + t_j, with j and
// e from the bits u of the shifted sum k + 1.5·2⁵², which hold 2⁵¹ + k in
// their low 52 bits; 2^(e+b) must be normal. e^ρ − 1 is the Taylor
// polynomial p, and the result s + s·p with s = T_j·2^(e+b), formed by
// adding e + b to T_j's exponent field (modulo 2⁶⁴ where e + b < 0):
// (u >> 9) << 52 is e << 52, the 2⁵¹ and the exponent bits of u falling
// off the top.
func expScale(r float64, u, b uint64) float64 {
	t := &expTable[u&(expN-1)]
	r += t.tail
	r2 := r * r
	p := r + r2*(expC2+r*expC3+r2*expC4)
	s := math.Float64frombits(t.hi + (u>>expTableBits+b)<<52)
	return s + s*p
}

// expTable holds T_j = 2^(j/N), the nearest float64 (as its bits), and
// t_j = (2^(j/N) − T_j)/T_j rounded, for j < N; TestExpTable checks both
// against 2^j = (T_j·(1 + t_j))^N computed with math/big.
var expTable = [expN]struct {
	hi   uint64
	tail float64
}{
	{0x3ff0000000000000, 0},
	{0x3ff0058c86da1c0a, -0x1.5d87ade1f60d5p-56},
	{0x3ff00b1afa5abcbf, -0x1.4e82fc61851acp-55},
	{0x3ff010ab5b2cbd11, 0x1.bffdaa7ac4bacp-54},
	{0x3ff0163da9fb3335, 0x1.b3b4f1a88bf6ep-54},
	{0x3ff01bd1e77170b4, 0x1.5c18e5ae0563ap-56},
	{0x3ff02168143b0281, -0x1.2985dd8521d32p-55},
	{0x3ff027003103b10e, -0x1.05b1125cf49a5p-56},
	{0x3ff02c9a3e778061, -0x1.160139cd8dc5dp-56},
	{0x3ff032363d42b027, 0x1.f879abbff3f87p-54},
	{0x3ff037d42e11bbcc, 0x1.51e617061bfbdp-57},
	{0x3ff03d7411915a8a, 0x1.b14003824712ap-54},
	{0x3ff04315e86e7f85, -0x1.05e7a108766d1p-54},
	{0x3ff048b9b35659d8, 0x1.1cbf0f38af658p-57},
	{0x3ff04e5f72f654b1, 0x1.45fad437fa426p-55},
	{0x3ff0540727fc1762, -0x1.a3316383dcbc5p-54},
	{0x3ff059b0d3158574, 0x1.cd2523567f613p-55},
	{0x3ff05f5c74f0bec2, 0x1.901c9e0e797fdp-54},
	{0x3ff0650a0e3c1f89, -0x1.54529642b232fp-54},
	{0x3ff06ab99fa6407c, -0x1.9b3236d111646p-55},
	{0x3ff0706b29ddf6de, -0x1.bce8023f98efap-55},
	{0x3ff0761ead925493, -0x1.cb191be99b1b0p-55},
	{0x3ff07bd42b72a836, 0x1.293708ef5c32ep-55},
	{0x3ff0818ba42e7d30, -0x1.acb71e83765b7p-54},
	{0x3ff0874518759bc8, 0x1.0f74e61e6c861p-57},
	{0x3ff08d0088f8093f, 0x1.cd3e58b03697ep-58},
	{0x3ff092bdf66607e0, -0x1.5b9280905b2a4p-54},
	{0x3ff0987d61701716, -0x1.bfb07d4755452p-55},
	{0x3ff09e3ecac6f383, 0x1.0a3e45b33d399p-54},
	{0x3ff0a402331b9715, 0x1.aedeb3e7b14cdp-55},
	{0x3ff0a9c79b1f3919, 0x1.4f31f32c4b7e7p-55},
	{0x3ff0af8f03834e52, 0x1.a8eb1f3d914b4p-54},
	{0x3ff0b5586cf9890f, 0x1.79aa65d837b6dp-54},
	{0x3ff0bb23d833d93f, -0x1.5b9eb0402507bp-55},
	{0x3ff0c0f145e46c85, 0x1.407fb30d06420p-54},
	{0x3ff0c6c0b6bdae53, -0x1.3f0f225bbf3eep-54},
	{0x3ff0cc922b7247f7, 0x1.eb51a92fdeffcp-55},
	{0x3ff0d265a4b520ba, -0x1.c3fe7282d1784p-54},
	{0x3ff0d83b23395dec, -0x1.a5d04b3b9911bp-54},
	{0x3ff0de12a7b26300, 0x1.c8be44bf4cde8p-54},
	{0x3ff0e3ec32d3d1a2, 0x1.ebe3d702f9cd1p-60},
	{0x3ff0e9c7c55189c6, 0x1.20c5444c93c44p-55},
	{0x3ff0efa55fdfa9c5, -0x1.37a01f0739546p-54},
	{0x3ff0f58503328e6d, -0x1.4c6baeb580d7ap-55},
	{0x3ff0fb66affed31b, -0x1.a033489906e0bp-57},
	{0x3ff1014a66f951ce, 0x1.657aa1b0d9f83p-55},
	{0x3ff1073028d7233e, 0x1.b8268b04ef0a5p-55},
	{0x3ff10d17f64d9ef1, 0x1.2f2c7fd6ee145p-57},
	{0x3ff11301d0125b51, -0x1.556522a2fbd0ep-54},
	{0x3ff118edb6db2dc1, -0x1.b0b2789925e90p-57},
	{0x3ff11edbab5e2ab6, -0x1.ac46e44a2ebccp-54},
	{0x3ff124cbae51a5c8, -0x1.3aad17d197faep-54},
	{0x3ff12abdc06c31cc, -0x1.080ef8c4eea55p-58},
	{0x3ff130b1e264a0e9, -0x1.89c464a07ad70p-54},
	{0x3ff136a814f204ab, -0x1.5704e90c9f860p-57},
	{0x3ff13ca058cbae1e, -0x1.2c338fce197f4p-56},
	{0x3ff1429aaea92de0, -0x1.1c923b9d5f416p-54},
	{0x3ff1489717425438, -0x1.dca724cea0eb6p-57},
	{0x3ff14e95934f312e, -0x1.97cea57e46280p-55},
	{0x3ff154962388149e, 0x1.64770b955d34dp-59},
	{0x3ff15a98c8a58e51, 0x1.0d3e3e95c55afp-55},
	{0x3ff1609d83606e12, -0x1.62811c114424fp-54},
	{0x3ff166a45471c3c2, 0x1.6f01429e2b9d2p-58},
	{0x3ff16cad3c92df73, 0x1.ec58e74904dd4p-55},
	{0x3ff172b83c7d517b, -0x1.01b15eaa59348p-55},
	{0x3ff178c554eaea89, 0x1.d63b0ab2d5bbfp-55},
	{0x3ff17ed48695bbc0, 0x1.e653b2459034bp-57},
	{0x3ff184e5d23816c9, -0x1.ca9effbeeac92p-54},
	{0x3ff18af9388c8dea, -0x1.f1ff055de323dp-55},
	{0x3ff1910eba4df41f, 0x1.bda920de0f6e2p-55},
	{0x3ff1972658375d2f, 0x1.2cc7ea345b7dcp-54},
	{0x3ff19d4013041dc2, -0x1.a597f9a5ff71cp-54},
	{0x3ff1a35beb6fcb75, 0x1.b898c3f1353bfp-55},
	{0x3ff1a979e2363cf8, 0x1.0835b125aa573p-58},
	{0x3ff1af99f8138a1c, 0x1.57bfb2876ea9ep-54},
	{0x3ff1b5bc2dc40bf0, 0x1.aaa13d61aec1fp-55},
	{0x3ff1bbe084045cd4, -0x1.6d99c7611eb26p-54},
	{0x3ff1c206fb91588f, 0x1.a4f81aa7110bdp-55},
	{0x3ff1c82f95281c6b, 0x1.cdc1873af2155p-55},
	{0x3ff1ce5a51860746, -0x1.817fd6a313e3ep-57},
	{0x3ff1d4873168b9aa, 0x1.aecf73e3a2f60p-54},
	{0x3ff1dab6358e15e8, -0x1.6236af85fd26ap-54},
	{0x3ff1e0e75eb44027, -0x1.493684653a131p-54},
	{0x3ff1e71aad999e82, 0x1.795eb4523abe7p-56},
	{0x3ff1ed5022fcd91d, -0x1.fe782cb86389dp-55},
	{0x3ff1f387bf9cda38, 0x1.fe58b91b40095p-55},
	{0x3ff1f9c18438ce4d, -0x1.8e2899077520ap-54},
	{0x3ff1fffd7190241e, 0x1.1ecaa860c614ap-54},
	{0x3ff2063b88628cd6, 0x1.a6f4144a6c38dp-55},
	{0x3ff20c7bc96ffc18, -0x1.e45c83ba0bbcbp-60},
	{0x3ff212be3578a819, 0x1.120fcd4f59273p-54},
	{0x3ff21902cd3d09b9, -0x1.9fd3bea07b4eep-61},
	{0x3ff21f49917ddc96, 0x1.07a05b0e4047dp-55},
	{0x3ff2259282fc1f27, 0x1.7f1c7350e256dp-55},
	{0x3ff22bdda27912d1, 0x1.9b788c188c9b8p-55},
	{0x3ff2322af0b63bff, 0x1.20dac6c124f4fp-59},
	{0x3ff2387a6e756238, 0x1.68efde3a8a894p-54},
	{0x3ff23ecc1c78903a, -0x1.9501d09bc09fdp-54},
	{0x3ff2451ffb82140a, 0x1.77afbca90ef84p-55},
	{0x3ff24b760c547f15, 0x1.3baf864dc8675p-56},
	{0x3ff251ce4fb2a63f, 0x1.75e18f274487dp-55},
	{0x3ff25828c65fa1ff, 0x1.1b0575c1eaf54p-54},
	{0x3ff25e85711ece75, 0x1.1512f082876eep-54},
	{0x3ff264e450b3cb82, -0x1.0364bc9ce33abp-54},
	{0x3ff26b4565e27cdd, 0x1.0472b981fe7f2p-55},
	{0x3ff271a8b16f0a30, -0x1.548165d85ed32p-56},
	{0x3ff2780e341ddf29, 0x1.a02f0c7d75ec6p-54},
	{0x3ff27e75eeb3ab98, 0x1.c3b977a68e32cp-56},
	{0x3ff284dfe1f56381, -0x1.6b87b3f71085ep-54},
	{0x3ff28b4c0ea83f36, -0x1.3a255f697ecfep-54},
	{0x3ff291ba7591bb70, -0x1.03297e78260bfp-55},
	{0x3ff2982b17779965, 0x1.d2d19edc1e550p-55},
	{0x3ff29e9df51fdee1, 0x1.2f7e16d09ab31p-55},
	{0x3ff2a5130f50d65c, -0x1.6b2173113dd8cp-56},
	{0x3ff2ab8a66d10f13, -0x1.5b77e5ccd9fbfp-54},
	{0x3ff2b203fc675d1f, 0x1.11aa5f853590bp-55},
	{0x3ff2b87fd0dad990, -0x1.d219b1a6fbffap-60},
	{0x3ff2befde4f2e280, 0x1.1d61a34c8aa02p-57},
	{0x3ff2c57e39771b2f, -0x1.1e75c40b4251ep-54},
	{0x3ff2cc00cf2f6c18, -0x1.1f892bf6b286dp-54},
	{0x3ff2d285a6e4030b, 0x1.b3782720c0ab4p-55},
	{0x3ff2d90cc15d5346, 0x1.590c65c20e680p-56},
	{0x3ff2df961f641589, 0x1.8a911f1f7785ap-54},
	{0x3ff2e621c1c14833, 0x1.6fe320b5c1e9dp-55},
	{0x3ff2ecafa93e2f56, 0x1.e149289cecb8fp-57},
	{0x3ff2f33fd6a454d2, -0x1.03cd8b2f25790p-54},
	{0x3ff2f9d24abd886b, -0x1.1e7c998db7dbbp-57},
	{0x3ff300670653dfe4, 0x1.b3bf786a54a87p-56},
	{0x3ff306fe0a31b715, 0x1.34d754db0abb6p-55},
	{0x3ff30d975721b004, 0x1.4bb6c41732885p-56},
	{0x3ff31432edeeb2fd, 0x1.5425c11faadf4p-55},
	{0x3ff31ad0cf63eeac, -0x1.9d7399abb9a8bp-54},
	{0x3ff32170fc4cd831, 0x1.64201e2ac744cp-55},
	{0x3ff3281375752b40, -0x1.451d60c6ac9ebp-58},
	{0x3ff32eb83ba8ea32, -0x1.79517a03e2847p-54},
	{0x3ff3355f4fb45e20, 0x1.787a210ceafd9p-55},
	{0x3ff33c08b26416ff, 0x1.fdd395dd3f84ap-55},
	{0x3ff342b46484ebb4, -0x1.88d1e4629943dp-55},
	{0x3ff3496266e3fa2d, -0x1.00e2a46da4beep-55},
	{0x3ff35012ba4ea77d, -0x1.3369c544088b6p-54},
	{0x3ff356c55f929ff1, -0x1.6a3803b8e5b04p-55},
	{0x3ff35d7a577dd72b, 0x1.5373ce4eb6dfbp-55},
	{0x3ff36431a2de883b, -0x1.7430803972b34p-55},
	{0x3ff36aeb428335b4, 0x1.3adec8265a67fp-55},
	{0x3ff371a7373aa9cb, -0x1.24aedcc4b5068p-54},
	{0x3ff3786581d3f669, -0x1.35388bcac6bc5p-55},
	{0x3ff37f26231e754a, -0x1.54de30ae02d94p-54},
	{0x3ff385e91be9c811, 0x1.27cdb4e4b6640p-56},
	{0x3ff38cae6d05d866, -0x1.907f81b512d8ep-54},
	{0x3ff393761742d808, 0x1.6c2696a26af35p-55},
	{0x3ff39a401b7140ef, -0x1.4f2487e1c03ecp-54},
	{0x3ff3a10c7a61d55b, 0x1.88f6ff06b979ap-55},
	{0x3ff3a7db34e59ff7, -0x1.1d1e83e9436d2p-56},
	{0x3ff3aeac4bcdf3ea, -0x1.9d5efaabc2030p-55},
	{0x3ff3b57fbfec6cf4, 0x1.14a5432fcb2f4p-54},
	{0x3ff3bc559212ef89, -0x1.6b8867f91c9d6p-56},
	{0x3ff3c32dc313a8e5, -0x1.91919b3ce1b15p-54},
	{0x3ff3ca0853c10f28, 0x1.4c9c0b5157fe6p-54},
	{0x3ff3d0e544ede173, 0x1.9c3bba5562a2fp-56},
	{0x3ff3d7c4976d27fa, -0x1.2455345b51c8ep-57},
	{0x3ff3dea64c123422, 0x1.59f48a72a4c6dp-55},
	{0x3ff3e58a63b0a09b, -0x1.3331de45477d0p-54},
	{0x3ff3ec70df1c5175, -0x1.5a71612e21658p-55},
	{0x3ff3f359bf29743f, -0x1.5f84d39b39b16p-54},
	{0x3ff3fa4504ac801c, -0x1.312607a28698ap-54},
	{0x3ff40132b07a35df, -0x1.2ba4dc7c4d562p-56},
	{0x3ff40822c367a024, 0x1.6421f6f1d24d6p-55},
	{0x3ff40f153e4a136a, -0x1.44f25dc02691fp-55},
	{0x3ff4160a21f72e2a, -0x1.8a78f4817895bp-58},
	{0x3ff41d016f44d8f5, -0x1.88d328eb9b501p-55},
	{0x3ff423fb2709468a, -0x1.348a6815fce65p-54},
	{0x3ff42af74a1af3f1, 0x1.f0bec42ddb15ap-56},
	{0x3ff431f5d950a897, -0x1.c2c9b67499a1bp-56},
	{0x3ff438f6d5817663, -0x1.15f0a2b9cd452p-57},
	{0x3ff43ffa3f84b9d4, 0x1.35c43984d9871p-55},
	{0x3ff4470018321a1a, -0x1.c2e465a919e1dp-55},
	{0x3ff44e086061892d, 0x1.363ed60c2ac11p-59},
	{0x3ff4551318eb43ec, -0x1.65dfd02bd08f1p-55},
	{0x3ff45c2042a7d232, -0x1.32afc8d9473a0p-57},
	{0x3ff4632fde7006f4, -0x1.e68cec89b1762p-55},
	{0x3ff46a41ed1d0057, 0x1.666093b0664efp-54},
	{0x3ff471566f8827d0, -0x1.8ae858eb682cap-59},
	{0x3ff4786d668b3237, -0x1.5fc5e44de020ep-54},
	{0x3ff47f86d3001fe5, 0x1.dd71277c0915fp-58},
	{0x3ff486a2b5c13cd0, 0x1.ecce1daa10379p-57},
	{0x3ff48dc10fa920a1, 0x1.2001325ecd7fbp-54},
	{0x3ff494e1e192aed2, -0x1.ea0148327c42fp-56},
	{0x3ff49c052c5916c4, 0x1.5ace6e2870332p-57},
	{0x3ff4a32af0d7d3de, 0x1.3ff8e3f0f1230p-54},
	{0x3ff4aa532feaada6, -0x1.595c55690ffafp-54},
	{0x3ff4b17dea6db7d7, -0x1.a843ad1a88022p-56},
	{0x3ff4b8ab213d5283, -0x1.b401ba9fb5199p-55},
	{0x3ff4bfdad5362a27, 0x1.690cebb7aafb0p-56},
	{0x3ff4c70d073537ca, 0x1.df82bf324cc57p-57},
	{0x3ff4ce41b817c114, 0x1.92ca3bf144e63p-55},
	{0x3ff4d578e8bb586b, 0x1.7cae38641c7bbp-54},
	{0x3ff4dcb299fddd0d, 0x1.31dbdeb54e077p-54},
	{0x3ff4e3eeccbd7b2a, 0x1.2d80c5c4a2b67p-57},
	{0x3ff4eb2d81d8abff, -0x1.02c99b04aa8b0p-54},
	{0x3ff4f26eba2e35f0, 0x1.f39c10d12eaf0p-55},
	{0x3ff4f9b2769d2ca7, -0x1.f94340071a38ep-55},
	{0x3ff500f8b804f127, -0x1.0b582d74a55d9p-55},
	{0x3ff508417f4531ee, 0x1.3e34f67e67118p-56},
	{0x3ff50f8ccd3deb0d, -0x1.b4e327ff434cap-57},
	{0x3ff516daa2cf6642, -0x1.7deccdc93a349p-55},
	{0x3ff51e2b00da3b14, -0x1.92dca38593e20p-58},
	{0x3ff5257de83f4eef, -0x1.5a3b1197ba0f0p-56},
	{0x3ff52cd359dfd53d, -0x1.5daca9994833ep-55},
	{0x3ff5342b569d4f82, -0x1.8dec6bd0f385fp-56},
	{0x3ff53b85df598d78, -0x1.80b4321bc6daep-54},
	{0x3ff542e2f4f6ad27, 0x1.1bd2888075068p-55},
	{0x3ff54a4298571b06, -0x1.390afec5241c5p-55},
	{0x3ff551a4ca5d920f, -0x1.61246ec7b5cf6p-55},
	{0x3ff559098bed1bdf, 0x1.f15cdafe7d586p-55},
	{0x3ff56070dde910d2, -0x1.96be8ae89ef8fp-55},
	{0x3ff567dac1351819, -0x1.10aa91ae9b67fp-54},
	{0x3ff56f4736b527da, 0x1.3350518fdd78ep-54},
	{0x3ff576b63f4d854c, 0x1.57e1b67462375p-54},
	{0x3ff57e27dbe2c4cf, -0x1.8e6ac90348602p-55},
	{0x3ff5859c0d59ca07, 0x1.124d5051552a7p-55},
	{0x3ff58d12d497c7fd, 0x1.b98b72f8a9b05p-56},
	{0x3ff5948c32824135, -0x1.ca103952ecf1fp-60},
	{0x3ff59c0827ff07cc, -0x1.1af7f1365c3acp-54},
	{0x3ff5a386b5f43d92, 0x1.73345c02a4fd6p-56},
	{0x3ff5ab07dd485429, 0x1.063e1e21c5409p-54},
	{0x3ff5b28b9ee20d1e, -0x1.09d2a0fce20f2p-54},
	{0x3ff5ba11fba87a03, -0x1.43a3540d1898ap-54},
	{0x3ff5c19af482fc8f, -0x1.24f2cb4f81746p-54},
	{0x3ff5c9268a5946b7, 0x1.4c7855019c6eap-60},
	{0x3ff5d0b4be135acc, -0x1.43592a0a9846bp-54},
	{0x3ff5d84590998b93, -0x1.51f58ddaa8090p-54},
	{0x3ff5dfd902d47c65, -0x1.56bc85d444f4fp-54},
	{0x3ff5e76f15ad2148, 0x1.432e62b64c035p-54},
	{0x3ff5ef07ca0cbf0f, 0x1.14d1e4218319fp-54},
	{0x3ff5f6a320dceb71, -0x1.2e1648e50a17cp-55},
	{0x3ff5fe411b078d26, 0x1.71c93709313f4p-54},
	{0x3ff605e1b976dc09, -0x1.ce44a6199769fp-55},
	{0x3ff60d84fd15612a, 0x1.f88303b60d222p-56},
	{0x3ff6152ae6cdf6f4, 0x1.5f30eda98a575p-54},
	{0x3ff61cd3778bc944, 0x1.0125ca18d4b5bp-56},
	{0x3ff6247eb03a5585, -0x1.c33c53bef4da8p-55},
	{0x3ff62c2c91c56acd, 0x1.592ea73798b11p-54},
	{0x3ff633dd1d1929fd, 0x1.17ecda8a72159p-54},
	{0x3ff63b90532205d8, -0x1.371d6d7d75739p-54},
	{0x3ff6434634ccc320, -0x1.45378892be9aep-55},
	{0x3ff64afec30678b7, -0x1.ac05fd996f807p-55},
	{0x3ff652b9febc8fb7, -0x1.345f3cee1ae6ep-54},
	{0x3ff65a77e8dcc390, -0x1.1f5067d03653ap-54},
	{0x3ff6623882552225, -0x1.3cedd78565858p-54},
	{0x3ff669fbcc140be7, 0x1.17339c86ce3adp-54},
	{0x3ff671c1c70833f6, -0x1.5c33fdf910406p-55},
	{0x3ff6798a7420a036, -0x1.7e66065ba2500p-56},
	{0x3ff68155d44ca973, 0x1.710aa807e1964p-58},
	{0x3ff68923e87bfb7a, 0x1.64c827ee6b49ap-54},
	{0x3ff690f4b19e9538, 0x1.1079ab5789604p-55},
	{0x3ff698c830a4c8d4, -0x1.28311a3c73480p-54},
	{0x3ff6a09e667f3bcd, -0x1.3b3efbf5e2228p-54},
	{0x3ff6a877541ee718, 0x1.82c79e185e981p-55},
	{0x3ff6b052fa75173e, 0x1.27df161cd7778p-56},
	{0x3ff6b8315a736c75, -0x1.b48cea80b043bp-55},
	{0x3ff6c012750bdabf, -0x1.a12ad8734b982p-57},
	{0x3ff6c7f64b30aa09, -0x1.f4863bc8e5180p-59},
	{0x3ff6cfdcddd47645, 0x1.3f9924a05b767p-54},
	{0x3ff6d7c62dea2f8a, 0x1.54835dd4b7548p-54},
	{0x3ff6dfb23c651a2f, -0x1.367efb86da9eep-57},
	{0x3ff6e7a10a38cee8, -0x1.bf41f59b59f8ap-55},
	{0x3ff6ef9298593ae5, -0x1.7557939a8b5efp-55},
	{0x3ff6f786e7ba9fef, -0x1.f652fde52775cp-55},
	{0x3ff6ff7df9519484, -0x1.0dc3d54e08851p-55},
	{0x3ff70777ce1303f6, -0x1.b0300defbcf98p-56},
	{0x3ff70f7466f42e87, 0x1.1ed2f56fa9d1ap-58},
	{0x3ff71773c4eaa988, -0x1.9dab646035dc0p-55},
	{0x3ff71f75e8ec5f74, -0x1.81f647e5a3ecfp-56},
	{0x3ff7277ad3ef9011, -0x1.1f0c230588ddep-54},
	{0x3ff72f8286ead08a, -0x1.8e67a9006c909p-55},
	{0x3ff7378d02d50b8f, 0x1.106450507a28cp-54},
	{0x3ff73f9a48a58174, -0x1.6ee4ac08b7db0p-55},
	{0x3ff747aa5953c849, -0x1.129729a10f3a0p-54},
	{0x3ff74fbd35d7cbfd, 0x1.6597566977ac8p-55},
	{0x3ff757d2df29ce7c, 0x1.81a70a5124f67p-56},
	{0x3ff75feb564267c9, -0x1.619321e55e68ap-55},
	{0x3ff768069c1a861d, 0x1.41626ea62646dp-54},
	{0x3ff77024b1ab6e09, 0x1.2c0b7028a5c3ap-54},
	{0x3ff7784597eeba8f, -0x1.40b9f54365b7cp-54},
	{0x3ff780694fde5d3f, 0x1.09ccb5e09d4d3p-54},
	{0x3ff7888fda749e5d, 0x1.73455e0e826c1p-55},
	{0x3ff790b938ac1cf6, 0x1.a30faf49cc78cp-55},
	{0x3ff798e56b7fcf03, 0x1.4f006ad874e3ep-54},
	{0x3ff7a11473eb0187, -0x1.b32dcb94da51dp-56},
	{0x3ff7a94652e958aa, -0x1.f6d693d0973bbp-55},
	{0x3ff7b17b0976cfdb, -0x1.2dad3519d7b5bp-54},
	{0x3ff7b9b2988fb9ec, 0x1.8c5ee2b7e7848p-58},
	{0x3ff7c1ed0130c132, 0x1.4ecfd5467c06bp-54},
	{0x3ff7ca2a4456e7a3, -0x1.8b25e045d207bp-55},
	{0x3ff7d26a62ff86f0, 0x1.7d51410fd15c2p-55},
	{0x3ff7daad5e2850ac, -0x1.9cb3314060ca7p-57},
	{0x3ff7e2f336cf4e62, 0x1.5ebe1abd66c55p-57},
	{0x3ff7eb3bedf2e1b9, 0x1.7a0b15d19e0bbp-55},
	{0x3ff7f3878491c491, -0x1.60a3629969871p-56},
	{0x3ff7fbd5fbab091f, 0x1.4aa7212bfa73cp-54},
	{0x3ff80427543e1a12, -0x1.8a1c52fb3cf42p-55},
	{0x3ff80c7b8f4abaa9, -0x1.1e688272a8a12p-55},
	{0x3ff814d2add106d9, 0x1.b18c6e3fdef5dp-55},
	{0x3ff81d2cb0d1736a, 0x1.ab7b7112ec9d5p-59},
	{0x3ff82589994cce13, -0x1.369b6f13b3734p-54},
	{0x3ff82de968443d9a, 0x1.a1e274eed4476p-55},
	{0x3ff8364c1eb941f7, 0x1.0ec1ddcb1390ap-54},
	{0x3ff83eb1bdadb46d, 0x1.4a533a59324dap-54},
	{0x3ff8471a4623c7ad, -0x1.05e843a19ff1ep-55},
	{0x3ff84f85b91e07f1, 0x1.a56d2760d087dp-56},
	{0x3ff857f4179f5b21, -0x1.22cea4f3afa1ep-58},
	{0x3ff8606562ab00ec, 0x1.1682c1c6e8b05p-54},
	{0x3ff868d99b4492ed, -0x1.4d450d872576ep-54},
	{0x3ff87150c27004c2, 0x1.9ea99cf7a9591p-55},
	{0x3ff879cad931a436, 0x1.c88549b958471p-56},
	{0x3ff88247e08e1957, -0x1.9e57d8f92ff8ep-58},
	{0x3ff88ac7d98a6699, 0x1.0ad675b0e8a00p-54},
	{0x3ff8934ac52be8f7, 0x1.09b176e05a9cdp-54},
	{0x3ff89bd0a478580f, 0x1.31143962f7877p-54},
	{0x3ff8a4597875c644, 0x1.11607f1952c95p-56},
	{0x3ff8ace5422aa0db, 0x1.db72fc1f0eab4p-55},
	{0x3ff8b574029db01e, 0x1.69608f0f86431p-55},
	{0x3ff8be05bad61778, 0x1.3e9e96f112479p-54},
	{0x3ff8c69a6bdb5598, -0x1.f1ced15c5c5c0p-56},
	{0x3ff8cf3216b5448c, -0x1.5b6609cc5e7ffp-57},
	{0x3ff8d7ccbc6c19e6, 0x1.14b97be3f7b4ep-57},
	{0x3ff8e06a5e0866d9, -0x1.dac42a4a38df0p-55},
	{0x3ff8e90afc931857, 0x1.1c1701c359530p-55},
	{0x3ff8f1ae99157736, 0x1.bf68359f35f44p-56},
	{0x3ff8fa553499284b, -0x1.edb1bf6809287p-55},
	{0x3ff902fed0282c8a, 0x1.b99dd98b1ed84p-55},
	{0x3ff90bab6ccce12c, -0x1.ba58ce7a736d3p-55},
	{0x3ff9145b0b91ffc6, -0x1.3091fa71e3d83p-54},
	{0x3ff91d0dad829e70, -0x1.3fc025e1db9cep-54},
	{0x3ff925c353aa2fe2, -0x1.885ad50cbb750p-56},
	{0x3ff92e7bff148396, -0x1.d737c7d71382ep-55},
	{0x3ff93737b0cdc5e5, -0x1.da9b88b6c1e29p-58},
	{0x3ff93ff669e2802b, 0x1.ae88c43905293p-57},
	{0x3ff948b82b5f98e5, -0x1.2d5e85f3e0301p-55},
	{0x3ff9517cf65253d1, -0x1.3d1f7661fe51bp-54},
	{0x3ff95a44cbc8520f, -0x1.c23f97c90b959p-57},
	{0x3ff9630faccf9243, 0x1.51b68797ffc1cp-57},
	{0x3ff96bdd9a7670b3, -0x1.1669428996971p-58},
	{0x3ff974ae95cba768, 0x1.4579c5ceed70bp-58},
	{0x3ff97d829fde4e50, -0x1.2434322f4f9aap-54},
	{0x3ff98659b9bddb5b, 0x1.7298413381667p-55},
	{0x3ff98f33e47a22a2, 0x1.1f2b2c1c4c014p-56},
	{0x3ff9981121235681, -0x1.05000be64e965p-54},
	{0x3ff9a0f170ca07ba, -0x1.5ca6cd7668e4bp-55},
	{0x3ff9a9d4d47f2598, -0x1.9fb12e3454b73p-55},
	{0x3ff9b2bb4d53fe0d, -0x1.294f304f166b6p-54},
	{0x3ff9bba4dc5a3dd3, 0x1.be2a03697693bp-56},
	{0x3ff9c49182a3f090, 0x1.1affc2b91ce27p-56},
	{0x3ff9cd81414380f2, 0x1.0622b15810eeap-54},
	{0x3ff9d674194bb8d5, -0x1.a1e58414c07d3p-55},
	{0x3ff9df6a0bcfc15e, 0x1.9a5ecc875d327p-65},
	{0x3ff9e86319e32323, 0x1.dd235e10a73bbp-57},
	{0x3ff9f15f4499c647, 0x1.8ea486a3350efp-55},
	{0x3ff9fa5e8d07f29e, -0x1.9740b58a20091p-56},
	{0x3ffa0360f4424fcb, -0x1.a2ee551d4c40fp-56},
	{0x3ffa0c667b5de565, -0x1.7c50422622263p-55},
	{0x3ffa156f23701b15, 0x1.9c31f7e38028bp-55},
	{0x3ffa1e7aed8eb8bb, 0x1.165830a2b96c2p-54},
	{0x3ffa2789dacfe68c, -0x1.fac13f4e005a3p-58},
	{0x3ffa309bec4a2d33, 0x1.b1c86e3e231d5p-55},
	{0x3ffa39b1231475f7, 0x1.d8aced7162e89p-56},
	{0x3ffa42c980460ad8, -0x1.03d5cbe27874bp-54},
	{0x3ffa4be504f696b1, -0x1.48f50cea7269fp-55},
	{0x3ffa5503b23e255d, -0x1.1bbd1d3bcbb15p-54},
	{0x3ffa5e25893523d4, 0x1.21eb9a08a0542p-55},
	{0x3ffa674a8af46052, 0x1.986178980fce0p-58},
	{0x3ffa7072b8950a73, -0x1.133a953131cfdp-57},
	{0x3ffa799e1330b358, 0x1.0cc319cee31d2p-54},
	{0x3ffa82cc9be14dca, 0x1.9e95e6f4a0ae4p-55},
	{0x3ffa8bfe53c12e59, -0x1.9472975b1f2a5p-55},
	{0x3ffa95333beb0b7e, -0x1.0260cf07cb311p-54},
	{0x3ffa9e6b5579fdbf, 0x1.469846e735ab3p-55},
	{0x3ffaa7a6a1897fd2, 0x1.bca400a7b939dp-62},
	{0x3ffab0e521356eba, 0x1.d8157a34b7e7fp-56},
	{0x3ffaba26d59a09ee, 0x1.140bc34dfc19fp-54},
	{0x3ffac36bbfd3f37a, -0x1.2dfcd978e9db4p-55},
	{0x3ffaccb3e100301e, -0x1.c9b1da461ab87p-55},
	{0x3ffad5ff3a3c2774, 0x1.c8a4e231ebb7dp-55},
	{0x3ffadf4dcca5a413, 0x1.c115f23ebea8ep-55},
	{0x3ffae89f995ad3ad, 0x1.c1a7792cb3387p-55},
	{0x3ffaf1f4a17a4735, -0x1.dcab99f23f84ep-57},
	{0x3ffafb4ce622f2ff, -0x1.88c8d11a142e5p-55},
	{0x3ffb04a868742ee4, 0x1.0a43e8b7e4bfep-57},
	{0x3ffb0e07298db666, -0x1.07b8f4ad1d9fap-54},
	{0x3ffb17692a8fa8cd, 0x1.15b1397075f04p-54},
	{0x3ffb20ce6c9a8952, 0x1.89c2ea41433c7p-55},
	{0x3ffb2a36f0cf3f3a, -0x1.39f7a1f04d2b0p-55},
	{0x3ffb33a2b84f15fb, -0x1.5c3d956dcaebap-58},
	{0x3ffb3d11c43bbd62, -0x1.6a510f31e13e6p-55},
	{0x3ffb468415b749b1, -0x1.274aedac8ff80p-56},
	{0x3ffb4ff9ade433c6, -0x1.2887ea88e7340p-54},
	{0x3ffb59728de5593a, -0x1.0a40e3da6f640p-54},
	{0x3ffb62eeb6ddfc87, -0x1.e57ac604759bap-57},
	{0x3ffb6c6e29f1c52a, 0x1.5c620ce76df06p-55},
	{0x3ffb75f0e844bfc6, 0x1.e6c6db4f83226p-55},
	{0x3ffb7f76f2fb5e47, -0x1.8d6f438ad9334p-57},
	{0x3ffb89004b3a7804, -0x1.d1bf10460dba0p-55},
	{0x3ffb928cf22749e4, -0x1.fda52e1b51e41p-55},
	{0x3ffb9c1ce8e77680, 0x1.e5d80813dddfcp-55},
	{0x3ffba5b030a1064a, -0x1.1eee26b588a35p-54},
	{0x3ffbaf46ca7a67a7, 0x1.caff9640f2dcbp-55},
	{0x3ffbb8e0b79a6f1f, -0x1.2141a7b3e2cd8p-60},
	{0x3ffbc27df9285775, 0x1.a77557fd62db3p-56},
	{0x3ffbcc1e904bc1d2, 0x1.4ffd70a5fddcdp-56},
	{0x3ffbd5c27e2cb5e5, -0x1.51ba6128db749p-57},
	{0x3ffbdf69c3f3a207, -0x1.02899507554e5p-60},
	{0x3ffbe91462c95b60, -0x1.c0ffefdc5e251p-56},
	{0x3ffbf2c25bd71e09, -0x1.1bdfbfa9298acp-54},
	{0x3ffbfc73b0468d30, -0x1.b6cd058bfd6fap-55},
	{0x3ffc06286141b33d, -0x1.0dda2d4c0010cp-55},
	{0x3ffc0fe06ff301f4, 0x1.23759b8aca76dp-54},
	{0x3ffc199bdd85529c, 0x1.36eae30af0cb3p-56},
	{0x3ffc235aab23e61e, -0x1.95498a73dac7dp-55},
	{0x3ffc2d1cd9fa652c, -0x1.a007daadf8d68p-55},
	{0x3ffc36e26b34e065, 0x1.51de924583108p-55},
	{0x3ffc40ab5fffd07a, 0x1.ee3325c9ffd94p-55},
	{0x3ffc4a77b9881650, -0x1.c5fe4051ba06cp-55},
	{0x3ffc544778fafb22, 0x1.36909391181d3p-55},
	{0x3ffc5e1a9f8630ad, -0x1.d1816c0a9ac07p-57},
	{0x3ffc67f12e57d14b, 0x1.4e08fd10959acp-55},
	{0x3ffc71cb269e601f, -0x1.af5c67c4e8235p-56},
	{0x3ffc7ba88988c933, -0x1.11cd7dbdf9547p-55},
	{0x3ffc8589584661a1, -0x1.304ef0045d575p-55},
	{0x3ffc8f6d9406e7b5, 0x1.3cdaf384e1a67p-57},
	{0x3ffc99553dfa8313, 0x1.725f94f910375p-55},
	{0x3ffca3405751c4db, -0x1.ac28b7bef6621p-56},
	{0x3ffcad2ee13da7cb, 0x1.b53e99f9191e8p-56},
	{0x3ffcb720dcef9069, 0x1.76b2c6c921968p-57},
	{0x3ffcc1164b994d23, -0x1.10a79e6d7e2b8p-55},
	{0x3ffccb0f2e6d1675, -0x1.030587207b9e1p-56},
	{0x3ffcd50b869d8f0f, 0x1.40635f6d2a9c0p-55},
	{0x3ffcdf0b555dc3fa, -0x1.08a1883ccb5d2p-55},
	{0x3ffce90e9be12cb9, 0x1.49eeef9ec910cp-58},
	{0x3ffcf3155b5bab74, -0x1.cc734592af7fcp-55},
	{0x3ffcfd1f95018d17, -0x1.335827ffb9dcep-55},
	{0x3ffd072d4a07897c, -0x1.fad5d3ffffa6fp-55},
	{0x3ffd113e7ba2c38c, 0x1.45563980ef762p-57},
	{0x3ffd1b532b08c968, 0x1.7752a44f587e8p-55},
	{0x3ffd256b596f948c, -0x1.cd0205eb2aab2p-55},
	{0x3ffd2f87080d89f2, -0x1.00dae3875a949p-54},
	{0x3ffd39a638197a3c, -0x1.aab80ceab2b4ap-55},
	{0x3ffd43c8eacaa1d6, 0x1.5b66fefeef52ep-55},
	{0x3ffd4def2158a91f, -0x1.f870f40a8ba1bp-55},
	{0x3ffd5818dcfba487, 0x1.4a385a63d07a7p-56},
	{0x3ffd62461eec14be, 0x1.3c119f18464c5p-55},
	{0x3ffd6c76e862e6d3, 0x1.159d9d908a96ep-58},
	{0x3ffd76ab3a99745b, -0x1.a628c2be4e7c7p-58},
	{0x3ffd80e316c98398, -0x1.2919e2040220fp-55},
	{0x3ffd8b1e7e2d479d, -0x1.2550d76be719ap-56},
	{0x3ffd955d71ff6075, 0x1.c254d16117a68p-55},
	{0x3ffd9f9ff37adb4a, -0x1.2090274667d12p-55},
	{0x3ffda9e603db3285, 0x1.e5a50d5c192acp-55},
	{0x3ffdb42fa45c4dfd, 0x1.5f7d28150cac4p-56},
	{0x3ffdbe7cd63a8315, -0x1.d8c329fbd0e03p-55},
	{0x3ffdc8cd9ab294e4, 0x1.90de9296f4cd1p-55},
	{0x3ffdd321f301b460, 0x1.43a59ac016b4bp-55},
	{0x3ffddd79e065807d, 0x1.32ff9978b34bcp-55},
	{0x3ffde7d5641c0658, -0x1.ea6e6fbd5f2a6p-55},
	{0x3ffdf2347f63c159, -0x1.303b63dda1980p-56},
	{0x3ffdfc97337b9b5f, -0x1.2d52107b43e1fp-55},
	{0x3ffe06fd81a2ece1, -0x1.1f2ba385f2f95p-55},
	{0x3ffe11676b197d17, -0x1.3e8e3eab2cbb4p-57},
	{0x3ffe1bd4f11f8220, 0x1.68d9144ae12fcp-56},
	{0x3ffe264614f5a129, -0x1.92ab93b470dc9p-55},
	{0x3ffe30bad7dcee90, 0x1.53687f542403bp-55},
	{0x3ffe3b333b16ee12, -0x1.b7966cd0d2cd9p-55},
	{0x3ffe45af3fe592e8, -0x1.36ed2de40b407p-56},
	{0x3ffe502ee78b3ff6, 0x1.4b604603a88d3p-56},
	{0x3ffe5ab2334ac7ee, -0x1.14ef56c770f3bp-57},
	{0x3ffe653924676d76, -0x1.76caa4c2ff1cfp-56},
	{0x3ffe6fc3bc24e350, 0x1.df7d1353d8e88p-55},
	{0x3ffe7a51fbc74c83, 0x1.3c5ec519d7271p-55},
	{0x3ffe84e3e4933c7e, -0x1.50bed64091b8ap-55},
	{0x3ffe8f7977cdb740, -0x1.1d5fc525d9940p-55},
	{0x3ffe9a12b6bc3181, 0x1.9d852381c317fp-55},
	{0x3ffea4afa2a490da, -0x1.ff7128fd391f0p-55},
	{0x3ffeaf503ccd2be5, 0x1.8a00e3cca04c4p-57},
	{0x3ffeb9f4867cca6e, 0x1.55cd8aaea3d21p-55},
	{0x3ffec49c80faa594, -0x1.a1f25ce94cae7p-58},
	{0x3ffecf482d8e67f1, -0x1.dae98e223747dp-55},
	{0x3ffed9f78d802dc2, -0x1.fb5f3ee307976p-57},
	{0x3ffee4aaa2188510, 0x1.269947c2bed4ap-55},
	{0x3ffeef616ca06dd6, 0x1.37e8ae802b851p-56},
	{0x3ffefa1bee615a27, 0x1.ec3bc41aa2008p-55},
	{0x3fff04da28a52e59, 0x1.75119560e34afp-55},
	{0x3fff0f9c1cb6412a, -0x1.3b6137e9afe9ep-55},
	{0x3fff1a61cbdf5be7, -0x1.431c3840929c6p-56},
	{0x3fff252b376bba97, 0x1.42b94c3a9eb32p-55},
	{0x3fff2ff860a70c22, -0x1.cb472d2e86b99p-55},
	{0x3fff3ac948dd7274, -0x1.9fa74878ba7c7p-57},
	{0x3fff459df15b82ac, 0x1.3f5df2fde16a8p-55},
	{0x3fff50765b6e4540, 0x1.a64a931d185eep-55},
	{0x3fff5b5288633625, 0x1.eef18336b62e3p-55},
	{0x3fff6632798844f8, 0x1.01f3a75ee0efep-54},
	{0x3fff7116302bd526, 0x1.0d23f87b50a2ap-55},
	{0x3fff7bfdad9cbe14, -0x1.e37bae43be3edp-55},
	{0x3fff86e8f32a4b45, 0x1.302dee657c8e6p-55},
	{0x3fff91d802243c89, -0x1.16a9ce6ed84fap-58},
	{0x3fff9ccadbdac61d, -0x1.b0caa080df170p-56},
	{0x3fffa7c1819e90d8, 0x1.7893b4d91cd9dp-56},
	{0x3fffb2bbf4c0ba54, 0x1.617a9f2fd24e5p-56},
	{0x3fffbdba3692d514, -0x1.99c7db2effc76p-57},
	{0x3fffc8bc4866e8ad, 0x1.5f103b8fd5ca7p-56},
	{0x3fffd3c22b8f71f1, 0x1.305c14160cc89p-58},
	{0x3fffdecbe15f6314, 0x1.e70b094fa075ap-55},
	{0x3fffe9d96b2a23d9, 0x1.4b458677f9840p-57},
	{0x3ffff4eaca4391b6, -0x1.2ec9a3e5d680ap-56},
}
