package stratagate

// SetMigrateBatch sets how many block records one migration transaction
// rewrites, until the returned restore is called.
func SetMigrateBatch(n int) (restore func()) {
	old := migrateBatch
	migrateBatch = n
	return func() { migrateBatch = old }
}
