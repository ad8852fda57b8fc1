package library

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/testenv"
	"github.com/ulikunitz/xz"
)

func openStore(t *testing.T) store.Store {
	t.Helper()
	s, err := store.OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "s.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

var (
	reLogic   = regexp.MustCompile(`\(set-logic\s+([A-Za-z_]+)\)`)
	reStatus  = regexp.MustCompile(`\(set-info\s+:status\s+(sat|unsat|unknown)\)`)
	reAssert  = regexp.MustCompile(`\(assert[\s(]`)
	reCheck   = regexp.MustCompile(`\(check-sat\)`)
	reComment = regexp.MustCompile(`;[^\n]*`)
)

// TestIndexShared indexes the shared benchmarks and compares every record
// with what the file itself says (read here with plain regular
// expressions, independently of the scanner).
func TestIndexShared(t *testing.T) {
	dir := testenv.Shared(t, "benchmarks")
	st := openStore(t)
	ctx := context.Background()
	stats, err := Index(ctx, st, []string{dir}, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	files := testenv.Files(t, dir, ".smt2")
	if stats.Files != len(files) || stats.Errors != 0 {
		t.Fatalf("indexed %d files (%d errors), the directory has %d", stats.Files, stats.Errors, len(files))
	}
	bs, err := st.Benchmarks(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]benchmark.Benchmark{}
	for _, b := range bs {
		byPath[b.Path] = b
	}
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		b, ok := byPath[rel]
		if !ok {
			t.Errorf("%s not indexed", rel)
			continue
		}
		src, _ := os.ReadFile(f)
		text := reComment.ReplaceAllString(string(src), "")
		if m := reLogic.FindStringSubmatch(text); m == nil || b.Logic != m[1] || !strings.Contains(rel, "/"+m[1]+"/") {
			t.Errorf("%s: logic %q", rel, b.Logic)
		}
		parts := strings.Split(rel, "/")
		if fam := benchmark.Family(b.Path, 2022); fam != strings.Join(parts[2:len(parts)-1], "/") {
			t.Errorf("%s: family %q", rel, fam)
		}
		if b.Size != int64(len(src)) || b.CheckSats != len(reCheck.FindAllString(text, -1)) || b.Asserts != len(reAssert.FindAllString(text, -1)) {
			t.Errorf("%s: size %d check-sats %d asserts %d", rel, b.Size, b.CheckSats, b.Asserts)
		}
		if b.Incremental != strings.HasPrefix(rel, "incremental/") {
			t.Errorf("%s: incremental %v", rel, b.Incremental)
		}
		if b.Incremental {
			exp, _ := os.ReadFile(f + ".expected")
			if n := len(strings.Fields(string(exp))); n != b.CheckSats {
				t.Errorf("%s: %d check-sats, .expected has %d answers", rel, b.CheckSats, n)
			}
			continue
		}
		if m := reStatus.FindStringSubmatch(text); m == nil || string(b.Status) != m[1] {
			t.Errorf("%s: status %q", rel, b.Status)
		}
	}
	// A second index skips every file.
	again, err := Index(ctx, st, []string{dir}, IndexOptions{})
	if err != nil || again.Files != 0 || again.Skipped != len(files) {
		t.Errorf("re-index: %+v %v", again, err)
	}
}

// qfidlTar returns a tar of the shared QF_IDL benchmarks, their names
// under prefix, and the files.
func qfidlTar(t *testing.T, prefix string) (*bytes.Buffer, []string) {
	t.Helper()
	dir := testenv.Shared(t, "benchmarks")
	files := testenv.Files(t, filepath.Join(dir, "non-incremental", "QF_IDL"), ".smt2")
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	for _, f := range files {
		src, _ := os.ReadFile(f)
		rel, _ := filepath.Rel(dir, f)
		_ = tw.WriteHeader(&tar.Header{Name: prefix + rel, Mode: 0o644, Size: int64(len(src)), Typeflag: tar.TypeReg})
		_, _ = tw.Write(src)
	}
	tw.Close()
	return &raw, files
}

// TestIndexArchives reads the same files from tar archives in each
// compression, without unpacking them.
func TestIndexArchives(t *testing.T) {
	raw, files := qfidlTar(t, "release/")
	compress := map[string]func(io.Writer) io.WriteCloser{
		".tar.gz":  func(w io.Writer) io.WriteCloser { return gzip.NewWriter(w) },
		".tar.xz":  func(w io.Writer) io.WriteCloser { x, _ := xz.NewWriter(w); return x },
		".tar.zst": func(w io.Writer) io.WriteCloser { z, _ := zstd.NewWriter(w); return z },
	}
	for ext, mk := range compress {
		t.Run(ext, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "QF_IDL"+ext)
			f, _ := os.Create(p)
			w := mk(f)
			_, _ = w.Write(raw.Bytes())
			w.Close()
			f.Close()
			st := openStore(t)
			stats, err := Index(context.Background(), st, []string{p}, IndexOptions{})
			if err != nil || stats.Files != len(files) {
				t.Fatalf("%+v %v", stats, err)
			}
			bs, _ := st.Benchmarks(context.Background(), store.Filter{Logic: "QF_IDL"})
			if len(bs) != len(files) || !strings.HasPrefix(bs[0].Path, "non-incremental/QF_IDL/") {
				t.Errorf("%d benchmarks, first %q", len(bs), bs[0].Path)
			}
		})
	}
}

