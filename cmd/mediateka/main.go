// Command mediateka runs the media library server and its maintenance
// commands: serve (the default), user add, user passwd, scan, rag build, healthcheck and version.
package main

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"mediateka/app"
	"mediateka/config"
	"mediateka/domain"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

// Exit codes: 0 success, 1 the command failed, 2 the command line or the
// configuration is wrong.
const (
	exitFailed = 1
	exitUsage  = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(args, stderr)
	case "user":
		return userCmd(args, stdin, stdout, stderr)
	case "healthcheck":
		return healthcheck(args, stdout, stderr)
	case "scan":
		return scanCmd(args, stdout, stderr)
	case "rag":
		return ragCmd(args, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "mediateka", version)
		return 0
	case "help", "-h", "--help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "mediateka: unknown command %q\n\n", cmd)
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: mediateka [command] [flags]

commands:
  serve         run the server (default)            --config PATH (default ./config.json)
  user add      create an account                   --email E --name N [--admin] --password-stdin
  user passwd   replace an account's password       --email E --password-stdin
  healthcheck   exit 0 when /healthz answers ok     [--config PATH] [--url URL]
  scan          scan the media library folders     [--config PATH] [--path P]... [--disk D] [--quiet]
  rag build     build the semantic search index     [--config PATH] [--quiet]
  version       print the version
`)
}

// loadConfig loads and validates the configuration, printing every problem.
func loadConfig(path string, stderr io.Writer) (config.Config, []string, bool) {
	cfg, warnings, err := config.Load(path, os.LookupEnv)
	if err != nil {
		fmt.Fprintln(stderr, "mediateka:", err)
		return cfg, warnings, false
	}
	return cfg, warnings, true
}

func serve(args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "./config.json", "path of config.json (absent file: defaults)")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	cfg, warnings, ok := loadConfig(*path, stderr)
	if !ok {
		return exitUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	a, err := app.New(ctx, cfg, app.Options{Version: version, Stderr: stderr, Warnings: warnings})
	if err != nil {
		fmt.Fprintln(stderr, "mediateka: cannot start:", err)
		return exitFailed
	}
	if err := a.Run(ctx, nil); err != nil {
		fmt.Fprintln(stderr, "mediateka:", err)
		return exitFailed
	}
	return 0
}

// describe renders a domain error with its field reasons for a terminal.
func describe(err error) string {
	var de *domain.Error
	if !errors.As(err, &de) {
		return err.Error()
	}
	msg := de.Message
	for f, why := range de.Fields {
		msg += fmt.Sprintf("; %s %s", f, why)
	}
	return msg
}

func healthcheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("healthcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "./config.json", "path of config.json")
	target := fs.String("url", "", "health URL (default: http(s)://127.0.0.1:<port>/healthz)")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	if *target == "" {
		cfg, _, ok := loadConfig(*path, stderr)
		if !ok {
			return exitUsage
		}
		scheme := map[bool]string{true: "https", false: "http"}[cfg.UseSSL]
		*target = fmt.Sprintf("%s://127.0.0.1:%d/healthz", scheme, cfg.Port)
	}
	// The server may use its self-signed certificate; this only asks our own
	// process on loopback whether it is alive.
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // loopback self-check
	}}
	resp, err := client.Get(*target)
	if err != nil {
		fmt.Fprintln(stderr, "unhealthy:", err)
		return exitFailed
	}
	defer resp.Body.Close()
	var body struct{ Status, Version string }
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&body) != nil || body.Status != "ok" {
		fmt.Fprintln(stderr, "unhealthy: /healthz answered", resp.Status)
		return exitFailed
	}
	fmt.Fprintln(stdout, "ok", body.Version)
	return 0
}
