package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/argon2"
)

// Password hashing is argon2id with OWASP's recommended minimum (19 MiB,
// 2 passes, 1 lane), stored as a PHC string. argon2id over bcrypt: it resists
// GPU cracking better and costs about the same time per login (≈70 ms here).
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonKeyLen    = 32
	argonSaltLen   = 16
	// maxPasswordBytes bounds the work one login can cause.
	maxPasswordBytes = 1024
)

// Hasher makes and checks password hashes. Argon2 is the one mediateka
// uses; the interface exists so tests can count how many checks run at once.
type Hasher interface {
	Hash(password string) (string, error)
	Check(encoded, password string) bool
}

// Argon2 is the argon2id Hasher. Every hash and check allocates its 19 MiB
// afresh, and the Go runtime keeps freed memory mapped until a collection
// and its scavenger get to it, minutes later on an idle server: the first
// start (which hashes the generated admin password) or one login left a
// server at rest holding 20 MiB or more that it no longer uses. Once no
// hash or check has run for releaseAfter, that memory is handed back; a
// burst of logins reuses it meanwhile instead of paying to map it again.
// Use it through a pointer: the zero value is ready.
type Argon2 struct {
	mu      sync.Mutex
	running int
	release *time.Timer
}

// releaseAfter is how long the hasher waits, idle, before it returns the
// memory of its last hash to the system.
const releaseAfter = 500 * time.Millisecond

// Hash returns a PHC string of password with a fresh salt.
func (h *Argon2) Hash(password string) (string, error) {
	h.begin()
	defer h.end()
	return hashPassword(password)
}

// Check compares password with a PHC string in constant time.
func (h *Argon2) Check(encoded, password string) bool {
	h.begin()
	defer h.end()
	return checkPassword(encoded, password)
}

func (h *Argon2) begin() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.running++
	if h.release != nil {
		h.release.Stop()
	}
}

// end schedules the release of the freed memory when this was the last
// hash or check running.
func (h *Argon2) end() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.running--; h.running > 0 {
		return
	}
	if h.release == nil {
		h.release = time.AfterFunc(releaseAfter, debug.FreeOSMemory)
		return
	}
	h.release.Reset(releaseAfter)
}

// hashPassword returns "$argon2id$v=19$m=…,t=…,p=…$salt$hash".
func hashPassword(password string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", fmt.Errorf("password salt: %w", err)
	}
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// checkPassword compares password with a stored PHC string in constant time,
// using the parameters recorded in the hash so they can be raised later
// without invalidating old hashes.
func checkPassword(encoded, password string) bool {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" || len(password) > maxPasswordBytes {
		return false
	}
	var version int
	var mem, iters uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iters, &threads); err != nil || mem > 1<<20 || iters > 16 || threads == 0 {
		return false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	want, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, iters, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}
