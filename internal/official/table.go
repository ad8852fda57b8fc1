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
