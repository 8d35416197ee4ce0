// cached.go: an analysis already made, for the web's analysis page, which shows what
// /analyze found without running the engine for whoever opens the page.

package engineplay

// Cached returns the analysis of game gameID if one was made and is still cached.
func (s *Service) Cached(gameID uint64) (*Analysis, bool) { return s.cache.get(gameID) }
