package model

import (
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// vkind is the representation of a value.
type vkind uint8

const (
	vUndef vkind = iota // not determined by the model: p is an *undef
	vBool               // n is 0 or 1
	vInt                // n, or b when it does not fit in an int64
	vReal               // r
	vBV                 // n (width <= 64, as uint64 bits) or b (wider)
	vFP                 // p is an *fpVal
	vRM                 // n is the rounding mode
	vArray              // p is an *arrayVal
	vAbs                // an abstract value of an uninterpreted sort: p is an *absVal
	vDT                 // p is a *dtVal
)

// value is what a term evaluates to, with its sort.
type value struct {
	k vkind
	s sortID
	n int64
	b *big.Int
	r *big.Rat
	p any
}

// undef says why a value is not determined. A value that SMT-LIB leaves
// unspecified (a division by zero, fp.to_real of an infinity) is still one
// fixed value for the same arguments: ident names that application
// ("fp.to_real (_ +oo 3 5)"), so that two of them are equal.
type undef struct {
	reason Reason
	detail string
	ident  string
}

// unspecified is the value of a partial function where SMT-LIB does not
// specify it and the model does not give it.
func unspecified(ident, detail string) value {
	return value{k: vUndef, p: &undef{reason: ReasonPartialFunction, detail: detail, ident: ident}}
}

type absVal struct{ name string }

type dtVal struct {
	ctor string
	c    *ctorInfo
	args []value
}

// arrayVal is an array as a table over a default, or as a function
// (z3's as-array and lambda) when fn is set.
type arrayVal struct {
	def     value
	keys    []string // insertion order, for printing
	entries map[string]arrayEntry
	fn      *closure
}

type arrayEntry struct{ idx, val value }

func boolVal(b bool) value {
	if b {
		return value{k: vBool, s: sortBool, n: 1}
	}
	return value{k: vBool, s: sortBool}
}

// derived is the undefined value of an application to undefined v: not
// the same unspecified application as v ((+ (div x 0) 1) is not (div x
// 0)), so without its ident.
func (v value) derived() value {
	if v.k != vUndef {
		return v
	}
	if u := v.undefInfo(); u.ident != "" {
		return value{k: vUndef, p: &undef{reason: u.reason, detail: u.detail}}
	}
	return v
}

func undefVal(reason Reason, detail string) value {
	return value{k: vUndef, p: &undef{reason: reason, detail: detail}}
}

func intVal(n int64) value { return value{k: vInt, s: sortInt, n: n} }

// bigIntVal returns an Int value, small when it fits.
func bigIntVal(b *big.Int) value {
	if b.IsInt64() {
		return value{k: vInt, s: sortInt, n: b.Int64()}
	}
	return value{k: vInt, s: sortInt, b: b}
}

func realVal(r *big.Rat) value { return value{k: vReal, s: sortReal, r: r} }

func (v value) isTrue() bool  { return v.k == vBool && v.n == 1 }
func (v value) isFalse() bool { return v.k == vBool && v.n == 0 }

// bigInt returns an Int value as a big.Int (fresh when small).
func (v value) bigInt() *big.Int {
	if v.b != nil {
		return v.b
	}
	return big.NewInt(v.n)
}

// rat returns an Int or Real value as a rational.
func (v value) rat() *big.Rat {
	if v.k == vReal {
		return v.r
	}
	return new(big.Rat).SetInt(v.bigInt())
}

func (v value) undefInfo() *undef {
	if u, ok := v.p.(*undef); ok {
		return u
	}
	return &undef{reason: ReasonUnsupported, detail: "undefined value"}
}

// equal decides v = w for two defined values of the same sort.
func equal(v, w value) bool {
	if v.k != w.k {
		if (v.k == vInt && w.k == vReal) || (v.k == vReal && w.k == vInt) {
			return v.rat().Cmp(w.rat()) == 0
		}
		return false
	}
	switch v.k {
	case vBool, vRM:
		return v.n == w.n
	case vInt:
		if v.b == nil && w.b == nil {
			return v.n == w.n
		}
		return v.bigInt().Cmp(w.bigInt()) == 0
	case vReal:
		return v.r.Cmp(w.r) == 0
	case vBV:
		if v.b == nil && w.b == nil {
			return v.n == w.n
		}
		return v.bigInt().Cmp(w.bigInt()) == 0
	case vAbs:
		return v.p.(*absVal).name == w.p.(*absVal).name
	}
	return key(v) == key(w)
}

// key returns a canonical text of a defined value: equal values, equal keys.
func key(v value) string {
	var sb strings.Builder
	writeKey(&sb, v)
	return sb.String()
}

func writeKey(sb *strings.Builder, v value) {
	switch v.k {
	case vBool:
		if v.n == 1 {
			sb.WriteString("true")
		} else {
			sb.WriteString("false")
		}
	case vInt:
		if v.b != nil {
			sb.WriteString(v.b.String())
		} else {
			sb.WriteString(strconv.FormatInt(v.n, 10))
		}
	case vReal:
		sb.WriteString(v.r.RatString())
	case vBV:
		sb.WriteString("#")
		if v.b != nil {
			sb.WriteString(v.b.Text(16))
		} else {
			sb.WriteString(strconv.FormatUint(uint64(v.n), 16))
		}
	case vRM:
		sb.WriteString(rmNames[v.n])
	case vAbs:
		sb.WriteString("@")
		sb.WriteString(v.p.(*absVal).name)
	case vFP:
		sb.WriteString(v.p.(*fpVal).key())
	case vDT:
		writeDT(sb, v, func(x value) { writeKey(sb, x) }, func(_ value, d *dtVal) {
			sb.WriteString("(")
			sb.WriteString(d.ctor)
			sb.WriteString(")")
		}, -1)
	case vArray:
		a := v.p.(*arrayVal)
		if a.fn != nil {
			sb.WriteString("(fn ")
			sb.WriteString(a.fn.name)
			sb.WriteString(")")
			return
		}
		sb.WriteString("(arr ")
		writeKey(sb, a.def)
		defKey := key(a.def)
		var ks []string
		for k, e := range a.entries {
			vk := key(e.val)
			if vk != defKey {
				ks = append(ks, k+"="+vk)
			}
		}
		sort.Strings(ks)
		for _, k := range ks {
			sb.WriteString(" ")
			sb.WriteString(k)
		}
		sb.WriteString(")")
	default:
		sb.WriteString("?")
	}
}

// show prints a value in SMT-LIB syntax for explanations.
func (e *evaluator) show(v value) string {
	switch v.k {
	case vUndef:
		u := v.undefInfo()
		return "undefined (" + string(u.reason) + ": " + u.detail + ")"
	case vInt:
		s := key(v)
		if strings.HasPrefix(s, "-") {
			return "(- " + s[1:] + ")"
		}
		return s
	case vReal:
		return showRat(v.r)
	case vBV:
		return bvLiteral(v.bigInt(), e.sorts.width(v.s))
	case vFP:
		return v.p.(*fpVal).literal()
	case vAbs:
		return v.p.(*absVal).name
	case vDT:
		return e.showDT(v)
	case vArray:
		a := v.p.(*arrayVal)
		if a.fn != nil {
			return "(_ as-array " + a.fn.name + ")"
		}
		s := "((as const " + e.sorts.String(v.s) + ") " + e.show(a.def) + ")"
		for _, k := range a.keys {
			en := a.entries[k]
			s = "(store " + s + " " + e.show(en.idx) + " " + e.show(en.val) + ")"
		}
		return s
	}
	return key(v)
}

func showRat(r *big.Rat) string {
	neg := r.Sign() < 0
	a := new(big.Rat).Abs(r)
	s := a.Num().String() + ".0"
	if !a.IsInt() {
		s = "(/ " + a.Num().String() + ".0 " + a.Denom().String() + ".0)"
	}
	if neg {
		return "(- " + s + ")"
	}
	return s
}

func bvLiteral(b *big.Int, w int) string {
	if w%4 == 0 && w > 0 {
		s := b.Text(16)
		return "#x" + strings.Repeat("0", w/4-len(s)) + s
	}
	s := b.Text(2)
	if len(s) < w {
		s = strings.Repeat("0", w-len(s)) + s
	}
	return "#b" + s
}
