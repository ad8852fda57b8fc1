package zstd

import (
	"bytes"
	"io"
	"testing"

	kzstd "github.com/klauspost/compress/zstd"
)

// FuzzDecode decodes arbitrary input: never a panic or a hang, and when
// klauspost's decoder also accepts the input, the same output.
func FuzzDecode(f *testing.F) {
	for _, src := range [][]byte{nil, []byte("a"), smtText(3000, 1), randomBytes(500, 2), bytes.Repeat([]byte("ab"), 2000)} {
		for _, lvl := range []kzstd.EncoderLevel{kzstd.SpeedFastest, kzstd.SpeedBestCompression} {
			f.Add(encode(f, src, kzstd.WithEncoderLevel(lvl)))
			// Without a checksum, a mutated input decodes to something
			// both decoders must agree on.
			f.Add(encode(f, src, kzstd.WithEncoderLevel(lvl), kzstd.WithEncoderCRC(false)))
		}
	}
	// Literals compressed with FSE-compressed Huffman weights, repeated
	// tables across blocks, several frames.
	big := encode(f, smtText(300<<10, 3), kzstd.WithEncoderLevel(kzstd.SpeedBetterCompression), kzstd.WithWindowSize(1<<10))
	f.Add(big[:min(len(big), 4096)])
	f.Add(append(encode(f, []byte("first frame")), encode(f, []byte("second"))...))
	ref, err := kzstd.NewReader(nil, kzstd.WithDecoderConcurrency(1), kzstd.WithDecoderMaxWindow(MaxWindowSize), kzstd.WithDecoderMaxMemory(64<<20))
	if err != nil {
		f.Fatal(err)
	}
	defer ref.Close()
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := io.ReadAll(io.LimitReader(NewReader(bytes.NewReader(in)), 64<<20))
		if err != nil {
			return
		}
		if err := ref.Reset(bytes.NewReader(in)); err != nil {
			return
		}
		want, err := io.ReadAll(ref)
		if err != nil {
			return
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("decoded %d bytes, klauspost %d (first difference at %d)", len(got), len(want), firstDiff(got, want))
		}
	})
}
