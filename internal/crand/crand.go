package crand

// The parameters of glibc's TYPE_3 generator: x^31 + x^3 + 1.
const (
	deg = 31
	sep = 3
)

// Rand is one generator, as after srandom(seed).
type Rand struct {
	state      [deg]int32
	fptr, rptr int
}

// New returns a generator seeded as srandom(seed) seeds the C one.
func New(seed uint32) *Rand {
	r := &Rand{}
	r.Seed(seed)
	return r
}

// Seed reseeds the generator as srandom(seed) does.
func (r *Rand) Seed(seed uint32) {
	if seed == 0 {
		seed = 1
	}
	r.state[0] = int32(seed)
	word := int64(int32(seed))
	for i := 1; i < deg; i++ {
		// 16807 * word % 2147483647 without overflow (Schrage), with C's
		// truncating division, as glibc writes it.
		hi := word / 127773
		lo := word % 127773
		word = 16807*lo - 2836*hi
		if word < 0 {
			word += 2147483647
		}
		r.state[i] = int32(word)
	}
	r.fptr, r.rptr = sep, 0
	for i := 0; i < 10*deg; i++ {
		r.Random()
	}
}

// Random returns the next number in [0, 2^31), as random() does.
func (r *Rand) Random() int32 {
	val := uint32(r.state[r.fptr]) + uint32(r.state[r.rptr])
	r.state[r.fptr] = int32(val)
	r.fptr++
	if r.fptr >= deg {
		r.fptr = 0
		r.rptr++
	} else {
		r.rptr++
		if r.rptr >= deg {
			r.rptr = 0
		}
	}
	return int32(val >> 1)
}
