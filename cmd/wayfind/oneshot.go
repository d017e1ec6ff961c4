package main

import (
	"context"
	"errors"

	"wayfind/rank"
	"wayfind/session"
)

// oneShot is the CLI's workspace for the request layer: one index built
// for one question, no history but what the flags name, nothing live to
// keep current.
type oneShot struct{ eng *rank.Engine }

func (w oneShot) Engine(context.Context) (*rank.Engine, error)       { return w.eng, nil }
func (w oneShot) SymbolEngine(context.Context) (*rank.Engine, error) { return w.eng, nil }
func (w oneShot) LocateEngine(context.Context) (*rank.Engine, error) { return w.eng, nil }
func (w oneShot) History() []string                                  { return nil }
func (w oneShot) Visit(string)                                       {}

func (w oneShot) Status() session.Status {
	ix := w.eng.Index()
	return session.Status{Ready: true, Roots: ix.Roots, Files: len(ix.Files)}
}

func (w oneShot) Reindex(context.Context) (session.Status, error) {
	return session.Status{}, errors.New("the CLI indexes afresh on every run")
}
