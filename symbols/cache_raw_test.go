package symbols

import (
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
