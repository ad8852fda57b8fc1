package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smtarena/smtarena/internal/benchmark"
	"github.com/smtarena/smtarena/internal/report"
	"github.com/smtarena/smtarena/internal/store"
)

func input() *report.Input {
	return &report.Input{Title: "t", Tracks: []report.Track{{Track: benchmark.SingleQuery, Results: []store.Result{
		{ID: 1, Solver: "z3", BenchmarkPath: "non-incremental/QF_UF/a.smt2", Status: "complete", Answer: "sat", Expected: "sat", Wall: 1,
			Extra: `{"division":"QF_Equality","output":"<script>alert(1)</script>"}`},
	}}}}
}

func TestCheckAddr(t *testing.T) {
	for _, c := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:8080", "", true}, {"localhost:0", "", true}, {"[::1]:80", "", true},
		{"0.0.0.0:8080", "", false}, {":8080", "", false}, {"192.0.2.1:80", "", false},
		{"0.0.0.0:8080", "s3cret", true}, {"nonsense", "", false},
	} {
		if err := CheckAddr(c.addr, c.token); (err == nil) != c.ok {
			t.Errorf("CheckAddr(%q, %q) = %v", c.addr, c.token, err)
		}
	}
}

func get(t *testing.T, h http.Handler, method, target string, hdr map[string]string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(method, target, nil)
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestServeToken(t *testing.T) {
	s := New(Options{Token: "s3cret", Load: func(context.Context) (*report.Input, error) { return input(), nil }})
	if err := s.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	if w := get(t, s, "GET", "/", nil); w.Code != http.StatusUnauthorized {
		t.Errorf("no token: %d", w.Code)
	}
	if w := get(t, s, "GET", "/?token=wrong", nil); w.Code != http.StatusUnauthorized {
		t.Errorf("wrong token: %d", w.Code)
	}
	w := get(t, s, "GET", "/?token=s3cret", nil)
	if w.Code != 200 || !strings.Contains(w.Body.String(), "<h1>t</h1>") {
		t.Fatalf("token: %d %s", w.Code, w.Body.String())
	}
	cookie := w.Result().Cookies()
	if len(cookie) != 1 || !cookie[0].HttpOnly {
		t.Fatalf("cookie: %v", cookie)
	}
	if w := get(t, s, "GET", "/assets/site.css", map[string]string{"Cookie": cookie[0].Name + "=" + cookie[0].Value}); w.Code != 200 {
		t.Errorf("with the cookie: %d", w.Code)
	}
	if w := get(t, s, "GET", "/api/progress.json", map[string]string{"Authorization": "Bearer s3cret"}); w.Code != 200 {
		t.Errorf("with the header: %d", w.Code)
	}
	if w := get(t, s, "GET", "/api/progress.json", map[string]string{"Authorization": "Bearer nope"}); w.Code != 401 {
		t.Errorf("with a wrong header: %d", w.Code)
	}
}

func TestServeReadOnly(t *testing.T) {
	s := New(Options{Load: func(context.Context) (*report.Input, error) { return input(), nil }})
	if err := s.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH"} {
		if w := get(t, s, m, "/index.html", nil); w.Code != http.StatusMethodNotAllowed {
			t.Errorf("%s: %d", m, w.Code)
		}
	}
	w := get(t, s, "GET", "/index.html", nil)
	if w.Code != 200 || w.Header().Get("Content-Security-Policy") == "" || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
		t.Errorf("index: %d %v", w.Code, w.Header())
	}
	if w := get(t, s, "GET", "/../../etc/passwd", nil); w.Code != 404 {
		t.Errorf("outside the site: %d", w.Code)
	}
	w = get(t, s, "GET", "/api/progress.json", nil)
	var p struct {
		Results int `json:"results"`
		Latest  []struct {
			Solver   string `json:"solver"`
			Division string `json:"division"`
		} `json:"latest"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || p.Results != 1 || len(p.Latest) != 1 || p.Latest[0].Division != "QF_Equality" {
		t.Errorf("progress.json: %v %s", err, w.Body.String())
	}
}

// TestServeRun listens on a loopback port and refuses another address
// without a token.
func TestServeRun(t *testing.T) {
	s := New(Options{Load: func(context.Context) (*report.Input, error) { return input(), nil }, Refresh: 50 * time.Millisecond})
	if err := s.Run(context.Background(), "0.0.0.0:0", nil); err == nil || !strings.Contains(err.Error(), "--token") {
		t.Errorf("off loopback without a token: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, "127.0.0.1:0", func(a net.Addr) { addr <- a }) }()
	a := <-addr
	resp, err := http.Get("http://" + a.String() + "/solvers.html")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET: %v %v", err, resp)
	}
	resp.Body.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// TestServeBuilding: before the first build, a page that says so.
func TestServeBuilding(t *testing.T) {
	s := New(Options{Load: func(context.Context) (*report.Input, error) { return input(), nil }})
	w := get(t, s, "GET", "/index.html", nil)
	if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "being built") || w.Header().Get("Retry-After") == "" {
		t.Errorf("before the first build: %d %s", w.Code, w.Body.String())
	}
}

func TestETA(t *testing.T) {
	for _, c := range []struct {
		g    report.Progress
		rate float64
		want float64
	}{
		{report.Progress{Planned: 10, Done: 10}, 0, 0},
		{report.Progress{Planned: 10, Done: 4}, 0, -1},
		{report.Progress{Planned: 10, Done: 4}, 2, 3},
	} {
		if got := eta(c.g, c.rate); got != c.want {
			t.Errorf("eta(%+v, %v) = %v, want %v", c.g, c.rate, got, c.want)
		}
	}
}

// TestLatest: progress.json lists the 15 results of highest id, newest
// first.
func TestLatest(t *testing.T) {
	in := input()
	rs := in.Tracks[0].Results
	for i := 2; i <= 40; i++ {
		r := rs[0]
		r.ID = int64((i * 7) % 41) // not in order
		r.Solver = fmt.Sprint("s", r.ID)
		in.Tracks[0].Results = append(in.Tracks[0].Results, r)
	}
	s := New(Options{Load: func(context.Context) (*report.Input, error) { return in, nil }})
	if err := s.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	var p struct {
		Latest []struct {
			Solver string `json:"solver"`
		} `json:"latest"`
	}
	if err := json.Unmarshal(get(t, s, "GET", "/api/progress.json", nil).Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range p.Latest {
		got = append(got, l.Solver)
	}
	if want := "s40 s39 s38 s37 s36 s35 s34 s33 s32 s31 s30 s29 s28 s27 s26"; strings.Join(got, " ") != want {
		t.Errorf("latest: %v, want %s", got, want)
	}
}

// TestServeOutputs serves a pair's kept output from the work directory
// (bytes as they are, invalid UTF-8 included; a .gz as it is) and nothing
// else of it: no path out of outputs/ or proofs/, no symbolic link, no
// directory; and none at all without a work directory.
func TestServeOutputs(t *testing.T) {
	work := t.TempDir()
	out := []byte("<script>alert(1)</script>\n\xff\xfe bad\x00bytes\n")
	for name, b := range map[string][]byte{"outputs/single-query/1.out": out, "outputs/single-query/2.out.gz": {0x1f, 0x8b, 8}, "secret.db": []byte("secret")} {
		p := filepath.Join(work, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink("../../secret.db", filepath.Join(work, "outputs/single-query/3.out"))
	os.Symlink("/etc/passwd", filepath.Join(work, "outputs/single-query/4.out"))
	for _, dir := range []string{work, ""} {
		s := New(Options{Load: func(context.Context) (*report.Input, error) {
			in := input()
			in.WorkDir = dir
			return in, nil
		}})
		if err := s.Load(context.Background()); err != nil {
			t.Fatal(err)
		}
		w := get(t, s, "GET", "/files/outputs/single-query/1.out", nil)
		if dir == "" {
			if w.Code != http.StatusNotFound {
				t.Errorf("without a work directory: %d", w.Code)
			}
			continue
		}
		if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), out) || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
			t.Errorf("output: %d %q %s", w.Code, w.Body.Bytes(), w.Header().Get("Content-Type"))
		}
		if w := get(t, s, "GET", "/files/outputs/single-query/2.out.gz", nil); w.Code != 200 || w.Header().Get("Content-Type") != "application/gzip" || w.Body.Len() != 3 {
			t.Errorf("compressed output: %d %s %d bytes", w.Code, w.Header().Get("Content-Type"), w.Body.Len())
		}
		for _, p := range []string{"/files/secret.db", "/files/outputs/../secret.db", "/files/outputs/%2e%2e/secret.db", "/files/outputs/..%2fsecret.db",
			"/files/outputs/single-query/3.out", "/files/outputs/single-query/4.out", "/files/outputs/single-query", "/files/outputs/single-query/9.out"} {
			if w := get(t, s, "GET", p, nil); w.Code != http.StatusNotFound {
				t.Errorf("GET %s: %d %q; want 404", p, w.Code, w.Body.String())
			}
		}
		if w := get(t, s, "POST", "/files/outputs/single-query/1.out", nil); w.Code != http.StatusMethodNotAllowed {
			t.Errorf("POST: %d", w.Code)
		}
	}
}
