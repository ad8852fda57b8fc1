package model

import (
	"context"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/smtarena/smtarena/internal/testenv"
)

// z3Simplify asks z3 for the value of each closed term.
func z3Simplify(t *testing.T, header string, terms []string) []string {
	t.Helper()
	if _, err := exec.LookPath("z3"); err != nil {
		testenv.Skipf(t, "needs z3 (make deps): %v", err)
	}
	var in strings.Builder
	in.WriteString(header)
	for _, x := range terms {
		in.WriteString("(simplify " + x + ")\n")
	}
	cmd := exec.Command("z3", "-in", "-smt2")
	cmd.Stdin = strings.NewReader(in.String())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("z3: %v\n%s", err, out)
	}
	rs, _ := smtlib.ParseResponses("z3", out)
	var vals []string
	for _, r := range rs {
		vals = append(vals, strings.Join(strings.Fields(r.Text), " "))
	}
	if len(vals) != len(terms) {
		t.Fatalf("z3 gave %d values for %d terms:\n%s", len(vals), len(terms), clip(string(out), 3000))
	}
	return vals
}

// isValue reports whether z3's answer is a value; z3 leaves unspecified
// applications (fp.to_real of an infinity, ...) as terms.
func isValue(s string) bool {
	for _, p := range []string{"#", "(fp #", "(_ ", "true", "false", "(- ", "(/ "} {
		if strings.HasPrefix(s, p) {
			return !strings.Contains(s, "(fp.") && !strings.Contains(s, "_ to_fp")
		}
	}
	return len(s) > 0 && s[0] >= '0' && s[0] <= '9'
}

// agree checks (= term value) for every pair with the validator: none may
// be false. It returns how many were decided: a value that SMT-LIB
// specifies, equal to z3's.
func agree(t *testing.T, terms, vals []string) int {
	t.Helper()
	decided := 0
	for i := range terms {
		bench := "(set-logic ALL)\n(assert (= " + terms[i] + " " + vals[i] + "))\n(check-sat)\n"
		res, err := Validate(context.Background(), "diff", strings.NewReader(bench), "r", strings.NewReader("sat\n()"), Options{})
		if err != nil {
			t.Fatalf("%s: %v", terms[i], err)
		}
		switch {
		case res.Verdict == Valid:
			if isValue(vals[i]) {
				decided++
			}
		case res.Verdict == Invalid:
			bench = "(set-logic ALL)\n(assert (= " + terms[i] + " " + vals[i] + "))\n(check-sat)\n"
			r2, _ := Validate(context.Background(), "diff", strings.NewReader(bench), "r", strings.NewReader("sat\n()"), Options{Explain: true})
			t.Errorf("%s: z3 says %s\n%s", terms[i], vals[i], strings.Join(r2.Explain, "\n"))
		case res.Reason != ReasonPartialFunction:
			t.Errorf("%s: %s (%s)", terms[i], res, res.Detail)
		}
	}
	return decided
}

func bvRand(r *rand.Rand, w int) string {
	v := new(big.Int)
	switch r.IntN(6) {
	case 0:
	case 1:
		v.SetInt64(1)
	case 2:
		v = mask(w)
	case 3:
		v.Lsh(big.NewInt(1), uint(w-1)) // the least signed value
	case 4:
		v.Sub(new(big.Int).Lsh(big.NewInt(1), uint(w-1)), big.NewInt(1))
	default:
		for i := 0; i < w; i++ {
			if r.IntN(2) == 1 {
				v.SetBit(v, i, 1)
			}
		}
	}
	return bvLiteral(v, w)
}

