package hub

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/clumsies/clumsies/hub/hubwire"
)

// ConfigName is the hub's config file inside its folder.
const ConfigName = "hub.toml"

// adminTokenName is the file, in the data folder, that holds the admin
// token (mode 0600).
const adminTokenName = "admin.token"

// Config is hub.toml.
type Config struct {
	// Name names the hub; it is also the nats-server name (with the
	// cluster, each process gets "<name>-<index>").
	Name string `toml:"name"`
	// Data is the data folder (JetStream store, registry, read models),
	// relative to the config file's folder unless absolute.
	Data string `toml:"data"`
	// Leaf is the leaf-node listener workspaces dial, host:port.
	Leaf string `toml:"leaf"`
	// LeafURL is the URL workspaces are told to dial (default:
	// nats-leaf://<Leaf>, or tls:// with TLS).
	LeafURL string `toml:"leaf_url"`
	// HTTP is the API listener, host:port.
	HTTP string `toml:"http"`
	// HTTPURL is the URL join tokens carry (default: http://<HTTP>).
	HTTPURL string `toml:"http_url"`
	// TLS holds optional certificate files for the leaf listener.
	TLS TLSConfig `toml:"tls"`
	// Cluster holds optional cluster settings.
	Cluster ClusterConfig `toml:"cluster"`
	// LeafCompression turns on S2 compression of leaf links (off by
	// default: it costs about 2.5 MB per link; worth it over a WAN).
	LeafCompression bool `toml:"leaf_compression"`

	dir string // the folder holding hub.toml
	// projections, when set, is the folder of the read models instead of
	// projections in the data folder: a rebuild fills new ones beside.
	projections string
	// shards, when set, is the shard size instead of ShardSize (tests
	// use shards of a few nodes).
	shards int
}

// shardSize is the most active nodes of one shard (ShardSize).
func (c *Config) shardSize() int {
	if c.shards > 0 {
		return c.shards
	}
	return ShardSize
}

// TLSConfig is the [tls] table.
type TLSConfig struct {
	Cert string `toml:"cert"`
	Key  string `toml:"key"`
}

// ClusterConfig is the [cluster] table: this process's route listener and
// the routes to the others. Three hub processes with each other's routes
// form one cluster with replicated streams.
type ClusterConfig struct {
	Name   string   `toml:"name"`
	Listen string   `toml:"listen"`
	Routes []string `toml:"routes"`
}

// Dir returns the folder that holds hub.toml.
func (c *Config) Dir() string { return c.dir }

// DataDir returns the absolute data folder.
func (c *Config) DataDir() string {
	if filepath.IsAbs(c.Data) {
		return c.Data
	}
	return filepath.Join(c.dir, c.Data)
}

// Replicas is the replica count of the hub's streams: 3 in a cluster,
// else 1.
func (c *Config) Replicas() int {
	if len(c.Cluster.Routes) > 0 {
		return 3
	}
	return 1
}

// ReadConfig reads and checks dir/hub.toml.
func ReadConfig(dir string) (*Config, error) {
	file := filepath.Join(dir, ConfigName)
	cfg := &Config{}
	md, err := toml.DecodeFile(file, cfg)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("read %s: %w; run `clumsies hub init %s` first", file, err, dir)
		}
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	if undecoded := md.Undecoded(); len(undecoded) > 0 {
		return nil, fmt.Errorf("read %s: unknown setting %q", file, undecoded[0].String())
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	cfg.dir = abs
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("read %s: %w", file, err)
	}
	return cfg, nil
}

func (c *Config) check() error {
	if !validName(c.Name) {
		return fmt.Errorf("name %q: use letters, digits, '-' and '_'", c.Name)
	}
	if c.Data == "" {
		return errors.New("data is empty: name the data folder")
	}
	for _, a := range []struct{ key, addr string }{{"leaf", c.Leaf}, {"http", c.HTTP}, {"cluster.listen", c.Cluster.Listen}} {
		if a.addr == "" && a.key == "cluster.listen" {
			continue
		}
		if _, _, err := net.SplitHostPort(a.addr); err != nil {
			return fmt.Errorf("%s %q: want host:port", a.key, a.addr)
		}
	}
	if (c.TLS.Cert == "") != (c.TLS.Key == "") {
		return errors.New("tls: set both cert and key, or neither")
	}
	if len(c.Cluster.Routes) > 0 && c.Cluster.Listen == "" {
		return errors.New("cluster: routes need cluster.listen")
	}
	return nil
}

