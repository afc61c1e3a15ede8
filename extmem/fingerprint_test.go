package extmem_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/stratagate/stratagate/extmem"
)

func TestFingerprint(t *testing.T) {
	base := extmem.Fingerprint("Bakes sourdough", "Bakes sourdough bread on Sundays.")
	assert.Equal(t, "bakes sourdough | bakes sourdough bread on sundays", base)
	same := []struct{ name, title, summary string }{
		{"case", "BAKES Sourdough", "bakes SOURDOUGH bread on sundays."},
		{"punctuation", "Bakes sourdough!", "Bakes sourdough-bread, on Sundays..."},
		{"spacing", "  Bakes\tsourdough ", "Bakes   sourdough\nbread on Sundays"},
		{"quotes and symbols", "“Bakes” sourdough", "(Bakes) sourdough bread — on Sundays :)"},
	}
	for _, tt := range same {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, base, extmem.Fingerprint(tt.title, tt.summary))
		})
	}
	differ := []struct{ name, title, summary string }{
		{"a changed word", "Bakes sourdough", "Bakes sourdough bread on Saturdays."},
		{"an added word", "Bakes sourdough", "Bakes rye sourdough bread on Sundays."},
		{"a word moved across the parts", "Bakes", "sourdough Bakes sourdough bread on Sundays."},
		{"a changed digit", "Runs 5 km", "x"},
	}
	for _, tt := range differ {
		t.Run(tt.name, func(t *testing.T) {
			assert.NotEqual(t, base, extmem.Fingerprint(tt.title, tt.summary))
		})
	}
	t.Run("letters and digits of any script", func(t *testing.T) {
		assert.Equal(t, "grüße 2024 | 東京 に住む", extmem.Fingerprint("GRÜßE, 2024!", "東京・に住む。"))
		assert.Equal(t, " | ", extmem.Fingerprint("", "?!"))
	})
	t.Run("the candidate's fingerprint", func(t *testing.T) {
		c := extmem.Candidate{Title: "Bakes Sourdough", Summary: "Bakes sourdough bread on Sundays"}
		assert.Equal(t, base, c.Fingerprint())
	})
}
