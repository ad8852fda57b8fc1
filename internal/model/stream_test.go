package model

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// TestReadPaths: a small benchmark is judged alike whether its size is
// known (a file, a strings.Reader: read and evaluated inline) or not (a
// pipe: read a chunk ahead in a goroutine), also when it ends in an
// unfinished command after whole ones.
func TestReadPaths(t *testing.T) {
	lia := "(set-logic QF_LIA)\n(declare-fun x () Int)\n(assert (> x 0))\n(check-sat)\n"
	for _, tt := range []struct {
		name, bench, resp, want string
	}{
		{"valid", lia, "sat\n((define-fun x () Int 3))", "VALID"},
		{"invalid", lia, "sat\n((define-fun x () Int 0))", "INVALID bad-model"},
		{"unfinished", strings.TrimSuffix(lia, "(check-sat)\n") + "(assert (> x", "sat\n((define-fun x () Int 3))", "error"},
		{"empty", "", "sat\n()", "VALID"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "b.smt2")
			if err := os.WriteFile(path, []byte(tt.bench), 0o644); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if got := smtlib.InputSize(f); got != len(tt.bench) {
				t.Errorf("InputSize(file) = %d, want %d", got, len(tt.bench))
			}
			readers := map[string]io.Reader{
				"file":    f,
				"strings": strings.NewReader(tt.bench),
				"pipe":    iotest.OneByteReader(strings.NewReader(tt.bench)),
			}
			var first string
			for _, kind := range []string{"file", "strings", "pipe"} {
				res, err := Validate(context.Background(), "b.smt2", readers[kind], "r", strings.NewReader(tt.resp), Options{})
				got := res.String()
				if err != nil {
					got = "error"
					if !strings.Contains(err.Error(), "b.smt2:4:") {
						t.Errorf("%s: %v, want the error at line 4", kind, err)
					}
				}
				if got != tt.want {
					t.Errorf("%s: got %s, want %s", kind, got, tt.want)
				}
				if first == "" {
					first = got + " " + res.Position
				} else if got+" "+res.Position != first {
					t.Errorf("%s: %s %s, the file gave %s", kind, got, res.Position, first)
				}
			}
		})
	}
}
