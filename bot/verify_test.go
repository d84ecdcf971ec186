package bot

// The package's tests check every reuse of a reconciler step's live view
// against the view computed afresh (liveMemo), and that no reader changes
// a kept table (loadTableShared).
func init() { verifyLiveMemo, verifyShared = true, true }
