package node

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/clumsies/clumsies/catalog"
	"github.com/clumsies/clumsies/projections"
)

// The owner's service is a table of methods. A method is one function of
// the owner with its request and reply types; the same value serves it
// (in the owner) and calls it (from any process): in the owner it runs
// directly, elsewhere it goes over the wire as JSON. Adding a method is one
// line here and its function in the owner.
var (
	mView       = registerRead("view", (*owner).view)
	mList       = registerRead("list", (*owner).list)
	mDraftFacts = register("draftfacts", (*owner).draftFacts)
	mDraftState = register("draftstate", (*owner).draftState)
	mDraftList  = register("draftlist", (*owner).draftList)
	mWaitFor    = register("waitfor", (*owner).waitFor)
	mCatchUp    = register("catchup", (*owner).catchUp)
	mStats      = register("stats", (*owner).stats)
	// An owner of an earlier version answered "publish" with every event
	// appended; this reply is a summary (Published), under its own name.
	mPublish    = register("publishsummary", (*owner).publish)
	mVerify     = register("verify", (*owner).verify)
	mRebuild    = register("rebuild", (*owner).rebuildRemote)
	mCompliance = register("compliance", (*owner).compliance)
	mSync       = register("sync", (*owner).sync)
	mSubmitTeam = register("submitteam", (*owner).submitTeam)
	mDash       = register("dash", (*owner).dash)
	mInScope    = register("inscope", (*owner).inScope)
	// sessionBinding is sessionbinding.go's.
	mSessionBinding = register("sessionbinding", (*owner).sessionBinding)
)

// Compile-time checks of the request and reply types the table uses.
var (
	_ method[string, projections.Item]
	_ method[projections.Filter, []projections.Item]
	_ method[catalog.DraftQuery, catalog.DraftFacts]
	_ method[struct{}, Published]
)

// method is one request of the owner's service.
type method[Req, Resp any] struct {
	name  string
	serve func(o *owner, ctx context.Context, req Req) (Resp, error)
	// inMemory marks a read of the owner's memory, which never waits on
	// its context (see retried).
	inMemory bool
}

// service maps method names to their servers, for the owner's dispatch.
var service = map[string]func(o *owner, ctx context.Context, body []byte) (any, error){}

// register adds a method to the table.
func register[Req, Resp any](name string, serve func(o *owner, ctx context.Context, req Req) (Resp, error)) method[Req, Resp] {
	if _, dup := service[name]; dup {
		panic("node: method " + name + " registered twice")
	}
	service[name] = func(o *owner, ctx context.Context, body []byte) (any, error) {
		var req Req
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, fmt.Errorf("decode %s request: %w", name, err)
		}
		return serve(o, ctx, req)
	}
	return method[Req, Resp]{name: name, serve: serve}
}

// registerRead adds a method that only reads the owner's memory (the
// read models under their lock, the team's catalog) and waits on nothing
// else.
func registerRead[Req, Resp any](name string, serve func(o *owner, ctx context.Context, req Req) (Resp, error)) method[Req, Resp] {
	m := register(name, serve)
	m.inMemory = true
	return m
}

// on runs the method on backend b: in the owner directly, elsewhere as a
// request to the owner.
func (m method[Req, Resp]) on(ctx context.Context, b backend, req Req) (Resp, error) {
	if o, ok := b.(*owner); ok {
		return m.serve(o, ctx, req)
	}
	var resp Resp
	err := b.(*remote).request(ctx, m.name, req, &resp)
	return resp, err
}

// call runs the method through h, on whichever process owns the
// workspace, again on the next owner if the owner goes (see do).
func (m method[Req, Resp]) call(ctx context.Context, h *Handle, req Req) (Resp, error) {
	return retried(h, ctx, m.inMemory, func(ctx context.Context, b backend) (Resp, error) { return m.on(ctx, b, req) })
}
