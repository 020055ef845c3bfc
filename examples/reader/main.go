// Command reader prints the tool calls of a clumsies workspace as they are
// recorded, through a durable JetStream consumer of its own. It needs only
// nats.go and the standard library: copy it into your own module.
//
//	clumsies serve --nats-listen 127.0.0.1:4333 --nats-token T
//	go run ./examples/reader --nats nats://127.0.0.1:4333 --token T --workspace ws-1234
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Event is the envelope of every message of the ledger (docs/events.md,
// docs/schema/envelope.json). The stream sequence is not in the body: it
// comes from the message's metadata.
type Event struct {
	V           int             `json:"v"`
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	Time        time.Time       `json:"time"`
	WorkspaceID string          `json:"workspaceId"`
	SessionID   string          `json:"sessionId"`
	Tool        string          `json:"tool"`
	Outcome     string          `json:"outcome"`
	ErrorCode   string          `json:"errorCode"`
	DurationUs  int64           `json:"durationUs"`
	Data        json.RawMessage `json:"data"` // the payload: docs/schema/<type>.json
}

func main() {
	url := flag.String("nats", "nats://127.0.0.1:4333", "the workspace's NATS listener")
	token := flag.String("token", os.Getenv("CLUMSIES_NATS_TOKEN"), "the token given to clumsies serve --nats-token")
	ws := flag.String("workspace", "", "the workspace id (ws-...): the stream is CLUMSIES_<id>")
	durable := flag.String("durable", "reader", "this reader's durable consumer: its own name, which no other reader uses")
	flag.Parse()
	if *ws == "" {
		log.Fatal("reader: --workspace ws-... is required")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := read(ctx, *url, *token, *ws, *durable); err != nil {
		log.Fatal("reader: ", err)
	}
}

// read prints the workspace's tool calls through the durable consumer
// until ctx ends. The server keeps the consumer's position: a reader that
// starts again carries on after the last event it acknowledged.
func read(ctx context.Context, url, token, ws, durable string) error {
	nc, err := nats.Connect(url, nats.Token(token))
	if err != nil {
		return fmt.Errorf("connect to %s: %w", url, err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	stream := "CLUMSIES_" + ws
	cons, err := js.CreateOrUpdateConsumer(ctx, stream, jetstream.ConsumerConfig{
		Durable:       durable,
		FilterSubject: "clumsies." + ws + ".attest.>", // every tool call
		DeliverPolicy: jetstream.DeliverAllPolicy,
		AckPolicy:     jetstream.AckExplicitPolicy,
	})
	if err != nil {
		return fmt.Errorf("create consumer %s on %s: %w", durable, stream, err)
	}
	info, err := cons.Info(ctx)
	if err != nil {
		return err
	}
	log.Printf("consumer %s on %s resumes after stream seq %d; %d events wait", durable, stream, info.AckFloor.Stream, info.NumPending)

	cc, err := cons.Consume(func(msg jetstream.Msg) {
		var ev Event
		if err := json.Unmarshal(msg.Data(), &ev); err != nil || ev.V > 1 {
			log.Printf("skip %s: not an event this reader knows (v %d, %v)", msg.Subject(), ev.V, err)
			msg.Term() // never delivered again
			return
		}
		meta, err := msg.Metadata()
		if err != nil {
			return // not acknowledged: delivered again
		}
		fmt.Printf("%d %s %s %s %s %s\n", meta.Sequence.Stream, ev.Time.Format(time.RFC3339), ev.SessionID, ev.Tool, ev.Type, ev.Outcome)
		msg.Ack()
	})
	if err != nil {
		return err
	}
	defer cc.Stop()
	<-ctx.Done()
	return nil
}
