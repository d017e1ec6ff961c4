package service

import (
	"context"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"wayfind/rank"
	"wayfind/wire"
	"wayfind/workspace"
)

// SoughtDir is the directory a search of dir — a directory that is not
// there — meant, when the search looks for files named like seek (a file
// name's glob, as find's -name reads one; fold: its -iname): the one
// directory below dir's nearest ancestor in the index whose last
// components are the rest of dir, and that holds such a file at any
// depth (`find src -name ReflectUtils.java` at the top of a tree of
// modules: common/src, not the other modules' src). Nil when none does,
// or several (which was meant the search does not say), or seek names
// nothing in particular (only wildcards), or dir is not a directory of a
// root, or the one found is not inside the roots by its real path.
func (s *Service) SoughtDir(ctx context.Context, dir, seek string, fold bool) (*wire.DirMove, error) {
	if _, err := path.Match(seek, ""); err != nil || strings.Trim(seek, "*?.") == "" || strings.Contains(seek, "/") {
		return nil, nil
	}
	ix, root, under, tail, err := s.notThere(ctx, dir)
	if ix == nil {
		return nil, err
	}
	if fold {
		seek = strings.ToLower(seek)
	}
	holds := func(name string) bool {
		if fold {
			name = strings.ToLower(name)
		}
		ok, _ := path.Match(seek, name)
		return ok
	}
	dirs := ix.DirsHolding(root, under, tail, holds, 2)
	if len(dirs) != 1 {
		return nil, nil
	}
	abs := filepath.Join(ix.Roots[root], filepath.FromSlash(dirs[0]))
	if _, inside := workspace.DirInside(ix.Roots, abs); !inside {
		return nil, nil
	}
	return &wire.DirMove{From: path.Join(under, tail), To: dirs[0], URI: wire.FileURI(abs)}, nil
}

// NamedDirs are the directories of today that dir — a directory that is
// not there — names by its last components below its nearest ancestor
// in the index (`src` at the top of a tree of modules: every module's
// src), at most most of them, those holding the most files first (a tree
// of modules' main one); each inside the roots by its real path. None
// when dir is there, or not of a root.
func (s *Service) NamedDirs(ctx context.Context, dir string, most int) ([]wire.NamedDir, error) {
	ix, root, under, tail, err := s.notThere(ctx, dir)
	if ix == nil {
		return nil, err
	}
	named := ix.DirsNamed(root, under, tail)
	slices.SortStableFunc(named, func(a, b workspace.DirCount) int { return b.Files - a.Files })
	var out []wire.NamedDir
	for _, d := range named {
		if len(out) == most {
			break
		}
		abs := filepath.Join(ix.Roots[root], filepath.FromSlash(d.Path))
		if _, inside := workspace.DirInside(ix.Roots, abs); inside {
			out = append(out, wire.NamedDir{Path: d.Path, URI: wire.FileURI(abs), Files: d.Files})
		}
	}
	return out, nil
}

// notThere reads dir — absolute, or relative to the first root — as a
// directory of a root the served index does not hold: that index (nil
// when dir is not such a directory), the root, dir's nearest ancestor
// the index has (under; "" the root's top) and its components below
// that (tail).
func (s *Service) notThere(ctx context.Context, dir string) (ix *workspace.Index, root int, under, tail string, err error) {
	eng, err := s.ws.Engine(ctx)
	if err != nil {
		return nil, 0, "", "", err
	}
	ix = eng.Index()
	q, err := rank.ParsePath(dir)
	if err != nil {
		return nil, 0, "", "", nil
	}
	rel, ok := q.Path, !q.Absolute
	if q.Absolute {
		root, rel, ok = ix.RootOf(string(filepath.Separator) + filepath.FromSlash(q.Path))
	}
	if !ok || q.Up > 0 || rel == "" || ix.HoldsUnder(root, rel) {
		return nil, 0, "", "", nil
	}
	under = rel
	for {
		i := strings.LastIndexByte(under, '/')
		tail = strings.TrimPrefix(under[i+1:]+"/"+tail, "/")
		if i < 0 {
			under = ""
			break
		}
		if under = under[:i]; ix.HasDir(root, under) {
			break
		}
	}
	return ix, root, under, strings.TrimSuffix(tail, "/"), nil
}
