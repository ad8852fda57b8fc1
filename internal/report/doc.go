// Package report publishes a competition as a static website: an overview
// (rules, seed, limits, entrants, winners and competition-wide rankings),
// a page per track and division (and per logic) with the official columns
// from internal/score, cactus and scatter plots drawn as SVG in Go, solver,
// benchmark (with every pair on it), wrong-answer, disagreement and
// comparison pages, and CSV/JSON downloads of every table. Every string
// that comes from a solver or the store is escaped, invalid UTF-8 shown as
// \xNN; pages need no request outside the site and work from file://.
// The same pages are served live by internal/web.
package report
