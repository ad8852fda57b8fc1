package xz

import (
	"bytes"
	"io"
	"testing"

	uxz "github.com/ulikunitz/xz"
)

// FuzzDecode decodes arbitrary input: never a panic or a hang, and when
// ulikunitz's decoder also accepts the input, the same output.
func FuzzDecode(f *testing.F) {
	for _, src := range [][]byte{nil, []byte("a"), smtText(3000, 1), randomBytes(500, 2), bytes.Repeat([]byte("ab"), 2000)} {
		for _, cfg := range []uxz.WriterConfig{{}, {CheckSum: uxz.None}, {CheckSum: uxz.SHA256, BlockSize: 1000}} {
			f.Add(ulikunitz(f, src, cfg))
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := decodeLimited(in)
		if err != nil {
			return
		}
		r, err := uxz.NewReader(bytes.NewReader(in))
		if err != nil {
			return
		}
		want, err := io.ReadAll(io.LimitReader(r, 64<<20))
		if err != nil {
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("decoded %d bytes, ulikunitz %d (first difference at %d)", len(got), len(want), firstDiff(got, want))
		}
	})
}

func decodeLimited(in []byte) ([]byte, error) {
	r, err := NewReader(bytes.NewReader(in))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(r, 64<<20))
}
