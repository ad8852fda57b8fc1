// Package web serves a competition's site live from the store, while
// compete runs in another process: the pages of internal/report, rebuilt
// in the background when results arrive, and a JSON endpoint of progress
// per track and division that the pages poll, so that new results appear
// without a reload. It is read-only, listens on loopback unless a token is
// given, and then asks every request for it.
package web
