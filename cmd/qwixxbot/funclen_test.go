package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines is the longest a non-test function may be, from "func" to
// its closing brace: a longer one is split into named steps.
const maxFuncLines = 120

// longFuncsBeingSplit are the functions over maxFuncLines that are being
// split right now, with their length when listed: delete an entry when its
// function is split (the test then keeps it short).
var longFuncsBeingSplit = map[string]int{}

// No non-test function of the module is longer than maxFuncLines, except
// generated code ("Code generated ... DO NOT EDIT.").
func TestNoFunctionOver120Lines(t *testing.T) {
	root := filepath.Join("..", "..") // the test runs in cmd/qwixxbot
	long := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return err
		}
		if ast.IsGenerated(f) {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if n := fset.Position(fd.End()).Line - fset.Position(fd.Pos()).Line + 1; n > maxFuncLines {
				long[filepath.ToSlash(rel)+":"+funcName(fd)] = n
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, n := range long {
		if _, ok := longFuncsBeingSplit[name]; !ok {
			t.Errorf("%s is %d lines long (at most %d): split it into named steps", name, n, maxFuncLines)
		}
	}
	for name := range longFuncsBeingSplit {
		if _, ok := long[name]; !ok {
			t.Errorf("%s is no longer over %d lines (or gone): delete it from longFuncsBeingSplit", name, maxFuncLines)
		}
	}
}

// funcName is a function's name, with its receiver's type for a method
// (Type.Method).
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr: // a generic type
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