// TestBVDifferential: every bit-vector operator against z3's simplify on
// random inputs of several widths, corners (zero divisors, the least
// signed value, all ones) weighted in.
func TestBVDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(diffSeed(), 1))
	widths := []int{1, 2, 3, 7, 8, 13, 16, 31, 32, 33, 63, 64, 65, 100}
	bin := []string{"bvand", "bvor", "bvxor", "bvnand", "bvnor", "bvxnor", "bvadd", "bvsub", "bvmul", "bvudiv",
		"bvurem", "bvsdiv", "bvsrem", "bvsmod", "bvshl", "bvlshr", "bvashr", "bvult", "bvule", "bvugt", "bvuge",
		"bvslt", "bvsle", "bvsgt", "bvsge", "bvcomp", "concat", "="}
	n := 3000
	if testing.Short() {
		n = 300
	}
	var terms []string
	for len(terms) < n {
		w := widths[r.IntN(len(widths))]
		a, b := bvRand(r, w), bvRand(r, w)
		switch k := r.IntN(len(bin) + 8); {
		case k < len(bin):
			if bin[k] == "bvshl" || bin[k] == "bvlshr" || bin[k] == "bvashr" {
				if r.IntN(2) == 0 {
					b = bvLiteral(new(big.Int).And(big.NewInt(int64(r.IntN(w+2))), mask(w)), w)
				}
			}
			terms = append(terms, "("+bin[k]+" "+a+" "+b+")")
		case k == len(bin):
			terms = append(terms, "(bvnot "+a+")", "(bvneg "+a+")")
		case k == len(bin)+1:
			hi := r.IntN(w)
			lo := r.IntN(hi + 1)
			terms = append(terms, fmt.Sprintf("((_ extract %d %d) %s)", hi, lo, a))
		case k == len(bin)+2:
			terms = append(terms, fmt.Sprintf("((_ zero_extend %d) %s)", r.IntN(9), a), fmt.Sprintf("((_ sign_extend %d) %s)", r.IntN(9), a))
		case k == len(bin)+3:
			terms = append(terms, fmt.Sprintf("((_ rotate_left %d) %s)", r.IntN(2*w+1), a), fmt.Sprintf("((_ rotate_right %d) %s)", r.IntN(2*w+1), a))
		case k == len(bin)+4:
			terms = append(terms, fmt.Sprintf("((_ repeat %d) %s)", 1+r.IntN(3), a))
		case k == len(bin)+5:
			terms = append(terms, "(bv2nat "+a+")")
		case k == len(bin)+6:
			terms = append(terms, fmt.Sprintf("((_ int2bv %d) %d)", w, r.Int64N(1<<40)), fmt.Sprintf("((_ int2bv %d) (- %d))", w, r.Int64N(1<<40)))
		default:
			terms = append(terms, fmt.Sprintf("(bvadd (bvmul %s %s) (bvudiv %s %s))", a, b, b, a))
		}
	}
	vals := z3Simplify(t, "", terms)
	decided := agree(t, terms, vals)
	t.Logf("bit-vectors: %d terms, %d decided, all as z3's simplify", len(terms), decided)
}

type fpFormat struct{ eb, sb int }

func fpRand(r *rand.Rand, f fpFormat) string {
	w := f.eb + f.sb
	v := new(big.Int)
	sign := uint(r.IntN(2))
	exp, frac := new(big.Int), new(big.Int)
	switch r.IntN(9) {
	case 0: // zero
	case 1: // infinity
		exp = mask(f.eb)
	case 2: // NaN
		exp, frac = mask(f.eb), big.NewInt(1)
	case 3: // least subnormal
		frac = big.NewInt(1)
	case 4: // greatest subnormal
		frac = mask(f.sb - 1)
	case 5: // least normal
		exp = big.NewInt(1)
	case 6: // greatest finite
		exp, frac = new(big.Int).Sub(mask(f.eb), big.NewInt(1)), mask(f.sb-1)
	case 7: // near one
		exp = big.NewInt(int64(fpBias(f.eb) + r.IntN(3) - 1))
		frac = big.NewInt(int64(r.IntN(4)))
	default:
		for i := 0; i < w-1; i++ {
			if r.IntN(2) == 1 {
				v.SetBit(v, i, 1)
			}
		}
		exp = new(big.Int).Rsh(v, uint(f.sb-1))
		frac = new(big.Int).And(v, mask(f.sb-1))
	}
	return fmt.Sprintf("(fp #b%d %s %s)", sign, bitsLiteral(exp, f.eb), bitsLiteral(frac, f.sb-1))
}

