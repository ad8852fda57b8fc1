package library

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/smtlib"
	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/xz"
	"github.com/smtarena/smtarena/internal/zstd"
)

// IndexOptions tune indexing.
type IndexOptions struct {
	Workers int // default: the number of CPUs
	// Progress, if set, is called every few hundred milliseconds and at
	// the end.
	Progress func(IndexStats)
}

// IndexStats count what indexing did.
type IndexStats struct {
	Files   int   // benchmarks read and recorded
	Skipped int   // unchanged since the last index
	Bytes   int64 // bytes read
	Errors  int   // files that could not be indexed
	Elapsed time.Duration
}

// FileError is a file indexing could not record, and why.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// LibraryPath maps a file path to its path in SMT-LIB's layout,
// (non-)incremental/LOGIC/submitter/.../file: from the track directory if
// the path has one, otherwise as a non-incremental benchmark whose first
// directory is the logic.
func LibraryPath(p string) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(p)), "/")
	for i, s := range parts {
		if (s == "non-incremental" || s == "incremental") && i+2 < len(parts) {
			return strings.Join(parts[i:], "/")
		}
	}
	for len(parts) > 0 && (parts[0] == "" || parts[0] == "." || parts[0] == "..") {
		parts = parts[1:]
	}
	return "non-incremental/" + strings.Join(parts, "/")
}

// job is one file to index: from a directory (fsPath) or an archive (data).
type job struct {
	path   string // library path
	fsPath string
	data   []byte
	sig    store.FileSig
}

// Index reads the benchmarks under each root (a directory tree or a
// .tar[.gz|.xz|.zst] archive, read without unpacking) into the store. Files
// whose size and modification time are unchanged since the last index are
// skipped, so an interrupted index resumes. Files that cannot be read or
// scanned are skipped and returned as FileErrors (joined); everything else
// is recorded.
func Index(ctx context.Context, st store.Store, roots []string, opts IndexOptions) (IndexStats, error) {
	start := time.Now()
	known, err := st.FileSigs(ctx)
	if err != nil {
		return IndexStats{}, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	var (
		mu    sync.Mutex
		stats IndexStats
		errs  []error
	)
	jobs := make(chan job, 4*workers)
	done := make(chan store.Indexed, 4*workers)

	// Producer: walk the roots.
	var walkErr error
	go func() {
		defer close(jobs)
		for _, root := range roots {
			if err := produce(ctx, root, known, jobs, func() { mu.Lock(); stats.Skipped++; mu.Unlock() }); err != nil {
				walkErr = err
				return
			}
		}
	}()

	// Workers: read, hash, scan.
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				b, n, err := indexOne(j)
				mu.Lock()
				stats.Bytes += n
				if err != nil {
					stats.Errors++
					errs = append(errs, &FileError{Path: j.path, Err: err})
				}
				mu.Unlock()
				if err == nil {
					select {
					case done <- b:
					case <-ctx.Done():
						return
					}
				}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()

	// Collector: record in batches, one transaction each.
	const batch = 1000
	var buf []store.Indexed
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		if err := st.UpsertBenchmarks(ctx, buf); err != nil {
			return err
		}
		mu.Lock()
		stats.Files += len(buf)
		mu.Unlock()
		buf = buf[:0]
		return nil
	}
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	report := func() {
		if opts.Progress != nil {
			mu.Lock()
			s := stats
			mu.Unlock()
			s.Elapsed = time.Since(start)
			opts.Progress(s)
		}
	}
	var storeErr error
loop:
	for {
		select {
		case b, ok := <-done:
			if !ok {
				break loop
			}
			buf = append(buf, b)
			if len(buf) >= batch {
				if storeErr = flush(); storeErr != nil {
					cancel()
					break loop
				}
			}
		case <-tick.C:
			report()
		}
	}
	if storeErr == nil {
		storeErr = flush()
	}
	for range done {
		// Drain what the workers finished after an error.
	}
	stats.Elapsed = time.Since(start)
	report()
	switch {
	case storeErr != nil:
		return stats, storeErr
	case walkErr != nil:
		return stats, walkErr
	case ctx.Err() != nil && !errors.Is(ctx.Err(), context.Canceled):
		return stats, ctx.Err()
	}
	return stats, errors.Join(errs...)
}

