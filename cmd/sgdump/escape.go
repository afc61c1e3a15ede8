package main

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// escaper writes text output with terminal control characters made
// visible: stored text (message content, titles, thread names) reaches the
// terminal, and an ESC, BEL or CR in it must not move the cursor, retitle
// the window or hide what precedes it. C0 controls other than newline and
// tab, DEL and invalid UTF-8 bytes become \xNN (CR is \r); C1 controls and
// the bidirectional overrides and isolates become \uNNNN. -json needs none
// of this: encoding/json escapes every control character itself.
type escaper struct {
	w    io.Writer
	pend []byte // the start of a UTF-8 sequence split across writes
	buf  []byte
}

func newEscaper(w io.Writer) *escaper { return &escaper{w: w} }

// Write escapes p; it reports len(p) written when the escaped text was.
func (e *escaper) Write(p []byte) (int, error) {
	in := p
	if len(e.pend) > 0 {
		in = append(e.pend, p...)
		e.pend = nil
	}
	e.buf = e.buf[:0]
	for len(in) > 0 {
		r, n := utf8.DecodeRune(in)
		if r == utf8.RuneError && n <= 1 && !utf8.FullRune(in) {
			e.pend = append([]byte(nil), in...) // completed by the next write
			break
		}
		e.buf = appendEscaped(e.buf, r, in[:n])
		in = in[n:]
	}
	if _, err := e.w.Write(e.buf); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes out a UTF-8 sequence left incomplete by the last write.
func (e *escaper) Flush() error {
	if len(e.pend) == 0 {
		return nil
	}
	e.buf = e.buf[:0]
	for _, b := range e.pend {
		e.buf = fmt.Appendf(e.buf, `\x%02x`, b)
	}
	e.pend = nil
	_, err := e.w.Write(e.buf)
	return err
}

func appendEscaped(dst []byte, r rune, raw []byte) []byte {
	switch {
	case r == utf8.RuneError && len(raw) == 1:
		return fmt.Appendf(dst, `\x%02x`, raw[0])
	case r == '\n' || r == '\t':
		return append(dst, raw...)
	case r == '\r':
		return append(dst, `\r`...)
	case r < 0x20 || r == 0x7f:
		return fmt.Appendf(dst, `\x%02x`, r)
	case r >= 0x80 && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f:
		return fmt.Appendf(dst, `\u%04x`, r)
	}
	return append(dst, raw...)
}

// flushingEscaper escapes each write on its own (one message per write).
type flushingEscaper struct{ e *escaper }

func (f *flushingEscaper) Write(p []byte) (int, error) {
	n, err := f.e.Write(p)
	if err == nil {
		err = f.e.Flush()
	}
	return n, err
}
