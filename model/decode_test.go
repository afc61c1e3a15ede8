package model_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
)

const validOutput = `{"title":"Postgres for Atlas","tags":["postgres","atlas"],"summary":"Mia chose Postgres.","facts":[{"text":"Let's use Postgres for Atlas.","message_ids":[5]}]}`

var wantOutput = model.DeriveOutput{
	Title:   "Postgres for Atlas",
	Tags:    []string{"postgres", "atlas"},
	Summary: "Mia chose Postgres.",
	Facts:   []model.DeriveFact{{Text: "Let's use Postgres for Atlas.", MessageIDs: []uint64{5}}},
}

func TestDecode(t *testing.T) {
	// bigString is a valid object padded past the 1 MiB limit.
	bigString := `{"title":"` + strings.Repeat("a", 1<<20) + `"}`
	tests := []struct {
		name string
		raw  string
		ok   bool
	}{
		{"plain object", validOutput, true},
		{"surrounding white space", "\n\t " + validOutput + " \n", true},
		{"json fence", "```json\n" + validOutput + "\n```", true},
		{"bare fence", "```\n" + validOutput + "\n```", true},
		{"fence with surrounding space", "  ```json\n" + validOutput + "\n```\n", true},
		{"fence closing on the object line", "```json\n" + validOutput + "```", true},
		{"exactly 1 MiB", validOutput + strings.Repeat(" ", 1<<20-len(validOutput)), true},
		{"empty", "", false},
		{"only space", " \n ", false},
		{"prose before", "Here is the JSON: " + validOutput, false},
		{"prose after", validOutput + " Hope this helps!", false},
		{"prose before fence", "Sure!\n```json\n" + validOutput + "\n```", false},
		{"prose after fence", "```json\n" + validOutput + "\n```\nHope this helps!", false},
		{"prose inside fence", "```json\nHere it is:\n" + validOutput + "\n```", false},
		{"unterminated fence", "```json\n" + validOutput, false},
		{"fence without newline", "```" + validOutput + "```", false},
		{"lone fence", "```", false},
		{"empty fence", "```\n```", false},
		{"unknown field", `{"title":"x","mood":"happy"}`, false},
		{"unknown nested field", `{"facts":[{"text":"x","message_ids":[1],"why":"y"}]}`, false},
		{"wrong field type", `{"title":1}`, false},
		{"negative id", `{"facts":[{"text":"x","message_ids":[-1]}]}`, false},
		{"trailing second object", validOutput + `{"title":"again"}`, false},
		{"trailing second object after space", validOutput + "\n" + `{"title":"again"}`, false},
		{"trailing comma", validOutput + ",", false},
		{"trailing array", validOutput + "[]", false},
		{"trailing number", validOutput + " 1", false},
		{"array", `[` + validOutput + `]`, false},
		{"string", `"title"`, false},
		{"null", `null`, false},
		{"truncated object", validOutput[:len(validOutput)-1], false},
		{"over 1 MiB", bigString, false},
		{"over 1 MiB of space", validOutput + strings.Repeat(" ", 1<<20), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out model.DeriveOutput
			err := model.Decode(tc.raw, &out)
			if !tc.ok {
				require.Error(t, err)
				assert.True(t, errors.Is(err, model.ErrBadOutput), "error %v does not wrap ErrBadOutput", err)
				return
			}
			require.NoError(t, err)
			if tc.raw != bigString {
				assert.Equal(t, wantOutput, out)
			}
		})
	}
}

// TestDecodeTrailingCloser documents a known gap in Decode: a stray
// closing bracket or brace after the object is accepted, because
// json.Decoder.More reports false before "}" and "]", so Decode must not
// rely on it to find trailing data.
func TestDecodeTrailingCloser(t *testing.T) {
	tests := []struct {
		name string
		raw  string
	}{
		{"trailing brace", validOutput + "}"},
		{"trailing bracket", validOutput + " ]"},
		{"trailing brace then prose", validOutput + "} and more prose"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out model.DeriveOutput
			err := model.Decode(tc.raw, &out)
			assert.True(t, errors.Is(err, model.ErrBadOutput), "got %v", err)
		})
	}
}

func FuzzDecode(f *testing.F) {
	seeds := []string{
		validOutput,
		"```json\n" + validOutput + "\n```",
		`{}`,
		`{"title":"x"}{"title":"y"}`,
		`{"tags":null,"facts":[]}`,
		`[1]`,
		"```\n```",
		`{"title":"\ud800"}`,
		"{\"title\":\"\xff\"}",
		`{"facts":[{"message_ids":[18446744073709551615]}]}`,
		`{"Title":"case-insensitive"}`,
		validOutput + "}",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		var out model.DeriveOutput
		err := model.Decode(raw, &out)
		if err != nil {
			require.True(t, errors.Is(err, model.ErrBadOutput), "error %v does not wrap ErrBadOutput", err)
			return
		}
		// A decoded value must survive a round trip unchanged.
		enc, err := json.Marshal(out)
		require.NoError(t, err)
		var again model.DeriveOutput
		require.NoError(t, model.Decode(string(enc), &again), "re-encoded: %s", enc)
		require.Equal(t, out, again)
	})
}
