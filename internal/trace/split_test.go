package trace

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

type cmdWant struct {
	text  string
	check bool
}

func splitAll(t *testing.T, r io.Reader) ([]cmdWant, error) {
	t.Helper()
	sp := NewSplitter(r)
	var got []cmdWant
	for {
		c, err := sp.Next()
		if err != nil {
			return got, err
		}
		got = append(got, cmdWant{string(c.Text), c.CheckSat})
	}
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []cmdWant
	}{
		{"simple", "(set-logic QF_UF)\n(check-sat)\n(exit)\n",
			[]cmdWant{{"(set-logic QF_UF)", false}, {"(check-sat)", true}, {"(exit)", false}}},
		{"leading newlines skipped, other whitespace kept", "\n\n  (push 1)\r\n(pop 1)",
			[]cmdWant{{"  (push 1)", false}, {"\r\n(pop 1)", false}}},
		{"comments before a command are sent with it", "; a comment (with parens\n(assert true) ; trailing )\n(check-sat)\n",
			[]cmdWant{{"; a comment (with parens\n(assert true)", false}, {" ; trailing )\n(check-sat)", true}}},
		{"comment inside a command", "(assert ; ) not the end\n  (= x y))\n",
			[]cmdWant{{"(assert ; ) not the end\n  (= x y))", false}}},
		{"quoted symbol", "(declare-fun |quoted ) symbol;| () Bool)(check-sat)",
			[]cmdWant{{"(declare-fun |quoted ) symbol;| () Bool)", false}, {"(check-sat)", true}}},
		{"multi-line quoted symbol", "(set-info :source |\n  a (b\n|)\n",
			[]cmdWant{{"(set-info :source |\n  a (b\n|)", false}}},
		{"string with parens", `(echo "a ) ; | b")` + "\n" + `(set-info :x "say ""hi"" )")`,
			[]cmdWant{{`(echo "a ) ; | b")`, false}, {`(set-info :x "say ""hi"" )")`, false}}},
		{"empty string", `(echo "")(check-sat)`,
			[]cmdWant{{`(echo "")`, false}, {"(check-sat)", true}}},
		{"check-sat with spaces", "( check-sat )\n(check - sat)\n(check-sat\n)",
			[]cmdWant{{"( check-sat )", true}, {"(check - sat)", true}, {"(check-sat\n)", true}}},
		{"not check-sat", "(check-sat-assuming (a))(check-sat x)(check-sat ; c\n)(|check-sat|)(check-sa)((check-sat))",
			[]cmdWant{{"(check-sat-assuming (a))", false}, {"(check-sat x)", false}, {"(check-sat ; c\n)", false},
				{"(|check-sat|)", false}, {"(check-sa)", false}, {"((check-sat))", false}}},
		{"text before the parenthesis belongs to the command", "junk (assert x)",
			[]cmdWant{{"junk (assert x)", false}}},
		{"unbalanced close first", ")(assert x)",
			[]cmdWant{{")(", false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, r := range []io.Reader{strings.NewReader(tc.in), iotest.OneByteReader(strings.NewReader(tc.in))} {
				got, err := splitAll(t, r)
				if !errors.Is(err, io.EOF) {
					t.Fatalf("error %v", err)
				}
				if len(got) != len(tc.want) {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
				for i := range got {
					if got[i] != tc.want[i] {
						t.Errorf("command %d: got %q %v, want %q %v", i, got[i].text, got[i].check, tc.want[i].text, tc.want[i].check)
					}
				}
			}
		})
	}
}

// A command cut by the end of the file is not returned.
func TestSplitPartial(t *testing.T) {
	for _, in := range []string{"(assert (and x", "(assert x)\n; only a comment\n", `(echo "unterminated)`, "(a |b)", "\n\n"} {
		got, err := splitAll(t, strings.NewReader(in))
		if err != io.EOF {
			t.Errorf("%q: error %v", in, err)
		}
		for _, c := range got {
			if c.text != "(assert x)" {
				t.Errorf("%q: got command %q", in, c.text)
			}
		}
	}
}

// Commands longer than the read buffer, and many of them.
func TestSplitLarge(t *testing.T) {
	big := "(assert " + strings.Repeat("(and a b) ", 30000) + ")"
	in := strings.Repeat(big+"\n(check-sat)\n", 3)
	got, err := splitAll(t, strings.NewReader(in))
	if err != io.EOF || len(got) != 6 {
		t.Fatalf("%d commands, error %v", len(got), err)
	}
	for i, c := range got {
		want := cmdWant{big, false}
		if i%2 == 1 {
			want = cmdWant{"(check-sat)", true}
		}
		if c != want {
			t.Errorf("command %d: %d bytes, check %v", i, len(c.text), c.check)
		}
	}
}

func FuzzSplit(f *testing.F) {
	f.Add("(set-logic QF_UF)\n; c (\n(assert |a)|)\n(echo \"x)\"\"\")(check-sat)")
	f.Fuzz(func(t *testing.T, in string) {
		sp := NewSplitter(strings.NewReader(in))
		total := 0
		for {
			c, err := sp.Next()
			if err != nil {
				break
			}
			total += len(c.Text)
			if total > len(in) {
				t.Fatalf("more bytes out than in")
			}
		}
	})
}

// officialSplit is a model of the official executor's command reader,
// written from its source as a test oracle: a byte-level state machine with
// no notion of strings, and backslash escapes outside quoted symbols.
func officialSplit(in string) []cmdWant {
	var out []cmdWant
	i := 0
	for {
		var buf []byte
		check, first, skipNL := false, true, true
		comment, escaped, quoted := false, false, false
		parens, idx := 0, -1
		done := false
		for !done {
			if i == len(in) {
				return out
			}
			c := in[i]
			i++
			if skipNL && c == '\n' {
				continue
			}
			skipNL = false
			switch {
			case comment:
				idx = -1
				if c == '\n' {
					comment = false
				}
			case c == '\\':
				escaped = !escaped
			default:
				e := escaped
				escaped = false
				if e && !quoted {
					idx = -1
					break
				}
				if c == '|' {
					idx = -1
					quoted = !quoted
					break
				}
				if quoted {
					break
				}
				switch c {
				case ';':
					comment, idx = true, -1
				case '(':
					parens++
					first = false
					if parens == 1 {
						idx = 0
					} else {
						idx = -1
					}
				case ')':
					parens--
					if parens == 0 && idx == 9 {
						check = true
					}
					idx = -1
				default:
					switch {
					case idx >= 0 && idx < 9:
						if !isSpace(c) {
							if c == checkSat[idx] {
								idx++
							} else {
								idx = -1
							}
						}
					case idx == 9:
						if !isSpace(c) {
							idx = -1
						}
					default:
						idx = -1
					}
				}
			}
			buf = append(buf, c)
			if parens == 0 && !first {
				done = true
			}
		}
		out = append(out, cmdWant{string(buf), check})
	}
}

// FuzzSplitOfficial checks the splitter against the model of the official
// reader on inputs without strings and backslashes, where they must agree.
func FuzzSplitOfficial(f *testing.F) {
	for _, s := range []string{"(set-logic QF_UF)\n; c (\n(assert |a)|)\n(check-sat)", "( check - sat )\n\n (exit)", ")(a)(check-sat ;\n)", "x(check-sat)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if strings.ContainsAny(in, "\"\\") {
			return
		}
		want := officialSplit(in)
		got, _ := splitAll(t, strings.NewReader(in))
		if len(got) != len(want) {
			t.Fatalf("%q: got %v, want %v", in, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%q: command %d: got %q %v, want %q %v", in, i, got[i].text, got[i].check, want[i].text, want[i].check)
			}
		}
	})
}
