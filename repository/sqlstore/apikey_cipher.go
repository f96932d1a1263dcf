package sqlstore

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
)

// keyCipherInfo names what the derived key is for. Changing it (or the
// version byte) makes a new key, so stored secrets would no longer open:
// bump both together, with a migration that re-encrypts.
const keyCipherInfo = "mediateka api_keys AES-256-GCM v1"

// sealedVersion is the first byte of every stored secret, so the format can
// change later without guessing what a blob holds.
const sealedVersion byte = 1

// minMasterLen is the shortest master secret accepted: anything shorter is
// not a generated secret.key and would make the encryption guessable.
const minMasterLen = 16

// keyCipher seals API keys with AES-256-GCM under a key derived by HKDF-SHA256
// from the master secret (<data>/secret.key). The key name is the additional
// data, so a sealed secret copied onto another row does not open.
type keyCipher struct {
	aead cipher.AEAD
}

func newKeyCipher(master []byte) (*keyCipher, error) {
	if len(master) < minMasterLen {
		return nil, fmt.Errorf("the API key master secret must be at least %d bytes", minMasterLen)
	}
	key, err := hkdf.Key(sha256.New, master, nil, keyCipherInfo, 32)
	if err != nil {
		return nil, fmt.Errorf("derive the API key encryption key: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &keyCipher{aead: aead}, nil
}

// seal returns version || nonce || ciphertext+tag.
func (c *keyCipher) seal(name, secret string) []byte {
	out := make([]byte, 1+c.aead.NonceSize(), 1+c.aead.NonceSize()+len(secret)+c.aead.Overhead())
	out[0] = sealedVersion
	nonce := out[1:]
	_, _ = rand.Read(nonce) // crypto/rand.Read never fails on supported platforms
	return c.aead.Seal(out, nonce, []byte(secret), []byte(name))
}

// errUnsealable is returned for a blob that does not open: another
// secret.key, a row edited by hand, or a secret moved between rows.
var errUnsealable = errors.New("the stored API key does not decrypt with this server's secret.key")

func (c *keyCipher) open(name string, blob []byte) (string, error) {
	n := c.aead.NonceSize()
	if len(blob) < 1+n+c.aead.Overhead() || blob[0] != sealedVersion {
		return "", errUnsealable
	}
	plain, err := c.aead.Open(nil, blob[1:1+n], blob[1+n:], []byte(name))
	if err != nil {
		return "", errUnsealable
	}
	return string(plain), nil
}
