package model

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/smtarena/smtarena/internal/smtlib"
)

// Validate judges a solver's output (its answer to check-sat, then to
// get-model) against a benchmark. The error is for an unreadable or
// malformed benchmark or a failing reader; whatever the solver printed
// gives a Result.
func Validate(ctx context.Context, benchName string, bench io.Reader, respName string, resp io.Reader, opts Options) (Result, error) {
	start := time.Now()
	v := &validation{e: newEvaluator(ctx), opts: opts, name: benchName}
	if opts.Timeout > 0 {
		v.e.deadline = start.Add(opts.Timeout)
	}
	v.e.maxMem = opts.MaxMemory
	res, err := v.run(bench, respName, resp)
	res.Time = time.Since(start)
	res.Seconds = res.Time.Seconds()
	return res, err
}

type validation struct {
	e    *validationEval
	opts Options
	name string

	res       Result
	undefRes  *Result
	done      bool
	installed bool
	declared  []*symbol
	dups      []string
}

type validationEval = evaluator

func (v *validation) run(bench io.Reader, respName string, resp io.Reader) (Result, error) {
	model, res, err := readModel(respName, resp, v.opts.MaxResponse)
	if err != nil || res != nil {
		if res == nil {
			return Result{}, err
		}
		return *res, err
	}
	v.e.model = model
	if n := len(model.Defs); n > 8 {
		// The benchmark declares about as many symbols as the model
		// defines: room for both at once.
		v.e.syms = make(map[string]*symbol, n+n/8)
		v.e.blockHint = n + 8
	}
	v.install()
	sp := newSplitter(bench)
	next := func() (*chunk, error) { return v.nextChunk(sp) }
	if sp.size < 0 || sp.size > chunkSize {
		// A larger benchmark is read and parsed a chunk ahead of the
		// evaluation, in a goroutine of its own: on a machine with a core
		// to spare the two overlap. A small one is read inline: a
		// goroutine would cost a thread's start in a process that lives a
		// few milliseconds.
		type parsed struct {
			c   *chunk
			err error
		}
		chunks := make(chan parsed, 1)
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			defer close(chunks)
			for {
				c, err := v.nextChunk(sp)
				if errors.Is(err, io.EOF) {
					return
				}
				select {
				case chunks <- parsed{c, err}:
				case <-stop:
					return
				}
				if err != nil {
					return
				}
			}
		}()
		next = func() (*chunk, error) {
			p, ok := <-chunks
			if !ok {
				return nil, io.EOF
			}
			return p.c, p.err
		}
	}
	for {
		c, err := next()
		if errors.Is(err, io.EOF) {
			return v.finish(), nil
		}
		if err != nil {
			return Result{}, err
		}
		if res, done, err := v.evaluateChunk(c); done || err != nil {
			return res, err
		}
	}
}

// evaluateChunk runs a chunk's commands; done says the verdict is reached.
func (v *validation) evaluateChunk(c *chunk) (res Result, done bool, err error) {
	if err := v.commands(c); err != nil {
		return Result{}, true, err
	}
	if v.e.abort != nil {
		r := *v.e.abort
		r.Assertions = v.res.Assertions
		return r, true, nil
	}
	if v.done {
		return v.finish(), true, nil
	}
	return Result{}, false, nil
}

// nextChunk reads and parses the next run of whole commands; io.EOF at the
// end. A parse error is returned with positions in the file.
func (v *validation) nextChunk(sp *splitter) (*chunk, error) {
	data, err := sp.candidate()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, err
		}
		return nil, fmt.Errorf("read %s: %w", v.name, err)
	}
	var s *smtlib.Script
	var perr error
	var base, line, col int
	if data != nil {
		s, perr = smtlib.Parse(v.name, data, v.opts.Mode)
	}
	if data != nil && perr == nil {
		base, line, col = sp.consume(len(data))
	} else {
		// Not the end of a command (or a real error): scan.
		data, base, line, col, err = sp.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, fmt.Errorf("read %s: %w", v.name, err)
		}
		s, perr = smtlib.Parse(v.name, data, v.opts.Mode)
	}
	c := &chunk{s: s, name: v.name, base: base, line: line, col: col}
	if perr != nil {
		var el smtlib.ErrorList
		if errors.As(perr, &el) {
			for _, e := range el {
				if e.Pos.IsValid() {
					e.Pos = c.position(smtlib.Pos(e.Pos.Offset + 1))
				}
			}
			return nil, el
		}
		return nil, perr
	}
	return c, nil
}

