package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzToolArguments: any bytes as a tool's arguments either decode into
// its input (every name canonical or a known alias) or yield an error that
// says how to retry; nothing panics.
func FuzzToolArguments(f *testing.F) {
	for _, s := range []string{`{"q":"x","k":3}`, `{"query":"x","limit":"5","cursor":10}`, `{"scope":"global"}`,
		`{"scopes":["a","b"],"page_size":1.0}`, `null`, `[]`, `{"limit":1e400}`, `{"x":1}`, `{"query":null}`} {
		f.Add([]byte(s))
	}
	known := jsonNames(reflect.TypeFor[SearchIn]())
	aliases := map[string]string{}
	for k, v := range commonAliases {
		aliases[k] = v
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		args, err := normalizeArgs(raw, known, aliases)
		if err != nil {
			require.Contains(t, describe(err), "retry")
			return
		}
		for k := range args {
			require.Contains(t, known, k)
		}
		norm, err := json.Marshal(args)
		require.NoError(t, err)
		var in SearchIn
		if err := decodeArgs(norm, &in); err != nil {
			require.Contains(t, describe(err), "retry")
			return
		}
		_, _, _ = page(in.Limit, in.Cursor)
	})
}

// FuzzSocketPath: any store path yields an error or one socket path, the
// same each time, short enough for a unix socket.
func FuzzSocketPath(f *testing.F) {
	for _, s := range []string{"m.sg", "/tmp/a/m.sg", "./x/../m.sg", "", "/" + strings.Repeat("d", 200) + "/m.sg", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, db string) {
		p, err := socketPath(db)
		if err != nil {
			return
		}
		require.LessOrEqual(t, len(p), maxSocketPath)
		require.True(t, strings.HasSuffix(p, ".sock"), p)
		again, err := socketPath(db)
		require.NoError(t, err)
		require.Equal(t, p, again)
	})
}
