package symbols

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

func openRaw(t *testing.T, file string) *bolt.DB {
	db, err := bolt.Open(file, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func putRaw(t *testing.T, db *bolt.DB, key string, value []byte) {
	err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketFiles)
		if err != nil {
			return err
		}
		return b.Put([]byte(key), value)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestReleaseRead: the mapping is found from every key a scan reads, and
// dropping its pages while the scan goes on (releaseRead, after every
// entry here) leaves every entry read afterwards as it was written.
func TestReleaseRead(t *testing.T) {
	file := filepath.Join(t.TempDir(), "symbols.db")
	db := openRaw(t, file)
	want := map[string]string{}
	for i := range 2000 {
		k, v := fmt.Sprintf("dir/file%05d.go", i), strings.Repeat(fmt.Sprint(i), 50)
		want[k] = v
	}
	err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketFiles)
		if err != nil {
			return err
		}
		for k, v := range want {
			if err := b.Put([]byte(k), []byte(v)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = bolt.Open(file, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	err = db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketFiles).ForEach(func(k, v []byte) error {
			if !releaseRead(db, st.Size(), k) {
				return fmt.Errorf("%s: a key of a read-only transaction found outside the mapping", k)
			}
			if want[string(k)] != string(v) {
				return fmt.Errorf("%s read %q after its pages were dropped", k, v)
			}
			n++
			return nil
		})
	})
	if err != nil || n != len(want) {
		t.Fatalf("%d of %d entries read: %v", n, len(want), err)
	}
}
