package main

// rooms: following a request's parameter through the code (issue 55's
// "climbs back up").
//
//	wayfind-bench rooms [-from '(*wayfind/lsp.server).resolvePath'] [-param raw] [-dir .] [-packages]
//
// The walk starts at a handler and follows its parameter: every call in
// the module whose arguments (the receiver included) carry a value
// computed from it, in the order the calls are written, each function
// walked once. A value carries the parameter when it is computed from one
// that does, stored into a struct or slice that then does, or returned by
// a call given one that does. Interface calls are not followed: the
// callee is not known statically (the service's Workspace, which every
// request calls alike); nor are the calls of a function value other than
// a closure called where it is made (a sort's comparison runs inside
// the sort: better, called so from candidate.go, was in resolve.go
// unseen). A room is a source file (with -packages, a
// package); a climb back up is a call from a
// room into one the walk passed through on its way down (a file of a
// caller on the stack that is not the calling file) — a lower stage
// handing the question back to a higher one.
//
// The rule is measured, not asserted by reading: TestResolveClimbs
// holds resolve's count to the bound.

import (
	"flag"
	"fmt"
	"go/token"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// roomWalk is a walk's result: the rooms in the order first entered and
// the calls that climbed back up.
type roomWalk struct {
	rooms  []string
	climbs []roomClimb
}

// roomClimb is one call into a room above the calling one.
type roomClimb struct {
	from, to string   // the calling and the called function
	room     string   // the called function's file
	stack    []string // the rooms of the callers, from the start
}

func roomsCmd(args []string) error {
	fs := flag.NewFlagSet("rooms", flag.ContinueOnError)
	from := fs.String("from", "(*wayfind/lsp.server).resolvePath", "the handler the walk starts at (its SSA name)")
	param := fs.String("param", "raw", "the handler's parameter to follow")
	dir := fs.String("dir", ".", "the module's directory")
	byPackage := fs.Bool("packages", false, "a room is a package (its directory), not a file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	w, err := walkRooms(*dir, *from, *param, *byPackage)
	if err != nil {
		return err
	}
	fmt.Printf("# following %s of %s: %d rooms, %d climbs back up\n\n", *param, *from, len(w.rooms), len(w.climbs))
	for i, r := range w.rooms {
		fmt.Printf("%2d. %s\n", i+1, r)
	}
	fmt.Println()
	for _, c := range w.climbs {
		fmt.Printf("climb: %s → %s (%s), down through %s\n", c.from, c.to, c.room, strings.Join(c.stack, " › "))
	}
	return nil
}

// walkRooms loads the module at dir and walks from the function named
// fn (its SSA String()), following its parameter named param.
func walkRooms(dir, fn, param string, byPackage bool) (roomWalk, error) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax | packages.NeedModule, Dir: dir}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return roomWalk{}, err
	}
	if packages.PrintErrors(pkgs) > 0 || len(pkgs) == 0 || pkgs[0].Module == nil {
		return roomWalk{}, fmt.Errorf("rooms: the module does not load")
	}
	prog, _ := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	var start *ssa.Function
	for f := range ssautil.AllFunctions(prog) {
		if f.String() == fn {
			start = f
		}
	}
	if start == nil {
		return roomWalk{}, fmt.Errorf("rooms: no function %s", fn)
	}
	pi := slices.IndexFunc(start.Params, func(p *ssa.Parameter) bool { return p.Name() == param })
	if pi < 0 {
		return roomWalk{}, fmt.Errorf("rooms: %s has no parameter %s", fn, param)
	}
	rw := &roomWalker{fset: prog.Fset, byPackage: byPackage, module: pkgs[0].Module.Path, seen: map[*ssa.Function]bool{}, entered: map[string]bool{}}
	rw.walk(start, map[ssa.Value]bool{start.Params[pi]: true}, nil)
	return rw.out, nil
}

type roomWalker struct {
	fset      *token.FileSet
	byPackage bool // a room is a package, not a file
	module    string
	seen      map[*ssa.Function]bool
	entered   map[string]bool
	out       roomWalk
}

// room is the file a function is written in (its directory with
// byPackage).
func (rw *roomWalker) room(f *ssa.Function) string {
	if rw.byPackage {
		return path.Dir(rw.fileOf(f))
	}
	return rw.fileOf(f)
}

// fileOf is the file a function is written in, as its directory's
// name and its own.
func (rw *roomWalker) fileOf(f *ssa.Function) string {
	pos := f.Pos()
	if !pos.IsValid() && f.Parent() != nil {
		pos = f.Parent().Pos()
	}
	name := rw.fset.Position(pos).Filename
	if name == "" {
		return f.String()
	}
	return filepath.Base(filepath.Dir(name)) + "/" + filepath.Base(name)
}

