package kernels

import "math"

// A pure-Go e^x for x ≤ 0, the range of the Gaussian kernel, about twice
// as fast as math.Exp (BenchmarkExp) and within 0.51 ulp of the exact
// value where the result is a normal float64.
//
// Method (Tang, "Table-driven implementation of the exponential function
// in IEEE floating-point arithmetic", 1989): with N = 128,
//
//	x = (N·e + j)·ln2/N + r,   0 ≤ j < N,   |r| ≤ ln2/(2N) ≈ 0.0027,
//	e^x = 2^e · 2^(j/N) · e^r.
//
// k = N·e + j is the integer nearest to x·N/ln2, rounded by adding
// 1.5·2⁵², which leaves 2⁵¹ + k in the low 52 bits of the sum: its low 7
// bits are j, and the bits above them shifted to the exponent field add
// e to it (modulo 2⁶⁴, the 2⁵¹ falls off), so no integer k is formed. r is
// computed with ln2/N in two parts (Cody and Waite), the first with 32
// significant bits so that k times it is exact, which makes r accurate to
// far below an ulp of the result. 2^(j/N) is a table entry T_j, the
// nearest float64, with its relative error t_j = (2^(j/N) − T_j)/T_j
// (|t_j| < 2⁻⁵³) stored beside it and added to r: T_j·e^(r + t_j) differs
// from 2^(j/N)·e^r by less than t_j²/2 relative. e^ρ − 1 for ρ = r + t_j
// is its Taylor polynomial of degree 5, whose remainder ρ⁶/720 is below
// 6e-19 relative (0.005 ulp), evaluated in two halves of two terms each to
// shorten the dependency chain. The result is s + s·p with s = T_j·2^e
// (exponent bits added to T_j's): one rounding of a sum whose second term
// is below 0.003·s. Hence the error bound for a normal result: 0.5 ulp for
// that rounding, plus about 0.01 ulp for the rest — at most 0.51 ulp
// (TestExpNeg measures it against a 200-bit reference: 0.506).
//
// Underflow. For x ≥ −700 (expNormalArg) e ≥ −1010, so s is normal, and
// s·p is either normal or below 2⁻¹⁰²², where rounding it to the
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
// (up to about 580 they are still right, beyond that they are not).

const (
	expTableBits = 7
	expN         = 1 << expTableBits
	// expShift rounds x·N/ln2 to an integer: adding it to a value of
	// magnitude below 2⁵¹ leaves a float64 in [2⁵², 2⁵³), whose spacing is 1.
	expShift   = 0x1.8p52
	expInvLn2N = expN / math.Ln2
	// ln2/N in two parts: the high one has 32 significant bits, so that k
	// times it is exact for |k| < 2²¹ (x ≥ −746 gives |k| ≤ 137,761).
	expLn2HiN = 0x1.62e42feep-1 / expN
	expLn2LoN = 0x1.a39ef35793c76p-33 / expN
	// expNormalArg: from it up, e ≥ −1010 (ln 2⁻¹⁰¹⁰ = −700.09…).
	expNormalArg = -700
	// expZeroArg: below it e^x < 2⁻¹⁰⁷⁵ (ln 2⁻¹⁰⁷⁵ = −745.1332…) rounds to 0.
	expZeroArg = -745.2
	// Below expNormalArg s is T_j·2^(e+expScaleBias), at least 2⁻⁹⁵⁰ for
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
	expC5 = 1.0 / 120
)

// expNeg sets x[i] = e^x[i] for every i, each x[i] ≤ 0 or NaN (see above):
// within 0.51 ulp of the exact value for results of at least 2⁻¹⁰²², 1 ulp
// below (subnormal results); exactly 1 at ±0. The loop body is the whole
// algorithm for normal results (expReduce and expScale are inlined), so
// that there is no call per element.
func expNeg(x []float64) {
	for i, v := range x {
		if !(v >= expNormalArg) { // a result near or below 2⁻¹⁰²², −Inf, or NaN
			x[i] = expNegSmall(v)
			continue
		}
		r, u := expReduce(v)
		x[i] = expScale(r, u, 0)
	}
}

