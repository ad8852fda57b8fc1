package official

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
)

// cell is one value of a column read by readColumns, with where it is.
type cell struct {
	File string
	Line int
	Vals []string
}

// readColumns reads the named columns (matched case-insensitively, spaces
// trimmed) of every row of the CSV files that path is or holds, in order.
// A missing column is an error naming the file; a row too short for a
// column is an error naming its line.
func readColumns(path string, cols ...string) ([]cell, error) {
	var out []cell
	err := EachCSV(path, func(name string, r io.Reader) error {
		cr := csv.NewReader(r)
		cr.FieldsPerRecord = -1
		head, err := cr.Read()
		if err != nil {
			return csvError(name, err)
		}
		idx := make([]int, len(cols))
		for j, c := range cols {
			idx[j] = -1
			for i, h := range head {
				if strings.EqualFold(strings.TrimSpace(h), c) {
					idx[j] = i
					break
				}
			}
			if idx[j] < 0 {
				return fmt.Errorf("%s:1: want the columns %q", name, cols)
			}
		}
		for {
			rec, err := cr.Read()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return csvError(name, err)
			}
			line, _ := cr.FieldPos(0)
			c := cell{File: name, Line: line, Vals: make([]string, len(cols))}
			for j, i := range idx {
				if i >= len(rec) {
					return fmt.Errorf("%s:%d: no %q field", name, line, cols[j])
				}
				c.Vals[j] = strings.TrimSpace(rec[i])
			}
			out = append(out, c)
		}
	})
	return out, err
}

// csvError names the file and line of a CSV parse error.
func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %w (a truncated or corrupted file?)", name, pe.StartLine, pe.Err)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// csvErrorAt is csvError for a reader that has read whole lines up to
// line: a file that breaks off (a truncated gzip stream or archive) is
// named at the line after the last whole one.
func csvErrorAt(name string, line int, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return csvError(name, err)
	}
	return fmt.Errorf("%s:%d: %w (a truncated or corrupted file?)", name, line+1, err)
}

// endReader remembers the last byte read, so that an importer can tell a
// file that breaks off inside its last line (a truncated file) from one
// whose last row is merely short.
type endReader struct {
	r    io.Reader
	last byte
}

func (e *endReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if n > 0 {
		e.last = p[n-1]
	}
	return n, err
}

// brokenOff says whether the file ended inside a line.
func (e *endReader) brokenOff() bool { return e.last != 0 && e.last != '\n' && e.last != '\r' }

// truncatedLastRow turns the last row of a file that breaks off inside
// it, if it was named as unusable for its number of fields, into the
// error it is: the row is not counted, and the error names the file and
// line.
func (b *batcher) truncatedLastRow(name string, line int, e *endReader) error {
	n := len(b.stats.Problems)
	if !e.brokenOff() || n == 0 {
		return nil
	}
	p := b.stats.Problems[n-1]
	if p.Kept || p.Remark || p.Line != line || p.File != name || !strings.Contains(p.Reason, " fields, ") {
		return nil
	}
	b.stats.Problems, b.probAt = b.stats.Problems[:n-1], b.probAt[:n-1]
	b.stats.Rows--
	return fmt.Errorf("%s:%d: the file breaks off inside this line (%s; a truncated file?)", name, line, p.Reason)
}
