package validate

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// TestDecide: both decision rules on every case the texts leave to them,
// ties and all-timeouts included.
func TestDecide(t *testing.T) {
	for _, c := range []struct {
		answers         []string
		refute, confirm bool
	}{
		{[]string{"unsat", "unsat", "unsat"}, true, true},
		{[]string{"sat", "sat", "sat"}, false, false},
		{[]string{"sat", "unsat", "unsat"}, true, true},
		{[]string{"sat", "sat", "unsat"}, false, false},
		{[]string{"sat", "unsat"}, true, false},                  // a tie
		{[]string{"sat", "unsat", "unknown"}, true, false},       // a tie with a timeout
		{[]string{"unknown", "unknown", "unknown"}, true, false}, // all timed out
		{nil, true, false},                         // no validator at all
		{[]string{"unknown", "unsat"}, true, true}, // one confirmation
		{[]string{"sat", "unknown"}, false, false}, // one rejection
	} {
		if v := RuleRefute.Decide(c.answers); v.Validated != c.refute {
			t.Errorf("2018 rule on %v: %s, want validated=%v", c.answers, v, c.refute)
		}
		if v := RuleConfirm.Decide(c.answers); v.Validated != c.confirm {
			t.Errorf("2026 rule on %v: %s, want validated=%v", c.answers, v, c.confirm)
		}
	}
	v := RuleRefute.Decide([]string{"sat", "unsat", "unknown", ""})
	if v.Sat != 1 || v.Unsat != 1 || v.Other != 2 {
		t.Errorf("counts: %+v", v)
	}
	for in, want := range map[string]Rule{"": RuleRefute, "2022": RuleRefute, "refute": RuleRefute, "2026": RuleConfirm, "confirm": RuleConfirm} {
		if r, err := ParseRule(in); err != nil || r != want {
			t.Errorf("ParseRule(%q) = %q, %v", in, r, err)
		}
	}
	if _, err := ParseRule("majority"); err == nil {
		t.Error("ParseRule(majority) succeeded")
	}
}

func TestReadResponse(t *testing.T) {
	for _, c := range []struct {
		out  string
		want Response
	}{
		{"unsat\n(a b a)\n", Response{Answer: "unsat", Core: CoreList, Names: []string{"a", "b", "a"}}},
		{"success\nsuccess\nunsat\nsuccess\n(|x y| b)\n", Response{Answer: "unsat", Core: CoreList, Names: []string{"x y", "b"}}},
		{"unsat\n()\n", Response{Answer: "unsat", Core: CoreList, Names: []string{}}},
		{"unsat\n", Response{Answer: "unsat", Core: CoreMissing}},
		{"unsat\n(error \"no cores\")\n", Response{Answer: "unsat", Core: CoreError, Message: "no cores"}},
		{"unsat\nunsupported\n", Response{Answer: "unsat", Core: CoreError, Message: "unsupported"}},
		{"unknown\n(error \"unknown\")\n", Response{Answer: "unknown", Core: CoreError, Message: "unknown"}},
		{"sat\n", Response{Answer: "sat", Core: CoreMissing}},
		{"", Response{Core: CoreMissing}},
	} {
		got := ReadResponse([]byte(c.out))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ReadResponse(%q) = %+v, want %+v", c.out, got, c.want)
		}
	}
	if r := ReadResponse([]byte("unsat\n((a b) c)\n")); r.Core != CoreMalformed {
		t.Errorf("a nested list: %+v", r)
	}
	if r := ReadResponse([]byte("unsat\n(a b\n")); r.Core != CoreMalformed {
		t.Errorf("an open list: %+v", r)
	}
}

const named = `(set-option :print-success false)
(set-option :produce-unsat-cores true)
(set-logic QF_UF)
(declare-fun p () Bool)
(declare-fun q () Bool)
(assert (! p :named a1))
(assert (! (not p) :named a2))
(assert (! q :named a3))
(assert (or p q))
(check-sat)
(get-unsat-core)
`