// expNegSmall returns e^v for v < expNormalArg or NaN: 0 below expZeroArg,
// NaN for NaN, otherwise T_j·2^(e+128)·e^ρ rounded, then scaled by 2⁻¹²⁸.
func expNegSmall(v float64) float64 {
	if !(v >= expZeroArg) { // a result that rounds to 0, −Inf, or NaN
		if v != v {
			return v
		}
		return 0
	}
	r, u := expReduce(v)
	return expScale(r, u, expScaleBias) * expUnbias
}

// expReduce splits v ≥ −746: r = v − k·ln2/N (|r| ≤ ln2/(2N) up to
// rounding) and the bits u of k + 1.5·2⁵² as a float64, which hold
// 2⁵¹ + k in their low 52 bits.
func expReduce(v float64) (r float64, u uint64) {
	kd := v*expInvLn2N + expShift
	u = math.Float64bits(kd)
	kd -= expShift // k as a float64
	return v - kd*expLn2HiN - kd*expLn2LoN, u
}

// expScale returns T_j·2^(e+b)·e^ρ, rounded once: ρ = r + t_j, with j and
// e from u (see expReduce); 2^(e+b) must be normal. e^ρ − 1 is the Taylor
// polynomial p, and the result s + s·p with s = T_j·2^(e+b), formed by
// adding e + b to T_j's exponent field (modulo 2⁶⁴ where e + b < 0):
// (u >> 7) << 52 is e << 52, the 2⁵¹ and the exponent bits of u falling
// off the top.
func expScale(r float64, u, b uint64) float64 {
	t := &expTable[u&(expN-1)]
	r += t.tail
	r2 := r * r
	p := r + r2*(expC2+r*expC3) + r2*r2*(expC4+r*expC5)
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
	{0x3ff0163da9fb3335, 0x1.b3b4f1a88bf6ep-54},
	{0x3ff02c9a3e778061, -0x1.160139cd8dc5dp-56},
	{0x3ff04315e86e7f85, -0x1.05e7a108766d1p-54},
	{0x3ff059b0d3158574, 0x1.cd2523567f613p-55},
	{0x3ff0706b29ddf6de, -0x1.bce8023f98efap-55},
	{0x3ff0874518759bc8, 0x1.0f74e61e6c861p-57},
	{0x3ff09e3ecac6f383, 0x1.0a3e45b33d399p-54},
	{0x3ff0b5586cf9890f, 0x1.79aa65d837b6dp-54},
	{0x3ff0cc922b7247f7, 0x1.eb51a92fdeffcp-55},
	{0x3ff0e3ec32d3d1a2, 0x1.ebe3d702f9cd1p-60},
	{0x3ff0fb66affed31b, -0x1.a033489906e0bp-57},
	{0x3ff11301d0125b51, -0x1.556522a2fbd0ep-54},
	{0x3ff12abdc06c31cc, -0x1.080ef8c4eea55p-58},
	{0x3ff1429aaea92de0, -0x1.1c923b9d5f416p-54},
	{0x3ff15a98c8a58e51, 0x1.0d3e3e95c55afp-55},
	{0x3ff172b83c7d517b, -0x1.01b15eaa59348p-55},
	{0x3ff18af9388c8dea, -0x1.f1ff055de323dp-55},
	{0x3ff1a35beb6fcb75, 0x1.b898c3f1353bfp-55},
	{0x3ff1bbe084045cd4, -0x1.6d99c7611eb26p-54},
	{0x3ff1d4873168b9aa, 0x1.aecf73e3a2f60p-54},
	{0x3ff1ed5022fcd91d, -0x1.fe782cb86389dp-55},
	{0x3ff2063b88628cd6, 0x1.a6f4144a6c38dp-55},
	{0x3ff21f49917ddc96, 0x1.07a05b0e4047dp-55},
	{0x3ff2387a6e756238, 0x1.68efde3a8a894p-54},
	{0x3ff251ce4fb2a63f, 0x1.75e18f274487dp-55},
	{0x3ff26b4565e27cdd, 0x1.0472b981fe7f2p-55},
	{0x3ff284dfe1f56381, -0x1.6b87b3f71085ep-54},
	{0x3ff29e9df51fdee1, 0x1.2f7e16d09ab31p-55},
	{0x3ff2b87fd0dad990, -0x1.d219b1a6fbffap-60},
	{0x3ff2d285a6e4030b, 0x1.b3782720c0ab4p-55},
	{0x3ff2ecafa93e2f56, 0x1.e149289cecb8fp-57},
	{0x3ff306fe0a31b715, 0x1.34d754db0abb6p-55},
	{0x3ff32170fc4cd831, 0x1.64201e2ac744cp-55},
	{0x3ff33c08b26416ff, 0x1.fdd395dd3f84ap-55},
	{0x3ff356c55f929ff1, -0x1.6a3803b8e5b04p-55},
	{0x3ff371a7373aa9cb, -0x1.24aedcc4b5068p-54},
	{0x3ff38cae6d05d866, -0x1.907f81b512d8ep-54},
	{0x3ff3a7db34e59ff7, -0x1.1d1e83e9436d2p-56},
	{0x3ff3c32dc313a8e5, -0x1.91919b3ce1b15p-54},
	{0x3ff3dea64c123422, 0x1.59f48a72a4c6dp-55},
	{0x3ff3fa4504ac801c, -0x1.312607a28698ap-54},
	{0x3ff4160a21f72e2a, -0x1.8a78f4817895bp-58},
	{0x3ff431f5d950a897, -0x1.c2c9b67499a1bp-56},
	{0x3ff44e086061892d, 0x1.363ed60c2ac11p-59},
	{0x3ff46a41ed1d0057, 0x1.666093b0664efp-54},
	{0x3ff486a2b5c13cd0, 0x1.ecce1daa10379p-57},
	{0x3ff4a32af0d7d3de, 0x1.3ff8e3f0f1230p-54},
	{0x3ff4bfdad5362a27, 0x1.690cebb7aafb0p-56},
	{0x3ff4dcb299fddd0d, 0x1.31dbdeb54e077p-54},
	{0x3ff4f9b2769d2ca7, -0x1.f94340071a38ep-55},
	{0x3ff516daa2cf6642, -0x1.7deccdc93a349p-55},
	{0x3ff5342b569d4f82, -0x1.8dec6bd0f385fp-56},
	{0x3ff551a4ca5d920f, -0x1.61246ec7b5cf6p-55},
	{0x3ff56f4736b527da, 0x1.3350518fdd78ep-54},
	{0x3ff58d12d497c7fd, 0x1.b98b72f8a9b05p-56},
	{0x3ff5ab07dd485429, 0x1.063e1e21c5409p-54},
	{0x3ff5c9268a5946b7, 0x1.4c7855019c6eap-60},
	{0x3ff5e76f15ad2148, 0x1.432e62b64c035p-54},
	{0x3ff605e1b976dc09, -0x1.ce44a6199769fp-55},
	{0x3ff6247eb03a5585, -0x1.c33c53bef4da8p-55},
	{0x3ff6434634ccc320, -0x1.45378892be9aep-55},
	{0x3ff6623882552225, -0x1.3cedd78565858p-54},
	{0x3ff68155d44ca973, 0x1.710aa807e1964p-58},
	{0x3ff6a09e667f3bcd, -0x1.3b3efbf5e2228p-54},
	{0x3ff6c012750bdabf, -0x1.a12ad8734b982p-57},
	{0x3ff6dfb23c651a2f, -0x1.367efb86da9eep-57},
	{0x3ff6ff7df9519484, -0x1.0dc3d54e08851p-55},
	{0x3ff71f75e8ec5f74, -0x1.81f647e5a3ecfp-56},
	{0x3ff73f9a48a58174, -0x1.6ee4ac08b7db0p-55},
	{0x3ff75feb564267c9, -0x1.619321e55e68ap-55},
	{0x3ff780694fde5d3f, 0x1.09ccb5e09d4d3p-54},
	{0x3ff7a11473eb0187, -0x1.b32dcb94da51dp-56},
	{0x3ff7c1ed0130c132, 0x1.4ecfd5467c06bp-54},
	{0x3ff7e2f336cf4e62, 0x1.5ebe1abd66c55p-57},
	{0x3ff80427543e1a12, -0x1.8a1c52fb3cf42p-55},
	{0x3ff82589994cce13, -0x1.369b6f13b3734p-54},
	{0x3ff8471a4623c7ad, -0x1.05e843a19ff1ep-55},
	{0x3ff868d99b4492ed, -0x1.4d450d872576ep-54},
	{0x3ff88ac7d98a6699, 0x1.0ad675b0e8a00p-54},
	{0x3ff8ace5422aa0db, 0x1.db72fc1f0eab4p-55},
	{0x3ff8cf3216b5448c, -0x1.5b6609cc5e7ffp-57},
	{0x3ff8f1ae99157736, 0x1.bf68359f35f44p-56},
	{0x3ff9145b0b91ffc6, -0x1.3091fa71e3d83p-54},
	{0x3ff93737b0cdc5e5, -0x1.da9b88b6c1e29p-58},
	{0x3ff95a44cbc8520f, -0x1.c23f97c90b959p-57},
	{0x3ff97d829fde4e50, -0x1.2434322f4f9aap-54},
	{0x3ff9a0f170ca07ba, -0x1.5ca6cd7668e4bp-55},
	{0x3ff9c49182a3f090, 0x1.1affc2b91ce27p-56},
	{0x3ff9e86319e32323, 0x1.dd235e10a73bbp-57},
	{0x3ffa0c667b5de565, -0x1.7c50422622263p-55},
	{0x3ffa309bec4a2d33, 0x1.b1c86e3e231d5p-55},
	{0x3ffa5503b23e255d, -0x1.1bbd1d3bcbb15p-54},
	{0x3ffa799e1330b358, 0x1.0cc319cee31d2p-54},
	{0x3ffa9e6b5579fdbf, 0x1.469846e735ab3p-55},
	{0x3ffac36bbfd3f37a, -0x1.2dfcd978e9db4p-55},
	{0x3ffae89f995ad3ad, 0x1.c1a7792cb3387p-55},
	{0x3ffb0e07298db666, -0x1.07b8f4ad1d9fap-54},
	{0x3ffb33a2b84f15fb, -0x1.5c3d956dcaebap-58},
	{0x3ffb59728de5593a, -0x1.0a40e3da6f640p-54},
	{0x3ffb7f76f2fb5e47, -0x1.8d6f438ad9334p-57},
	{0x3ffba5b030a1064a, -0x1.1eee26b588a35p-54},
	{0x3ffbcc1e904bc1d2, 0x1.4ffd70a5fddcdp-56},
	{0x3ffbf2c25bd71e09, -0x1.1bdfbfa9298acp-54},
	{0x3ffc199bdd85529c, 0x1.36eae30af0cb3p-56},
	{0x3ffc40ab5fffd07a, 0x1.ee3325c9ffd94p-55},
	{0x3ffc67f12e57d14b, 0x1.4e08fd10959acp-55},
	{0x3ffc8f6d9406e7b5, 0x1.3cdaf384e1a67p-57},
	{0x3ffcb720dcef9069, 0x1.76b2c6c921968p-57},
	{0x3ffcdf0b555dc3fa, -0x1.08a1883ccb5d2p-55},
	{0x3ffd072d4a07897c, -0x1.fad5d3ffffa6fp-55},
	{0x3ffd2f87080d89f2, -0x1.00dae3875a949p-54},
	{0x3ffd5818dcfba487, 0x1.4a385a63d07a7p-56},
	{0x3ffd80e316c98398, -0x1.2919e2040220fp-55},
	{0x3ffda9e603db3285, 0x1.e5a50d5c192acp-55},
	{0x3ffdd321f301b460, 0x1.43a59ac016b4bp-55},
	{0x3ffdfc97337b9b5f, -0x1.2d52107b43e1fp-55},
	{0x3ffe264614f5a129, -0x1.92ab93b470dc9p-55},
	{0x3ffe502ee78b3ff6, 0x1.4b604603a88d3p-56},
	{0x3ffe7a51fbc74c83, 0x1.3c5ec519d7271p-55},
	{0x3ffea4afa2a490da, -0x1.ff7128fd391f0p-55},
	{0x3ffecf482d8e67f1, -0x1.dae98e223747dp-55},
	{0x3ffefa1bee615a27, 0x1.ec3bc41aa2008p-55},
	{0x3fff252b376bba97, 0x1.42b94c3a9eb32p-55},
	{0x3fff50765b6e4540, 0x1.a64a931d185eep-55},
	{0x3fff7bfdad9cbe14, -0x1.e37bae43be3edp-55},
	{0x3fffa7c1819e90d8, 0x1.7893b4d91cd9dp-56},
	{0x3fffd3c22b8f71f1, 0x1.305c14160cc89p-58},
}
