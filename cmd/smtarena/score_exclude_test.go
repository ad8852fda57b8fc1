package main

import (
	"archive/tar"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/benchmark"
)

func TestReadExclusions(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "blacklist.txt")
	if err := os.WriteFile(plain, []byte("./QF_LIA/a/1.smt2\nQF_LIA/a/2.smt2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	for name, body := range map[string]string{"l1.txt": "ALIA/x.smt2\n", "._l1.txt": "junk", "l2.txt": "UF/y.smt2\nUF/z.smt2\n"} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
	}
	tw.Close()
	arch := filepath.Join(dir, "lists.tar")
	if err := os.WriteFile(arch, tb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	exs, err := readExclusions([]string{plain, arch})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ex := range exs {
		n += len(ex.Benchmarks)
	}
	if len(exs) != 3 || n != 5 || !exs[0].Benchmarks["QF_LIA/a/1.smt2"] {
		t.Errorf("%d lists, %d benchmarks: %+v", len(exs), n, exs)
	}
	if _, err := readExclusions([]string{filepath.Join(dir, "none.txt")}); err == nil || !strings.Contains(err.Error(), "--exclude") {
		t.Errorf("a missing list: %v", err)
	}
}

func TestReadExperimental(t *testing.T) {
	f := filepath.Join(t.TempDir(), "experimental.csv")
	if err := os.WriteFile(f, []byte("track,logic\nmodel_validation,QF_LIA\nmodel_validation,QF_IDL\nsingle_query,QF_S\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readExperimental(f, benchmark.ModelValidation)
	if err != nil || strings.Join(got, ",") != "QF_LIA,QF_IDL" {
		t.Errorf("%v %v", got, err)
	}
	if got, _ := readExperimental("QF_FPArith,QF_UF", benchmark.ModelValidation); strings.Join(got, ",") != "QF_FPArith,QF_UF" {
		t.Errorf("a list: %v", got)
	}
}
