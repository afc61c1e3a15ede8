package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrBadOutput marks model output that is not one well-formed JSON object
// of the expected shape. Callers retry such output; they never store it.
var ErrBadOutput = errors.New("model: bad output")

// maxOutputBytes bounds what Decode will parse; a model that returns more
// is misbehaving.
const maxOutputBytes = 1 << 20

// Decode parses raw model output strictly into v: exactly one JSON object,
// no unknown fields, no trailing data. A single surrounding Markdown code
// fence (```json … ```) is tolerated because chat models add one even when
// told not to; any other prose is rejected.
func Decode(raw string, v any) error {
	if len(raw) > maxOutputBytes {
		return fmt.Errorf("%w: %d bytes exceeds %d", ErrBadOutput, len(raw), maxOutputBytes)
	}
	s := strings.TrimSpace(raw)
	if strings.HasPrefix(s, "```") {
		nl := strings.IndexByte(s, '\n')
		if nl < 0 || !strings.HasSuffix(s, "```") || len(s) < nl+1+3 {
			return fmt.Errorf("%w: unterminated code fence", ErrBadOutput)
		}
		s = strings.TrimSpace(s[nl+1 : len(s)-3])
	}
	if !strings.HasPrefix(s, "{") {
		return fmt.Errorf("%w: not a JSON object", ErrBadOutput)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %v", ErrBadOutput, err)
	}
	// Anything but end of input after the object — another value, a stray
	// closer, prose — is rejected. (dec.More reports false before '}' and
	// ']', so it cannot be used here.)
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: trailing data after JSON object", ErrBadOutput)
	}
	return nil
}
