package rank

// Activity: among files a question cannot tell apart — the same name,
// read as well, none clearly nearer where the user works — the one the
// repository's work keeps touching is the likelier meant. People ask for
// the files they change, and a repository changes some copies of a name
// far more than others (one language's translation of a page, the
// template its generated copies come from, the live package beside its
// frozen fork).
//
//	activity(c) = n ÷ (n + activityHalf)
//
// where n is how many commits of the history read touched c, under any
// of its names (vcs.Record.Changes): 0 for a file no commit touched, ½
// at activityHalf commits, approaching 1 for the files everyone edits.
// It saturates: a file changed a thousand times is not ten times as
// likely meant as one changed a hundred.
//
// activityHalf sets the scale: on the tuning half's real sessions the
// order it gives barely moved between 2 and 32.
//
// It is weighed with nearness, never against a reading: in resolve it
// adds at most activityWeight × proxWeight to the score of a candidate
// lexically tied with the best (within ResolveMargin), and nothing to
// one behind; in find at most activityWeight × affinityBonus — and
// activityNearShare of either when the request says where the user works
// (activityShare): their places are the better evidence. Among the
// tied candidates, the one clearly ahead in nearness and activity
// together goes first (nearestFirst); the answer's class still says
// whether it is nearer where the user works (lead). (Both figures are in
// weights.go.)

// nearKey is what orders lexically tied candidates by where the user
// works: nearness and activity.
func nearKey(c Candidate) float64 { return nearValue(c.prox, c.act) }

// nearValue is nearness and activity (as weighed: activityShare) together.
func nearValue(prox, act float64) float64 { return prox + act }

// activityShare is activity's weight beside nearness: activityWeight, a
// share of it (activityNearShare) when something says where the user
// works (aff) — resolve's rule, and find's where nothing says where the
// user works or the repository's recent work chose no other
// (tieweights.go: defaultTieWeights is this share).
func activityShare(aff *affinity) float64 {
	if aff != nil {
		return activityNearShare * activityWeight
	}
	return activityWeight
}

// activity is file id's activity, 0 without a history record for its
// root.
func (e *Engine) activity(id int32) float64 {
	rec := e.repo.Record(int(e.file(id).root))
	if rec == nil {
		return 0
	}
	return activityOf(rec.Changes(e.filePath(id)))
}

// activityOf is the activity of a file n commits touched.
func activityOf(n int) float64 { return float64(n) / float64(n+activityHalf) }

// hasActivity: some root has a history record, so activity can order.
func (e *Engine) hasActivity() bool {
	if e.repo == nil {
		return false
	}
	for _, r := range e.repo.records {
		if r != nil {
			return true
		}
	}
	return false
}

// weighActivity adds activity to the scores of the candidates lexically
// tied with the best, as weighed where the user works (aff).
func (e *Engine) weighActivity(all []scoredFile, aff *affinity) {
	if len(all) < 2 || !e.hasActivity() {
		return
	}
	lexTop := 0.0
	for _, s := range all {
		lexTop = max(lexTop, s.lex)
	}
	for i := range all {
		if all[i].lex <= lexTop-ResolveMargin {
			continue
		}
		if a := e.activity(all[i].id); a > 0 {
			all[i].act = activityShare(aff) * a
			all[i].score += proxWeight * all[i].act
		}
	}
}
