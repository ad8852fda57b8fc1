package crand

import (
	"fmt"
	"strings"
)

// SeedTerms is the derivation of a competition seed, term by term, so that
// anyone can check it.
type SeedTerms struct {
	Entrants []uint32
	Sum      uint64 // of the entrants' numbers
	SumMod   uint64 // Sum modulo 2^30
	NYSE     string // the opening value as published
	NYSETerm uint64 // its integer part (2014, 2018) or that of 100 times it (2022)
	Seed     uint32 // SumMod + NYSETerm, given to srandom()
}

// CompetitionSeed derives the seed as the rules of a year say: the sum,
// modulo 2^30, of the 32-bit numbers the entrants (other than the
// organizers) submitted, plus the integer part of the opening value of the
// NYSE Composite Index (2014, 2018) or of one hundred times it (2022 and
// later). The index value is read as a decimal string, so that 100 times
// it is exact.
func CompetitionSeed(year int, entrants []uint32, nyse string) (SeedTerms, error) {
	t := SeedTerms{Entrants: entrants, NYSE: nyse}
	for _, e := range entrants {
		t.Sum += uint64(e)
	}
	t.SumMod = t.Sum % (1 << 30)
	shift := 0
	if year >= 2019 {
		shift = 2 // "one hundred times"
	}
	v, err := scaledInt(nyse, shift)
	if err != nil {
		return t, err
	}
	t.NYSETerm = v
	s := t.SumMod + t.NYSETerm
	if s > 1<<32-1 {
		return t, fmt.Errorf("seed %d does not fit srandom's 32 bits", s)
	}
	t.Seed = uint32(s)
	return t, nil
}

// scaledInt returns the integer part of a non-negative decimal times
// 10^shift.
func scaledInt(dec string, shift int) (uint64, error) {
	dec = strings.TrimSpace(dec)
	whole, frac, _ := strings.Cut(dec, ".")
	if whole == "" {
		whole = "0"
	}
	for len(frac) < shift {
		frac += "0"
	}
	digits := whole + frac[:shift]
	var v uint64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("NYSE value %q is not a decimal number", dec)
		}
		v = v*10 + uint64(c-'0')
		if v > 1<<40 {
			return 0, fmt.Errorf("NYSE value %q is too large", dec)
		}
	}
	for _, c := range frac {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("NYSE value %q is not a decimal number", dec)
		}
	}
	return v, nil
}
