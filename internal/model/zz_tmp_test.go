package model

import (
	"bytes"
	"context"
	"os"
	"testing"
)

func BenchmarkZZOne(b *testing.B) {
	src, _ := os.ReadFile(os.Getenv("ZZ_B"))
	resp, _ := os.ReadFile(os.Getenv("ZZ_R"))
	for b.Loop() {
		res, err := Validate(context.Background(), "b", bytes.NewReader(src), "r", bytes.NewReader(resp), Options{})
		if err != nil || res.Verdict != Valid {
			b.Fatal(res, err)
		}
	}
}
