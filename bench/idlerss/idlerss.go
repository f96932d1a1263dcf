// Package idlerss starts a real mediateka binary on loopback and reads how
// much memory it holds at rest (VmRSS, RssAnon and RssFile from
// /proc/<pid>/status): right after it starts, then after each request it is
// given, each time once the process has settled.
package idlerss

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Config describes one run.
type Config struct {
	// Binary is the mediateka executable.
	Binary string
	// DataDir is the data folder; a folder without a database is a first
	// start (the administrator is created then).
	DataDir string
	// Library, when set, is the one library folder (search_dirs.json).
	Library string
	// Scan runs `mediateka scan` before the server starts when the data
	// folder has no database yet.
	Scan bool
	// Settle is how long the process rests before each reading.
	Settle time.Duration
	// Requests are "METHOD /path" or "POST /path {json}", sent in order
	// as admin@localhost (signed in with initial_admin_password) after the
	// first reading, each followed by a reading. "login" signs in; "wait
	// 2m" rests that long (the runtime's periodic collection comes every
	// two minutes).
	Requests []string
	// Log receives the server's output (nil: discarded).
	Log io.Writer
}

// Memory is one reading of /proc/<pid>/status, in KiB.
type Memory struct {
	RSS, Anon, File int64
}

// Reading is the memory after one step.
type Reading struct {
	Step string
	Memory
}

// Run starts the server, takes the readings and stops it.
func Run(ctx context.Context, cfg Config) ([]Reading, error) {
	dir, err := prepare(ctx, cfg)
	if err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, cfg.Binary, "serve", "-config", filepath.Join(dir, "config.json"))
	cmd.Env = append(os.Environ(), "MEDIATEKA_HOST=127.0.0.1", "MEDIATEKA_PORT="+strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = cfg.Log, cfg.Log
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cfg.Binary, err)
	}
	defer func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() }()
	s := &session{base: fmt.Sprintf("http://127.0.0.1:%d", port), cfg: cfg}
	if err := s.waitHealthy(ctx); err != nil {
		return nil, err
	}
	out := []Reading{}
	read := func(step string) error {
		time.Sleep(cfg.Settle)
		m, err := Status(cmd.Process.Pid)
		out = append(out, Reading{Step: step, Memory: m})
		return err
	}
	if err := read("after start"); err != nil {
		return out, err
	}
	for _, r := range cfg.Requests {
		if err := s.do(ctx, r); err != nil {
			return out, fmt.Errorf("%s: %w", r, err)
		}
		if err := read("after " + r); err != nil {
			return out, err
		}
	}
	return out, nil
}

// prepare writes config.json and search_dirs.json next to the data folder
// and runs the first scan when asked; it returns the folder of config.json.
func prepare(ctx context.Context, cfg Config) (string, error) {
	data, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return "", err
	}
	dir := data + ".config"
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", err
	}
	conf, _ := json.Marshal(map[string]any{"data_dir": data})
	dirs := []string{}
	if cfg.Library != "" {
		dirs = append(dirs, cfg.Library)
	}
	roots, _ := json.Marshal(map[string]any{"dirs": dirs})
	if err := os.WriteFile(filepath.Join(dir, "config.json"), conf, 0o600); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "search_dirs.json"), roots, 0o600); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(data, "mediateka.db")); cfg.Scan && errors.Is(err, os.ErrNotExist) {
		scan := exec.CommandContext(ctx, cfg.Binary, "scan", "-config", filepath.Join(dir, "config.json"))
		scan.Stdout, scan.Stderr = cfg.Log, cfg.Log
		if err := scan.Run(); err != nil {
			return "", fmt.Errorf("first scan: %w", err)
		}
	}
	return dir, nil
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// session talks to the server under test.
type session struct {
	base  string
	cfg   Config
	token string
}

func (s *session) waitHealthy(ctx context.Context) error {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(s.base + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return nil
			}
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(50 * time.Millisecond)
	}
	return errors.New("the server did not answer /healthz within a minute")
}

// do sends one request of Config.Requests and reads the whole answer.
func (s *session) do(ctx context.Context, r string) error {
	if r == "login" {
		return s.login(ctx)
	}
	if d, ok := strings.CutPrefix(r, "wait "); ok {
		pause, err := time.ParseDuration(d)
		if err == nil {
			time.Sleep(pause)
		}
		return err
	}
	method, rest, _ := strings.Cut(r, " ")
	path, body, _ := strings.Cut(rest, " ")
	req, err := http.NewRequestWithContext(ctx, method, s.base+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+s.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("status %d", resp.StatusCode)
	}
	return nil
}

func (s *session) login(ctx context.Context) error {
	pw, err := os.ReadFile(filepath.Join(s.cfg.DataDir, "initial_admin_password"))
	if err != nil {
		return err
	}
	body, _ := json.Marshal(map[string]string{"email": "admin@localhost", "password": strings.TrimSpace(string(pw))})
	req, _ := http.NewRequestWithContext(ctx, "POST", s.base+"/api/auth/login", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct {
		AccessToken string `json:"access_token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || out.AccessToken == "" {
		return fmt.Errorf("login: status %d %v", resp.StatusCode, err)
	}
	s.token = out.AccessToken
	return nil
}

// Status reads VmRSS, RssAnon and RssFile of process pid.
func Status(pid int) (Memory, error) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return Memory{}, err
	}
	return ParseStatus(string(raw))
}

// ParseStatus reads the memory lines of a /proc/<pid>/status text.
func ParseStatus(status string) (Memory, error) {
	var m Memory
	found := 0
	for _, line := range strings.Split(status, "\n") {
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		dst := map[string]*int64{"VmRSS": &m.RSS, "RssAnon": &m.Anon, "RssFile": &m.File}[name]
		if dst == nil {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(value), " kB"), 10, 64)
		if err != nil {
			return Memory{}, fmt.Errorf("%s: %w", name, err)
		}
		*dst, found = n, found+1
	}
	if found != 3 {
		return Memory{}, errors.New("no VmRSS, RssAnon and RssFile in the status")
	}
	return m, nil
}