// TestFPDifferential: the floating-point operators against z3's simplify
// on random inputs of several formats, corners (±0, ±oo, NaN, subnormals,
// the greatest finite value) weighted in, in every rounding mode.
func TestFPDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(diffSeed(), 2))
	formats := []fpFormat{{3, 4}, {5, 11}, {8, 24}, {11, 53}, {4, 9}}
	rms := []string{"RNE", "RNA", "RTP", "RTN", "RTZ"}
	n := 3000
	if testing.Short() {
		n = 300
	}
	var terms []string
	for len(terms) < n {
		f := formats[r.IntN(len(formats))]
		a, b, c := fpRand(r, f), fpRand(r, f), fpRand(r, f)
		rm := rms[r.IntN(len(rms))]
		g := formats[r.IntN(len(formats))]
		switch r.IntN(16) {
		case 0, 1:
			op := []string{"fp.add", "fp.sub", "fp.mul", "fp.div"}[r.IntN(4)]
			terms = append(terms, "("+op+" "+rm+" "+a+" "+b+")")
		case 2:
			terms = append(terms, "(fp.fma "+rm+" "+a+" "+b+" "+c+")")
		case 3:
			terms = append(terms, "(fp.sqrt "+rm+" "+a+")", "(fp.roundToIntegral "+rm+" "+a+")")
		case 4:
			terms = append(terms, "(fp.rem "+a+" "+b+")")
		case 5:
			op := []string{"fp.leq", "fp.lt", "fp.geq", "fp.gt", "fp.eq"}[r.IntN(5)]
			terms = append(terms, "("+op+" "+a+" "+b+")")
		case 6:
			op := []string{"fp.isNormal", "fp.isSubnormal", "fp.isZero", "fp.isInfinite", "fp.isNaN", "fp.isNegative", "fp.isPositive", "fp.abs", "fp.neg"}[r.IntN(9)]
			terms = append(terms, "("+op+" "+a+")")
		case 7:
			terms = append(terms, fmt.Sprintf("(fp.min %s %s)", a, b), fmt.Sprintf("(fp.max %s %s)", a, b))
		case 8:
			terms = append(terms, fmt.Sprintf("((_ to_fp %d %d) %s %s)", g.eb, g.sb, rm, a))
		case 9:
			num, den := r.Int64N(1<<20), 1+r.Int64N(1000)
			terms = append(terms, fmt.Sprintf("((_ to_fp %d %d) %s (/ %d.0 %d.0))", g.eb, g.sb, rm, num, den),
				fmt.Sprintf("((_ to_fp %d %d) %s (- (/ %d.0 %d.0)))", g.eb, g.sb, rm, num, den))
		case 10:
			bv := bvRand(r, 1+r.IntN(40))
			terms = append(terms, fmt.Sprintf("((_ to_fp %d %d) %s %s)", g.eb, g.sb, rm, bv), fmt.Sprintf("((_ to_fp_unsigned %d %d) %s %s)", g.eb, g.sb, rm, bv))
		case 11:
			terms = append(terms, fmt.Sprintf("((_ to_fp %d %d) %s)", f.eb, f.sb, bvRand(r, f.eb+f.sb)))
		case 12:
			m := 1 + r.IntN(40)
			terms = append(terms, fmt.Sprintf("((_ fp.to_ubv %d) %s %s)", m, rm, a), fmt.Sprintf("((_ fp.to_sbv %d) %s %s)", m, rm, a))
		case 13:
			terms = append(terms, "(fp.to_real "+a+")")
		case 14:
			terms = append(terms, "(= "+a+" "+b+")", "(= "+a+" "+a+")")
		default:
			terms = append(terms, fmt.Sprintf("(fp.add %s (fp.mul %s %s %s) %s)", rm, rm, a, b, c))
		}
	}
	vals := z3Simplify(t, "", terms)
	decided := agree(t, terms, vals)
	t.Logf("floating point: %d terms, %d decided as z3's simplify, %d unspecified by SMT-LIB (z3's choice not checked)", len(terms), decided, len(terms)-decided)
}

// diffSeed is 15, or SMTARENA_DIFF_SEED to draw other cases.
func diffSeed() uint64 {
	if v, err := strconv.ParseUint(os.Getenv("SMTARENA_DIFF_SEED"), 10, 64); err == nil {
		return v
	}
	return 15
}
