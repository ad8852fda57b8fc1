package archtest

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/smtarena/smtarena/internal/testenv"
)

const module = "github.com/smtarena/smtarena/"

// imports returns, per package directory under internal/ and cmd/, the
// imports of its non-test files.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	root := testenv.Root()
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, top := range []string{"internal", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			rel = filepath.ToSlash(rel)
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				out[rel] = append(out[rel], path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func isStd(path string) bool { return !strings.Contains(strings.Split(path, "/")[0], ".") }

// TestDependencyDirection enforces the rules of docs/architecture.md.
func TestDependencyDirection(t *testing.T) {
	pkgs := imports(t)
	if len(pkgs) == 0 {
		t.Fatal("no packages found")
	}
	domain := []string{"benchmark", "smtlib", "model", "library", "selection", "scramble", "trace",
		"track", "validate", "proof", "score", "store", "executor", "report", "web", "config", "official", "benchgen"}
	ioPkgs := []string{"os", "os/exec", "net", "net/http", "database/sql", "io/fs", "syscall"}
	for pkg, imps := range pkgs {
		name := strings.TrimPrefix(pkg, "internal/")
		for _, imp := range imps {
			own := strings.TrimPrefix(imp, module+"internal/")
			switch {
			case (name == "smtlib" || name == "zstd" || name == "xz" || name == "keyset" || name == "strarena") && !isStd(imp):
				t.Errorf("%s imports %s: %s imports only the standard library", pkg, imp, name)
			case name == "sandbox" && contains(domain, own):
				t.Errorf("%s imports %s: sandbox imports no domain package", pkg, imp)
			case (name == "score" || name == "selection") && contains(ioPkgs, imp):
				t.Errorf("%s imports %s: %s does no I/O", pkg, imp, name)
			case (name == "report" || name == "web") && (own == "executor" || own == "sandbox"):
				t.Errorf("%s imports %s: %s never imports executor or sandbox", pkg, imp, name)
			case strings.HasPrefix(pkg, "internal/") && strings.HasPrefix(imp, module+"cmd/"):
				t.Errorf("%s imports %s: nothing imports cmd/", pkg, imp)
			case strings.HasPrefix(pkg, "internal/") && name != "testenv" && own == "testenv":
				t.Errorf("%s imports %s outside tests", pkg, imp)
			}
		}
	}
	// Only cmd/ picks concrete implementations.
	for pkg, imps := range pkgs {
		if strings.HasPrefix(pkg, "cmd/") {
			continue
		}
		for _, imp := range imps {
			for _, impl := range []string{"store/sqlite", "store/postgres", "executor/local", "executor/slurm"} {
				if strings.HasSuffix(imp, "internal/"+impl) && !strings.HasPrefix(pkg, "internal/"+strings.Split(impl, "/")[0]) {
					t.Errorf("%s imports %s: only cmd/ picks implementations", pkg, imp)
				}
			}
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
