package validate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/smtarena/smtarena/internal/scramble"
)

// File writes the validation file of a core as the official scrambler's
// -core filter does (scrambler -seed 0 -term_annot false -core ANSWER on
// the file the solver was given): a ";; parsed N names" line, the named
// assertions not in the core dropped, unnamed ones kept, annotations
// removed, (set-option :produce-unsat-cores true) and (get-unsat-core)
// gone. names are the core's names that name assertions, so that two
// cores that keep the same assertions give the same file.
func File(input []byte, file string, names []string) ([]byte, error) {
	core := make(map[string]bool, len(names))
	for _, n := range names {
		core[n] = true
	}
	var out bytes.Buffer
	if _, err := scramble.Scramble(&out, bytes.NewReader(input), file, scramble.Options{Annot: scramble.AnnotNone, Core: core}); err != nil {
		return nil, fmt.Errorf("validation file of %s: %w", file, err)
	}
	return out.Bytes(), nil
}

// Hash names a validation file by its contents: identical cores of one
// benchmark share it, and are validated once.
func Hash(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:16])
}

// WriteFile writes a validation file as dir/HASH.smt2 (once: an existing
// one has the same contents) and returns its path and hash.
func WriteFile(dir string, data []byte) (path, hash string, err error) {
	hash = Hash(data)
	path = filepath.Join(dir, hash+".smt2")
	if _, err := os.Stat(path); err == nil {
		return path, hash, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	tmp, err := os.CreateTemp(dir, hash+".*.tmp")
	if err != nil {
		return "", "", err
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return "", "", werr
	}
	return path, hash, nil
}
