package main

import (
	"fmt"
	"io"
	"text/tabwriter"
)

// divisionTables writes a track's summary as one tab-aligned table per
// division, each under a title line and a header, as compete and status
// print them: rows come sorted by division.
type divisionTables struct {
	w        io.Writer
	flags    uint // tabwriter flags
	tw       *tabwriter.Writer
	division string
	started  bool
}

// row returns the table to write a row of division to, starting a new one
// (after a blank line, title and header) when the division changes.
func (d *divisionTables) row(division, title, header string) *tabwriter.Writer {
	if !d.started || division != d.division {
		if d.tw != nil {
			d.tw.Flush()
		}
		fmt.Fprintf(d.w, "\n%s\n", title)
		d.tw = tabwriter.NewWriter(d.w, 0, 0, 2, ' ', d.flags)
		fmt.Fprintln(d.tw, header)
		d.division, d.started = division, true
	}
	return d.tw
}

// flush ends the last table.
func (d *divisionTables) flush() error {
	if d.tw == nil {
		return nil
	}
	return d.tw.Flush()
}
