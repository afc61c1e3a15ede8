package locomo

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNormalizeEvidence(t *testing.T) {
	known := map[string]bool{"D1:3": true, "D1:4": true, "D2:1": true, "D8:6": true, "D9:17": true, "D30:5": true}
	for _, tc := range []struct {
		name       string
		raw        []string
		ids, unres []string
	}{
		{"plain", []string{"D1:3"}, []string{"D1:3"}, nil},
		{"semicolon", []string{"D8:6; D9:17"}, []string{"D8:6", "D9:17"}, nil},
		{"comma", []string{"D1:3,D1:4"}, []string{"D1:3", "D1:4"}, nil},
		{"whitespace", []string{"D1:3 D1:4"}, []string{"D1:3", "D1:4"}, nil},
		{"tabs and newlines", []string{"D1:3\tD1:4\n"}, []string{"D1:3", "D1:4"}, nil},
		{"trim", []string{"  D2:1  "}, []string{"D2:1"}, nil},
		{"leading zero turn", []string{"D30:05"}, []string{"D30:5"}, nil},
		{"leading zero session", []string{"D01:3"}, []string{"D1:3"}, nil},
		{"lower-case d", []string{"d1:3"}, []string{"D1:3"}, nil},
		{"duplicates", []string{"D1:3", "D1:03", "D1:3; D1:4"}, []string{"D1:3", "D1:4"}, nil},
		{"order kept", []string{"D2:1", "D1:3"}, []string{"D2:1", "D1:3"}, nil},
		{"unknown id", []string{"D99:1", "D1:3"}, []string{"D1:3"}, []string{"D99:1"}},
		{"malformed", []string{"D1-3"}, nil, []string{"D1-3"}},
		{"no prefix", []string{"1:3"}, nil, []string{"1:3"}},
		{"empty pieces", []string{"", " ; ,", "D1:4"}, []string{"D1:4"}, nil},
		{"duplicate unresolved", []string{"X", "X"}, nil, []string{"X"}},
		{"nil raw", nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ids, unres := NormalizeEvidence(tc.raw, known)
			assert.Equal(t, tc.ids, ids)
			assert.Equal(t, tc.unres, unres)
		})
	}
	ids, unres := NormalizeEvidence([]string{"D77:07; bad"}, nil)
	assert.Equal(t, []string{"D77:7"}, ids, "nil known checks the form only")
	assert.Equal(t, []string{"bad"}, unres)
}
