package web

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smtarena/smtarena/internal/report"
	"github.com/smtarena/smtarena/internal/store"
)

// Options configure a server.
type Options struct {
	// Token, when set, must come with every request: ?token=, a cookie
	// set from it, or "Authorization: Bearer TOKEN".
	Token string
	// Load reads and scores the competition from the store.
	Load func(ctx context.Context) (*report.Input, error)
	// Counts returns the pairs per track and state (a cheap query, run at
	// every refresh); nil for a store without pairs (imported data).
	Counts func(ctx context.Context) (map[string]map[string]int, error)
	// Nodes, when set, returns the running and done pairs per track and
	// node (track -> node -> state -> count), shown as a row per node.
	Nodes func(ctx context.Context) (map[string]map[string]map[string]int, error)
	// Refresh is how often the store is looked at (default 2 s).
	Refresh time.Duration
	Log     *slog.Logger
}

// CheckAddr refuses an address other than loopback unless a token is given.
func CheckAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	if token == "" {
		return fmt.Errorf("refusing to listen on %s, which is not loopback, without --token (every request must then carry it)", addr)
	}
	return nil
}

// snapshot is a built site and what progress.json says of it.
type snapshot struct {
	site     *report.Site
	rendered map[string][]byte // the heavy pages, rendered at build time
	progress []report.Progress
	results  int
	latest   []latest
	built    time.Time
}

type latest struct {
	Track     string  `json:"track"`
	Division  string  `json:"division"`
	Solver    string  `json:"solver"`
	Benchmark string  `json:"benchmark"`
	Status    string  `json:"status"`
	Answer    string  `json:"answer"`
	Wall      float64 `json:"wall"`
}

// Server serves the site.
type Server struct {
	opts Options
	snap atomic.Pointer[snapshot]

	mu       sync.Mutex
	counts   map[string]map[string]int
	nodes    map[string]map[string]map[string]int
	firstAt  map[string]time.Time // when each track's done count was first seen
	firstN   map[string]int
	lastLoad error
}

// New makes a server; Run loads the site before serving.
func New(opts Options) *Server {
	if opts.Refresh <= 0 {
		opts.Refresh = 2 * time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	return &Server{opts: opts, firstAt: map[string]time.Time{}, firstN: map[string]int{}}
}

// Load builds the site now (Run calls it first, then in the background).
func (s *Server) Load(ctx context.Context) error {
	in, err := s.opts.Load(ctx)
	if err != nil {
		return err
	}
	in.Live = true
	if in.Progress == nil {
		in.Progress = []report.Progress{}
	}
	snap := &snapshot{site: report.Build(in), progress: in.Progress, built: time.Now(), rendered: map[string][]byte{}}
	if err := snap.prerender(ctx); err != nil {
		return err
	}
	// the latest results: the 15 highest ids (kept sorted, newest first)
	const keep = 15
	type idr struct {
		id int64
		t  int
		r  *store.Result
	}
	var recent []idr
	for ti, t := range in.Tracks {
		snap.results += len(t.Results)
		for i := range t.Results {
			r := &t.Results[i]
			if len(recent) == keep && r.ID <= recent[keep-1].id {
				continue
			}
			k := sort.Search(len(recent), func(j int) bool { return recent[j].id < r.ID })
			recent = append(recent, idr{})
			copy(recent[k+1:], recent[k:])
			recent[k] = idr{r.ID, ti, r}
			if len(recent) > keep {
				recent = recent[:keep]
			}
		}
	}
	var all []latest
	for _, x := range recent {
		r := x.r
		all = append(all, latest{string(in.Tracks[x.t].Track), divisionOf(*r), r.Solver, r.BenchmarkPath, r.Status, r.Answer, r.Wall})
	}
	snap.latest = all
	s.snap.Store(snap)
	return nil
}

// prerender renders the heavy pages on every core.
func (snap *snapshot) prerender(ctx context.Context) error {
	heavy := snap.site.Heavy()
	out := make([][]byte, len(heavy))
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < runtime.NumCPU(); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(heavy) {
					return
				}
				out[i], _ = snap.site.Render(heavy[i])
			}
		}()
	}
	wg.Wait()
	for i, p := range heavy {
		snap.rendered[p] = out[i]
	}
	return ctx.Err()
}