// TestIndexZstdCLI reads a .tzst made by the zstd command (a long window,
// as SMT-LIB releases may use) through internal/zstd, and names the
// archive and the compressed offset when it is cut short.
func TestIndexZstdCLI(t *testing.T) {
	raw, files := qfidlTar(t, "")
	comp := testenv.Filter(t, "zstd", "zstd", raw.Bytes(), "-q", "-c", "-19", "--long=27")
	p := filepath.Join(t.TempDir(), "QF_IDL.tzst")
	_ = os.WriteFile(p, comp, 0o644)
	stats, err := Index(context.Background(), openStore(t), []string{p}, IndexOptions{})
	if err != nil || stats.Files != len(files) {
		t.Fatalf("%+v %v", stats, err)
	}
	cut := filepath.Join(t.TempDir(), "cut.tar.zst")
	_ = os.WriteFile(cut, comp[:len(comp)/2], 0o644)
	_, err = Index(context.Background(), openStore(t), []string{cut}, IndexOptions{})
	if err == nil || !strings.Contains(err.Error(), "cut.tar.zst") || !strings.Contains(err.Error(), "zstd: at compressed byte") {
		t.Fatalf("cut archive: %v", err)
	}
}

// TestIndexBadFile records the good files and names the bad one.
func TestIndexBadFile(t *testing.T) {
	root := t.TempDir()
	d := filepath.Join(root, "non-incremental", "QF_UF", "fam")
	_ = os.MkdirAll(d, 0o755)
	_ = os.WriteFile(filepath.Join(d, "good.smt2"), []byte("(set-logic QF_UF)(set-info :status sat)(check-sat)"), 0o644)
	_ = os.WriteFile(filepath.Join(d, "bad.smt2"), []byte("(set-logic QF_UF)\n(assert (and true)\n"), 0o644)
	st := openStore(t)
	stats, err := Index(context.Background(), st, []string{root}, IndexOptions{})
	if err == nil || !strings.Contains(err.Error(), "non-incremental/QF_UF/fam/bad.smt2") || stats.Files != 1 || stats.Errors != 1 {
		t.Errorf("stats %+v, err %v", stats, err)
	}
}

func TestLibraryPath(t *testing.T) {
	for in, want := range map[string]string{
		"/x/y/non-incremental/QF_LIA/a/b.smt2": "non-incremental/QF_LIA/a/b.smt2",
		"incremental/QF_BV/s/f.smt2":           "incremental/QF_BV/s/f.smt2",
		"QF_LIA/a/b.smt2":                      "non-incremental/QF_LIA/a/b.smt2",
		"./QF_LIA/a/b.smt2":                    "non-incremental/QF_LIA/a/b.smt2",
	} {
		if got := LibraryPath(in); got != want {
			t.Errorf("%s: %s", in, got)
		}
	}
}
