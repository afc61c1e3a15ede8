package wal

import (
	"bytes"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
)

// usageVersion is the record format of a usage total in the meta bucket.
const usageVersion byte = 1

// usagePrefix prefixes the meta keys of usage totals: "usage/derive",
// "usage/extract", "usage/project", "usage/ask", ...
const usagePrefix = "usage/"

// Charge adds u, the model usage of one attempt of job id, to the job's
// record and to its kind's total, and records prompt (a model.Prompt id)
// as the job's last prompt. Call it in the transaction that records the
// attempt's outcome (done, retry, failure), so an attempt is charged once
// or, if the process dies first, not at all.
func Charge(tx *bolt.Tx, id uint64, u model.Usage, prompt string) error {
	if u.IsZero() && prompt == "" {
		return nil
	}
	j, err := Get(tx, id)
	if err != nil {
		return err
	}
	j.Usage.Add(u)
	if prompt != "" {
		j.Prompt = prompt
	}
	if err := put(tx, &j); err != nil {
		return err
	}
	return AddUsage(tx, string(j.Kind), u)
}

// AddUsage adds u to the total kept under name (a job kind, or "ask" for
// the gate's model calls) in the meta bucket.
func AddUsage(tx *bolt.Tx, name string, u model.Usage) error {
	if u.IsZero() {
		return nil
	}
	meta := tx.Bucket(kv.BucketMeta)
	key := []byte(usagePrefix + name)
	var total model.Usage
	if v := meta.Get(key); v != nil {
		if _, err := kv.Decode(v, &total, usageVersion); err != nil {
			return fmt.Errorf("wal: usage %q: %w", name, err)
		}
	}
	total.Add(u)
	v, err := kv.Encode(usageVersion, &total)
	if err != nil {
		return err
	}
	return meta.Put(key, v)
}

// Usages returns the usage totals by name (see AddUsage).
func Usages(tx *bolt.Tx) (map[string]model.Usage, error) {
	out := map[string]model.Usage{}
	c := tx.Bucket(kv.BucketMeta).Cursor()
	prefix := []byte(usagePrefix)
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var u model.Usage
		if _, err := kv.Decode(v, &u, usageVersion); err != nil {
			return nil, fmt.Errorf("wal: usage %q: %w", k[len(prefix):], err)
		}
		out[string(k[len(prefix):])] = u
	}
	return out, nil
}
