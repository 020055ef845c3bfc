package embeddednats

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

func TestSlogLogger(t *testing.T) {
	t.Run("Levels", func(t *testing.T) {
		var buf bytes.Buffer
		l := newSlogLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), nil)
		l.Noticef("notice %d", 1)
		l.Warnf("warn %d", 2)
		l.Errorf("error %d", 3)
		l.Debugf("debug %d", 4)
		l.Tracef("trace %d", 5)
		for _, want := range []string{
			`level=DEBUG msg="notice 1" component=nats-server`,
			`level=WARN msg="warn 2"`,
			`level=ERROR msg="error 3"`,
			`level=DEBUG msg="debug 4"`,
			`level=DEBUG msg="trace 5"`,
		} {
			if !strings.Contains(buf.String(), want) {
				t.Errorf("got log %q, want it to contain %q", buf.String(), want)
			}
		}
	})

	t.Run("FatalDoesNotExit", func(t *testing.T) {
		var buf bytes.Buffer
		l := newSlogLogger(slog.New(slog.NewTextHandler(&buf, nil)), nil)
		if err := l.fatalError(); err != nil {
			t.Fatalf("got fatalError %v before any Fatalf, want nil", err)
		}
		l.Fatalf("cannot start %s", "jetstream")
		l.Fatalf("second")
		if err := l.fatalError(); err == nil || !strings.Contains(err.Error(), "cannot start jetstream") {
			t.Errorf("got fatalError %v, want the first fatal message", err)
		}
		if !strings.Contains(buf.String(), `level=ERROR msg="cannot start jetstream"`) {
			t.Errorf("got log %q, want the fatal line at error level", buf.String())
		}
	})

	t.Run("NilDiscards", func(t *testing.T) {
		newSlogLogger(nil, nil).Noticef("nowhere") // must not panic
	})

	t.Run("ServerLogsThroughLogger", func(t *testing.T) {
		var buf bytes.Buffer
		startServer(t, &Server{Dir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))})
		if !strings.Contains(buf.String(), "Starting nats-server") {
			t.Errorf("got log %q, want nats-server's start notice", buf.String())
		}
	})

	t.Run("NoBannerAtInfo", func(t *testing.T) {
		var buf bytes.Buffer
		startServer(t, &Server{Dir: t.TempDir(), Logger: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}))})
		if strings.Contains(buf.String(), "nats-server") {
			t.Errorf("at info level got %q, want none of nats-server's start-up notices", buf.String())
		}
	})
}
