package report

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// page is an HTML page being written. Text from the store goes through
// text (escaped); raw is only for the package's own markup.
type page struct {
	bytes.Buffer
	root string // the relative path from the page to the site's root
}

const hexDigits = "0123456789abcdef"

// escape writes s as HTML text or attribute value: markup characters as
// entities, invalid UTF-8 and control characters as \xNN.
func escape(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		var rep string
		size := 1
		switch {
		case c == '<':
			rep = "&lt;"
		case c == '>':
			rep = "&gt;"
		case c == '&':
			rep = "&amp;"
		case c == '"':
			rep = "&#34;"
		case c == '\'':
			rep = "&#39;"
		case c < 0x20 && c != '\n' && c != '\t', c == 0x7f:
			rep = `\x` + string(hexDigits[c>>4]) + string(hexDigits[c&15])
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				rep = `\x` + string(hexDigits[c>>4]) + string(hexDigits[c&15])
			} else {
				i += n
				continue
			}
		default:
			i++
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(rep)
		i += size
		last = i
	}
	b.WriteString(s[last:])
}

// text writes escaped text.
func (p *page) text(s string) { escape(&p.Buffer, s) }

// raw writes the package's own markup.
func (p *page) raw(s string) { p.WriteString(s) }

// textf writes escaped formatted text.
func (p *page) textf(format string, a ...any) { p.text(fmt.Sprintf(format, a...)) }

// link writes <a href="ROOT+href">text</a>.
func (p *page) link(href, text string) {
	p.raw(`<a href="`)
	p.text(p.root + href)
	p.raw(`">`)
	p.text(text)
	p.raw(`</a>`)
}

// item writes a term and its description in a <dl>, nothing when the
// description is empty.
func (p *page) item(k, v string) {
	if v == "" {
		return
	}
	p.raw("<dt>")
	p.text(k)
	p.raw("</dt><dd>")
	p.text(v)
	p.raw("</dd>")
}

// links writes links separated by sep: pairs of href and text.
func (p *page) links(sep string, hrefText ...string) {
	for i := 0; i+1 < len(hrefText); i += 2 {
		if i > 0 {
			p.raw(sep)
		}
		p.link(hrefText[i], hrefText[i+1])
	}
}

// cell writes a table cell of text.
func (p *page) cell(s string) {
	p.raw("<td>")
	p.text(s)
	p.raw("</td>")
}

// num writes a numeric cell.
func (p *page) num(x float64) {
	p.raw(`<td class="n">`)
	p.text(fmtNum(x))
	p.raw("</td>")
}

// fnum writes a numeric cell with prec decimals (the published pages'
// precision of competition-wide scores).
func (p *page) fnum(x float64, prec int) {
	p.raw(`<td class="n">`)
	p.text(strconv.FormatFloat(x, 'f', prec, 64))
	p.raw("</td>")
}

// numOrDash writes a numeric cell, "-" for zero (not given, not ranked).
func (p *page) numOrDash(x float64) {
	if x == 0 {
		p.raw(`<td class="n">-</td>`)
		return
	}
	p.num(x)
}

// inum writes an integer cell.
func (p *page) inum(n int) {
	p.raw(`<td class="n">`)
	p.raw(strconv.Itoa(n))
	p.raw("</td>")
}

// linkCell writes a cell holding a link.
func (p *page) linkCell(href, text string) {
	p.raw("<td>")
	p.link(href, text)
	p.raw("</td>")
}

func fmtNum(x float64) string {
	if x == float64(int64(x)) && x < 1e15 && x > -1e15 {
		return strconv.FormatInt(int64(x), 10)
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// head starts a table: an optional filter box, and the header row; the
// columns whose name starts with '#' are numeric (sorted as numbers).
func (p *page) head(id string, filter bool, cols ...string) {
	if filter {
		p.raw(`<p class="filter"><label>Filter <input type="search" data-filter="`)
		p.text(id)
		p.raw(`" placeholder="text in any column"></label></p>`)
	}
	p.raw(`<div class="scroll"><table class="data sortable" id="`)
	p.text(id)
	p.raw(`"><thead><tr>`)
	for _, c := range cols {
		if strings.HasPrefix(c, "#") {
			p.raw(`<th data-type="num">`)
			p.text(c[1:])
		} else {
			p.raw(`<th>`)
			p.text(c)
		}
		p.raw(`</th>`)
	}
	p.raw("</tr></thead><tbody>\n")
}

func (p *page) endTable() { p.raw("</tbody></table></div>\n") }

// nav is the site's menu.
type nav struct {
	tracks []string // track names with pages
	live   bool
}

// open writes the page's head and menu.
func (p *page) open(title string, n *nav) {
	p.raw(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,"><title>`)
	p.text(title)
	p.raw(`</title><link rel="stylesheet" href="`)
	p.text(p.root)
	p.raw(`assets/site.css"><script src="`)
	p.text(p.root)
	p.raw(`assets/site.js" defer></script></head><body data-root="`)
	p.text(p.root)
	if n.live {
		p.raw(`" data-live="1`)
	}
	p.raw(`"><header><nav>`)
	p.link("index.html", "Overview")
	for _, t := range n.tracks {
		p.raw(" ")
		p.link("t/"+slug(t)+"/index.html", t)
	}
	p.raw(" ")
	p.links(" ", "solvers.html", "Solvers", "wrong.html", "Wrong answers", "disagreements.html", "Disagreements", "downloads.html", "Downloads")
	p.raw("</nav></header><main>\n<h1>")
	p.text(title)
	p.raw("</h1>\n")
}

func (p *page) close(footer string) {
	p.raw("</main><footer>")
	p.text(footer)
	p.raw("</footer></body></html>\n")
}

// slug makes a name safe as a file name: letters, digits, '.', '_' and
// '-' are kept, anything else makes the name end with a hash of it, so
// two names never share a file.
func slug(s string) string {
	ok := s != "" && s[0] != '.'
	for i := 0; i < len(s) && ok; i++ {
		c := s[i]
		ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
	}
	if ok && len(s) <= 100 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s) && b.Len() < 60; i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
		}
	}
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return b.String() + "~" + strconv.FormatUint(h&0xffffffffff, 36)
}