// inModule: the function is the module's own code (not a dependency's,
// not a test's).
func (rw *roomWalker) inModule(f *ssa.Function) bool {
	if f == nil || f.Pkg == nil {
		if f != nil && f.Parent() != nil {
			return rw.inModule(f.Parent())
		}
		return false
	}
	p := f.Pkg.Pkg.Path()
	return (p == rw.module || strings.HasPrefix(p, rw.module+"/")) && !strings.HasSuffix(rw.fileOf(f), "_test.go")
}

// walk follows f's carried values (carried: f's parameters and free
// variables that carry the parameter) into its callees; stack holds the
// rooms of the callers above f.
func (rw *roomWalker) walk(f *ssa.Function, carried map[ssa.Value]bool, stack []string) {
	rw.seen[f] = true
	here := rw.room(f)
	if !rw.entered[here] {
		rw.entered[here] = true
		rw.out.rooms = append(rw.out.rooms, here)
	}
	carries := carriedValues(f, carried)
	stack = append(stack, here)
	for _, b := range f.Blocks {
		for _, ins := range b.Instrs {
			call, ok := ins.(ssa.CallInstruction)
			if !ok {
				continue
			}
			com := call.Common()
			callee := com.StaticCallee()
			if !rw.inModule(callee) {
				continue
			}
			args := com.Args
			next := map[ssa.Value]bool{}
			for i, a := range args {
				if carries[a] && i < len(callee.Params) {
					next[callee.Params[i]] = true
				}
			}
			if mc, ok := com.Value.(*ssa.MakeClosure); ok {
				for i, bv := range mc.Bindings {
					if carries[bv] {
						next[callee.FreeVars[i]] = true
					}
				}
			}
			if len(next) == 0 {
				continue
			}
			to := rw.room(callee)
			if to != here && slices.Contains(stack[:len(stack)-1], to) {
				rw.out.climbs = append(rw.out.climbs, roomClimb{from: f.String(), to: callee.String(), room: to, stack: slices.Clone(stack)})
			}
			if !rw.seen[callee] {
				rw.walk(callee, next, stack)
			}
		}
	}
}

// carriedValues: the values of f computed from the carried ones, to a
// fixed point — an instruction's value carries when an operand does; a
// store of a carrying value makes the address (and what it is an address
// into) carry; a closure made with a carrying binding carries.
func carriedValues(f *ssa.Function, carried map[ssa.Value]bool) map[ssa.Value]bool {
	c := map[ssa.Value]bool{}
	for v := range carried {
		c[v] = true
	}
	for changed := true; changed; {
		changed = false
		mark := func(v ssa.Value) {
			if v != nil && !c[v] {
				c[v] = true
				changed = true
			}
		}
		for _, b := range f.Blocks {
			for _, ins := range b.Instrs {
				var ops []*ssa.Value
				ops = ins.Operands(ops)
				carrying := false
				for _, o := range ops {
					if o != nil && *o != nil && c[*o] {
						carrying = true
						break
					}
				}
				if !carrying {
					continue
				}
				switch ins := ins.(type) {
				case *ssa.Store:
					if c[ins.Val] {
						for a := ins.Addr; a != nil; a = addressBase(a) {
							mark(a)
						}
					}
				case *ssa.MapUpdate:
					mark(ins.Map)
				case ssa.CallInstruction:
					// A call given a carrying value may write it through
					// a local's address (decode(raw, &p)).
					for _, a := range ins.Common().Args {
						if l := localAddress(a); l != nil {
							mark(a)
							mark(l)
						}
					}
					if v, ok := ins.(ssa.Value); ok {
						mark(v)
					}
				case ssa.Value:
					mark(ins)
				}
			}
		}
	}
	return c
}

// addressBase is what an address is an address into (a field's struct,
// an element's slice or array), nil for a root.
func addressBase(a ssa.Value) ssa.Value {
	switch a := a.(type) {
	case *ssa.FieldAddr:
		return a.X
	case *ssa.IndexAddr:
		return a.X
	}
	return nil
}

// localAddress is the local variable a is the address of (of a part of
// it, or the address in an interface), nil when it is none.
func localAddress(a ssa.Value) ssa.Value {
	if mi, ok := a.(*ssa.MakeInterface); ok {
		a = mi.X
	}
	for ; a != nil; a = addressBase(a) {
		if l, ok := a.(*ssa.Alloc); ok {
			return l
		}
	}
	return nil
}
