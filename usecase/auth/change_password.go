package auth

import (
	"context"
	"strconv"

	"mediateka/domain"
)

// ErrWrongPassword answers a password change whose current password is wrong.
var ErrWrongPassword = domain.NewError(domain.KindForbidden, "wrong_password", "the current password is wrong")

// ChangePassword replaces u's password after checking the current one, and
// raises u's token version so every token issued before (on every device)
// is refused at once. The check runs inside the same semaphore as logins and
// failures count against the user like failed logins, so a stolen token
// cannot be used to guess the password fast.
func (s *Service) ChangePassword(ctx context.Context, u domain.User, current, next string) error {
	fields := map[string]string{}
	if current == "" {
		fields["current_password"] = "must not be empty"
	}
	if why := passwordProblem(next); why != "" {
		fields["new_password"] = why
	}
	if len(fields) > 0 {
		return domain.ErrInvalid("the password change is not valid", fields)
	}
	key := "user:" + strconv.FormatInt(u.ID, 10)
	stamp, ok := s.throttle.reserve(key)
	if !ok {
		return domain.ErrTooManyAttempts
	}
	release, ok := s.acquireCheck()
	if !ok {
		s.throttle.release(stamp, key)
		return errBusy
	}
	good := u.PasswordHash != "" && s.hasher.Check(u.PasswordHash, current)
	release()
	if !good {
		return ErrWrongPassword
	}
	s.throttle.release(stamp, key)
	if _, err := s.storePassword(ctx, u, next); err != nil {
		return err
	}
	s.opt.Logger.InfoContext(ctx, "password changed", "user_id", u.ID)
	return nil
}
