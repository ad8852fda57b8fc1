package official

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/smtarena/smtarena/internal/store"
	"github.com/smtarena/smtarena/internal/strarena"
)

// wordClass is what a result word of the smtcomp tool means.
type wordClass struct {
	status, answer   string
	wrong, erroneous bool   // Extra's wrong-answers, result-is-erroneous
	model            string // Extra's model_validator_status
}

// classifyWord reads the tool's result word (defs.Answer); false if there
// is none.
func classifyWord(word string) (wordClass, bool) {
	c := wordClass{status: "complete", answer: "unknown"}
	switch w := strings.ToLower(strings.ReplaceAll(word, "_", "")); {
	case w == "sat", w == "unsat", w == "unknown":
		c.answer = w
	case w == "timeout" || strings.HasPrefix(w, "timeout "):
		c.status = "timeout"
	case w == "outofmemory", w == "oom", w == "memout":
		c.status = "memout"
	case w == "incremental":
	case w == "incrementalerror":
		c.wrong = true
	case w == "unsatcorenotvalidated", w == "unsatcoreinvalidated":
		c.answer, c.erroneous = "unsat", true
	case w == "modelnotvalidated":
		c.answer, c.model = "sat", "UNKNOWN"
	case strings.HasPrefix(w, "model"):
		// ModelUnsat, ModelParsingError, ModelPartialFunctionMissing,
		// ModelValidator*: a sat whose model was refuted.
		c.answer, c.model = "sat", "INVALID"
	case w == "":
		return c, false
	default:
		// A word the tool did not have when this was written: an abnormal
		// end without an answer, kept as it is (the caller notes it).
		c.status = strings.ToLower(word)
	}
	return c, true
}

// jsonOffset is where in the JSON an error of the reader is.
func jsonOffset(d *jsonReader, err error) int64 {
	if se, ok := errors.AsType[*syntaxError](err); ok {
		return se.Off
	}
	return d.offset()
}

// drain reads the input past the document to its end, so that what the
// decompressor finds there (a gzip checksum that does not match) is not
// passed over.
func (d *jsonReader) drain() error {
	d.pos, d.end = 0, 0
	if d.err == nil {
		_, d.err = io.Copy(io.Discard, d.r)
	}
	if d.err != nil && !errors.Is(d.err, io.EOF) {
		return d.err
	}
	return nil
}

// smtcompFast makes stored results of the results of the smtcomp tool's
// JSON in the shape its files have (the known fields, plain strings and
// numbers, the file an object), straight from the reader's bytes and with
// the strings the results share made once; smtcompResult handles any
// other shape, and both make the same results.
type smtcompFast struct {
	opts      Options
	given     int
	givenComp string

	strs  map[string]string // solvers, words, tracks: made once
	words map[string]wordClass
	// tracks: the file's words for tracks ("Incremental") and their names
	tracks map[string]string
	comps  map[int]string
	paths  pathMaker
	buf    []byte
	key    []byte
	arena  strarena.Arena // the results' keys and Extra objects
}

// pathMaker makes library paths of file objects; results come benchmark
// by benchmark, and the path of the last one is made once.
type pathMaker struct {
	lastFile  []byte
	lastTrack string
	lastPath  string
	fam       [][]byte
	buf       []byte
}

// intern returns b as a string made once.
func (f *smtcompFast) intern(b []byte) string {
	if s, ok := f.strs[string(b)]; ok {
		return s
	}
	if f.strs == nil {
		f.strs = map[string]string{}
	}
	s := string(b)
	if len(f.strs) < 100000 {
		f.strs[s] = s
	}
	return s
}

// number reads a JSON number value; missing and null are 0 as in
// smtcompResult's num, anything else is not for the fast path.
func number(v []byte) (x float64, has, ok bool) {
	if v == nil || string(v) == "null" {
		return 0, false, true
	}
	if v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return 0, false, false
	}
	if x, ok := exactDecimal(v); ok {
		return x, true, true
	}
	x, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return 0, false, false
	}
	return x, true, true
}

// pow10s are the powers of ten a float64 holds exactly.
var pow10s = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// exactDecimal reads a number of digits, a point and digits (the times of
// the tool's JSON) whose digits make an integer below 2^53: that integer
// and the power of ten it is divided by are exact, so one division
// rounds as strconv.ParseFloat does (its own first way). Any other number
// is not read (false).
func exactDecimal(v []byte) (float64, bool) {
	neg := v[0] == '-'
	if neg {
		v = v[1:]
	}
	var m uint64
	digits, frac, point := 0, 0, false
	for _, c := range v {
		switch {
		case '0' <= c && c <= '9':
			digits++
			m = m*10 + uint64(c-'0')
			if m >= 1<<53 {
				return 0, false
			}
			if point {
				frac++
			}
		case c == '.' && !point:
			point = true
		default:
			return 0, false
		}
	}
	if digits == 0 || frac >= len(pow10s) {
		return 0, false
	}
	x := float64(m) / pow10s[frac]
	if neg {
		x = -x
	}
	return x, true
}

