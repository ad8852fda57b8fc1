package official

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// The bytes come through in order, then the reader's error; closing early
// ends the goroutine.
func TestReadAhead(t *testing.T) {
	data := bytes.Repeat([]byte("0123456789abcdef"), 10000)
	broken := errors.New("broken")
	src := io.MultiReader(iotest.HalfReader(bytes.NewReader(data)), iotest.ErrReader(broken))
	a := newReadAhead(src, 1000, 3)
	got, err := io.ReadAll(iotest.OneByteReader(io.LimitReader(a, 5000)))
	if err != nil || !bytes.Equal(got, data[:5000]) {
		t.Fatalf("first 5000 bytes: %v", err)
	}
	rest, err := io.ReadAll(a)
	if !errors.Is(err, broken) || !bytes.Equal(append(got, rest...), data) {
		t.Errorf("%d bytes then %v; want %d then %v", len(got)+len(rest), err, len(data), broken)
	}
	a.Close()

	early := newReadAhead(bytes.NewReader(data), 100, 2)
	if _, err := early.Read(make([]byte, 10)); err != nil {
		t.Fatal(err)
	}
	early.Close() // returns: the goroutine stopped though nobody reads
	early.Close()
}

// A key is its parts joined by \x1f (the store keeps keys of this form as
// their source and pair parts only).
func TestKey(t *testing.T) {
	if got, want := Key("smtcomp", 2024, "unsat-core", "cvc5", "", "non-incremental/QF_UF/a.smt2", "17"),
		"smtcomp\x1f2024\x1funsat-core\x1fcvc5\x1f\x1fnon-incremental/QF_UF/a.smt2\x1f17"; got != want {
		t.Errorf("Key: %q, want %q", got, want)
	}
}
