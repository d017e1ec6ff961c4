package history

import (
	"time"

	bolt "go.etcd.io/bbolt"

	"wayfind/workspace"
)

// noteWait bounds how long Note waits for another process holding the
// file: a hook answers inside an agent's tool call, and a visit is worth
// less than the call's time.
const noteWait = 50 * time.Millisecond

// Note records visits to rels inside root, made at now, straight into
// the history file root's visits are kept in under cacheDir (its
// project's, placeOf): for a process that lives for one
// call (an agent's hook, whose reads are the agent's visits), where a
// Store would flush the same on Close. The visits are merged under the
// file's lock as a Store's flush merges them, without reading the whole
// file back and without a sync — a visit a crash loses only breaks a
// tie. A file another process holds past noteWait is left as it is:
// the visits are dropped and the error says so. Stores on the same root
// take them in at their next question (Store.reread).
func Note(cacheDir, root string, rels []string, why Reason, now time.Time) error {
	if workspace.CachesOff(cacheDir) || len(rels) == 0 {
		return nil
	}
	pl := placeOf(cacheDir, root)
	pending := map[string]entry{}
	for _, rel := range rels {
		if rel != "" {
			pending[rel] = pending[rel].add(now.UnixNano(), why)
		}
	}
	pending = inFile(pl, pending)
	return updateFile(pl.file, noteWait, true, func(tx *bolt.Tx) error {
		b, err := openBuckets(tx)
		if err != nil {
			return err
		}
		// The files held before (counted from the pages' headers,
		// not key by key) and the new ones.
		held := b.visits.Stats().KeyN
		n := held
		for rel := range pending {
			if b.visits.Get([]byte(rel)) == nil {
				n++
			}
		}
		if err := b.merge(pending); err != nil {
			return err
		}
		// The bound a store's flush keeps, kept where only notes
		// were written lately: the default, or as many as a store
		// configured for more (history.size) left there — a note
		// never shrinks a history.
		limit := max(DefaultLimit, held)
		if n <= limit {
			return nil
		}
		out, err := readAll(tx)
		if err != nil {
			return err
		}
		return b.bound(out, limit, now.UnixNano())
	})
}
