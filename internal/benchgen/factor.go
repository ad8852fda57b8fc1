package benchgen

import (
	"fmt"
	"io"
	"math/big"
	"math/rand/v2"

	"github.com/smtarena/smtarena/internal/benchmark"
)

// FactorOptions shape a bit-vector factoring benchmark.
type FactorOptions struct {
	// Width is the width of the factors p and q, 2 to 32; the product is
	// computed on 2*Width bits, after zero extension, so it cannot
	// overflow.
	Width int
	Seed  uint64
	// Unsat makes N a random prime of 2*Width bits; otherwise N is the
	// product of two random primes of Width bits.
	Unsat bool
}

// Status is unsat when N is prime.
func (o FactorOptions) Status() benchmark.Status { return statusOf(!o.Unsat) }

// Factor writes a QF_BV benchmark asking for p, q > 1 with p * q = N.
func Factor(w io.Writer, o FactorOptions) error {
	if o.Width < 2 || o.Width > 32 {
		return fmt.Errorf("factor: width %d is not in 2..32", o.Width)
	}
	r := rand.New(rand.NewPCG(o.Seed, 0xfac7))
	var n uint64
	var why string
	if o.Unsat {
		n = randomPrime(r, 2*o.Width)
		why = fmt.Sprintf("Unsatisfiable: %d is prime.", n)
	} else {
		p, q := randomPrime(r, o.Width), randomPrime(r, o.Width)
		n = p * q
		why = fmt.Sprintf("Satisfiable: %d = %d * %d.", n, min(p, q), max(p, q))
	}
	e := newEmitter(w)
	e.header("QF_BV", benchmark.Crafted, o.Status(),
		fmt.Sprintf("Factoring: p * q = %d with p, q > 1 of %d bits, multiplied on %d bits after zero extension.", n, o.Width, 2*o.Width), why)
	sort := fmt.Sprintf("(_ BitVec %d)", o.Width)
	e.str("(declare-fun p () " + sort + ")\n(declare-fun q () " + sort + ")\n")
	one := fmt.Sprintf("(_ bv1 %d)", o.Width)
	e.str("(assert (bvugt p " + one + "))\n(assert (bvugt q " + one + "))\n")
	ext := fmt.Sprintf("(_ zero_extend %d)", o.Width)
	e.str(fmt.Sprintf("(assert (= (bvmul (%s p) (%s q)) (_ bv%d %d)))\n", ext, ext, n, 2*o.Width))
	e.checkSat(true)
	return e.done()
}

// randomPrime returns a random prime with exactly bits bits (2 <= bits <= 64).
func randomPrime(r *rand.Rand, bits int) uint64 {
	lo := uint64(1) << (bits - 1)
	var v big.Int
	for {
		c := lo | r.Uint64N(lo)
		if bits > 2 {
			c |= 1
		}
		// ProbablyPrime is exact below 2^64 (Baillie-PSW).
		if v.SetUint64(c).ProbablyPrime(0) {
			return c
		}
	}
}
