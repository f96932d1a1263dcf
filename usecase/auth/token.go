package auth

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/golang-jwt/jwt/v5"

	"mediateka/domain"
)

// Claims are the JWT claims mediateka issues. Ver is the user's token
// version when the token was issued; a password change raises it.
type Claims struct {
	Email string `json:"email"`
	Role  string `json:"role"`
	Ver   int64  `json:"ver"`
	jwt.RegisteredClaims
}

// IssueToken signs an HS256 token for u with sub, email, role, ver, iat and
// exp.
func (s *Service) IssueToken(u domain.User) (string, error) {
	now := s.opt.Now()
	claims := Claims{Email: u.Email, Role: u.EffectiveRole(), Ver: u.TokenVersion, RegisteredClaims: jwt.RegisteredClaims{
		Subject:   strconv.FormatInt(u.ID, 10),
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(s.opt.TokenTTL)),
	}}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, claims).SignedString(s.opt.Secret)
	if err != nil {
		return "", fmt.Errorf("sign token: %w", err)
	}
	return tok, nil
}

// VerifyToken is the one token verifier: every transport (the Authorization
// header, ?token=, later WebSocket rooms, the Mini App and play tokens) calls
// it. It accepts HS256 only (alg none and every other algorithm are
// refused), requires exp and checks it against the injected clock, then
// loads the user by sub, so a deleted user loses access at once and a
// demoted one loses admin rights at once; a token issued before the user's
// last password change is refused.
func (s *Service) VerifyToken(ctx context.Context, token string) (domain.User, error) {
	if token == "" {
		return domain.User{}, domain.ErrUnauthorized
	}
	var claims Claims
	_, err := jwt.ParseWithClaims(token, &claims, func(*jwt.Token) (any, error) { return s.opt.Secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithTimeFunc(s.opt.Now), jwt.WithExpirationRequired())
	if errors.Is(err, jwt.ErrTokenExpired) {
		return domain.User{}, domain.ErrTokenExpired
	}
	if err != nil {
		return domain.User{}, domain.ErrUnauthorized
	}
	u, err := s.userForSubject(ctx, claims.Subject)
	if err != nil {
		return domain.User{}, err
	}
	if claims.Ver != u.TokenVersion {
		return domain.User{}, domain.ErrUnauthorized
	}
	return u, nil
}

// userForSubject loads the user a verified token's sub names.
func (s *Service) userForSubject(ctx context.Context, sub string) (domain.User, error) {
	id, err := strconv.ParseInt(sub, 10, 64)
	if err != nil || id <= 0 {
		return domain.User{}, domain.ErrUnauthorized
	}
	u, err := s.users.ByID(ctx, id)
	if domain.IsKind(err, domain.KindNotFound) {
		return domain.User{}, domain.ErrUnauthorized
	}
	if err != nil {
		return domain.User{}, fmt.Errorf("load user %d: %w", id, err)
	}
	return u, nil
}