// result makes the result of an element of the results array, or says
// it is not of the shape it reads (ok false).
func (f *smtcompFast) result(d *jsonReader, ms []member) (res store.Result, why string, ok bool) {
	var vals [9][]byte
	for _, m := range ms {
		i := 0
		switch string(d.bytes(m.key)) {
		case `"track"`:
			i = 0
		case `"solver"`:
			i = 1
		case `"file"`:
			i = 2
		case `"result"`:
			i = 3
		case `"cpu_time"`:
			i = 4
		case `"wallclock_time"`:
			i = 5
		case `"memory_usage"`:
			i = 6
		case `"nb_answers"`:
			i = 7
		case `"year"`:
			i = 8
		default:
			return res, "", false
		}
		if vals[i] != nil {
			return res, "", false
		}
		vals[i] = d.bytes(m.val)
	}
	track := f.opts.Track
	if track == "" {
		t, plain := plainString(vals[0])
		if !plain {
			return res, "", false
		}
		if track = jsonTracks[string(t)]; track == "" {
			if track = f.tracks[string(t)]; track == "" {
				track = jsonTracks[strings.ToLower(string(t))]
				if track != "" {
					if f.tracks == nil {
						f.tracks = map[string]string{}
					}
					f.tracks[string(t)] = track
				}
			}
		}
		if track == "" {
			return res, "", false
		}
	}
	solver, plain := plainString(vals[1])
	if !plain || len(solver) == 0 {
		return res, "", false
	}
	bp, plain := f.paths.path(vals[2], track)
	if !plain {
		return res, "", false
	}
	year := f.given
	if year == 0 {
		y, has, ok := number(vals[8])
		if !ok {
			return res, "", false
		}
		if has {
			year = int(y)
		}
	}
	if year == 0 {
		year = f.opts.Year
	}
	if year == 0 {
		return res, "", false
	}
	comp := f.givenComp
	if comp == "" {
		if comp = f.comps[year]; comp == "" {
			if f.comps == nil {
				f.comps = map[int]string{}
			}
			comp = fmt.Sprintf("SMT-COMP %d", year)
			f.comps[year] = comp
		}
	}
	var times [3]float64
	for i := range times {
		x, _, ok := number(vals[4+i])
		if !ok {
			return res, "", false
		}
		times[i] = x
	}
	nb, hasNB, ok := number(vals[7])
	if !ok {
		return res, "", false
	}
	wb, plain := plainString(vals[3])
	if !plain || strings.ContainsAny(string(wb), "<>&") {
		return res, "", false
	}
	word := f.intern(wb)
	w, known := f.words[word]
	ok = true
	if !known {
		w, ok = classifyWord(word)
		if ok && len(f.words) < 1000 {
			if f.words == nil {
				f.words = map[string]wordClass{}
			}
			f.words[word] = w
		}
	}
	if !ok || (w.status != "complete" && w.status != "timeout" && w.status != "memout") {
		return res, "", false
	}
	if track == "model-validation" && w.answer == "sat" && w.model == "" {
		w.model = "VALID"
	}
	// Extra as json.Marshal writes smtcompResult's map: keys in order.
	x := f.buf[:0]
	x = append(x, '{')
	field := func(k string) {
		if len(x) > 1 {
			x = append(x, ',')
		}
		x = append(x, '"')
		x = append(x, k...)
		x = append(x, '"', ':')
	}
	if hasNB && nb >= 0 && track == "unsat-core" {
		field("core-size")
		x = appendJSONFloat(x, nb)
	}
	if hasNB && nb >= 0 && track == "incremental" {
		field("correct-answers")
		x = appendJSONFloat(x, nb)
	}
	if w.model != "" {
		field("model_validator_status")
		x = strconv.AppendQuote(x, w.model)
	}
	if hasNB {
		field("nb_answers")
		x = appendJSONFloat(x, nb)
	}
	field("result")
	x = append(x, '"')
	x = append(x, word...)
	x = append(x, '"')
	if w.erroneous {
		field("result-is-erroneous")
		x = append(x, '1')
	}
	if w.wrong {
		field("wrong-answers")
		x = append(x, '1')
	}
	x = append(x, '}')
	f.buf = x
	sv := f.intern(solver)
	f.key = appendKey(f.key[:0], "smtcomp", year, track, sv, "", bp, "")
	return store.Result{Competition: comp, Year: year, Track: track, Solver: sv,
		BenchmarkPath: bp, Status: w.status, Answer: w.answer, CPU: times[0], Wall: times[1],
		MemoryMB: times[2] / (1 << 20), Extra: f.arena.String(x),
		SourceKey: f.arena.String(f.key)}, "", true
}

