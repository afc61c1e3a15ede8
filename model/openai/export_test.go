package openai

import (
	"context"
	"time"
)

// SetSleep replaces the client's wait between retries, so tests record
// the backoff instead of sleeping it.
func SetSleep(c *Client, f func(context.Context, time.Duration) error) { c.sleep = f }

// SetNow replaces the clock used to read an HTTP-date Retry-After.
func SetNow(c *Client, f func() time.Time) { c.now = f }

// APIKeyOf returns the key the client sends.
func APIKeyOf(c *Client) string { return c.opts.APIKey }

// OptionsOf returns the client's options after defaults.
func OptionsOf(c *Client) Options { return c.opts }