// readModel reads the check-sat answer and the model. A Result is returned
// when the output decides the verdict without the benchmark.
func readModel(name string, r io.Reader, maxSize int) (*smtlib.Response, *Result, error) {
	rr := smtlib.NewResponseReader(name, r)
	if maxSize > 0 {
		rr.MaxSize = maxSize
	}
	next := func() (smtlib.Response, bool, error) {
		for {
			resp, err := rr.Next()
			if errors.Is(err, io.EOF) {
				return resp, false, nil
			}
			if err != nil {
				return resp, false, fmt.Errorf("read %s: %w", name, err)
			}
			if resp.Kind != smtlib.RespSuccess {
				return resp, true, nil
			}
		}
	}
	unknown := func(reason Reason, resp smtlib.Response, detail string) *Result {
		r := &Result{Verdict: Unknown, Reason: reason, Detail: detail}
		if resp.Pos.IsValid() {
			r.Position = resp.Pos.String()
		}
		return r
	}
	garbage := func(resp smtlib.Response) *Result {
		msg := resp.Message
		switch {
		case strings.Contains(msg, "at the end of the input"):
			return unknown(ReasonTruncated, resp, "the output ends inside a response: "+msg)
		case strings.Contains(msg, "longer than") || strings.Contains(msg, "too long"):
			return unknown(ReasonResource, resp, msg)
		}
		return unknown(ReasonParseError, resp, msg)
	}
	ans, ok, err := next()
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, &Result{Verdict: Unknown, Reason: ReasonNoOutput, Detail: "the solver printed no answer"}, nil
	}
	switch ans.Kind {
	case smtlib.RespSat:
	case smtlib.RespUnsat:
		r := unknown(ReasonUnsat, ans, "the solver answered unsat on a satisfiable benchmark")
		r.Verdict = Invalid
		return nil, r, nil
	case smtlib.RespUnknown:
		return nil, unknown(ReasonUnknownAnswer, ans, "the solver answered unknown"), nil
	case smtlib.RespUnsupported:
		return nil, unknown(ReasonUnknownAnswer, ans, "the solver answered unsupported"), nil
	case smtlib.RespError:
		return nil, unknown(ReasonUnknownAnswer, ans, "the solver printed an error instead of an answer: "+clip(ans.Message, 200)), nil
	case smtlib.RespGarbage:
		return nil, garbage(ans), nil
	default:
		return nil, unknown(ReasonParseError, ans, "expected sat, unsat or unknown, found "+clip(ans.Text, 60)), nil
	}
	m, ok, err := next()
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, &Result{Verdict: Unknown, Reason: ReasonNoOutput, Detail: "the solver answered sat but printed no model"}, nil
	}
	switch m.Kind {
	case smtlib.RespModel:
	case smtlib.RespError:
		return nil, unknown(ReasonNoOutput, m, "the solver printed an error instead of a model: "+clip(m.Message, 200)), nil
	case smtlib.RespGarbage:
		return nil, garbage(m), nil
	case smtlib.RespSat, smtlib.RespUnsat, smtlib.RespUnknown, smtlib.RespUnsupported:
		return nil, unknown(ReasonParseError, m, "expected a model, found "+clip(m.Text, 60)), nil
	default:
		mm, err := m.As(smtlib.RespModel)
		if err != nil {
			return nil, unknown(ReasonParseError, m, "not a model: "+err.Error()), nil
		}
		m = mm
	}
	return &m, nil, nil
}

