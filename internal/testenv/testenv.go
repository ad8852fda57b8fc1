package testenv

import (
	"archive/tar"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"testing"
	"time"
)

// Skipf skips the test with the reason, or fails it when skips are not
// allowed.
func Skipf(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("SMTARENA_TEST_DISALLOW_SKIP") != "" {
		t.Fatalf("SMTARENA_TEST_DISALLOW_SKIP is set, so this test may not skip: "+format, args...)
	}
	t.Skipf(format, args...)
}

// Root returns the repository's top directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Shared returns the path of a directory under ../shared (SMTARENA_SHARED
// overrides the location), skipping the test if it is absent.
func Shared(t testing.TB, sub string) string {
	t.Helper()
	dir := os.Getenv("SMTARENA_SHARED")
	if dir == "" {
		dir = filepath.Join(Root(), "..", "shared")
	}
	p := filepath.Join(dir, sub)
	if _, err := os.Stat(p); err != nil {
		Skipf(t, "needs the shared test data at %s: %v", p, err)
	}
	return p
}

// SharedTar returns a tar of the directory sub of ../shared (as Shared
// finds it), its files in lexical order: the input of the decoders'
// benchmarks.
func SharedTar(t testing.TB, sub string) []byte {
	t.Helper()
	dir := Shared(t, sub)
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if err := tw.WriteHeader(&tar.Header{Name: rel, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	tw.Close()
	return buf.Bytes()
}

// Files returns the files under dir whose names end in ext, in lexical order.
func Files(t testing.TB, dir, ext string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && filepath.Ext(p) == ext {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Median is the median of durations measured by a benchmark (the figures
// the issues ask for are medians: the machines are noisy). It sorts d.
func Median(d []time.Duration) time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}

// Filter runs a command-line tool (of the Debian package pkg) with args,
// src on its standard input, and returns its output; the test skips if the
// tool is missing and fails if it fails. The compression tests make their
// inputs with the reference tools so.
func Filter(t testing.TB, tool, pkg string, src []byte, args ...string) []byte {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		Skipf(t, "needs the %s command (Debian package %s): %v", tool, pkg, err)
	}
	cmd := exec.Command(tool, args...)
	cmd.Stdin = bytes.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %v: %v", tool, args, err)
	}
	return out
}

// CPUTime is the CPU time the process has used, user and system (0 if
// unknown): benchmarks print it beside wall times, which follow the load of
// a shared machine.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Encode compresses src with a reference library's writer (the decoders'
// tests compare with them).
func Encode[W io.WriteCloser](t testing.TB, src []byte, newWriter func(io.Writer) (W, error)) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := newWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(src); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
