package wal

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/kv"
)

// FuzzDecodeJob feeds arbitrary bytes to the job record decoder: it may
// not panic, and a decoded job must encode again.
func FuzzDecodeJob(f *testing.F) {
	at := time.Date(2024, 3, 5, 19, 30, 0, 0, time.UTC)
	b, err := kv.Encode(jobVersion, &Job{ID: 1, Kind: KindDerive, Target: 2, State: StateRunning, Attempts: 1, Err: "x", Created: at, Updated: at, NotBefore: at})
	require.NoError(f, err)
	f.Add(b)
	f.Add(b[:len(b)-3])
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, v []byte) {
		j, err := decode(v)
		if err != nil {
			return
		}
		out, err := kv.Encode(jobVersion, &j)
		require.NoError(t, err)
		_, err = decode(out)
		require.NoError(t, err)
	})
}
