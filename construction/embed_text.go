package construction

// EmbedText is what a memory of this name and content is embedded as on the write path;
// `realm reembed` embeds stored memories from it too, so that their vectors and those
// of new memories compare.
func EmbedText(name, content string) string { return embedText(name, content) }
