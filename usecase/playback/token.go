package playback

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"time"

	"mediateka/domain"
)

// A play token is what lets a <video> or <track> element, which cannot
// send a header, open the stream, subtitles and thumbnail of one entry for
// one account: base64url of
//
//	version (1 byte) | user id | media id | expiry (unix seconds) | token version
//
// (each an unsigned varint) followed by the first 16 bytes of their
// HMAC-SHA256. The key is derived from the JWT secret with its own label,
// so a play token can never pass for a session token or the reverse. The
// account's token version is inside, so a password change ends its play
// tokens with its sessions.
const (
	tokenFormat  = 1
	tokenMACSize = 16
	// tokenMaxSize bounds what is decoded: five varints and a MAC.
	tokenMaxSize = 1 + 5*binary.MaxVarintLen64 + tokenMACSize
	tokenLabel   = "mediateka play token"
)

// tokenKey derives the play-token key from the JWT secret.
func tokenKey(secret []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(tokenLabel))
	return m.Sum(nil)
}

// playClaims are what a play token says.
type playClaims struct {
	user, media, version int64
	expires              time.Time
}

// issue signs a play token for u and media id, valid for the configured
// time from now.
func (s *Service) issue(u domain.User, mediaID int64) (string, time.Time) {
	exp := s.opt.Now().Add(s.opt.TokenTTL).UTC().Truncate(time.Second)
	payload := []byte{tokenFormat}
	for _, v := range []int64{u.ID, mediaID, exp.Unix(), u.TokenVersion} {
		payload = binary.AppendUvarint(payload, uint64(v))
	}
	return base64.RawURLEncoding.EncodeToString(append(payload, s.mac(payload)...)), exp
}

func (s *Service) mac(payload []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write(payload)
	return m.Sum(nil)[:tokenMACSize]
}

// parse checks a token's form and signature (in constant time) and reads
// its claims; anything wrong is ErrInvalidPlayToken.
func (s *Service) parse(token string) (playClaims, error) {
	if len(token) > base64.RawURLEncoding.EncodedLen(tokenMaxSize) {
		return playClaims{}, ErrInvalidPlayToken
	}
	// Strict: the spare bits of the last character must be zero, so one
	// token has one spelling.
	raw, err := base64.RawURLEncoding.Strict().DecodeString(token)
	if err != nil || len(raw) <= tokenMACSize {
		return playClaims{}, ErrInvalidPlayToken
	}
	payload, sum := raw[:len(raw)-tokenMACSize], raw[len(raw)-tokenMACSize:]
	if !hmac.Equal(sum, s.mac(payload)) || payload[0] != tokenFormat {
		return playClaims{}, ErrInvalidPlayToken
	}
	var v [4]int64
	rest := payload[1:]
	for i := range v {
		n, size := binary.Uvarint(rest)
		if size <= 0 || n > 1<<62 {
			return playClaims{}, ErrInvalidPlayToken
		}
		v[i], rest = int64(n), rest[size:]
	}
	if len(rest) != 0 {
		return playClaims{}, ErrInvalidPlayToken
	}
	return playClaims{user: v[0], media: v[1], expires: time.Unix(v[2], 0), version: v[3]}, nil
}

// Authorize is the account a play token lets open entry mediaID's
// stream, subtitles and thumbnail. A token that is malformed, forged, for
// another entry, of an account that is gone or has changed its password
// since is ErrInvalidPlayToken; one past its time ErrPlayTokenExpired.
func (s *Service) Authorize(ctx context.Context, token string, mediaID int64) (domain.User, error) {
	c, err := s.parse(token)
	if err != nil {
		return domain.User{}, err
	}
	if c.media != mediaID {
		return domain.User{}, ErrInvalidPlayToken
	}
	if !s.opt.Now().Before(c.expires) {
		return domain.User{}, ErrPlayTokenExpired
	}
	u, err := s.users.ByID(ctx, c.user)
	if domain.IsKind(err, domain.KindNotFound) {
		return domain.User{}, ErrInvalidPlayToken
	}
	if err != nil {
		return domain.User{}, fmt.Errorf("load the account of a play token: %w", err)
	}
	if u.TokenVersion != c.version {
		return domain.User{}, ErrInvalidPlayToken
	}
	return u, nil
}
