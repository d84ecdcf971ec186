package render

// resetEncodeCaches empties the caches of compressed PNG parts.
func resetEncodeCaches() {
	bands.SetBudget(0)
	bands.SetBudget(bandBudget)
	sectionBands.SetBudget(0)
	sectionBands.SetBudget(bandBudget)
}
