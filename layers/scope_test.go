package layers_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/stratagate/stratagate/layers"
)

func TestValidateScope(t *testing.T) {
	tests := []struct {
		name  string
		scope string
		ok    bool
	}{
		{"global", "global", true},
		{"project", "project:x", true},
		{"session", "session:abc", true},
		{"project unicode", "project:数据库-迁移", true},
		{"project with spaces and colon", "project:my app:v2", true},
		{"project name of 128 bytes", "project:" + strings.Repeat("a", 128), true},
		{"session name of 128 bytes multibyte", "session:" + strings.Repeat("é", 64), true},

		{"empty", "", false},
		{"Global capitalised", "Global", false},
		{"GLOBAL", "GLOBAL", false},
		{"global with suffix", "global:x", false},
		{"global with space", " global", false},
		{"project empty name", "project:", false},
		{"session empty name", "session:", false},
		{"wrong prefix proj", "proj:x", false},
		{"Project capitalised", "Project:x", false},
		{"no colon", "projectx", false},
		{"project name of 129 bytes", "project:" + strings.Repeat("a", 129), false},
		{"session name of 129 bytes multibyte", "session:" + strings.Repeat("é", 64) + "a", false},
		{"invalid UTF-8", "project:\xff\xfe", false},
		{"truncated UTF-8", "session:ab\xe4\xbd", false},
		{"NUL", "project:a\x00b", false},
		{"newline", "session:abc\n", false},
		{"tab", "project:a\tb", false},
		{"escape", "project:\x1b[31m", false},
		{"DEL", "session:a\x7f", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := layers.ValidateScope(tc.scope)
			if tc.ok {
				assert.NoError(t, err)
				return
			}
			assert.Error(t, err)
			assert.True(t, errors.Is(err, layers.ErrScope), "want ErrScope, got %v", err)
		})
	}
	assert.Equal(t, "global", layers.ScopeGlobal)
}
