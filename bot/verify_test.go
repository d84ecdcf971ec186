package bot

// The package's tests check every reuse of a reconciler step's live view
// against the view computed afresh (liveMemo).
func init() { verifyLiveMemo = true }
