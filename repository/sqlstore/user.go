package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"gorm.io/gorm"

	"mediateka/domain"
)

// userRow is the GORM model of the users table.
type userRow struct {
	ID           int64 `gorm:"primaryKey"`
	Email        string
	Name         string
	Picture      sql.NullString
	Role         string
	IsAdmin      bool
	CreatedAt    time.Time
	PasswordHash sql.NullString
	TelegramID   sql.NullInt64
	TokenVersion int64
}

func (userRow) TableName() string { return "users" }

func (r userRow) toDomain() domain.User {
	u := domain.User{
		ID: r.ID, Email: r.Email, Name: r.Name, Picture: r.Picture.String, Role: r.Role,
		IsAdmin: r.IsAdmin, PasswordHash: r.PasswordHash.String, CreatedAt: r.CreatedAt.UTC(),
		TokenVersion: r.TokenVersion,
	}
	if r.TelegramID.Valid {
		id := r.TelegramID.Int64
		u.TelegramID = &id
	}
	return u
}

func userFromDomain(u domain.User) userRow {
	r := userRow{
		ID: u.ID, Email: u.Email, Name: u.Name, Role: u.Role, IsAdmin: u.IsAdmin, CreatedAt: u.CreatedAt,
		TokenVersion: u.TokenVersion,
		Picture:      sql.NullString{String: u.Picture, Valid: u.Picture != ""},
		PasswordHash: sql.NullString{String: u.PasswordHash, Valid: u.PasswordHash != ""},
	}
	if u.TelegramID != nil {
		r.TelegramID = sql.NullInt64{Int64: *u.TelegramID, Valid: true}
	}
	if r.Role == "" {
		r.Role = domain.RoleUser
	}
	if r.CreatedAt.IsZero() {
		r.CreatedAt = time.Now().UTC()
	}
	return r
}

// Users is the users repository.
type Users struct {
	s *Store
	// byID keeps the accounts every authenticated request loads (the
	// token's sub) until anyone writes to the database: a password change,
	// a role change or a deletion, here or by another process, is seen by
	// the very next request.
	byID *readCache[int64, domain.User]
}

// usersCached bounds the accounts kept in memory.
const usersCached = 256

// NewUsers returns the users repository of s.
func NewUsers(s *Store) *Users {
	return &Users{s: s, byID: newReadCache[int64, domain.User](s.changes, usersCached)}
}

// Create stores a new user and returns it with its id; a taken e-mail is a
// Conflict. The e-mail is stored normalised (trimmed, lower case), so the
// column's UNIQUE constraint also refuses the same address in another case.
func (r *Users) Create(ctx context.Context, u domain.User) (domain.User, error) {
	row := userFromDomain(u)
	row.ID = 0
	row.Email = domain.NormalizeEmail(row.Email)
	if err := r.s.writer.WithContext(ctx).Create(&row).Error; err != nil {
		return domain.User{}, mapErr(err, "user "+u.Email)
	}
	return row.toDomain(), nil
}

// Update writes every field of u.
func (r *Users) Update(ctx context.Context, u domain.User) (domain.User, error) {
	row := userFromDomain(u)
	res := r.s.writer.WithContext(ctx).Model(&userRow{}).Where("id = ?", u.ID).Select("*").Omit("id", "created_at").Updates(&row)
	if res.Error != nil {
		return domain.User{}, mapErr(res.Error, "user")
	}
	if res.RowsAffected == 0 {
		return domain.User{}, domain.ErrNotFound("user")
	}
	return r.ByID(ctx, u.ID)
}

// ByID loads a user by id, from memory while the database is unchanged.
func (r *Users) ByID(ctx context.Context, id int64) (domain.User, error) {
	u, err := r.byID.get(id, func() (domain.User, error) { return r.first(ctx, "user", "id = ?", id) })
	if u.TelegramID != nil { // callers get a copy they may change
		tg := *u.TelegramID
		u.TelegramID = &tg
	}
	return u, err
}

// ByEmail loads a user by e-mail, compared case-insensitively.
func (r *Users) ByEmail(ctx context.Context, email string) (domain.User, error) {
	return r.first(ctx, "user", "lower(email) = lower(?)", email)
}

// DuplicateEmails lists the e-mails that more than one account carries in
// different cases: rows older than case-insensitive e-mails that migration
// 0004 could not fold without losing an account. Start-up logs them so an
// administrator can merge or delete one.
func (r *Users) DuplicateEmails(ctx context.Context) ([]string, error) {
	var out []string
	err := r.s.reader.WithContext(ctx).Model(&userRow{}).Select("lower(trim(email))").
		Group("lower(trim(email))").Having("count(*) > 1").Order("1").Scan(&out).Error
	return out, mapErr(err, "users")
}

// ByTelegramID loads the user linked to a Telegram account.
func (r *Users) ByTelegramID(ctx context.Context, tgID int64) (domain.User, error) {
	return r.first(ctx, "user", "telegram_id = ?", tgID)
}

// TelegramLinked lists the accounts linked to a Telegram user, by id.
func (r *Users) TelegramLinked(ctx context.Context) ([]domain.User, error) {
	var rows []userRow
	if err := r.s.reader.WithContext(ctx).Where("telegram_id IS NOT NULL").Order("id").Find(&rows).Error; err != nil {
		return nil, mapErr(err, "users")
	}
	out := make([]domain.User, len(rows))
	for i, row := range rows {
		out[i] = row.toDomain()
	}
	return out, nil
}

