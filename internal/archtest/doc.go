// Package archtest holds no code: its test keeps the dependency direction of
// docs/architecture.md, reading the imports of every package with go/parser
// so that the rules need no external linter.
package archtest
