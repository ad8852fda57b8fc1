package smtlib

// CommandKind names an SMT-LIB 2.6 command. The arguments of each kind, as
// CmdArg returns them, are listed next to it ("sym" a symbol, "kw" a keyword,
// "list(x)" a KindList of x, "sorted" a list (v s) of a variable and a sort).
type CommandKind uint8

const (
	CmdInvalid             CommandKind = iota
	CmdAssert                          // term
	CmdCheckSat                        //
	CmdCheckSatAssuming                // list(literal)
	CmdDeclareConst                    // sym sort
	CmdDeclareDatatype                 // sym decl; decl is list(ctor) or par, ctor is list(sym list(sel sort)...)
	CmdDeclareDatatypes                // list(list(sym numeral)) list(decl)
	CmdDeclareFun                      // sym list(sort) sort
	CmdDeclareSort                     // sym numeral
	CmdDefineFun                       // sym list(sorted) sort term
	CmdDefineFunRec                    // sym list(sorted) sort term
	CmdDefineFunsRec                   // list(list(sym list(sorted) sort)) list(term)
	CmdDefineSort                      // sym list(sym) sort
	CmdEcho                            // string
	CmdExit                            //
	CmdGetAssertions                   //
	CmdGetAssignment                   //
	CmdGetInfo                         // kw
	CmdGetModel                        //
	CmdGetOption                       // kw
	CmdGetProof                        //
	CmdGetUnsatAssumptions             //
	CmdGetUnsatCore                    //
	CmdGetValue                        // list(term)
	CmdPop                             // numeral (absent in lenient input: no args)
	CmdPush                            // numeral (absent in lenient input: no args)
	CmdReset                           //
	CmdResetAssertions                 //
	CmdSetInfo                         // kw [value]
	CmdSetLogic                        // sym
	CmdSetOption                       // kw [value]
	numCommands
)

var commandNames = [numCommands]string{"", "assert", "check-sat", "check-sat-assuming",
	"declare-const", "declare-datatype", "declare-datatypes", "declare-fun", "declare-sort",
	"define-fun", "define-fun-rec", "define-funs-rec", "define-sort", "echo", "exit",
	"get-assertions", "get-assignment", "get-info", "get-model", "get-option", "get-proof",
	"get-unsat-assumptions", "get-unsat-core", "get-value", "pop", "push", "reset",
	"reset-assertions", "set-info", "set-logic", "set-option"}

// String returns the command's name as written in SMT-LIB.
func (k CommandKind) String() string {
	if k < numCommands && k != CmdInvalid {
		return commandNames[k]
	}
	return "invalid-command"
}

// CommandByName returns the command called name, or CmdInvalid.
func CommandByName(name string) CommandKind { return commandByName([]byte(name)) }

func commandByName(b []byte) CommandKind {
	// A switch on the string compiles to a search by length and value, and
	// string(b) here does not allocate.
	switch string(b) {
	case "assert":
		return CmdAssert
	case "check-sat":
		return CmdCheckSat
	case "check-sat-assuming":
		return CmdCheckSatAssuming
	case "declare-const":
		return CmdDeclareConst
	case "declare-datatype":
		return CmdDeclareDatatype
	case "declare-datatypes":
		return CmdDeclareDatatypes
	case "declare-fun":
		return CmdDeclareFun
	case "declare-sort":
		return CmdDeclareSort
	case "define-fun":
		return CmdDefineFun
	case "define-fun-rec":
		return CmdDefineFunRec
	case "define-funs-rec":
		return CmdDefineFunsRec
	case "define-sort":
		return CmdDefineSort
	case "echo":
		return CmdEcho
	case "exit":
		return CmdExit
	case "get-assertions":
		return CmdGetAssertions
	case "get-assignment":
		return CmdGetAssignment
	case "get-info":
		return CmdGetInfo
	case "get-model":
		return CmdGetModel
	case "get-option":
		return CmdGetOption
	case "get-proof":
		return CmdGetProof
	case "get-unsat-assumptions":
		return CmdGetUnsatAssumptions
	case "get-unsat-core":
		return CmdGetUnsatCore
	case "get-value":
		return CmdGetValue
	case "pop":
		return CmdPop
	case "push":
		return CmdPush
	case "reset":
		return CmdReset
	case "reset-assertions":
		return CmdResetAssertions
	case "set-info":
		return CmdSetInfo
	case "set-logic":
		return CmdSetLogic
	case "set-option":
		return CmdSetOption
	}
	return CmdInvalid
}
