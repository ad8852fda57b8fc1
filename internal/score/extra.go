package score

import (
	"strconv"
	"strings"
)

// extraValue is a value of a result's Extra object as encoding/json
// decodes it into an any: a string, a float64, a bool, or nil (null, an
// object, an array).
type extraValue struct {
	kind byte // 's', 'f', 'b', or 0
	s    string
	f    float64
	b    bool
}

// String is the value as RowOf reads it: a string trimmed, a number in
// the shortest decimal form, true or false; "" for anything else.
func (v extraValue) String() string {
	switch v.kind {
	case 's':
		return strings.TrimSpace(v.s)
	case 'f':
		if v.s != "" {
			return v.s // an integer literal, the same digits
		}
		return strconv.FormatFloat(v.f, 'f', -1, 64)
	case 'b':
		return strconv.FormatBool(v.b)
	}
	return ""
}

type extraField struct {
	key string
	v   extraValue
}

// extraFields are the members of an Extra object in order.
type extraFields []extraField

// get returns the value of a key (the last, if given twice, as in a map).
func (x extraFields) get(k string) (extraValue, bool) {
	for i := len(x) - 1; i >= 0; i-- {
		if x[i].key == k {
			return x[i].v, true
		}
	}
	return extraValue{}, false
}

func extraOfMap(m map[string]any) extraFields {
	x := make(extraFields, 0, len(m))
	for k, v := range m {
		f := extraField{key: k}
		switch v := v.(type) {
		case string:
			f.v = extraValue{kind: 's', s: v}
		case float64:
			f.v = extraValue{kind: 'f', f: v}
		case bool:
			f.v = extraValue{kind: 'b', b: v}
		}
		x = append(x, f)
	}
	return x
}

// smallInt reads an integer literal of at most 15 digits, which a float64
// holds exactly and FormatFloat writes back the same.
func smallInt(s string) (int, bool) {
	d := strings.TrimPrefix(s, "-")
	if len(d) == 0 || len(d) > 15 || (len(d) > 1 && d[0] == '0') {
		return 0, false
	}
	n := 0
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
		n = n*10 + int(d[i]-'0')
	}
	if len(d) < len(s) {
		n = -n
	}
	return n, true
}

// parseExtra reads, appending to x, an Extra object of the usual shape (the importers'
// json.Marshal of a flat map: plain keys, strings without escapes, numbers,
// true, false, null) without encoding/json's maps and interfaces; false
// for anything else, which RowOf leaves to encoding/json.
func parseExtra(s string, x extraFields) (extraFields, bool) {
	i := 0
	space := func() {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++
		}
	}
	plain := func() (string, bool) {
		if i >= len(s) || s[i] != '"' {
			return "", false
		}
		for j := i + 1; j < len(s); j++ {
			switch c := s[j]; {
			case c == '"':
				v := s[i+1 : j]
				i = j + 1
				return v, true
			case c == '\\' || c < 0x20 || c >= 0x80:
				return "", false
			}
		}
		return "", false
	}
	space()
	if i >= len(s) || s[i] != '{' {
		return nil, false
	}
	i++
	space()
	if i < len(s) && s[i] == '}' {
		i++
	} else {
		for {
			space()
			k, ok := plain()
			if !ok {
				return nil, false
			}
			space()
			if i >= len(s) || s[i] != ':' {
				return nil, false
			}
			i++
			space()
			if i >= len(s) {
				return nil, false
			}
			f := extraField{key: k}
			switch c := s[i]; {
			case c == '"':
				v, ok := plain()
				if !ok {
					return nil, false
				}
				f.v = extraValue{kind: 's', s: v}
			case c == '-' || ('0' <= c && c <= '9'):
				j := i
				for j < len(s) && (s[j] == '-' || s[j] == '+' || s[j] == '.' || s[j] == 'e' || s[j] == 'E' || ('0' <= s[j] && s[j] <= '9')) {
					j++
				}
				lit := s[i:j]
				if n, ok := smallInt(lit); ok {
					// an integer: its digits are its String
					f.v = extraValue{kind: 'f', f: float64(n), s: lit}
					i = j
					break
				}
				if !jsonNumber(lit) {
					return nil, false
				}
				v, err := strconv.ParseFloat(lit, 64)
				if err != nil {
					return nil, false
				}
				f.v = extraValue{kind: 'f', f: v}
				i = j
			case strings.HasPrefix(s[i:], "true"):
				f.v = extraValue{kind: 'b', b: true}
				i += 4
			case strings.HasPrefix(s[i:], "false"):
				f.v = extraValue{kind: 'b'}
				i += 5
			case strings.HasPrefix(s[i:], "null"):
				i += 4
			default:
				return nil, false
			}
			x = append(x, f)
			space()
			if i < len(s) && s[i] == ',' {
				i++
				continue
			}
			if i < len(s) && s[i] == '}' {
				i++
				break
			}
			return nil, false
		}
	}
	space()
	return x, i == len(s)
}

// jsonNumber says whether a literal is a JSON number.
func jsonNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
