package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// FilesDir is where a site keeps the pairs' whole outputs, under the same
// relative path as in the work directory: files/outputs/<track>/<id>.out.
const FilesDir = "files/"

// OutputFile checks a result's output_file (a path relative to the work
// directory that compete recorded): it must stay inside the work directory
// and name a kept output or proof. ok is false for anything else, so that
// a hostile or foreign store cannot make a site copy or serve other files.
func OutputFile(rel string) (clean string, ok bool) {
	if rel == "" || strings.Contains(rel, `\`) || !filepath.IsLocal(filepath.FromSlash(rel)) || path.Clean(rel) != rel {
		return "", false
	}
	if !strings.HasPrefix(rel, "outputs/") && !strings.HasPrefix(rel, "proofs/") {
		return "", false
	}
	return rel, true
}

// WorkDir is the directory the pairs' output files are in ("" when none).
func (s *Site) WorkDir() string { return s.in.WorkDir }

// outputOf is the pair's kept output, when the site has it: its path
// relative to the work directory and its size.
func (s *Site) outputOf(x map[string]any) (rel string, size int64, ok bool) {
	if s.in.WorkDir == "" {
		return "", 0, false
	}
	f, _ := x["output_file"].(string)
	rel, ok = OutputFile(f)
	if !ok {
		return "", 0, false
	}
	if st, err := os.Lstat(filepath.Join(s.in.WorkDir, filepath.FromSlash(rel))); err != nil || !st.Mode().IsRegular() {
		return "", 0, false // gone (no broken link), or not a kept output
	}
	n, _ := x["output_size"].(float64)
	return rel, int64(n), true
}

// outputLink links the pair's whole output, when the site has it.
func (s *Site) outputLink(p *page, x map[string]any) {
	rel, size, ok := s.outputOf(x)
	if !ok {
		return
	}
	p.raw(`<p class="download">`)
	p.link(FilesDir+rel, "the whole output")
	note := fmt.Sprintf(" (%d bytes", size)
	if strings.HasSuffix(rel, ".gz") {
		note += ", gzip-compressed"
	}
	p.text(note + ")")
	p.raw("</p>")
}

// limitsText shows the limits a pair ran under (compete records them).
func limitsText(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return extraText(v)
	}
	var parts []string
	for _, f := range []struct{ key, name, unit string }{{"cpu", "CPU", " s"}, {"wall", "wall", " s"}, {"memory_mb", "memory", " MB"},
		{"output_mb", "output", " MB"}, {"cores", "cores", ""}} {
		if n, ok := m[f.key].(float64); ok {
			if n == 0 && f.key != "cores" {
				parts = append(parts, f.name+" unlimited")
				continue
			}
			parts = append(parts, f.name+" "+strconv.FormatFloat(n, 'f', -1, 64)+f.unit)
		}
	}
	return strings.Join(parts, ", ")
}

// copyOutputs puts every pair's kept output into dir/files/, hard-linked
// when dir is on the work directory's file system, else copied. It
// returns how many files and bytes.
func (s *Site) copyOutputs(dir string) (files int, bytesN int64, err error) {
	if s.in.WorkDir == "" {
		return 0, 0, nil
	}
	for _, td := range s.tracks {
		for i := range td.in.Results {
			extra := td.in.Results[i].Extra
			if !strings.Contains(extra, `"output_file"`) {
				continue
			}
			var x struct {
				File string `json:"output_file"`
			}
			if json.Unmarshal([]byte(extra), &x) != nil {
				continue
			}
			rel, ok := OutputFile(x.File)
			if !ok {
				continue
			}
			src := filepath.Join(s.in.WorkDir, filepath.FromSlash(rel))
			dst := filepath.Join(dir, filepath.FromSlash(FilesDir+rel))
			n, err := linkOrCopy(src, dst)
			if errors.Is(err, os.ErrNotExist) {
				continue // the pair page shows no link either
			}
			if err != nil {
				return files, bytesN, fmt.Errorf("report: output of %s: %w", td.in.Results[i].BenchmarkPath, err)
			}
			files++
			bytesN += n
		}
	}
	return files, bytesN, nil
}

// linkOrCopy makes dst the same file as src: a hard link, else a copy.
func linkOrCopy(src, dst string) (int64, error) {
	st, err := os.Lstat(src)
	if err != nil {
		return 0, err
	}
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("%s: %w (not a regular file)", src, os.ErrNotExist)
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return 0, err
	}
	_ = os.Remove(dst) // an older site's copy
	if os.Link(src, dst) == nil {
		return st.Size(), nil
	}
	in, err := os.Open(src)
	if err != nil {
		return 0, err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return n, err
}