// produce emits the files of one root.
func produce(ctx context.Context, root string, known map[string]store.FileSig, jobs chan<- job, skipped func()) error {
	st, err := os.Stat(root)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return produceArchive(ctx, root, known, jobs, skipped)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	return filepath.WalkDir(abs, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !isBenchmark(p) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		j := job{path: LibraryPath(p), fsPath: p, sig: store.FileSig{Size: info.Size(), ModTime: info.ModTime().UnixNano()}}
		if k, ok := known[j.path]; ok && k.Size == j.sig.Size && k.ModTime == j.sig.ModTime {
			skipped()
			return nil
		}
		select {
		case jobs <- j:
		case <-ctx.Done():
			return ctx.Err()
		}
		return nil
	})
}

func isBenchmark(p string) bool { return strings.HasSuffix(p, ".smt2") }

// produceArchive streams the benchmarks of a tar archive.
func produceArchive(ctx context.Context, path string, known map[string]store.FileSig, jobs chan<- job, skipped func()) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	var r io.Reader = f
	switch {
	case strings.HasSuffix(path, ".tar.zst") || strings.HasSuffix(path, ".tzst"):
		zr := zstd.NewReader(f)
		defer zr.Close()
		r = zr
	case strings.HasSuffix(path, ".tar.xz") || strings.HasSuffix(path, ".txz"):
		xr, err := xz.NewReader(f)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		r = xr
	case strings.HasSuffix(path, ".tar.gz") || strings.HasSuffix(path, ".tgz"):
		gr, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		defer gr.Close()
		r = gr
	case strings.HasSuffix(path, ".tar"):
	default:
		return fmt.Errorf("%s: not a directory or a .tar, .tar.gz, .tar.xz or .tar.zst archive", path)
	}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if h.Typeflag != tar.TypeReg || !isBenchmark(h.Name) {
			continue
		}
		j := job{path: LibraryPath(h.Name), sig: store.FileSig{Size: h.Size, ModTime: h.ModTime.UnixNano()}}
		if k, ok := known[j.path]; ok && k.Size == j.sig.Size && k.ModTime == j.sig.ModTime {
			skipped()
			continue
		}
		if j.data, err = io.ReadAll(tr); err != nil {
			return fmt.Errorf("%s: %s: %w", path, h.Name, err)
		}
		select {
		case jobs <- j:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// indexOne reads what indexing records of one file.
func indexOne(j job) (store.Indexed, int64, error) {
	data := j.data
	if data == nil {
		var err error
		if data, err = os.ReadFile(j.fsPath); err != nil {
			return store.Indexed{}, 0, err
		}
	}
	n := int64(len(data))
	m, err := smtlib.ScanMeta(j.path, data)
	if err != nil {
		return store.Indexed{}, n, err
	}
	sum := sha256.Sum256(data)
	b := benchmark.Benchmark{
		Path:        j.path,
		Logic:       m.Logic,
		Incremental: strings.HasPrefix(j.path, "incremental/"),
		Category:    benchmark.ParseCategory(m.Category),
		Status:      benchmark.ParseStatus(m.Status),
		Difficulty:  -1,
		Asserts:     m.Asserts,
		CheckSats:   m.CheckSats,
		Size:        n,
		Hash:        hex.EncodeToString(sum[:]),
	}
	if b.Logic == "" {
		b.Logic = benchmark.LogicOfPath(j.path)
	}
	if d, err := strconv.ParseFloat(m.Difficulty, 64); err == nil {
		b.Difficulty = d
	}
	if b.Incremental {
		b.Status = benchmark.Unknown
		for _, s := range m.CheckSatStatuses {
			b.Statuses = append(b.Statuses, benchmark.ParseStatus(s))
		}
	}
	j.sig.Hash = b.Hash
	return store.Indexed{Benchmark: b, Sig: j.sig}, n, nil
}
