package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// TestScrambleGolden runs the command with smtarena's and with the official
// spellings on a few golden files of every track.
func TestScrambleGolden(t *testing.T) {
	shared := filepath.Dir(testenv.Shared(t, "scrambler-golden"))
	bench := func(f string) string { return filepath.Join(shared, "benchmarks", f) }
	golden := func(f string) string {
		b, err := os.ReadFile(filepath.Join(shared, "scrambler-golden", f))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	in := "non-incremental/AUFLIA/cvc5-regress1-decision/quant-Arrays_Q1-noinfer.smt2"
	inc := "incremental/QF_BV/bitwuzla-solver-bv/count02inc.smt2"
	src, err := os.ReadFile(bench(in))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		stdin bool
		want  string
	}{
		{[]string{"scramble", "--seed", "42", bench(in)}, false, "single-query/seed-42/" + in},
		{[]string{"scramble", "-term_annot", "pattern", "-seed", "42"}, true, "single-query/seed-42/" + in},
		{[]string{"scramble", "--seed", "1", "-"}, true, "single-query/seed-1/" + in},
		{[]string{"scramble", "--seed", "0", bench(in)}, false, "seed-0/" + in},
		{[]string{"scramble", "--seed", "42", "--track", "unsat-core", bench(in)}, false, "unsat-core/seed-42/" + in},
		{[]string{"scramble", "-term_annot", "pattern", "-seed", "42", "-gen-unsat-core", "true"}, true, "unsat-core/seed-42/" + in},
		{[]string{"scramble", "-term_annot", "pattern", "-seed", "42", "-gen-proof", "true"}, true, "proof/seed-42/" + in},
		{[]string{"scramble", "--seed", "42", "--track", "incremental", "--with-status-header", bench(inc)}, false, "incremental/seed-42/" + inc},
	} {
		stdin := ""
		if tc.stdin {
			stdin = string(src)
		}
		code, out, errs := runCLI(t, stdin, tc.args...)
		if code != 0 {
			t.Errorf("%v: exit %d: %s", tc.args, code, errs)
			continue
		}
		if out != golden(tc.want) {
			t.Errorf("%v: output differs from %s", tc.args, tc.want)
		}
	}

	// -core, as the golden core files were made
	core := filepath.Join(shared, "scrambler-golden", "core", "seed-42", in+".z3-answer")
	scrambled := filepath.Join(shared, "scrambler-golden", "unsat-core", "seed-42", in)
	code, out, errs := runCLI(t, "", "scramble", "-seed", "0", "-term_annot", "false", "-core", core, scrambled)
	if code != 0 || out != golden("core/seed-42/"+in) {
		t.Errorf("-core: exit %d, %s", code, errs)
	}

	// -count-asserts: the count on stderr, no script
	code, out, errs = runCLI(t, string(src), "scramble", "-seed", "42", "-count-asserts", "true")
	if code != 0 || out != "" || errs != "; Number of assertions: 23\n" {
		t.Errorf("-count-asserts: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}

func TestScrambleErrors(t *testing.T) {
	bad := writeFile(t, "bad.smt2", "(set-logic QF_UF)\n(assert (and true\n")
	code, out, errs := runCLI(t, "", "scramble", "--seed", "3", bad)
	if code != 2 || out != "" || !strings.Contains(errs, "bad.smt2:3:1: expected a term, found end of file") {
		t.Errorf("malformed input: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	refused := writeFile(t, "opt.smt2", "(set-option :produce-models true)\n(set-logic QF_UF)\n(check-sat)\n")
	code, out, errs = runCLI(t, "", "scramble", "-seed", "3", refused)
	if code != 1 || out != "" || !strings.Contains(errs, "opt.smt2:1:2: Encountered non-SMT-COMP command: 'set-option'") {
		t.Errorf("refused input: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, _ = runCLI(t, "", "scramble", "-seed", "3", "-support-non-smtcomp", "true", refused)
	if code != 0 || !strings.Contains(out, "(set-option :produce-models true)") {
		t.Errorf("-support-non-smtcomp: exit %d, stdout %q", code, out)
	}
	for _, args := range [][]string{
		{"scramble", bad}, // no seed
		{"scramble", "--seed", "1", "--track", "fast"},   // bad track
		{"scramble", "-seed", "1", "-term_annot", "yes"}, // bad official value
		{"scramble", "-seed"},                            // missing value
		{"scramble", "--seed", "1", "--with-status-header"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestScrambleMap(t *testing.T) {
	src := "(set-logic QF_LIA)\n(declare-fun |a b| () Int)\n(declare-fun c () Int)\n(assert (> |a b| c))\n(assert (= c 1))\n(check-sat)\n"
	in := writeFile(t, "in.smt2", src)
	dir := t.TempDir()
	tsv, js := filepath.Join(dir, "m.tsv"), filepath.Join(dir, "m.json")
	code, out, errs := runCLI(t, "", "scramble", "--seed", "9", "--map", tsv, in)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m, err := os.ReadFile(tsv)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(m)), "\n")
	if len(lines) != 2+2+2 || lines[1] != "kind\tscrambled\toriginal" {
		t.Fatalf("map:\n%s", m)
	}
	// renaming the output back with the map gives the input's names
	back := out
	for _, l := range lines[2:] {
		f := strings.Split(l, "\t")
		if f[0] == "name" {
			back = strings.ReplaceAll(back, f[1]+" ", f[2]+" ")
			back = strings.ReplaceAll(back, f[1]+")", f[2]+")")
		}
	}
	if !strings.Contains(back, "(declare-fun |a b| () Int)") || !strings.Contains(back, "(declare-fun c () Int)") {
		t.Errorf("the map does not restore the names:\n%s\n%s", m, back)
	}
	if code, _, errs := runCLI(t, "", "scramble", "--seed", "9", "--map", js, in); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var j struct {
		Seed    uint64
		Names   []struct{ Scrambled, Original string }
		Asserts []int
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &j); err != nil {
		t.Fatal(err)
	}
	if j.Seed != 9 || len(j.Names) != 2 || len(j.Asserts) != 2 || j.Asserts[0]+j.Asserts[1] != 1 {
		t.Errorf("JSON map: %s", b)
	}
}
