// Package qbittest starts a real qbittorrent-nox for a test: a temporary
// profile whose qBittorrent.conf sets the WebUI on a free 127.0.0.1 port, a
// known user and PBKDF2 password, and no DHT, PeX, LSD or port forwarding,
// so the daemon never talks to the internet. It stops when the test ends.
// A missing qbittorrent-nox skips the test, or fails it under CI=true
// (exectest.Require).
package qbittest

import (
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mediateka/repository/exectest"
)

// Username is the WebUI user of every test daemon.
const Username = "tester"

// Daemon is one running qbittorrent-nox.
type Daemon struct {
	URL      string // http://127.0.0.1:<port>
	Username string
	Password string
	SaveDir  string // the default download folder
	bin      string
	dir      string
	cmd      *exec.Cmd
	done     chan struct{}
	stopOnce *sync.Once
}

// Start runs qbittorrent-nox in a temporary profile and waits until its
// WebUI accepts the login. t's cleanup stops it.
func Start(t testing.TB) *Daemon {
	t.Helper()
	bin := exectest.Require(t, "qbittorrent-nox", "qbittorrent-nox")[0]
	dir := t.TempDir()
	d := &Daemon{Username: Username, Password: randomPassword(t), SaveDir: filepath.Join(dir, "downloads"),
		bin: bin, dir: dir}
	webPort, peerPort := freePort(t), freePort(t)
	d.URL = fmt.Sprintf("http://127.0.0.1:%d", webPort)
	writeConfig(t, filepath.Join(dir, "profile"), d, webPort, peerPort)
	t.Cleanup(func() { d.Stop() })
	d.run(t)
	return d
}

// Restart stops the daemon and starts it again on the same profile, port
// and torrents — what a torrent whose files vanished needs before
// qBittorrent reports it as missingFiles.
func (d *Daemon) Restart(t testing.TB) {
	t.Helper()
	d.Stop()
	d.run(t)
}

// run starts the process and waits for its WebUI.
func (d *Daemon) run(t testing.TB) {
	t.Helper()
	d.done, d.stopOnce = make(chan struct{}), &sync.Once{}
	d.cmd = exec.Command(d.bin, "--profile="+filepath.Join(d.dir, "profile"))
	d.cmd.Env = append(os.Environ(), "HOME="+d.dir, "XDG_CONFIG_HOME="+d.dir, "XDG_DATA_HOME="+d.dir, "XDG_CACHE_HOME="+d.dir)
	logPath := filepath.Join(d.dir, "daemon.log")
	log, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	d.cmd.Stdout, d.cmd.Stderr = log, log
	if err := d.cmd.Start(); err != nil {
		t.Fatalf("start qbittorrent-nox: %v", err)
	}
	cmd, done := d.cmd, d.done
	go func() { _ = cmd.Wait(); _ = log.Close(); close(done) }()
	if err := d.waitReady(20 * time.Second); err != nil {
		d.Stop()
		out, _ := os.ReadFile(logPath)
		t.Fatalf("qbittorrent-nox did not come up: %v\n%s", err, out)
	}
}

// Stop ends the daemon (SIGTERM, then SIGKILL after 5 s) and waits for it.
// It may be called more than once.
func (d *Daemon) Stop() {
	d.stopOnce.Do(func() {
		_ = d.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-d.done:
		case <-time.After(5 * time.Second):
			_ = d.cmd.Process.Kill()
			<-d.done
		}
	})
}

// waitReady polls the login until it answers "Ok.".
func (d *Daemon) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	hc := &http.Client{Timeout: time.Second}
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-d.done:
			return fmt.Errorf("it exited")
		default:
		}
		resp, err := hc.PostForm(d.URL+"/api/v2/auth/login", url.Values{"username": {d.Username}, "password": {d.Password}})
		if err == nil {
			buf := make([]byte, 16)
			n, _ := resp.Body.Read(buf)
			_ = resp.Body.Close()
			if strings.TrimSpace(string(buf[:n])) == "Ok." {
				return nil
			}
			last = fmt.Errorf("login answered %d %q", resp.StatusCode, buf[:n])
		} else {
			last = err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return last
}

// writeConfig seeds the profile's qBittorrent.conf (the verified recipe).
func writeConfig(t testing.TB, profile string, d *Daemon, webPort, peerPort int) {
	t.Helper()
	conf := filepath.Join(profile, "qBittorrent", "config")
	if err := os.MkdirAll(conf, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(d.SaveDir, 0o700); err != nil {
		t.Fatal(err)
	}
	text := fmt.Sprintf(`[LegalNotice]
Accepted=true

[BitTorrent]
Session\DHTEnabled=false
Session\LSDEnabled=false
Session\PeXEnabled=false
Session\Port=%d
Session\DefaultSavePath=%s

[Network]
PortForwardingEnabled=false

[Preferences]
WebUI\Address=127.0.0.1
WebUI\Port=%d
WebUI\Username=%s
WebUI\Password_PBKDF2="@ByteArray(%s)"
WebUI\LocalHostAuth=true
Downloads\SavePath=%s
`, peerPort, d.SaveDir, webPort, d.Username, pbkdf2Hash(t, d.Password), d.SaveDir)
	if err := os.WriteFile(filepath.Join(conf, "qBittorrent.conf"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// pbkdf2Hash is qBittorrent's password format: base64 salt ":" base64 key,
// PBKDF2-HMAC-SHA512, 100000 rounds, 16-byte salt, 64-byte key.
func pbkdf2Hash(t testing.TB, password string) string {
	t.Helper()
	salt := make([]byte, 16)
	_, _ = rand.Read(salt)
	key, err := pbkdf2.Key(sha512.New, password, salt, 100000, 64)
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(salt) + ":" + base64.StdEncoding.EncodeToString(key)
}

func randomPassword(t testing.TB) string {
	t.Helper()
	b := make([]byte, 12)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// freePort asks the kernel for a free port on 127.0.0.1.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