// install enters the model's definitions into the symbol table.
func (v *validation) install() {
	e := v.e
	for k, d := range e.model.Defs {
		switch d.Kind {
		case smtlib.CmdDeclareSort:
			if _, ok := e.tables.sortDecl[d.Name]; !ok {
				e.tables.sortDecl[d.Name] = 0
			}
			continue
		case smtlib.CmdDeclareFun, smtlib.CmdDeclareConst:
			if len(d.Params) == 0 {
				sym := v.sym(d.Name)
				if sym.abstract == nil {
					sym.abstract = &absVal{name: d.Name}
					e.abs[d.Name] = sym.abstract
					sym.adecl = d.Sort
				}
				continue
			}
		}
		sym := v.sym(d.Name)
		if sym.mdef >= 0 {
			v.dups = append(v.dups, d.Name)
			continue
		}
		sym.mdef = int32(k)
	}
}

func (v *validation) sym(name string) *symbol {
	sym := v.e.syms[name]
	if sym == nil {
		sym = v.e.newSymbol()
		*sym = symbol{name: name, mdef: -1}
		v.e.syms[name] = sym
		v.e.symGen++ // a cached absence is stale
	}
	return sym
}

// resolveAbstract gives the model's declared abstract values their sorts,
// once the benchmark's sorts are known.
func (v *validation) resolveAbstract() {
	if v.installed {
		return
	}
	v.installed = true
	for _, sym := range v.e.syms {
		if sym.abstract != nil && sym.adecl != smtlib.NoTerm {
			if srt, err := v.e.resolveSort(v.e.model.Script, sym.adecl); err == nil {
				sym.result = srt
			}
		}
	}
}

// commands processes the commands of one chunk.
func (v *validation) commands(c *chunk) error {
	e := v.e
	s := c.s
	pos := func(cmd smtlib.Command) string { return c.position(cmd.Pos).String() }
	for _, cmd := range s.Commands() {
		switch cmd.Kind {
		case smtlib.CmdSetLogic:
			l := smtlib.ParseLogic(s.Name(s.CmdArg(cmd, 0)))
			e.realNums = l.Known && l.Reals && !l.Ints
			// quickInt only speeds up integer arithmetic: without integers
			// in the logic it is not tried (the general path gives the same
			// values).
			e.noInts = l.Known && !l.Ints
		case smtlib.CmdDeclareSort:
			n := 0
			if s.CmdNumArgs(cmd) > 1 {
				fmt.Sscan(s.Name(s.CmdArg(cmd, 1)), &n)
			}
			e.tables.sortDecl[s.Name(s.CmdArg(cmd, 0))] = n
		case smtlib.CmdDefineSort:
			d := &sortDef{s: s, body: s.CmdArg(cmd, 2)}
			ps := s.CmdArg(cmd, 1)
			for k := 0; k < s.NumChildren(ps); k++ {
				d.params = append(d.params, s.Name(s.Child(ps, k)))
			}
			e.tables.sortDef[s.Name(s.CmdArg(cmd, 0))] = d
		case smtlib.CmdDeclareFun, smtlib.CmdDeclareConst:
			name := s.Name(s.CmdArg(cmd, 0))
			sym := v.sym(name)
			sym.declared = true
			sym.abstract = nil
			var res smtlib.Term
			if cmd.Kind == smtlib.CmdDeclareFun {
				ps := s.CmdArg(cmd, 1)
				for k := 0; k < s.NumChildren(ps); k++ {
					srt, err := e.resolveSort(s, s.Child(ps, k))
					if err != nil {
						return fmt.Errorf("%s: %w", pos(cmd), err)
					}
					sym.params = append(sym.params, srt)
				}
				res = s.CmdArg(cmd, 2)
			} else {
				res = s.CmdArg(cmd, 1)
			}
			srt, err := e.resolveSort(s, res)
			if err != nil {
				return fmt.Errorf("%s: %w", pos(cmd), err)
			}
			sym.result = srt
			v.declared = append(v.declared, sym)
		case smtlib.CmdDefineFun, smtlib.CmdDefineFunRec:
			fn, err := v.benchFun(s, s.CmdArg(cmd, 0), s.CmdArg(cmd, 1), s.CmdArg(cmd, 2), s.CmdArg(cmd, 3))
			if err != nil {
				return fmt.Errorf("%s: %w", pos(cmd), err)
			}
			fn.rec = cmd.Kind == smtlib.CmdDefineFunRec
		case smtlib.CmdDefineFunsRec:
			decls, bodies := s.CmdArg(cmd, 0), s.CmdArg(cmd, 1)
			for k := 0; k < s.NumChildren(decls) && k < s.NumChildren(bodies); k++ {
				d := s.Child(decls, k)
				fn, err := v.benchFun(s, s.Child(d, 0), s.Child(d, 1), s.Child(d, 2), s.Child(bodies, k))
				if err != nil {
					return fmt.Errorf("%s: %w", pos(cmd), err)
				}
				fn.rec = true
			}
		case smtlib.CmdDeclareDatatype:
			if err := e.declareDatatype(s, s.Name(s.CmdArg(cmd, 0)), -1, s.CmdArg(cmd, 1)); err != nil {
				return fmt.Errorf("%s: %w", pos(cmd), err)
			}
		case smtlib.CmdDeclareDatatypes:
			names, decls := s.CmdArg(cmd, 0), s.CmdArg(cmd, 1)
			for k := 0; k < s.NumChildren(names) && k < s.NumChildren(decls); k++ {
				nk := s.Child(names, k)
				arity := -1
				if s.NumChildren(nk) == 2 {
					if n, err := strconv.Atoi(s.Name(s.Child(nk, 1))); err == nil {
						arity = n
					}
				}
				if err := e.declareDatatype(s, s.Name(s.Child(nk, 0)), arity, s.Child(decls, k)); err != nil {
					return fmt.Errorf("%s: %w", pos(cmd), err)
				}
			}
		case smtlib.CmdPush, smtlib.CmdPop:
			if v.undefRes == nil {
				v.undefRes = &Result{Verdict: Unknown, Reason: ReasonUnsupported, Detail: "push and pop (model validation takes non-incremental benchmarks)", Position: pos(cmd)}
			}
		case smtlib.CmdAssert:
			v.resolveAbstract()
			v.assert(c, cmd)
			if e.abort != nil {
				return nil
			}
		case smtlib.CmdCheckSat, smtlib.CmdCheckSatAssuming:
			v.done = true
			return nil
		}
	}
	return nil
}