func divisionOf(r store.Result) string {
	var x struct {
		Division string `json:"division"`
	}
	_ = json.Unmarshal([]byte(r.Extra), &x) // no division recorded: shown empty
	return x.Division
}

// poll rebuilds the site when the store's pair counts change.
func (s *Server) poll(ctx context.Context) {
	t := time.NewTicker(s.opts.Refresh)
	defer t.Stop()
	last := ""
	var nextBuild time.Time
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if s.opts.Counts == nil {
			continue
		}
		c, err := s.opts.Counts(ctx)
		if err != nil {
			s.opts.Log.Warn("pair counts", "error", err)
			continue
		}
		s.observe(c)
		s.refreshNodes(ctx)
		b, _ := json.Marshal(c)
		if string(b) == last || time.Now().Before(nextBuild) {
			continue
		}
		began := time.Now()
		err = s.Load(ctx)
		// Leave the machine to the requests (and compete) as long as the
		// build took before the next one.
		nextBuild = time.Now().Add(time.Since(began))
		if err != nil {
			s.opts.Log.Warn("reload", "error", err)
			s.mu.Lock()
			s.lastLoad = err
			s.mu.Unlock()
			continue
		}
		last = string(b)
	}
}

// Run listens on addr and serves until ctx ends. ready, when not nil, is
// called with the address listened on.
func (s *Server) Run(ctx context.Context, addr string, ready func(net.Addr)) error {
	if err := CheckAddr(addr, s.opts.Token); err != nil {
		return err
	}
	// Listen first: until the first build is made (a minute or two at a
	// million pairs), visitors get a page that says so and reloads.
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	shutdown := func() {
		sctx, c := context.WithTimeout(context.Background(), 2*time.Second)
		defer c()
		_ = srv.Shutdown(sctx) // ending: shutting down is all that is left
	}
	if s.snap.Load() == nil {
		if err := s.Load(ctx); err != nil {
			shutdown()
			return err
		}
	}
	if s.opts.Counts != nil {
		if c, err := s.opts.Counts(ctx); err == nil {
			s.observe(c)
		}
	}
	s.refreshNodes(ctx)
	go s.poll(ctx)
	if ready != nil {
		ready(ln.Addr())
	}
	select {
	case <-ctx.Done():
		shutdown()
		return nil
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	}
}

const tokenCookie = "smtarena_token"

func (s *Server) authorized(w http.ResponseWriter, r *http.Request) bool {
	if s.opts.Token == "" {
		return true
	}
	ok := func(t string) bool {
		return t != "" && subtle.ConstantTimeCompare([]byte(t), []byte(s.opts.Token)) == 1
	}
	if t := r.URL.Query().Get("token"); ok(t) {
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: t, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
		return true
	}
	if c, err := r.Cookie(tokenCookie); err == nil && ok(c.Value) {
		return true
	}
	if a, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); found && ok(a) {
		return true
	}
	return false
}

