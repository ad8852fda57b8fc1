package model

import (
	"github.com/smtarena/smtarena/internal/smtlib"
)

// explain is filled in below.
func (e *evaluator) explain(s *smtlib.Script, t smtlib.Term, c *chunk) []string { return nil }
