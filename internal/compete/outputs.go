package compete

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/smtarena/smtarena/internal/proof"
	"github.com/smtarena/smtarena/internal/sandbox"
	"github.com/smtarena/smtarena/internal/store"
)

// outputPath is where a pair's whole output is kept, relative to the work
// directory: outputs/<track>/<pair id>.out (.gz when large).
func (r *runner) outputPath(p store.Pair) string {
	return filepath.Join("outputs", string(r.track), fmt.Sprintf("%d.out", p.ID))
}

// keepOutput keeps a pair's whole output in the work directory (the track's
// output limit bounds it), gzip-compressed above proof.CompressAbove as
// proofs are, and records where in extra: output_file (relative to the
// work directory, with /) and output_size (the output's bytes).
func (r *runner) keepOutput(p store.Pair, out []byte, extra map[string]any) error {
	path, err := r.writeOutput(p, out)
	if err != nil {
		return err
	}
	return r.compressOutput(path, extra)
}

// writeOutput writes a pair's whole output, uncompressed, where keepOutput
// keeps it, and returns the path; compressOutput finishes the keeping (the
// model-validation track validates the file in between, so that the
// output is written once).
func (r *runner) writeOutput(p store.Pair, out []byte) (string, error) {
	path := filepath.Join(r.p.Def.Path(r.p.Def.WorkDir), r.outputPath(p))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	// a .gz of an earlier run of the pair (resumed) would be stale
	if err := os.Remove(path + ".gz"); err != nil && !os.IsNotExist(err) {
		return "", err
	}
	// written beside and renamed: a site may hold a hard link to the
	// file of an earlier run (report links the outputs)
	if err := os.WriteFile(path+".tmp", out, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return "", err
	}
	return path, nil
}

// compressOutput compresses a written output if it is large and records
// where it is kept in extra.
func (r *runner) compressOutput(path string, extra map[string]any) error {
	k, err := proof.Keep(path, proof.CompressAbove)
	if err != nil {
		return err
	}
	recordKept(extra, r.p.Def.Path(r.p.Def.WorkDir), k)
	return nil
}

// recordKept records a kept output in extra (see keepOutput).
func recordKept(extra map[string]any, workDir string, k proof.Kept) {
	rel, err := filepath.Rel(workDir, k.Path)
	if err != nil || !filepath.IsLocal(rel) {
		return // kept outside the work directory: not offered for download
	}
	extra["output_file"], extra["output_size"] = filepath.ToSlash(rel), k.Bytes
}

// recordLimits records the limits a pair ran under in extra: CPU and wall
// seconds, memory and output MB, and the number of cores.
func recordLimits(extra map[string]any, l sandbox.Limits) {
	extra["limits"] = map[string]any{"cpu": l.CPU.Seconds(), "wall": l.Wall.Seconds(), "memory_mb": l.MemoryBytes >> 20,
		"output_mb": l.OutputBytes >> 20, "cores": len(l.Cores)}
}
