package kv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/vmihailenco/msgpack/v5"
	bolt "go.etcd.io/bbolt"
)

// Encode returns version followed by the msgpack encoding of v. v must be a
// struct (or pointer to one) with msgpack tags; maps are not allowed in
// records because their encoding order is not deterministic.
func Encode(version byte, v any) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte(version)
	enc := msgpack.NewEncoder(&buf)
	enc.UseCompactInts(true)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("kv: encode: %w", err)
	}
	return buf.Bytes(), nil
}

// Decode checks data's version byte against the versions accepted and
// decodes the rest into v, copying: v never aliases data. It returns the
// version found so that callers can upgrade older records.
func Decode(data []byte, v any, accepted ...byte) (byte, error) {
	if len(data) < 2 {
		return 0, fmt.Errorf("%w: record of %d bytes", ErrCorrupt, len(data))
	}
	ver := data[0]
	ok := false
	for _, a := range accepted {
		if a == ver {
			ok = true
			break
		}
	}
	if !ok {
		return ver, fmt.Errorf("%w: record version %d, want one of %v", ErrVersionMismatch, ver, accepted)
	}
	if err := checkMsgpack(data[1:]); err != nil {
		return ver, err
	}
	// Readers and decoders are pooled: a record decode is on every read
	// path, and a fresh msgpack decoder costs more than a small record.
	// bytes.Reader is an io.ByteScanner, so the decoder reads no further
	// than the value and r.Len() counts what is left.
	r := readers.Get().(*bytes.Reader)
	r.Reset(data[1:])
	dec := msgpack.GetDecoder()
	dec.Reset(r)
	err := safeDecode(dec, v)
	left := r.Len()
	if !errors.Is(err, errDecodePanic) {
		msgpack.PutDecoder(dec) // a decoder that panicked is not reused
	}
	r.Reset(nil)
	readers.Put(r)
	if err != nil {
		return ver, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	if left != 0 {
		return ver, fmt.Errorf("%w: %d trailing bytes", ErrCorrupt, left)
	}
	return ver, nil
}

// errDecodePanic marks a msgpack panic turned into an error.
var errDecodePanic = errors.New("msgpack decoder panic")

// safeDecode runs dec.Decode(v), turning a panic into an error: msgpack
// panics on some malformed input (a nil where a struct is expected, as in
// a time.Time field) instead of returning an error.
func safeDecode(dec *msgpack.Decoder, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: %v", errDecodePanic, p)
		}
	}()
	return dec.Decode(v)
}

var readers = sync.Pool{New: func() any { return new(bytes.Reader) }}

// Key encodes id as an 8-byte big-endian key so that byte order equals
// numeric order.
func Key(id uint64) []byte {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], id)
	return b[:]
}

// ID decodes a key made by Key. It returns 0 for a key of the wrong size,
// which no record uses (sequences start at 1).
func ID(k []byte) uint64 {
	if len(k) != 8 {
		return 0
	}
	return binary.BigEndian.Uint64(k)
}

// SeekGet is Bucket.Get through c, which it repositions: the value of key
// k, nil if k is missing or a nested bucket. A cursor reused for many keys
// saves the cursor Bucket.Get allocates for each.
func SeekGet(c *bolt.Cursor, k []byte) []byte {
	got, v := c.Seek(k)
	if !bytes.Equal(got, k) {
		return nil
	}
	return v
}