// leafURL returns the URL workspaces dial.
func (c *Config) leafURL() string {
	if c.LeafURL != "" {
		return c.LeafURL
	}
	if c.TLS.Cert != "" {
		return "tls://" + c.Leaf
	}
	return "nats-leaf://" + c.Leaf
}

// APIURL returns the API's URL as join tokens carry it.
func (c *Config) APIURL() string {
	if c.HTTPURL != "" {
		return c.HTTPURL
	}
	return "http://" + c.HTTP
}

// validName reports whether s can name a hub, a team or a member
// (hubwire.ValidName).
func validName(s string) bool { return hubwire.ValidName(s) }

// Encode renders c as the commented TOML that Init writes.
func (c *Config) Encode() []byte {
	var b bytes.Buffer
	b.WriteString("# clumsies hub settings.\n")
	fmt.Fprintf(&b, "name = %q\n", c.Name)
	b.WriteString("# JetStream store, node registry and read models; relative to this file.\n")
	fmt.Fprintf(&b, "data = %q\n", c.Data)
	b.WriteString("# The leaf-node listener workspaces dial, and the URL they are told to dial.\n")
	fmt.Fprintf(&b, "leaf = %q\n", c.Leaf)
	if c.LeafURL != "" {
		fmt.Fprintf(&b, "leaf_url = %q\n", c.LeafURL)
	} else {
		b.WriteString("# leaf_url = \"nats-leaf://hub.example:7422\"\n")
	}
	b.WriteString("# The HTTP API (stats, invites, joins, nodes).\n")
	fmt.Fprintf(&b, "http = %q\n", c.HTTP)
	if c.HTTPURL != "" {
		fmt.Fprintf(&b, "http_url = %q\n", c.HTTPURL)
	} else {
		b.WriteString("# http_url = \"https://hub.example\"\n")
	}
	b.WriteString("# S2 compression of leaf links: costs ~2.5 MB per link; worth it over a WAN.\n")
	fmt.Fprintf(&b, "leaf_compression = %v\n", c.LeafCompression)
	b.WriteString("\n[tls]\n# cert = \"hub.crt\"\n# key = \"hub.key\"\n")
	if c.TLS.Cert != "" {
		fmt.Fprintf(&b, "cert = %q\nkey = %q\n", c.TLS.Cert, c.TLS.Key)
	}
	b.WriteString("\n[cluster]\n# Three hub processes naming each other's routes form one cluster (R3 streams).\n")
	b.WriteString("# name = \"clumsies-hub\"\n# listen = \"0.0.0.0:6222\"\n# routes = [\"nats-route://hub-2:6222\", \"nats-route://hub-3:6222\"]\n")
	if c.Cluster.Listen != "" {
		fmt.Fprintf(&b, "name = %q\nlisten = %q\n", c.Cluster.Name, c.Cluster.Listen)
		quoted := make([]string, len(c.Cluster.Routes))
		for i, r := range c.Cluster.Routes {
			quoted[i] = fmt.Sprintf("%q", r)
		}
		fmt.Fprintf(&b, "routes = [%s]\n", strings.Join(quoted, ", "))
	}
	return b.Bytes()
}

// Init writes dir/hub.toml from cfg (refusing to overwrite one) and a fresh
// admin token into the data folder, and returns the token.
func Init(dir string, cfg Config) (string, error) {
	if err := cfg.check(); err != nil {
		return "", fmt.Errorf("init hub: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("init hub: %w", err)
	}
	file := filepath.Join(dir, ConfigName)
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return "", fmt.Errorf("init hub: %s exists; edit it, or init another folder", file)
		}
		return "", fmt.Errorf("init hub: %w", err)
	}
	_, err = f.Write(cfg.Encode())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("init hub: write %s: %w", file, err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("init hub: %w", err)
	}
	cfg.dir = abs
	token := "adm_" + randomHex(24)
	if err := os.MkdirAll(cfg.DataDir(), 0o700); err != nil {
		return "", fmt.Errorf("init hub: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(cfg.DataDir(), adminTokenName), []byte(token+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("init hub: %w", err)
	}
	return token, nil
}

// AdminToken reads the admin token from the hub's data folder.
func (c *Config) AdminToken() (string, error) {
	b, err := os.ReadFile(filepath.Join(c.DataDir(), adminTokenName))
	if err != nil {
		return "", fmt.Errorf("read the admin token: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// writeFileAtomic writes data to a temporary file next to name, syncs it
// and renames it over name.
func writeFileAtomic(name string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
