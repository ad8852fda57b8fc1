package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

// TestGenerateLibrary writes the small library, checks that lint accepts
// every file in its track, and that a seed gives the same bytes.
func TestGenerateLibrary(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, out := range []string{a, b} {
		code, stdout, errs := runCLI(t, "", "generate", "--out", out, "--seed", "5", "--size", "small")
		if code != 0 || !strings.HasPrefix(stdout, "wrote ") {
			t.Fatalf("generate: code %d, stdout %q, stderr %q", code, stdout, errs)
		}
	}
	files := testenv.Files(t, a, ".smt2")
	if len(files) < 40 {
		t.Fatalf("%d files", len(files))
	}
	for _, f := range files {
		rel, _ := filepath.Rel(a, f)
		x, _ := os.ReadFile(f)
		y, err := os.ReadFile(filepath.Join(b, rel))
		if err != nil || !bytes.Equal(x, y) {
			t.Errorf("%s: differs between two runs with the same seed (%v)", rel, err)
		}
	}
	for _, want := range []string{"non-incremental/QF_UF/smtarena-pigeonhole/php-bool-4p-3h.smt2", "incremental/QF_LIA/smtarena-planted"} {
		if _, err := os.Stat(filepath.Join(a, filepath.FromSlash(want))); err != nil {
			t.Errorf("missing %s", want)
		}
	}
	code, out, _ := runCLI(t, "", "lint", "--track", "auto", "--summary", "--quiet", a)
	if code != 0 || !strings.Contains(out, " 0 with errors\n") || !strings.Contains(out, "not checked by kind: none") {
		t.Errorf("lint: code %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "meta", "--json", filepath.Join(a, "non-incremental", "QF_UF", "smtarena-pigeonhole", "php-bool-4p-3h.smt2"))
	if code != 0 || !strings.Contains(out, `"status":"unsat"`) || !strings.Contains(out, `"logic":"QF_UF"`) {
		t.Errorf("meta: code %d, %s", code, out)
	}
}

// TestGenerateCorpus writes a small corpus and checks its size and lint.
func TestGenerateCorpus(t *testing.T) {
	dir := t.TempDir()
	code, stdout, errs := runCLI(t, "", "generate", "--out", dir, "--seed", "2", "--files", "60", "--total-mb", "0.5")
	if code != 0 || !strings.HasPrefix(stdout, "wrote 60 files") {
		t.Fatalf("generate: code %d, stdout %q, stderr %q", code, stdout, errs)
	}
	files := testenv.Files(t, dir, ".smt2")
	total := int64(0)
	for _, f := range files {
		st, err := os.Stat(f)
		if err != nil {
			t.Fatal(err)
		}
		total += st.Size()
	}
	if want := int64(1 << 19); len(files) != 60 || total < want*8/10 || total > want*12/10 {
		t.Errorf("%d files of %d bytes in all; want 60 of about %d", len(files), total, want)
	}
	code, out, _ := runCLI(t, "", "lint", "--track", "auto", "--summary", "--quiet", dir)
	if code != 0 || !strings.Contains(out, "60 files, 0 with errors") {
		t.Errorf("lint: code %d\n%s", code, out)
	}
}

func TestGenerateUsage(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"generate"},
		{"generate", "--out", dir, "--size", "large"},
		{"generate", "--out", dir, "--files", "10"},
		{"generate", "qf_lu"},
		{"generate", "qf_lia", "--out", dir},
	} {
		if code, _, errs := runCLI(t, "", args...); code != 2 || errs == "" {
			t.Errorf("%v: code %d, stderr %q; want 2 and a message", args, code, errs)
		}
	}
}
