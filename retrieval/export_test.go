package retrieval

// SetNamesStaleFrom sets namesStaleFrom for a test and returns what restores it.
func SetNamesStaleFrom(n int64) (restore func()) {
	old := namesStaleFrom
	namesStaleFrom = n
	return func() { namesStaleFrom = old }
}
