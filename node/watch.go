package node

import (
	"github.com/clumsies/clumsies/contentwatch"
)

// watchContent publishes the content tree through the owner's publish
// path each time it changes, and once at once, until the owner closes;
// report hears of every publish. Close waits for it.
func (o *owner) watchContent(report func(Published, error)) {
	o.mu.Lock()
	if o.closing {
		o.mu.Unlock()
		return
	}
	o.handlers.Add(1)
	o.mu.Unlock()
	ctx := o.svcCtx
	go func() {
		defer o.handlers.Done()
		publish := func() {
			p, err := o.publish(ctx, struct{}{})
			if ctx.Err() == nil {
				report(p, err)
			}
		}
		opts := contentwatch.Options{Initial: true, Logger: o.n.logger}
		contentwatch.Run(ctx, o.n.WS.ContentRoot(), opts, publish)
	}()
}
