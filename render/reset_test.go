package render

// resetEncodeCaches empties the caches of compressed PNG parts.
func resetEncodeCaches() {
	SetBandBudget(0)
	SetBandBudget(bandBudget)
}
