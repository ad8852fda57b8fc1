package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/smtarena/smtarena/internal/library"
	"github.com/smtarena/smtarena/internal/scramble"
)

func main() {
	if len(os.Args) > 2 && os.Args[1] == "gen" {
		f, _ := os.Create(os.Args[2])
		library.GenerateQFLIA(f, library.QFLIAOptions{Seed: 1, Bytes: 10 << 20})
		f.Close()
		return
	}
	src, _ := os.ReadFile(os.Args[1])
	t0 := time.Now()
	if _, err := scramble.Scramble(io.Discard, bytes.NewReader(src), "q", scramble.Options{Seed: 42, Annot: scramble.AnnotPattern}); err != nil {
		fmt.Fprintln(os.Stderr, err)
	}
	fmt.Fprintln(os.Stderr, time.Since(t0))
}
