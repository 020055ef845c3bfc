package workspace_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/clumsies/clumsies/events"
	"github.com/clumsies/clumsies/workspace"
)

func TestInit(t *testing.T) {
	root := t.TempDir()
	ws, wrote, err := workspace.Init(root)
	if err != nil {
		t.Fatal(err)
	}
	if !events.ValidWorkspaceID(ws.ID()) {
		t.Fatalf("got workspace id %q, want a valid one", ws.ID())
	}
	for _, want := range []string{".clumsies/config.toml", ".clumsies/.gitignore", ".clumsies/META_PROMPT.md",
		".clumsies/rules/workflow/CODING.md", ".clumsies/rules/style/ERRORS.md"} {
		if _, err := os.Stat(filepath.Join(root, want)); err != nil {
			t.Fatalf("init did not write %s: %v", want, err)
		}
	}
	if len(wrote) != 5 {
		t.Fatalf("got %d written files %v, want 5", len(wrote), wrote)
	}
	gi, _ := os.ReadFile(filepath.Join(root, ".clumsies/.gitignore"))
	if !strings.Contains(string(gi), "state/") {
		t.Fatalf("got .gitignore %q, want it to ignore state/", gi)
	}
	mp, _ := os.ReadFile(filepath.Join(root, ".clumsies/META_PROMPT.md"))
	for _, want := range []string{"loaded rules > this meta-prompt > your defaults", "memsetup", "memref"} {
		if !strings.Contains(string(mp), want) {
			t.Fatalf("META_PROMPT.md lacks %q", want)
		}
	}

	t.Run("AgainKeepsIDAndFiles", func(t *testing.T) {
		custom := filepath.Join(root, ".clumsies/META_PROMPT.md")
		if err := os.WriteFile(custom, []byte("# mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		again, wrote, err := workspace.Init(root)
		if err != nil {
			t.Fatal(err)
		}
		if again.ID() != ws.ID() || len(wrote) != 0 {
			t.Fatalf("got id %s and wrote %v, want id %s and nothing written", again.ID(), wrote, ws.ID())
		}
		if b, _ := os.ReadFile(custom); string(b) != "# mine\n" {
			t.Fatalf("init overwrote META_PROMPT.md: %q", b)
		}
	})
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	if _, _, err := workspace.Init(root); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := workspace.Find(deep)
	if err != nil || got != root {
		t.Fatalf("got %q, %v, want %q", got, err, root)
	}
	t.Run("ErrNotFound", func(t *testing.T) {
		if _, err := workspace.Find(t.TempDir()); !errors.Is(err, workspace.ErrNotFound) {
			t.Fatalf("got %v, want ErrNotFound", err)
		}
		if _, err := workspace.Open(t.TempDir()); !errors.Is(err, workspace.ErrNotFound) || !strings.Contains(err.Error(), "clumsies init") {
			t.Fatalf("got %v, want ErrNotFound saying to run clumsies init", err)
		}
	})
}

func TestReadConfig(t *testing.T) {
	dir := t.TempDir()
	write := func(tb testing.TB, body string) string {
		tb.Helper()
		p := filepath.Join(dir, "config.toml")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
		return p
	}
	// readWrong reads a config whose optional table is wrong: no error,
	// the table named with reason, the rest of the file kept.
	readWrong := func(t *testing.T, body, table, reason string) workspace.Config {
		t.Helper()
		cfg, err := workspace.ReadConfig(write(t, "workspace_id = \"ws-abc\"\nmax_store = \"1GiB\"\n"+body))
		if err != nil {
			t.Fatalf("got %v, want no error", err)
		}
		if len(cfg.Wrong) != 1 || cfg.Wrong[0].Table != table || !strings.Contains(cfg.Wrong[0].Reason, reason) {
			t.Fatalf("got Wrong %+v, want [%s] saying %q", cfg.Wrong, table, reason)
		}
		if cfg.StoreLimit() != 1<<30 {
			t.Fatalf("got %+v, want the rest of the file kept", cfg)
		}
		return cfg
	}
	cases := []struct{ name, body, wantErr string }{
		{"Valid", "workspace_id = \"ws-abc\"\n", ""},
		{"BadID", "workspace_id = \"my ws\"\n", "workspace_id"},
		{"Syntax", "workspace_id = \n", "config.toml"},
		{"Unknown", "workspace_id = \"ws-abc\"\ncolour = \"red\"\n", "unknown setting"},
		{"Outside", "workspace_id = \"ws-abc\"\ncontent = \"../x\"\n", "outside"},
		{"OutsideBackslash", "workspace_id = \"ws-abc\"\ncontent = 'a\\..\\..\\x'\n", "outside"},
		{"Absolute", "workspace_id = \"ws-abc\"\ncontent = \"/abs/path\"\n", "outside the workspace; give a folder relative to the workspace"},
		{"AbsoluteBackslash", "workspace_id = \"ws-abc\"\ncontent = '\\\\server\\share'\n", "outside"},
		{"MaxStore", "workspace_id = \"ws-abc\"\nmax_store = \"1GiB\"\n", ""},
		{"MaxStoreBad", "workspace_id = \"ws-abc\"\nmax_store = \"lots\"\n", "max_store: size \"lots\": want a positive whole number"},
		{"MaxStoreZero", "workspace_id = \"ws-abc\"\nmax_store = \"0GiB\"\n", "max_store"},
		{"DriveLetter", "workspace_id = \"ws-abc\"\ncontent = \"C:/agents\"\n", "outside"},
		{"EnforceBlock", "workspace_id = \"ws-abc\"\n[enforce]\nmode = \"block\"\n", ""},
		{"OTel", "workspace_id = \"ws-abc\"\n[otel]\nendpoint = \"http://localhost:4318\"\n", ""},
		{"OTelGRPCHeaders", "workspace_id = \"ws-abc\"\n[otel]\nendpoint = \"https://otel.example:4317\"\nprotocol = \"grpc\"\n[otel.headers]\nx-tenant = \"t1\"\n", ""},
		{"UnknownTable", "workspace_id = \"ws-abc\"\n[enforc]\nmode = \"block\"\n", `unknown setting "enforc`},
		{"EnforceChecksRun", "workspace_id = \"ws-abc\"\n[enforce]\nmode = \"block\"\nchecks = \"run\"\n", ""},
		{"Name", "workspace_id = \"ws-abc\"\nname = \"payments-api\"\n", ""},
		{"NameControl", "workspace_id = \"ws-abc\"\nname = \"pay\\u0007\"\n", "control character"},
		{"NameLong", "workspace_id = \"ws-abc\"\nname = \"" + strings.Repeat("n", 65) + "\"\n", "keep it to 64"},
		{"NameSpaces", "workspace_id = \"ws-abc\"\nname = \" pay\"\n", "starts or ends with a space"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := workspace.ReadConfig(write(t, c.body))
			if c.wantErr == "" {
				if err != nil || cfg.Content != workspace.DefaultContent || len(cfg.Wrong) > 0 {
					t.Fatalf("got %+v, %v, want default content and no error", cfg, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("got %v, want an error containing %q", err, c.wantErr)
			}
		})
	}
	t.Run("TableWrong", func(t *testing.T) {
		// A mistake in [otel] turns it off, says why, and keeps the rest
		// of the file.
		offs := []struct{ name, body, reason string }{
			{"OTelBareHost", "[otel]\nendpoint = \"localhost:4318\"\n", `otel endpoint "localhost:4318": want a URL like http://localhost:4318`},
			{"OTelProtocol", "[otel]\nendpoint = \"http://localhost:4318\"\nprotocol = \"udp\"\n", `otel protocol "udp": want "http" or "grpc"`},
			{"OTelNoEndpoint", "[otel]\nprotocol = \"grpc\"\n", "need an endpoint"},
			{"OTelUnknownKey", "[otel]\nendpoint = \"http://localhost:4318\"\nheader = 1\n", `unknown setting "otel.header"`},
		}
		for _, c := range offs {
			t.Run(c.name, func(t *testing.T) {
				cfg := readWrong(t, c.body, "otel", c.reason)
				if cfg.OTel.Enabled() || cfg.Wrong[0].Held != "" {
					t.Fatalf("got %+v, want [otel] unset", cfg)
				}
				if s := cfg.Wrong[0].String(); !strings.HasPrefix(s, "[otel] in config.toml is off: ") || !strings.Contains(s, c.reason) {
					t.Fatalf("got %q, want it to name the table and say it is off", s)
				}
			})
		}
		// A mistake in [enforce] fails closed: each setting written
		// correctly is kept, the others take the strictest value.
		block := workspace.EnforceConfig{Mode: workspace.EnforceBlock, Fail: workspace.FailClosed}
		helds := []struct {
			name, body, reason string
			want               workspace.EnforceConfig
		}{
			{"EnforceBad", "[enforce]\nmode = \"blok\"\nfail = \"closed\"\n", `enforce mode "blok": want "off", "warn" or "block"`, block},
			{"EnforceType", "[enforce]\nmode = 1\n", `line 4 (last key "enforce.mode")`, block},
			{"EnforceNotTable", "enforce = \"block\"\n", "enforce", block},
			{"EnforceChecksBad", "[enforce]\nchecks = \"all\"\n", `enforce checks "all": want "run"`, block},
			{"EnforceUnknownKey", "[enforce]\nmdoe = \"off\"\n", `unknown setting "enforce.mdoe"`, block},
			{"EnforcePathsNumber", "[enforce]\nmode = \"block\"\npaths = 3\n", `unknown setting "enforce.paths"`, block},
			{"EnforceOffKept", "[enforce]\nmode = \"off\"\nfail = \"closd\"\n", `enforce fail "closd"`,
				workspace.EnforceConfig{Mode: workspace.EnforceOff, Fail: workspace.FailClosed}},
			{"EnforceWarnKept", "[enforce]\nmode = \"warn\"\nlevel = 2\n", `unknown setting "enforce.level"`,
				workspace.EnforceConfig{Mode: workspace.EnforceWarn, Fail: workspace.FailClosed}},
			{"EnforceOthersKept", "[enforce]\nmode = \"\"\nfail = \"open\"\nchecks = \"run\"\nx = 1\n", `unknown setting "enforce.x"`,
				workspace.EnforceConfig{Mode: workspace.EnforceBlock, Fail: workspace.FailOpen, Checks: workspace.ChecksRun}},
		}
		for _, c := range helds {
			t.Run(c.name, func(t *testing.T) {
				cfg := readWrong(t, c.body, "enforce", c.reason)
				if cfg.Enforce != c.want || cfg.Wrong[0].Held != c.want.Effective() {
					t.Fatalf("got %+v held %q, want %+v", cfg.Enforce, cfg.Wrong[0].Held, c.want)
				}
				if w, ok := cfg.EnforceWrong(); !ok || w != cfg.Wrong[0] {
					t.Fatalf("EnforceWrong: got %+v, %v", w, ok)
				}
				s := cfg.Wrong[0].String()
				if !strings.HasPrefix(s, "[enforce] in .clumsies/config.toml is wrong: ") || !strings.Contains(s, c.reason) || !strings.Contains(s, "; fix it there") {
					t.Fatalf("got %q, want it to name the file, the setting and the fix", s)
				}
				if c.want.Mode == workspace.EnforceBlock && !strings.Contains(s, "until then edits are held as in block mode") {
					t.Fatalf("got %q, want it to say edits are held", s)
				}
			})
		}
		cfg, err := workspace.ReadConfig(write(t, "workspace_id = \"ws-abc\"\n[enforce]\nmode = \"blok\"\n[otel]\nendpoint = \"http://localhost:4318\"\n"))
		if err != nil || len(cfg.Wrong) != 1 || !cfg.OTel.Enabled() || cfg.Enforce != block {
			t.Fatalf("got %+v, %v, want [enforce] held and [otel] kept", cfg, err)
		}
		if _, ok := (workspace.Config{}).EnforceWrong(); ok {
			t.Fatal("EnforceWrong of a right config says it is wrong")
		}
	})
	t.Run("NamedAfterItsFolder", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "payments-api")
		ws, _, err := workspace.Init(root)
		if err != nil {
			t.Fatal(err)
		}
		if ws.Config.Name != "payments-api" || ws.Name() != "payments-api" {
			t.Fatalf("init named the workspace %q (Name %q), want its folder's name", ws.Config.Name, ws.Name())
		}
		ws.Config.Name = ""
		if ws.Name() != "payments-api" {
			t.Fatalf("a workspace with no name in its config is named %q, want its folder's name", ws.Name())
		}
	})
	t.Run("EncodeRoundTrip", func(t *testing.T) {
		cfg := workspace.Config{WorkspaceID: "ws-00ff", Name: "shop «api»", Content: "docs/agents", MaxStore: "10GiB", Hub: workspace.HubConfig{URL: "nats://h:1"}}
		got, err := workspace.ReadConfig(write(t, string(cfg.Encode())))
		if err != nil || !reflect.DeepEqual(got, cfg) || got.StoreLimit() != 10<<30 {
			t.Fatalf("got %+v (store limit %d), %v, want %+v", got, got.StoreLimit(), err, cfg)
		}
	})
}

func TestOpen_ContentOutside(t *testing.T) {
	root := t.TempDir()
	if _, _, err := workspace.Init(root); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(root, workspace.DirName, workspace.ConfigName)
	body, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "agents")); err != nil {
		t.Skipf("symlinks: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(root, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	set := func(tb testing.TB, content string) {
		tb.Helper()
		b := strings.Replace(string(body), `content = ".clumsies"`, "content = "+strconv.Quote(content), 1)
		if err := os.WriteFile(cfg, []byte(b), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	set(t, "agents")
	if _, err := workspace.Open(root); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Fatalf("content through a symlink out of the workspace: got %v, want an error saying outside the workspace", err)
	}
	set(t, "docs")
	if _, err := workspace.Open(root); err != nil {
		t.Fatalf("content in docs/: got %v, want no error", err)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "64GiB": 64 << 30, "500MB": 500e6, " 2 TiB ": 2 << 40, "10KiB": 10 << 10, "7B": 7} {
		if got, err := workspace.ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q): got %d, %v, want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "-1GiB", "1.5GiB", "GiB", "1 PiB", "99999999999TiB"} {
		if got, err := workspace.ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q): got %d, want an error", in, got)
		}
	}
}

func TestWorkspace_CheckCurrent(t *testing.T) {
	root := t.TempDir()
	ws, _, err := workspace.Init(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.CheckCurrent(); err != nil {
		t.Fatalf("a workspace as opened: got %v, want nil", err)
	}
	file := filepath.Join(ws.MetaDir(), workspace.ConfigName)
	if err := os.WriteFile(file, []byte("# being written\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ws.CheckCurrent(); err != nil {
		t.Fatalf("a config without an id yet: got %v, want nil (no proof of another workspace)", err)
	}
	if err := os.WriteFile(file, []byte("workspace_id = \"ws-00ff\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ws.CheckCurrent(); !errors.Is(err, workspace.ErrGone) || !strings.Contains(err.Error(), "ws-00ff") {
		t.Fatalf("another id: got %v, want ErrGone naming ws-00ff", err)
	}
	if err := os.RemoveAll(ws.MetaDir()); err != nil {
		t.Fatal(err)
	}
	if err := ws.CheckCurrent(); !errors.Is(err, workspace.ErrGone) {
		t.Fatalf("no .clumsies: got %v, want ErrGone", err)
	}
}
