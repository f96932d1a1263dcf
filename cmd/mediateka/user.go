package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"mediateka/app"
	"mediateka/domain"
	"mediateka/usecase/auth"
)

const userUsage = `usage: mediateka user add --email E --name N [--admin] --password-stdin
       mediateka user passwd --email E --password-stdin`

// userCmd manages accounts: add creates one, passwd replaces a password
// (the generated first one, a forgotten one). Neither needs the server.
func userCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "add" && args[0] != "passwd") {
		fmt.Fprintln(stderr, userUsage)
		return exitUsage
	}
	sub := args[0]
	fs := flag.NewFlagSet("user "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "./config.json", "path of config.json")
	email := fs.String("email", "", "e-mail address (required)")
	fromStdin := fs.Bool("password-stdin", false, "read the password from the first line of standard input (required)")
	name, admin := new(string), new(bool)
	if sub == "add" {
		name = fs.String("name", "", "display name (default: the e-mail's local part)")
		admin = fs.Bool("admin", false, "make the user an administrator")
	}
	if fs.Parse(args[1:]) != nil {
		return exitUsage
	}
	if *email == "" || !*fromStdin {
		fmt.Fprintf(stderr, "mediateka: user %s needs --email and --password-stdin (the password never goes on the command line)\n", sub)
		return exitUsage
	}
	password, err := readPassword(stdin)
	if err != nil {
		fmt.Fprintln(stderr, "mediateka: cannot read the password from standard input:", err)
		return exitFailed
	}
	cfg, _, ok := loadConfig(*path, stderr)
	if !ok {
		return exitUsage
	}
	ctx := context.Background()
	if sub == "passwd" {
		u, err := app.SetPassword(ctx, cfg, *email, password)
		return report(err, stdout, stderr, "changed the password of user %d %s; its older tokens no longer work\n", u.ID, u.Email)
	}
	u, err := app.AddUser(ctx, cfg, auth.NewUser{Email: *email, Name: *name, Password: password, Admin: *admin})
	return report(err, stdout, stderr, "created user %d %s (role %s)\n", u.ID, u.Email, u.EffectiveRole())
}

// readPassword reads the first line of stdin without its line ending.
func readPassword(stdin io.Reader) (string, error) {
	line, err := bufio.NewReader(stdin).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// report prints the outcome of an account command and returns its exit
// code: 2 for input the person can correct (invalid, taken, unknown e-mail).
func report(err error, stdout, stderr io.Writer, format string, args ...any) int {
	if err == nil {
		fmt.Fprintf(stdout, format, args...)
		return 0
	}
	fmt.Fprintln(stderr, "mediateka:", describe(err))
	for _, k := range []domain.Kind{domain.KindInvalid, domain.KindConflict, domain.KindNotFound} {
		if domain.IsKind(err, k) {
			return exitUsage
		}
	}
	return exitFailed
}