// appendJSONFloat appends a float64 as encoding/json writes it.
func appendJSONFloat(b []byte, x float64) []byte {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 && (x != 0 || !math.Signbit(x)) {
		return strconv.AppendInt(b, int64(x), 10) // the counts: integers
	}
	abs := math.Abs(x)
	fmt := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		fmt = 'e'
	}
	b = strconv.AppendFloat(b, x, fmt, -1, 64)
	if fmt == 'e' {
		// e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// path is libraryPath of a file object {incremental, logic, family, name}
// of plain strings (false for any other value), the same path as the last
// one's made once.
func (f *pathMaker) path(v []byte, track string) (string, bool) {
	if string(v) == string(f.lastFile) && track == f.lastTrack && f.lastPath != "" {
		return f.lastPath, true
	}
	c := validCursor{b: v}
	if !c.open('{') {
		return "", false
	}
	inc := -1
	var logic, name []byte
	var seen [4]bool
	f.fam = f.fam[:0]
	for !c.close('}') {
		k, ok := c.str()
		if !ok || !c.open(':') {
			return "", false
		}
		i := 0
		switch string(k) {
		case "incremental":
			i = 0
			switch {
			case c.word("true"):
				inc = 1
			case c.word("false"):
				inc = 0
			default:
				return "", false
			}
		case "logic":
			i = 1
			if logic, ok = c.str(); !ok {
				return "", false
			}
		case "family":
			i = 2
			if c.open('[') {
				for !c.close(']') {
					s, ok := c.str()
					if !ok {
						return "", false
					}
					f.fam = append(f.fam, s)
					c.open(',')
				}
			} else {
				s, ok := c.str()
				if !ok {
					return "", false
				}
				if len(s) > 0 {
					for p := range strings.SplitSeq(string(s), "/") {
						f.fam = append(f.fam, []byte(p))
					}
				}
			}
		case "name":
			i = 3
			if name, ok = c.str(); !ok {
				return "", false
			}
		default:
			return "", false
		}
		if seen[i] {
			return "", false
		}
		seen[i] = true
		c.open(',')
	}
	if len(logic) == 0 || len(name) == 0 {
		return "", false
	}
	top := "non-incremental"
	if inc == 1 || (inc == -1 && track == "incremental") {
		top = "incremental"
	}
	b := f.buf[:0]
	b = append(b, top...)
	b = append(b, '/')
	b = append(b, logic...)
	for _, x := range f.fam {
		b = append(b, '/')
		b = append(b, x...)
	}
	b = append(b, '/')
	b = append(b, name...)
	f.buf = b
	f.lastFile = append(f.lastFile[:0], v...)
	f.lastTrack, f.lastPath = track, string(b)
	return f.lastPath, true
}

// validCursor walks a JSON value already known to be valid.
type validCursor struct {
	b []byte
	i int
}

func (c *validCursor) space() {
	for c.i < len(c.b) && (c.b[c.i] == ' ' || c.b[c.i] == '\t' || c.b[c.i] == '\n' || c.b[c.i] == '\r') {
		c.i++
	}
}

// open reads the punctuation p if it is next.
func (c *validCursor) open(p byte) bool {
	c.space()
	if c.i < len(c.b) && c.b[c.i] == p {
		c.i++
		return true
	}
	return false
}

func (c *validCursor) close(p byte) bool { return c.open(p) }

// word reads a literal if it is next.
func (c *validCursor) word(w string) bool {
	c.space()
	if len(c.b)-c.i >= len(w) && string(c.b[c.i:c.i+len(w)]) == w {
		c.i += len(w)
		return true
	}
	return false
}

// str reads a plain string (see plainString) if it is next.
func (c *validCursor) str() ([]byte, bool) {
	c.space()
	if c.i >= len(c.b) || c.b[c.i] != '"' {
		return nil, false
	}
	for j := c.i + 1; j < len(c.b); j++ {
		switch ch := c.b[j]; {
		case ch == '"':
			s := c.b[c.i+1 : j]
			c.i = j + 1
			return s, true
		case ch == '\\' || ch >= 0x80:
			return nil, false
		}
	}
	return nil, false
}
