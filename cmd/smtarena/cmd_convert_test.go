package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConvert(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.smt")
	bad := filepath.Join(dir, "bad.smt")
	if err := os.WriteFile(good, []byte("(benchmark g :status unsat :logic QF_UF :extrapreds ((p)) :formula (and p (not p)))"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("(benchmark b :logic QF_UF\n :formula (implies p))"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "(set-info :smt-lib-version 2.6)\n(set-logic QF_UF)\n(set-info :status unsat)\n(declare-sort U 0)\n" +
		"(declare-fun p () Bool)\n(assert (and p (not p)))\n(check-sat)\n(exit)\n"
	outFile := filepath.Join(dir, "out.smt2")
	for _, tc := range []struct {
		name    string
		args    []string
		stdin   string
		code    int
		stdout  string
		stderr  string
		outFile string
	}{
		{name: "stdout", args: []string{"convert", good}, code: exitOK, stdout: want},
		{name: "stdin", args: []string{"convert", "-"}, stdin: "(benchmark g :logic QF_UF :formula true)", code: exitOK,
			stdout: "(set-info :smt-lib-version 2.6)\n(set-logic QF_UF)\n(set-info :status unknown)\n(declare-sort U 0)\n(assert true)\n(check-sat)\n(exit)\n"},
		{name: "output file", args: []string{"convert", "-o", outFile, good}, code: exitOK, outFile: want},
		{name: "error", args: []string{"convert", bad}, code: exitBadInput,
			stderr: "smtarena: cannot convert:\n" + bad + ":2:11: 'implies' takes 2 arguments, found 1\n"},
		{name: "missing file", args: []string{"convert", filepath.Join(dir, "none.smt")}, code: exitBadInput, stderr: "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), tc.args, streams{strings.NewReader(tc.stdin), &out, &errb})
			if code != tc.code {
				t.Errorf("exit code %d, want %d; stderr: %s", code, tc.code, errb.String())
			}
			if out.String() != tc.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", out.String(), tc.stdout)
			}
			if !strings.Contains(errb.String(), tc.stderr) {
				t.Errorf("stderr %q does not contain %q", errb.String(), tc.stderr)
			}
			if tc.outFile != "" {
				b, err := os.ReadFile(outFile)
				if err != nil || string(b) != tc.outFile {
					t.Errorf("output file: %v\n%s\nwant:\n%s", err, b, tc.outFile)
				}
			}
		})
	}
}