// TestJudgeReadings: the same answers under the rules' reading and the
// official scripts'.
func TestJudgeReadings(t *testing.T) {
	n, err := Assertions("b.smt2", []byte(named))
	if err != nil || n.Asserts != 4 || !reflect.DeepEqual(n.Names, []string{"a1", "a2", "a3"}) {
		t.Fatalf("assertions: %+v %v", n, err)
	}
	type want struct {
		rules, official Scored
	}
	for _, c := range []struct {
		out       string
		validated bool
		w         want
	}{
		// a good core: 4 - 2
		{"unsat\n(a1 a2)\n", true, want{Scored{Reduction: 2, CoreSize: 2}, Scored{Reduction: 2, CoreSize: 2}}},
		// duplicates: a set either way (the official scrambler inserts into a set)
		{"unsat\n(a1 a2 a2 a1)\n", true, want{Scored{Reduction: 2, CoreSize: 2}, Scored{Reduction: 2, CoreSize: 2}}},
		// an invented name: ill-formed by the rules, counted by the official script
		{"unsat\n(a1 a2 zz)\n", true, want{Scored{IllFormed: true}, Scored{Reduction: 1, CoreSize: 3}}},
		// refuted
		{"unsat\n(a1)\n", false, want{Scored{Erroneous: true}, Scored{Erroneous: true}}},
		// no core: no reduction by the rules, unparsable officially
		{"unsat\n", true, want{Scored{CoreSize: 4}, Scored{IllFormed: true}}},
		{"unsat\n(error \"x\")\n", true, want{Scored{CoreSize: 4}, Scored{IllFormed: true}}},
		{"unsat\n(a1 (a2))\n", true, want{Scored{IllFormed: true}, Scored{IllFormed: true}}},
		{"sat\n", true, want{Scored{Erroneous: true}, Scored{Erroneous: true}}},
		{"unknown\n(error \"u\")\n", true, want{Scored{}, Scored{}}},
		// an empty core of an unsat benchmark is refuted by any validator, but scored as given
		{"unsat\n()\n", true, want{Scored{Reduction: 4}, Scored{Reduction: 4}}},
	} {
		j := Judge(ReadResponse([]byte(c.out)), n)
		if got := j.Score(c.validated, ReadRules); got != c.w.rules {
			t.Errorf("%q rules reading: %+v, want %+v", c.out, got, c.w.rules)
		}
		if got := j.Score(c.validated, ReadOfficial); got != c.w.official {
			t.Errorf("%q official reading: %+v, want %+v", c.out, got, c.w.official)
		}
	}
	j := Judge(ReadResponse([]byte("unsat\n(a2 zz a2 a1 yy zz)\n")), n)
	if !reflect.DeepEqual(j.Names, []string{"a1", "a2"}) || !reflect.DeepEqual(j.Duplicates, []string{"a2", "zz"}) ||
		!reflect.DeepEqual(j.Unknown, []string{"yy", "zz"}) || j.Given != 6 {
		t.Errorf("judgement: %+v", j)
	}
	if j := Judge(ReadResponse([]byte("unknown\n(a1)\n")), n); !j.UnknownNoError {
		t.Errorf("unknown followed by a core is not reported: %+v", j)
	}
}

// TestFileGolden: the validation file equals the official scrambler's -core
// output on the golden files (shared/scrambler-golden/core).
func TestFileGolden(t *testing.T) {
	golden := testenv.Shared(t, "scrambler-golden")
	idx, err := os.ReadFile(filepath.Join(golden, "index.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(idx), "\n") {
		c := strings.Split(line, "\t")
		if len(c) < 5 || c[0] != "core" || c[4] != "0" {
			continue
		}
		in, answer, _ := strings.Cut(c[2], " + ")
		input, err := os.ReadFile(filepath.Join(filepath.Dir(golden), in))
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.ReadFile(filepath.Join(golden, answer))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(golden, c[3]))
		if err != nil {
			t.Fatal(err)
		}
		named, err := Assertions(in, input)
		if err != nil {
			t.Fatal(err)
		}
		j := Judge(ReadResponse(out), named)
		if len(j.Unknown) > 0 {
			continue // the official header lists them; ours lists the core's
		}
		got, err := File(input, in, j.Names)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: validation file differs from the official -core output:\n%s\nwant\n%s", in, got, want)
		}
		n++
	}
	if n < 10 {
		t.Errorf("only %d golden core files compared", n)
	}
	t.Logf("%d validation files equal the official scrambler's", n)
}

// FuzzReadResponse: any solver output reads without a panic, and a judged
// core only ever holds names of the benchmark's assertions.
func FuzzReadResponse(f *testing.F) {
	for _, s := range []string{"unsat\n(a1 a2)\n", "unsat\n(a1 a1 zz)", "sat\n", "unknown\n(error \"x\")", "unsat\n((", "success\nunsat\n()", "unsat\n|a"} {
		f.Add(s)
	}
	n, err := Assertions("b.smt2", []byte(named))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, out string) {
		r := ReadResponse([]byte(out))
		if r.Core != CoreList && len(r.Names) > 0 {
			t.Fatalf("names without a list: %+v", r)
		}
		j := Judge(r, n)
		for _, name := range j.Names {
			if !n.Has(name) {
				t.Fatalf("%q in the core names no assertion", name)
			}
		}
		for _, rd := range []Reading{ReadRules, ReadOfficial} {
			if s := j.Score(true, rd); s.Reduction > n.Asserts || (rd == ReadRules && s.Reduction < 0) {
				t.Fatalf("reduction %d of %d assertions (%q)", s.Reduction, n.Asserts, out)
			}
		}
	})
}
