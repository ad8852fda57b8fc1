package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/smtarena/smtarena/internal/config"
	"github.com/smtarena/smtarena/internal/store"
)

// pairExtra is what these tests read of a result's extra columns.
type pairExtra struct {
	Command    []string `json:"command"`
	OutputFile string   `json:"output_file"`
	OutputSize int64    `json:"output_size"`
	Limits     struct {
		CPU, Wall float64
		MemoryMB  int64 `json:"memory_mb"`
		Cores     int
	} `json:"limits"`
}

func extraOf(t *testing.T, r store.Result) pairExtra {
	t.Helper()
	var x pairExtra
	if err := json.Unmarshal([]byte(r.Extra), &x); err != nil {
		t.Fatalf("extra of %s on %s: %v", r.Solver, r.BenchmarkPath, err)
	}
	return x
}

// gunzipIf returns a kept output's bytes: decompressed when name ends in .gz.
func gunzipIf(t *testing.T, name string, b []byte) []byte {
	t.Helper()
	if !strings.HasSuffix(name, ".gz") {
		return b
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

// rerun runs a pair's recorded command again, outside the sandbox: the
// hostile solver prints the same bytes every time.
func rerun(t *testing.T, args []string) []byte {
	t.Helper()
	out, err := exec.Command(args[0], args[1:]...).Output()
	if err != nil {
		t.Fatalf("rerun %q: %v", args, err)
	}
	return out
}

// checkDownloads follows the whole-output link of every pair of the
// hostile solver on its benchmark's page of a static site: the file it
// names is the solver's output, byte for byte (invalid UTF-8 included;
// decompressed when kept compressed, as the large ones are).
func checkDownloads(t *testing.T, ctx context.Context, base, siteDir string, rs []store.Result) {
	pageOf := map[string]string{}
	filepath.Walk(filepath.Join(siteDir, "b"), func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			b, _ := os.ReadFile(p)
			for _, r := range rs {
				if bytes.Contains(b, []byte("<h2>"+r.BenchmarkPath+"</h2>")) {
					pageOf[r.BenchmarkPath], _ = filepath.Rel(siteDir, p)
				}
			}
		}
		return nil
	})
	compressed, plain := 0, 0
	for _, r := range rs {
		if !strings.HasPrefix(r.Solver, "evil") {
			continue
		}
		do(t, ctx, chromedp.Navigate(base+pageOf[r.BenchmarkPath]), chromedp.WaitReady("body"))
		q := `(() => { const s = Array.from(document.querySelectorAll('section.bench')).find(s => s.querySelector('h2').textContent === ` + jsString(r.BenchmarkPath) + `);
			const tr = s && Array.from(s.querySelectorAll('tbody tr')).find(tr => tr.textContent.includes('evil<script>'));
			return tr ? [tr.querySelector('p.download a')?.href || '', tr.querySelector('dl.meta').textContent] : ['', '']; })()`
		got := eval[[]string](t, ctx, q)
		if got[0] == "" {
			t.Errorf("%s: the hostile pair has no link to its whole output (page %s)", r.BenchmarkPath, pageOf[r.BenchmarkPath])
			continue
		}
		if !strings.Contains(got[1], "CPU 10 s, wall 20 s, memory 1024 MB") || !strings.Contains(got[1], "cores 1") {
			t.Errorf("%s: the pair's details do not show its limits: %q", r.BenchmarkPath, got[1])
		}
		u, err := url.Parse(got[0])
		if err != nil || !strings.HasPrefix(u.Path, siteDir+"/files/") {
			t.Errorf("%s: link %s is not a download of the site", r.BenchmarkPath, got[0])
			continue
		}
		b, err := os.ReadFile(u.Path)
		if err != nil {
			t.Errorf("%s: link %s does not resolve: %v", r.BenchmarkPath, got[0], err)
			continue
		}
		if strings.HasSuffix(u.Path, ".gz") {
			compressed++
		} else {
			plain++
		}
		x := extraOf(t, r)
		want := rerun(t, x.Command)
		if got := gunzipIf(t, u.Path, b); !bytes.Equal(got, want) || int64(len(want)) != x.OutputSize {
			t.Errorf("%s: the download (%d bytes) is not the solver's output (%d bytes, recorded %d)", r.BenchmarkPath, len(got), len(want), x.OutputSize)
		}
	}
	if compressed == 0 || plain == 0 {
		t.Errorf("downloads: %d compressed, %d plain; want both (the large outputs compressed)", compressed, plain)
	}
}