// ServeHTTP serves the site's files and progress.json.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'")
	h.Set("Cache-Control", "no-cache")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "read-only: GET and HEAD only", http.StatusMethodNotAllowed)
		return
	}
	if !s.authorized(w, r) {
		http.Error(w, "a token is required: add ?token=TOKEN to the address", http.StatusUnauthorized)
		return
	}
	p := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if p == "" {
		p = "index.html"
	}
	snap := s.snap.Load()
	if snap == nil {
		h.Set("Retry-After", "5")
		h.Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="5"><link rel="icon" href="data:,"><title>Building the site</title></head><body><p>The site is being built from the store; this page reloads every 5 s.</p></body></html>`))
		return
	}
	if p == "api/progress.json" {
		s.progress(w, snap)
		return
	}
	if rel, found := strings.CutPrefix(p, report.FilesDir); found {
		s.output(w, r, snap, rel)
		return
	}
	b, ok := snap.rendered[p]
	if !ok {
		b, ok = snap.site.Render(p)
	}
	if !ok {
		http.NotFound(w, r)
		return
	}
	ct := mime.TypeByExtension(path.Ext(p))
	switch path.Ext(p) {
	case ".md":
		ct = "text/markdown; charset=utf-8"
	case ".csv":
		ct = "text/csv; charset=utf-8"
	}
	if ct == "" {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	_, _ = w.Write(b) // a client gone away is not an error of ours
}

// output serves a pair's kept output from the work directory, read-only:
// only a path report.OutputFile accepts, opened inside the work directory
// (os.Root: neither .. nor a symbolic link leads out of it).
func (s *Server) output(w http.ResponseWriter, r *http.Request, snap *snapshot, rel string) {
	dir := snap.site.WorkDir()
	rel, ok := report.OutputFile(rel)
	if dir == "" || !ok {
		http.NotFound(w, r)
		return
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer root.Close()
	if st, err := root.Lstat(filepath.FromSlash(rel)); err != nil || !st.Mode().IsRegular() {
		http.NotFound(w, r) // a symbolic link is not a kept output
		return
	}
	f, err := root.Open(filepath.FromSlash(rel))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		http.NotFound(w, r)
		return
	}
	ct := "text/plain; charset=utf-8"
	if strings.HasSuffix(rel, ".gz") {
		ct = "application/gzip"
	}
	w.Header().Set("Content-Type", ct)
	http.ServeContent(w, r, path.Base(rel), st.ModTime(), f)
}

// progress writes progress.json: per track (live, from the pair counts)
// and per division (as of the last rebuild), the results and the latest.
func (s *Server) progress(w http.ResponseWriter, snap *snapshot) {
	s.mu.Lock()
	counts := s.counts
	var rows []report.Progress
	now := time.Now()
	tracks := make([]string, 0, len(counts))
	for t := range counts {
		tracks = append(tracks, t)
	}
	sort.Strings(tracks)
	rate := map[string]float64{} // pairs a second since serve started
	for _, t := range tracks {
		c := counts[t]
		g := report.Progress{Track: t, Planned: c[store.PairPending] + c[store.PairRunning] + c[store.PairDone], Done: c[store.PairDone],
			Running: c[store.PairRunning], ETA: -1}
		for _, d := range snap.progress {
			if d.Track == t {
				g.Errors += d.Errors
				g.Wrong += d.Wrong
			}
		}
		if el := now.Sub(s.firstAt[t]).Seconds(); g.Done > s.firstN[t] && el > 0 && !s.firstAt[t].IsZero() {
			rate[t] = float64(g.Done-s.firstN[t]) / el
		}
		g.ETA = eta(g, rate[t])
		rows = append(rows, g)
	}
	for _, t := range tracks {
		nodes := make([]string, 0, len(s.nodes[t]))
		for n := range s.nodes[t] {
			nodes = append(nodes, n)
		}
		sort.Strings(nodes)
		for _, n := range nodes {
			c := s.nodes[t][n]
			rows = append(rows, report.Progress{Track: t, Division: "node " + n, Planned: c[store.PairRunning] + c[store.PairDone],
				Done: c[store.PairDone], Running: c[store.PairRunning], ETA: -1})
		}
	}
	s.mu.Unlock()
	// the divisions as of the last build, with the track's rate
	for _, d := range snap.progress {
		d.ETA = eta(d, rate[d.Track])
		rows = append(rows, d)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(struct {
		Progress []report.Progress `json:"progress"`
		Results  int               `json:"results"`
		Latest   []latest          `json:"latest"`
		Built    string            `json:"built"`
	}{rows, snap.results, snap.latest, snap.built.UTC().Format(time.RFC3339)}) // a client gone away is not an error of ours
}

// eta is the seconds left at a rate of pairs a second: 0 when done, -1
// when unknown.
func eta(g report.Progress, rate float64) float64 {
	switch {
	case g.Done >= g.Planned:
		return 0
	case rate > 0:
		return float64(g.Planned-g.Done) / rate
	}
	return -1
}

// observe records the pair counts read from the store, and when each
// track's count was first seen (the rate's start).
func (s *Server) observe(c map[string]map[string]int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts = c
	now := time.Now()
	for t, m := range c {
		if _, seen := s.firstAt[t]; !seen {
			s.firstAt[t], s.firstN[t] = now, m[store.PairDone]
		}
	}
}

// refreshNodes reads the pairs per node, if the server has a source.
func (s *Server) refreshNodes(ctx context.Context) {
	if s.opts.Nodes == nil {
		return
	}
	n, err := s.opts.Nodes(ctx)
	if err != nil {
		s.opts.Log.Warn("pairs per node", "error", err)
		return
	}
	s.mu.Lock()
	s.nodes = n
	s.mu.Unlock()
}
