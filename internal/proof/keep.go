package proof

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
)

// CompressAbove is the size above which a solver's output is kept
// gzip-compressed (the official wrapper compressed every proof below 1 GB
// and kept none above; here every proof is kept).
const CompressAbove = 64 << 10

// Kept is where a solver's output was kept.
type Kept struct {
	Path       string // the file: the output itself, or Path+".gz"
	Bytes      int64  // size of the output
	Stored     int64  // size of the file kept
	Compressed bool
}

// Keep keeps the output at path: as is when it is at most above bytes,
// gzip-compressed into path.gz (and path removed) otherwise. The
// compressed file is written beside and renamed into place, so an
// interrupted Keep leaves the output whole.
func Keep(path string, above int64) (Kept, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Kept{}, err
	}
	k := Kept{Path: path, Bytes: st.Size(), Stored: st.Size()}
	if st.Size() <= above {
		return k, nil
	}
	in, err := os.Open(path)
	if err != nil {
		return Kept{}, err
	}
	defer in.Close()
	gz := path + ".gz"
	tmp := gz + ".tmp"
	out, err := os.Create(tmp)
	if err != nil {
		return Kept{}, err
	}
	zw := gzip.NewWriter(out)
	_, err = io.Copy(zw, in)
	if cerr := zw.Close(); err == nil {
		err = cerr
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return Kept{}, fmt.Errorf("compress %s: %w", path, err)
	}
	if err := os.Rename(tmp, gz); err != nil {
		return Kept{}, err
	}
	if err := os.Remove(path); err != nil {
		return Kept{}, err
	}
	zst, err := os.Stat(gz)
	if err != nil {
		return Kept{}, err
	}
	k.Path, k.Stored, k.Compressed = gz, zst.Size(), true
	return k, nil
}

// Open opens a kept output for reading, decompressing it if needed.
func Open(k Kept) (io.ReadCloser, error) {
	f, err := os.Open(k.Path)
	if err != nil || !k.Compressed {
		return f, err
	}
	zr, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", k.Path, err)
	}
	return struct {
		io.Reader
		io.Closer
	}{zr, f}, nil
}