func (v *validation) benchFun(s *smtlib.Script, name, params, result, body smtlib.Term) (*closure, error) {
	fn := &closure{name: s.Name(name), s: s, body: body}
	for k := 0; k < s.NumChildren(params); k++ {
		p := s.Child(params, k)
		srt, err := v.e.resolveSort(s, s.Child(p, 1))
		if err != nil {
			return nil, err
		}
		fn.params = append(fn.params, s.Name(s.Child(p, 0)))
		fn.psorts = append(fn.psorts, srt)
	}
	srt, err := v.e.resolveSort(s, result)
	if err != nil {
		return nil, err
	}
	fn.result = srt
	sym := v.sym(fn.name)
	sym.bdef = fn
	v.e.defGen++ // a cached value of the model's may be shadowed
	return fn, nil
}

func (v *validation) assert(c *chunk, cmd smtlib.Command) {
	e := v.e
	s := c.s
	t := s.CmdArg(cmd, 0)
	v.res.Assertions++
	val := e.eval(s, t, 0)
	e.binds = e.binds[:0]
	if val.k != vUndef && val.k != vBool {
		val = undefVal(ReasonSortError, "the assertion is not Boolean")
	}
	switch {
	case val.isTrue():
	case val.isFalse():
		v.res.False++
		if v.res.False == 1 {
			v.res.Position = c.position(cmd.Pos).String()
			v.res.Assertion = clip(s.TermString(t), 300)
			if v.opts.Explain {
				v.res.Explain = e.explain(s, t, c)
			}
		}
	default:
		if v.undefRes == nil {
			u := val.undefInfo()
			v.undefRes = &Result{Verdict: Unknown, Reason: u.reason, Detail: u.detail,
				Position: c.position(cmd.Pos).String(), Assertion: clip(s.TermString(t), 300)}
		}
	}
}

