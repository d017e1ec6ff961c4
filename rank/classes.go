package rank

// scoreClass is one reading of a query with its place on the score scale:
// a reading of class c scores from c.floor (explaining little of the name)
// to c.ceiling (explaining all of it), by the share of the name the query
// explains (cover). Each question keeps its classes in one table, best
// first, beside the header comment that gives their reasons; the header's
// numbers are checked against the table (classes_test.go), and every
// ordering it states is a test named after the rule.
type scoreClass struct {
	label          string // the reason shown for a reading of this class
	floor, ceiling float64
}

// at is the class's score for a reading that explains cover ∈ [0, 1] of
// the name.
func (c scoreClass) at(cover float64) float64 {
	return c.floor + (c.ceiling-c.floor)*min(max(cover, 0), 1)
}

// match is a name reading of this class at cover.
func (c scoreClass) match(cover float64) nameMatch { return nameMatch{c.at(cover), c.label} }
