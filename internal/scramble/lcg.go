package scramble

// lcg is the official scrambler's pseudo-random generator: a 64-bit linear
// congruential generator with the multiplier and increment of java.util.Random,
// whose state is masked with ^(2<<48) (which clears bit 49 only) after each
// step. A draw below n is the state shifted right by 16, modulo n.
type lcg struct{ state uint64 }

const (
	lcgMul  = 25214903917
	lcgAdd  = 11
	lcgMask = ^uint64(2 << 48)
)

// next returns a draw in [0, n); n must be positive.
func (r *lcg) next(n uint64) uint64 {
	r.state = (r.state*lcgMul + lcgAdd) & lcgMask
	return (r.state >> 16) % n
}

// shuffle permutes v as the official shuffle_list does: Fisher-Yates from the
// top, the element at i swapped with one drawn from [0, i].
func (r *lcg) shuffle(v []uint32) {
	for i := len(v) - 1; i > 0; i-- {
		j := r.next(uint64(i) + 1)
		v[i], v[j] = v[j], v[i]
	}
}