// checkServedDownloads gets the hostile solver's whole outputs from serve
// (equal to its output, byte for byte) and tries to get other files of
// the work directory, which serve refuses.
func checkServedDownloads(t *testing.T, base, workDir string, rs []store.Result) {
	get := func(p string) (int, []byte) {
		resp, err := http.Get(base + p)
		if err != nil {
			t.Fatalf("GET %s: %v", p, err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	n := 0
	var one string
	for _, r := range rs {
		x := extraOf(t, r)
		if !strings.HasPrefix(r.Solver, "evil") || x.OutputFile == "" {
			continue
		}
		code, b := get("files/" + x.OutputFile)
		if want := rerun(t, x.Command); code != http.StatusOK || !bytes.Equal(gunzipIf(t, x.OutputFile, b), want) {
			t.Errorf("served %s: %d, %d bytes; want the solver's %d", x.OutputFile, code, len(b), len(want))
		}
		n++
		one = x.OutputFile
	}
	if n == 0 {
		t.Fatal("no output of the hostile solver served")
	}
	// outside the outputs: refused, also through a symbolic link (to a
	// file of the work directory, or out of it)
	dir := filepath.Join(workDir, filepath.Dir(filepath.FromSlash(one)))
	for name, to := range map[string]string{"in.out": "../../smtarena.db", "out.out": "/etc/passwd"} {
		if err := os.Symlink(to, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	d := "files/" + path.Dir(one) + "/"
	for _, p := range []string{"files/smtarena.db", "files/outputs/../smtarena.db", "files/outputs/%2e%2e/smtarena.db", "files/../../etc/passwd",
		d + "in.out", d + "out.out", "files/outputs/..%2fsmtarena.db", "files/outputs"} {
		if code, b := get(p); code == http.StatusOK {
			t.Errorf("GET %s: 200 (%d bytes); want refused", p, len(b))
		}
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// checkKeptOutputs reads every result of a competition of z3 and cvc5
// under the limits of TestCompeteRealSolvers: each records them, and
// keeps the solver's whole output (its answer) in the work directory.
func checkKeptOutputs(t *testing.T, def string, want int) {
	t.Helper()
	cdef, err := config.Load(def)
	if err != nil {
		t.Fatal(err)
	}
	st := openCompeteStore(t, def)
	rs, err := st.Results(context.Background(), store.ResultFilter{Track: "single-query"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != want {
		t.Fatalf("%d results, want %d", len(rs), want)
	}
	for _, r := range rs {
		x := extraOf(t, r)
		if l := x.Limits; l.CPU != 10 || l.Wall != 20 || l.MemoryMB != 1024 || l.Cores != 1 {
			t.Errorf("%s on %s: limits recorded %+v; want CPU 10 s, wall 20 s, 1024 MB, 1 core", r.Solver, r.BenchmarkPath, l)
		}
		if !strings.HasPrefix(x.OutputFile, "outputs/single-query/") {
			t.Errorf("%s on %s: output kept at %q", r.Solver, r.BenchmarkPath, x.OutputFile)
			continue
		}
		b, err := os.ReadFile(filepath.Join(cdef.Path(cdef.WorkDir), filepath.FromSlash(x.OutputFile)))
		if err != nil {
			t.Error(err)
			continue
		}
		if got := strings.TrimSpace(string(b)); got != r.Answer || int64(len(b)) != x.OutputSize {
			t.Errorf("%s on %s: kept output %q (%d bytes, recorded %d), answer %s", r.Solver, r.BenchmarkPath, b, len(b), x.OutputSize, r.Answer)
		}
	}
}