// LinkTelegram gives userID the Telegram account tgID, in one
// transaction: the account that had it loses it first (the column is
// UNIQUE), so a Telegram account moves rather than being refused. An
// unknown userID is NotFound and changes nothing.
func (r *Users) LinkTelegram(ctx context.Context, userID, tgID int64) (domain.User, error) {
	err := r.s.writer.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Model(&userRow{}).Where("telegram_id = ? AND id <> ?", tgID, userID).
			Update("telegram_id", nil).Error; err != nil {
			return err
		}
		res := tx.Model(&userRow{}).Where("id = ?", userID).Update("telegram_id", tgID)
		if res.Error == nil && res.RowsAffected == 0 {
			return domain.ErrNotFound("user")
		}
		return res.Error
	})
	if err != nil {
		return domain.User{}, mapErr(err, "user")
	}
	return r.ByID(ctx, userID)
}

func (r *Users) first(ctx context.Context, what, where string, arg any) (domain.User, error) {
	var row userRow
	if err := r.s.reader.WithContext(ctx).Where(where, arg).First(&row).Error; err != nil {
		return domain.User{}, mapErr(err, what)
	}
	return row.toDomain(), nil
}

// Count returns the number of users.
func (r *Users) Count(ctx context.Context) (int64, error) {
	var n int64
	err := r.s.reader.WithContext(ctx).Model(&userRow{}).Count(&n).Error
	return n, mapErr(err, "users")
}

// List returns users ordered by id.
func (r *Users) List(ctx context.Context, limit, offset int) ([]domain.User, error) {
	var rows []userRow
	if err := r.s.reader.WithContext(ctx).Order("id").Limit(limit).Offset(offset).Find(&rows).Error; err != nil {
		return nil, mapErr(err, "users")
	}
	out := make([]domain.User, len(rows))
	for i, row := range rows {
		out[i] = row.toDomain()
	}
	return out, nil
}

// Delete removes a user; their activity rows go with them (ON DELETE CASCADE).
func (r *Users) Delete(ctx context.Context, id int64) error {
	res := r.s.writer.WithContext(ctx).Delete(&userRow{}, id)
	if res.Error != nil {
		return mapErr(res.Error, "user")
	}
	if res.RowsAffected == 0 {
		return domain.ErrNotFound("user")
	}
	return nil
}

// activityRow is the GORM model of user_activity.
type activityRow struct {
	ID        int64 `gorm:"primaryKey"`
	UserID    int64
	Action    string
	Details   sql.NullString
	Timestamp time.Time
}

func (activityRow) TableName() string { return "user_activity" }

// Activity is the user activity log repository.
type Activity struct{ s *Store }

// NewActivity returns the activity repository of s.
func NewActivity(s *Store) *Activity { return &Activity{s: s} }

// Add appends one activity row.
func (r *Activity) Add(ctx context.Context, a domain.Activity) error {
	if a.Timestamp.IsZero() {
		a.Timestamp = time.Now().UTC()
	}
	row := activityRow{UserID: a.UserID, Action: a.Action, Timestamp: a.Timestamp,
		Details: sql.NullString{String: a.Details, Valid: a.Details != ""}}
	return mapErr(r.s.writer.WithContext(ctx).Create(&row).Error, "activity")
}

// ForUser returns the newest activity rows of a user, newest first.
func (r *Activity) ForUser(ctx context.Context, userID int64, limit int) ([]domain.Activity, error) {
	var rows []activityRow
	err := r.s.reader.WithContext(ctx).Where("user_id = ?", userID).Order("timestamp DESC, id DESC").Limit(limit).Find(&rows).Error
	if err != nil {
		return nil, mapErr(err, "activity")
	}
	out := make([]domain.Activity, len(rows))
	for i, row := range rows {
		out[i] = domain.Activity{ID: row.ID, UserID: row.UserID, Action: row.Action, Details: row.Details.String, Timestamp: row.Timestamp.UTC()}
	}
	return out, nil
}

// settingRow is the GORM model of settings.
type settingRow struct {
	Key       string `gorm:"primaryKey"`
	Value     string
	UpdatedAt time.Time
}

func (settingRow) TableName() string { return "settings" }

// Settings is the key/value settings repository.
type Settings struct{ s *Store }

// NewSettings returns the settings repository of s.
func NewSettings(s *Store) *Settings { return &Settings{s: s} }

// Get returns one setting; NotFound when it was never set.
func (r *Settings) Get(ctx context.Context, key string) (domain.Setting, error) {
	var row settingRow
	if err := r.s.reader.WithContext(ctx).Where("key = ?", key).First(&row).Error; err != nil {
		return domain.Setting{}, mapErr(err, "setting "+key)
	}
	return domain.Setting{Key: row.Key, Value: row.Value, UpdatedAt: row.UpdatedAt.UTC()}, nil
}

// Set inserts or replaces one setting.
func (r *Settings) Set(ctx context.Context, key, value string) (domain.Setting, error) {
	row := settingRow{Key: key, Value: value, UpdatedAt: time.Now().UTC()}
	err := r.s.writer.WithContext(ctx).Exec(
		`INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
		 ON CONFLICT(key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		row.Key, row.Value, row.UpdatedAt).Error
	if err != nil {
		return domain.Setting{}, mapErr(err, "setting "+key)
	}
	return domain.Setting{Key: key, Value: value, UpdatedAt: row.UpdatedAt}, nil
}

// Delete removes one setting, so the built-in default (or a config file)
// applies again; removing an absent setting is not an error.
func (r *Settings) Delete(ctx context.Context, key string) error {
	return mapErr(r.s.writer.WithContext(ctx).Where("key = ?", key).Delete(&settingRow{}).Error, "setting "+key)
}