// finish decides the verdict once every assertion has been evaluated.
func (v *validation) finish() Result {
	e := v.e
	res := v.res
	// Read every definition of a declared symbol, so that sort problems
	// are found whether or not an assertion needed the symbol.
	var missing, extra, aux []string
	for _, sym := range v.declared {
		if sym.bdef != nil {
			continue
		}
		if sym.mdef < 0 {
			missing = append(missing, sym.name)
			continue
		}
		e.modelFun(sym)
	}
	// The model's definitions of symbols the benchmark does not declare,
	// in order of their names.
	var names []string
	for n, sym := range e.syms {
		if sym.mdef >= 0 && !sym.declared {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var refs map[string]bool
	if len(names) > 0 {
		refs = v.modelRefs()
	}
	for _, n := range names {
		sym := e.syms[n]
		switch {
		case sym.bdef != nil:
			// z3 prints the benchmark's own definitions too; the
			// benchmark's definition is the one evaluated.
			aux = append(aux, n+" (defined by the benchmark)")
		case sym.ctor != nil || sym.sel != nil:
			extra = append(extra, n+" (a datatype's constructor or selector)")
		case n == "div0" || n == "mod0" || n == "/0" || n == "div" || n == "mod" || n == "/":
		case refs[n] || sym.used:
		case e.named[n]:
			aux = append(aux, n+" (a :named term)")
		default:
			aux = append(aux, n)
		}
	}
	for _, d := range v.dups {
		extra = append(extra, d+" (defined twice)")
	}
	if len(aux) > 0 {
		res.Notes = append(res.Notes, "auxiliary definitions (not judged): "+list(aux))
	}
	notes := func(r *Result) {
		if len(missing) > 0 {
			r.Notes = append(r.Notes, "the model does not define "+list(missing))
		}
		if len(extra) > 0 {
			r.Notes = append(r.Notes, "the model defines symbols the benchmark does not declare: "+list(extra))
		}
	}
	if res.False > 0 {
		res.Verdict, res.Reason = Invalid, ReasonBadModel
		res.Detail = fmt.Sprintf("%d of %d assertions are false under the model; the first is at %s", res.False, res.Assertions, res.Position)
		notes(&res)
		return res
	}
	withCounts := func(r Result) Result {
		r.Assertions = res.Assertions
		return r
	}
	if e.sortProblem != nil {
		return withCounts(*e.sortProblem)
	}
	if !v.opts.NeededOnly {
		if len(missing) > 0 {
			r := Result{Verdict: Unknown, Reason: ReasonMissingDefinition, Detail: "the model does not define " + list(missing)}
			if len(extra) > 0 {
				notes(&r)
				r.Notes = r.Notes[1:]
			}
			return withCounts(r)
		}
		if len(extra) > 0 {
			return withCounts(Result{Verdict: Unknown, Reason: ReasonExtraDefinition,
				Detail: "the model defines symbols the benchmark does not declare: " + list(extra)})
		}
	}
	if v.undefRes != nil {
		return withCounts(*v.undefRes)
	}
	res.Verdict = Valid
	if v.opts.NeededOnly {
		notes(&res)
	}
	return res
}

func list(names []string) string {
	if len(names) > 10 {
		return strings.Join(names[:10], ", ") + fmt.Sprintf(" and %d more", len(names)-10)
	}
	return strings.Join(names, ", ")
}

// modelRefs returns the symbols that occur in the model's definitions.
func (v *validation) modelRefs() map[string]bool {
	s := v.e.model.Script
	refs := map[string]bool{}
	var stack []smtlib.Term
	for _, d := range v.e.model.Defs {
		if d.Body != smtlib.NoTerm {
			stack = append(stack, d.Body)
		}
	}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s.Kind(t) == smtlib.KindSymbol {
			refs[s.Name(t)] = true
			continue
		}
		for k := 0; k < s.NumChildren(t); k++ {
			stack = append(stack, s.Child(t, k))
		}
	}
	return refs
}
