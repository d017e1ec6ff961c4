package vcs

import (
	"bufio"
	"encoding/gob"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// cacheFile is the record's file in a root's cache directory
// (workspace.RootCacheDir), beside the symbol cache.
const cacheFile = "vcs.gob"

// cacheVersion changes whenever the encoding or the fold does; a file of
// another version is rebuilt, not read.
const cacheVersion = 17

// stored is a Record as gob writes it.
type stored struct {
	Version          int
	Head, Prefix     string
	Commits, Renames int
	Shallow          bool
	Detection        Detection
	Lineages         []storedLineage
	Names            map[string][4]int32
	MovedTo          map[string]string
	Split            map[string]bool
	CommitList       []Commit
	Co               map[int32][]storedCo
	Author           string
	Mine             [][]int32
	Recent           []recentCommit
}

type storedLineage struct {
	Path    string
	End     int32
	Unsure  bool
	Changes uint32
	Kin     int32
}

type storedCo struct {
	Lin   int32
	Count uint32
}

// Save writes r into dir (created if need be), replacing what was there
// in one rename: a reader sees the old file or the new one.
func Save(dir string, r *Record) error { return saveAs(dir, cacheFile, r) }

// saveAs is Save to the file name in dir.
func saveAs(dir, name string, r *Record) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	s := stored{Version: cacheVersion, Head: r.Head, Prefix: r.Prefix, Commits: r.Commits, Renames: r.Renames,
		Shallow: r.Shallow, Detection: r.Detection, CommitList: r.commits, Names: make(map[string][4]int32, len(r.names)),
		Lineages: make([]storedLineage, len(r.lineages)), Co: make(map[int32][]storedCo, len(r.co)),
		Author: r.Author, Mine: r.mine, Recent: r.recent}
	for i, l := range r.lineages {
		s.Lineages[i] = storedLineage{Path: l.path, End: l.end, Unsure: l.unsure, Changes: l.changes, Kin: l.kin}
	}
	for k, n := range r.names {
		s.Names[k] = [4]int32{n.lin, n.left, n.moved, n.movedAt}
		if n.split {
			if s.Split == nil {
				s.Split = map[string]bool{}
			}
			s.Split[k] = true
		}
		if n.movedTo != "" {
			if s.MovedTo == nil {
				s.MovedTo = map[string]string{}
			}
			s.MovedTo[k] = n.movedTo
		}
	}
	for k, ps := range r.co {
		list := make([]storedCo, len(ps))
		for i, p := range ps {
			list[i] = storedCo{Lin: p.lin, Count: p.count}
		}
		s.Co[k] = list
	}
	tmp, err := os.CreateTemp(dir, name+".*")
	if err != nil {
		return err
	}
	w := bufio.NewWriter(tmp)
	err = gob.NewEncoder(w).Encode(&s)
	if err == nil {
		err = w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), filepath.Join(dir, name))
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// ErrNoCache: dir holds no record (or one of another version).
var ErrNoCache = errors.New("no cached history")

// Load reads the record Save wrote into dir. A file that does not decode,
// or whose parts do not agree, is an error: the caller rebuilds.
func Load(dir string) (*Record, error) { return loadFrom(dir, cacheFile) }

// loadFrom is Load from the file name in dir.
func loadFrom(dir, file string) (*Record, error) {
	f, err := os.Open(filepath.Join(dir, file))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, ErrNoCache
		}
		return nil, err
	}
	defer f.Close()
	var s stored
	if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&s); err != nil {
		return nil, fmt.Errorf("history cache: %w", err)
	}
	if s.Version != cacheVersion {
		return nil, ErrNoCache
	}
	r := newRecord()
	r.Head, r.Prefix, r.Commits, r.Renames, r.Shallow, r.Detection, r.commits = s.Head, s.Prefix, s.Commits, s.Renames, s.Shallow, s.Detection, s.CommitList
	r.lineages = make([]lineage, len(s.Lineages))
	for i, l := range s.Lineages {
		if l.End >= int32(len(r.commits)) {
			return nil, fmt.Errorf("history cache: a lineage ends at commit %d of %d", l.End, len(r.commits))
		}
		if l.Kin < 0 || int(l.Kin) > len(s.Lineages) {
			return nil, fmt.Errorf("history cache: a lineage's kin %d of %d", l.Kin, len(s.Lineages))
		}
		r.lineages[i] = lineage{path: l.Path, end: l.End, unsure: l.Unsure, changes: l.Changes, kin: l.Kin}
		if l.End < 0 {
			r.live[l.Path] = int32(i)
		}
	}
	for k, v := range s.Names {
		if v[0] < 0 || int(v[0]) >= len(r.lineages) || v[1] >= int32(len(r.commits)) ||
			int(v[2]) >= len(r.lineages) || v[3] >= int32(len(r.commits)) || (v[2] >= 0) != (v[3] >= 0) {
			return nil, fmt.Errorf("history cache: name %q points outside the record", k)
		}
		r.names[k] = name{lin: v[0], left: v[1], moved: v[2], movedAt: v[3], movedTo: s.MovedTo[k], split: s.Split[k]}
		if (v[2] >= 0) != (s.MovedTo[k] != "") {
			return nil, fmt.Errorf("history cache: name %q moved nowhere", k)
		}
	}
	for k, ps := range s.Co {
		list := make([]coCount, 0, len(ps))
		for _, p := range ps {
			if p.Lin < 0 || int(p.Lin) >= len(r.lineages) {
				return nil, fmt.Errorf("history cache: a partner outside the record")
			}
			list = append(list, coCount{lin: p.Lin, count: p.Count})
		}
		r.co[k] = list
	}
	for _, ls := range s.Mine {
		for _, l := range ls {
			if l < 0 || int(l) >= len(r.lineages) {
				return nil, fmt.Errorf("history cache: one of the user's commits outside the record")
			}
		}
	}
	if len(s.Mine) > AuthoredCommits {
		return nil, fmt.Errorf("history cache: %d of the user's commits kept, of %d", len(s.Mine), AuthoredCommits)
	}
	for _, c := range s.Recent {
		for _, ls := range [][]int32{c.Touched, c.Edited} {
			for _, l := range ls {
				if l < 0 || int(l) >= len(r.lineages) {
					return nil, fmt.Errorf("history cache: a recent commit outside the record")
				}
			}
		}
	}
	if len(s.Recent) > RecentCommits {
		return nil, fmt.Errorf("history cache: %d recent commits kept, of %d", len(s.Recent), RecentCommits)
	}
	r.Author, r.mine, r.recent = s.Author, s.Mine, s.Recent
	r.invertCo()
	return r, nil
}
