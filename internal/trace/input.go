package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sync"
)

// Header is the line that ends the expected answers of a benchmark with
// solutions, as the official executor reads it.
const Header = "--- BENCHMARK BEGINS HERE ---"

// Where the expected answers of an input come from.
const (
	FromHeader   = "header"   // lines before the Header line (the official format)
	FromExpected = "expected" // the sibling NAME.expected file, one answer per line
	FromStatus   = "status"   // (set-info :status ...) before each check-sat
)

// Input is a benchmark with its expected answers, ready to be executed.
type Input struct {
	// Expected holds one answer per check-sat (sat, unsat or unknown), as
	// many as the input gives.
	Expected []string
	// Source says where Expected comes from (FromHeader, FromExpected,
	// FromStatus); empty when Bad is set.
	Source string
	// Bad is the executor's verdict on an input it cannot run: the line
	// it prints (without the newline) once the solver has answered the
	// set-option command, as the official executor reads the benchmark
	// only then.
	Bad string

	script io.Reader
	closer io.Closer
}

// Close releases the input's file.
func (in *Input) Close() error {
	if in.closer == nil {
		return nil
	}
	return in.closer.Close()
}

// Script returns the commands of the input, after the header if there is
// one.
func (in *Input) Script() io.Reader { return in.script }

// Open reads the expected answers of the benchmark at path, in the first of
// these forms that applies:
//
//   - the official one: answer lines, then the Header line, then the script
//     (a file whose first line is an answer or the Header);
//   - a script without header, and a sibling path+".expected" file with one
//     answer per line;
//   - a script without header whose check-sat commands are each preceded
//     by (set-info :status ...), as in SMT-LIB's incremental benchmarks (a
//     check-sat with no status since the previous one expects unknown).
//
// A file in none of these forms is judged as the official executor judges
// it (BAD expected result: its first line). Errors are left in Bad, not
// returned, except when the Input cannot be built at all.
func Open(path string) (*Input, error) {
	f, err := os.Open(path)
	if err != nil {
		return &Input{Bad: fmt.Sprintf("BAD benchmark (cannot open): '%s'", path)}, nil
	}
	in, err := read(f, path)
	if err != nil || in.Bad != "" {
		f.Close()
		in.script, in.closer = nil, nil
	}
	return in, err
}

// Parse reads an input held in memory, in the official form or with the
// answers given by (set-info :status ...) commands.
func Parse(data []byte) *Input {
	in, _ := read(bytes.NewReader(data), "")
	return in
}

// read builds an input from r (a file at path, if path is not empty).
func read(r io.ReadSeeker, path string) (*Input, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	first, err := br.ReadString('\n')
	if err != nil && err != io.EOF {
		return nil, err
	}
	if first == "" {
		return &Input{Bad: "BAD benchmark: unexpected EOF"}, nil
	}
	if isAnswer(first, true) || trimSpace(first) == Header {
		return readHeader(first, br, r)
	}
	// No header: the answers are elsewhere.
	if path != "" {
		if data, err := os.ReadFile(path + ".expected"); err == nil {
			exp, bad := parseExpectedFile(data)
			if bad != "" {
				return &Input{Bad: bad}, nil
			}
			if _, err := r.Seek(0, io.SeekStart); err != nil {
				return nil, err
			}
			return &Input{Expected: exp, Source: FromExpected, script: bufio.NewReaderSize(r, 64<<10)}, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	exp, found, err := statusAnswers(r)
	if err != nil {
		return nil, err
	}
	if !found {
		return &Input{Bad: fmt.Sprintf("BAD expected result: '%s'", first)}, nil
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	return &Input{Expected: exp, Source: FromStatus, script: bufio.NewReaderSize(r, 64<<10)}, nil
}

// readHeader reads the official form, whose first line was first; the
// script follows in br. A line before the Header that is not an answer is
// an error, as is an input that ends before the Header (on which the
// official executor crashes).
func readHeader(first string, br *bufio.Reader, r io.Reader) (*Input, error) {
	in := &Input{Source: FromHeader}
	line := first
	for {
		if trimSpace(line) == Header {
			in.script = br
			return in, nil
		}
		if !isAnswer(line, true) {
			if line == "" {
				return &Input{Bad: "BAD benchmark: unexpected EOF"}, nil
			}
			return &Input{Bad: fmt.Sprintf("BAD expected result: '%s'", line)}, nil
		}
		in.Expected = append(in.Expected, trimSpace(line))
		var err error
		line, err = br.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, err
		}
		if line == "" {
			return &Input{Bad: "BAD benchmark: unexpected EOF"}, nil
		}
	}
}

// parseExpectedFile reads a NAME.expected file: one answer per line; blank
// lines are ignored.
func parseExpectedFile(data []byte) ([]string, string) {
	var exp []string
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		s := string(line)
		if trimSpace(s) == "" {
			continue
		}
		if !isAnswer(s, true) {
			if !bytes.HasSuffix(line, []byte("\n")) {
				s += "\n"
			}
			return nil, fmt.Sprintf("BAD expected result: '%s'", s)
		}
		exp = append(exp, trimSpace(s))
	}
	return exp, ""
}

// statusRE is compiled on first use, not at the start of every smtarena
// command.
var statusRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\(\s*set-info\s+:status\s+(\S+?)\s*\)$`)
})

// statusAnswers derives the expected answers from the (set-info :status)
// commands of a script: the last status given since the previous check-sat
// answers each check-sat, unknown if none was. found is false when the
// script has no status at all.
func statusAnswers(r io.Reader) (exp []string, found bool, err error) {
	sp := NewSplitter(r)
	status := ""
	for {
		c, err := sp.Next()
		if err == io.EOF {
			return exp, found, nil
		}
		if err != nil {
			return nil, false, err
		}
		if c.CheckSat {
			if status == "" {
				status = "unknown"
			}
			exp = append(exp, status)
			status = ""
			continue
		}
		if m := statusRE().FindSubmatch(stripComments(c.Text)); m != nil {
			if s := string(m[1]); s == "sat" || s == "unsat" || s == "unknown" {
				status, found = s, true
			}
		}
	}
}

// stripComments drops the whitespace and comments that precede a command,
// and trailing whitespace.
func stripComments(b []byte) []byte {
	for {
		b = bytes.TrimLeft(b, " \t\n\v\f\r")
		if len(b) == 0 || b[0] != ';' {
			break
		}
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return nil
		}
		b = b[i+1:]
	}
	return bytes.TrimRight(b, " \t\n\v\f\r")
}

// isAnswer reports whether line is sat or unsat (or unknown, if allowed)
// with nothing but whitespace around it.
func isAnswer(line string, unknown bool) bool {
	switch trimSpace(line) {
	case "sat", "unsat":
		return true
	case "unknown":
		return unknown
	}
	return false
}

// trimSpace trims C isspace characters, and cuts s at a NUL as C strings
// end there.
func trimSpace[T string | []byte](s T) T {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			s = s[:i]
			break
		}
	}
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}
