package smtlib

import "strings"

// Arith is the arithmetic fragment a logic allows.
type Arith uint8

// The arithmetic fragments, from none to nonlinear.
const (
	ArithNone       Arith = iota
	ArithDifference       // IDL, RDL: atoms (op (- x y) c) and the like
	ArithLinear           // LIA, LRA, LIRA: multiplication by constants only
	ArithNonlinear        // NIA, NRA, NIRA
)

func (a Arith) String() string {
	return [...]string{"none", "difference logic", "linear", "nonlinear"}[a]
}

// Logic is what an SMT-LIB logic name says: which theories, whether
// quantifiers and free symbols are allowed, which arithmetic. SMT-LIB names
// its logics by concatenating these parts (QF_, A, UF, BV, FP, DT, S, then
// IDL, RDL, LIA, LRA, LIRA, NIA, NRA, NIRA), so Logic is read from the name
// rather than from a list that would lag behind new logics.
type Logic struct {
	Name        string
	Known       bool // the name follows the convention; otherwise all theories are allowed
	Quantifiers bool
	UF          bool // free function symbols and free sorts
	FreeSorts   bool // free sorts (UF, AX and DT logics)
	Arrays      bool
	BitVectors  bool
	Floats      bool
	Datatypes   bool
	Strings     bool
	Ints        bool
	Reals       bool
	Arith       Arith
}

// logicParts are the components of a logic name, longest first where one is
// a prefix of another.
var logicParts = []string{"LIRA", "NIRA", "IDL", "RDL", "LIA", "LRA", "NIA", "NRA", "AX", "UF", "BV", "FP", "DT", "A", "S"}

// ParseLogic decomposes a logic name. For ALL, and for names it cannot read
// (Known false), every theory is allowed.
func ParseLogic(name string) Logic {
	l := Logic{Name: name}
	rest, qf := strings.CutPrefix(name, "QF_")
	l.Quantifiers = !qf
	if rest == "ALL" {
		all := allTheories(name)
		all.Quantifiers = !qf
		return all
	}
	if rest == "" {
		return allTheories(name)
	}
	seen := map[string]bool{}
	for rest != "" {
		part := ""
		for _, p := range logicParts {
			if strings.HasPrefix(rest, p) {
				part = p
				break
			}
		}
		if part == "" || seen[part] {
			return allTheories(name)
		}
		seen[part] = true
		rest = rest[len(part):]
		switch part {
		case "A":
			l.Arrays = true
		case "AX":
			l.Arrays, l.FreeSorts = true, true
		case "UF":
			l.UF, l.FreeSorts = true, true
		case "BV":
			l.BitVectors = true
		case "FP":
			l.Floats = true
		case "DT":
			l.Datatypes, l.FreeSorts = true, true
		case "S":
			// QF_S uses integers for lengths and indices.
			l.Strings, l.Ints = true, true
			if l.Arith == ArithNone {
				l.Arith = ArithLinear
			}
		default:
			if l.Arith != ArithNone && !(part[1:] == "IA" && l.Strings) {
				return allTheories(name)
			}
			l.Ints = strings.Contains(part, "I")
			l.Reals = strings.Contains(part, "R") && part != "NIA"
			switch part[0] {
			case 'N':
				l.Arith = ArithNonlinear
			case 'L':
				l.Arith = ArithLinear
			default:
				l.Arith = ArithDifference
				l.Ints, l.Reals = part == "IDL", part == "RDL"
			}
			if part == "LIA" || part == "NIA" {
				l.Reals = false
			}
			if part == "LRA" || part == "NRA" {
				l.Ints = false
			}
		}
	}
	l.Known = true
	return l
}

func allTheories(name string) Logic {
	return Logic{Name: name, Known: name == "ALL" || name == "QF_ALL", Quantifiers: true, UF: true,
		FreeSorts: true, Arrays: true, BitVectors: true, Floats: true, Datatypes: true,
		Strings: true, Ints: true, Reals: true, Arith: ArithNonlinear}
}

// has reports whether the logic includes theory th.
func (l Logic) has(th Theory) bool {
	switch th {
	case TheoryCore:
		return true
	case TheoryInts:
		return l.Ints
	case TheoryReals:
		return l.Reals
	case TheoryRealsInts:
		return l.Ints && l.Reals
	case TheoryBitVectors:
		return l.BitVectors
	case TheoryArrays:
		return l.Arrays
	case TheoryFloats:
		return l.Floats
	case TheoryStrings:
		return l.Strings
	case TheoryDatatypes:
		return l.Datatypes
	case TheoryUF:
		return l.UF
	}
	return false
}
