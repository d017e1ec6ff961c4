package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A failed access the agent fixed nothing after has no truth from its own
// steps: resolved, it was counted wrong, even where the repository's own
// record says the path was renamed to the very file answered (the module
// a package replaced, a test renamed with its class). recordedMove is a
// second truth for such an access, read by git itself rather than by
// wayfind's history reader: the path's last deletion before the task's
// commit (`git log -- PATH`, which sees only that side of a rename), and
// in that commit git's own rename detection (`git show -M`) pairing it
// with a new path that kept most of it — followed while the new path was itself renamed — to
// a file of the checkout. A truth that reads history is checked against
// people's own fixes: every case with the agent's fix and a recorded move
// is compared (agreement printed beside the table), and the judge trusts
// the record only for accesses with no fix.

// recordedMoveSteps bounds the renames followed from a path: a file
// renamed more often than this in a task's history is left unjudged.
const recordedMoveSteps = 8

// recordedMoveSimilarity is how much of itself a file must keep to have
// moved: four fifths. Git pairs a deleted file with an added one from
// half its content up; a file split in two keeps about half in each
// (pytest's test_python.py, "refactor test_python.py into multiple
// files", 52% in the part git chose), and which part an agent meant is
// not in the record, where a module that became its package's
// __init__.py, or a test renamed with its class, keeps nine tenths or
// more.
const recordedMoveSimilarity = "80%"

// recordedMove is where git records that rel, a path not in the tree at
// commit, went: a file of tree, or "" when the record names none (a
// deletion, no history of it, a chain that ends outside the tree).
func recordedMove(git, commit, tree, rel string) (string, error) {
	p := rel
	for range recordedMoveSteps {
		del, err := lastDeletion(git, commit, p)
		if err != nil || del == "" {
			return "", err
		}
		to, err := renamedIn(git, del, p)
		if err != nil || to == "" {
			return "", err
		}
		if st, err := os.Stat(filepath.Join(tree, filepath.FromSlash(to))); err == nil && st.Mode().IsRegular() {
			return to, nil
		}
		p = to
	}
	return "", nil
}

// lastDeletion is the newest commit reachable from commit that removed
// path p ("" when none did).
func lastDeletion(git, commit, p string) (string, error) {
	out, err := exec.Command("git", "--git-dir", git, "log", "-1", "--format=%H", "--diff-filter=D", commit, "--", p).Output()
	if err != nil {
		return "", fmt.Errorf("git log -- %s: %v", p, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// renamedIn is the path git's rename detection pairs p with in commit c
// (against its first parent), "" when it calls p deleted.
func renamedIn(git, c, p string) (string, error) {
	out, err := exec.Command("git", "--git-dir", git, "show", "-M"+recordedMoveSimilarity, "--first-parent", "--name-status", "-z", "--format=", c).Output()
	if err != nil {
		return "", fmt.Errorf("git show %s: %v", c, err)
	}
	return renameOf(out, p), nil
}

// renameOf reads `--name-status -z` output: the new path of the rename
// whose old path is p, "" when there is none.
func renameOf(out []byte, p string) string {
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i < len(fields); {
		status := fields[i]
		i++
		if status == "" {
			continue
		}
		n := 1 // the paths that follow a status
		if status[0] == 'R' || status[0] == 'C' {
			n = 2
		}
		if i+n > len(fields) {
			return ""
		}
		if status[0] == 'R' && fields[i] == p {
			return fields[i+1]
		}
		i += n
	}
	return ""
}
