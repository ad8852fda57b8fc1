package trace

import "io"

// Splitter cuts an SMT-LIB script into the commands the executor sends one
// at a time, as the official trace executor does: a command is every byte
// from the end of the previous one (newlines at its start skipped) up to the
// parenthesis that balances its first opening one. Comments, whitespace and
// anything else before that opening parenthesis are part of the command and
// sent with it, exactly as they appear in the file.
//
// Parentheses inside comments (to the end of the line), quoted symbols
// (|...|) and string literals ("...", where "" stands for one quote, as in
// SMT-LIB 2.6) do not count. The official executor knows no strings; it
// ends a command early at a parenthesis inside a string, so this is where
// the two differ, on purpose.
type Splitter struct {
	r    io.Reader
	data []byte // read buffer: data[pos:end] is unread
	pos  int
	end  int
	eof  bool
	cmd  []byte // a command that spans refills of data
}

// NewSplitter reads commands from r.
func NewSplitter(r io.Reader) *Splitter {
	return &Splitter{r: r, data: make([]byte, 64<<10)}
}

// fill reads more input into data, keeping nothing before pos. It returns
// false at the end of the input.
func (s *Splitter) fill() bool {
	if s.eof {
		return false
	}
	s.pos, s.end = 0, 0
	for {
		n, err := s.r.Read(s.data)
		s.end = n
		if err != nil {
			s.eof = true
		}
		if n > 0 || s.eof {
			return n > 0
		}
	}
}

// Command is one command of a script.
type Command struct {
	// Text is the command as it appears in the file, preceding comments
	// and whitespace included, without a final newline. It is valid until
	// the next call of Next.
	Text []byte
	// CheckSat is true for (check-sat): the only command answered by
	// sat, unsat or unknown rather than success. As with the official
	// executor, check-sat-assuming is an ordinary command.
	CheckSat bool
}

// lexer states
const (
	stCode = iota
	stComment
	stQuoted
	stString
)

// checkSat is the head the executor recognises; whitespace between its
// letters is skipped, as by the official executor.
const checkSat = "check-sat"

// Next returns the next command. At the end of the script it returns
// io.EOF, also when the script ends inside a command (the partial command
// is dropped: the official executor reports a benchmark that ends there as
// "unexpected EOF").
func (s *Splitter) Next() (Command, error) {
	s.cmd = s.cmd[:0]
	var (
		state    = stCode
		depth    = 0
		opened   = false // an opening parenthesis has been seen
		started  = false // a byte other than a leading newline has been seen
		tracking = false // the command's top level is being compared with check-sat
		matched  = 0     // letters of check-sat matched so far
		isCheck  = false
	)
	for {
		if s.pos == s.end && !s.fill() {
			return Command{}, io.EOF
		}
		data := s.data[s.pos:s.end]
		from := 0
		for i, c := range data {
			if !started {
				if c == '\n' {
					from = i + 1
					continue
				}
				started = true
			}
			switch state {
			case stComment:
				if c == '\n' {
					state = stCode
				}
				tracking = false
				continue
			case stQuoted:
				if c == '|' {
					state = stCode
				}
				tracking = false
				continue
			case stString:
				if c == '"' {
					state = stCode // "" reopens at once: an escaped quote
				}
				tracking = false
				continue
			}
			switch c {
			case ';':
				state = stComment
				tracking = false
			case '|':
				state = stQuoted
				tracking = false
			case '"':
				state = stString
				tracking = false
			case '(':
				depth++
				opened = true
				tracking, matched = depth == 1, 0
			case ')':
				depth--
				if depth == 0 && tracking && matched == len(checkSat) {
					isCheck = true
				}
				tracking = false
			default:
				if tracking && !isSpace(c) {
					if matched < len(checkSat) && c == checkSat[matched] {
						matched++
					} else {
						tracking = false
					}
				}
			}
			if opened && depth == 0 {
				s.pos += i + 1
				text := data[from : i+1]
				if len(s.cmd) > 0 {
					s.cmd = append(s.cmd, text...)
					text = s.cmd
				}
				return Command{Text: text, CheckSat: isCheck}, nil
			}
		}
		s.cmd = append(s.cmd, data[from:]...)
		s.pos = s.end
	}
}

// isSpace is C's isspace in the C locale, which the official executor uses.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
