package retrieval

// SetNamesStaleFrom sets namesStaleFrom for a test and returns what restores it.
func SetNamesStaleFrom(n int64) (restore func()) {
	old := namesStaleFrom
	namesStaleFrom = n
	return func() { namesStaleFrom = old }
}

// SetFilterExactMax sets filterExactMax for a test and returns what restores it.
func SetFilterExactMax(n int) (restore func()) {
	old := filterExactMax
	filterExactMax = n
	return func() { filterExactMax = old }
}
