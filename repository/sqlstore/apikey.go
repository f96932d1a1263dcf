package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"gorm.io/gorm"

	"mediateka/domain"
)

// apiKeyRow is the GORM model of api_keys. APIKey holds the sealed secret,
// never the plain one.
type apiKeyRow struct {
	KeyName     string `gorm:"primaryKey"`
	APIKey      []byte `gorm:"column:api_key"`
	Provider    string
	Status      string
	LastRun     sql.NullTime
	ExhaustedAt sql.NullTime
	DailyQuota  sql.NullInt64
	UsedToday   int
	UsedDay     sql.NullString
	CreatedAt   time.Time
}

func (apiKeyRow) TableName() string { return "api_keys" }

// APIKeys is the key store's repository. Secrets are sealed with AES-GCM on
// the way in and opened on the way out, so the database file never holds a
// usable key. Rows are handed out in insertion order, which is the rotation
// order ("the first active key of the provider").
type APIKeys struct {
	s      *Store
	cipher *keyCipher
}

// NewAPIKeys returns the key repository of s, encrypting with a key derived
// from master (the contents of <data>/secret.key).
func NewAPIKeys(s *Store, master []byte) (*APIKeys, error) {
	c, err := newKeyCipher(master)
	if err != nil {
		return nil, err
	}
	return &APIKeys{s: s, cipher: c}, nil
}

func (r *APIKeys) toDomain(row apiKeyRow) (domain.APIKey, error) {
	secret, err := r.cipher.open(row.KeyName, row.APIKey)
	if err != nil {
		return domain.APIKey{}, fmt.Errorf("api key %s: %w", row.KeyName, err)
	}
	k := domain.APIKey{Name: row.KeyName, Provider: row.Provider, Secret: secret, Status: row.Status,
		UsedToday: row.UsedToday, UsedDay: row.UsedDay.String, CreatedAt: row.CreatedAt.UTC()}
	if row.LastRun.Valid {
		t := row.LastRun.Time.UTC()
		k.LastRun = &t
	}
	if row.ExhaustedAt.Valid {
		t := row.ExhaustedAt.Time.UTC()
		k.ExhaustedAt = &t
	}
	if row.DailyQuota.Valid {
		q := int(row.DailyQuota.Int64)
		k.DailyQuota = &q
	}
	return k, nil
}

func (r *APIKeys) fromDomain(k domain.APIKey) apiKeyRow {
	row := apiKeyRow{KeyName: k.Name, APIKey: r.cipher.seal(k.Name, k.Secret), Provider: k.Provider,
		Status: k.Status, UsedToday: k.UsedToday, CreatedAt: k.CreatedAt,
		UsedDay: sql.NullString{String: k.UsedDay, Valid: k.UsedDay != ""}}
	if k.LastRun != nil {
		row.LastRun = sql.NullTime{Time: k.LastRun.UTC(), Valid: true}
	}
	if k.ExhaustedAt != nil {
		row.ExhaustedAt = sql.NullTime{Time: k.ExhaustedAt.UTC(), Valid: true}
	}
	if k.DailyQuota != nil {
		row.DailyQuota = sql.NullInt64{Int64: int64(*k.DailyQuota), Valid: true}
	}
	if row.CreatedAt.IsZero() {
		row.CreatedAt = time.Now().UTC()
	}
	return row
}

func (r *APIKeys) toDomainAll(rows []apiKeyRow) ([]domain.APIKey, error) {
	out := make([]domain.APIKey, 0, len(rows))
	for _, row := range rows {
		k, err := r.toDomain(row)
		if err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, nil
}

// List returns every key in rotation order.
func (r *APIKeys) List(ctx context.Context) ([]domain.APIKey, error) {
	var rows []apiKeyRow
	if err := r.s.reader.WithContext(ctx).Order("rowid").Find(&rows).Error; err != nil {
		return nil, mapErr(err, "api keys")
	}
	return r.toDomainAll(rows)
}

// Get returns one key; NotFound when absent.
func (r *APIKeys) Get(ctx context.Context, name string) (domain.APIKey, error) {
	var row apiKeyRow
	if err := r.s.reader.WithContext(ctx).Where("key_name = ?", name).First(&row).Error; err != nil {
		return domain.APIKey{}, mapErr(err, "api key "+name)
	}
	return r.toDomain(row)
}

// Create stores a new key; a taken name is a Conflict.
func (r *APIKeys) Create(ctx context.Context, k domain.APIKey) (domain.APIKey, error) {
	row := r.fromDomain(k)
	if err := r.s.writer.WithContext(ctx).Create(&row).Error; err != nil {
		return domain.APIKey{}, mapErr(err, "api key "+k.Name)
	}
	return r.toDomain(row)
}

// Delete removes a key; NotFound when absent.
func (r *APIKeys) Delete(ctx context.Context, name string) error {
	res := r.s.writer.WithContext(ctx).Where("key_name = ?", name).Delete(&apiKeyRow{})
	if res.Error != nil {
		return mapErr(res.Error, "api key "+name)
	}
	if res.RowsAffected == 0 {
		return domain.ErrNotFound("api key " + name)
	}
	return nil
}

// Update loads one key, lets fn change it and writes it back, all in one
// write transaction, so concurrent changes (a person's PATCH, the rotation
// marking the key exhausted) never overwrite each other. An error from fn
// leaves the row as it was.
func (r *APIKeys) Update(ctx context.Context, name string, fn func(k *domain.APIKey) error) (domain.APIKey, error) {
	var out domain.APIKey
	err := r.s.writer.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var row apiKeyRow
		if err := tx.Where("key_name = ?", name).First(&row).Error; err != nil {
			return mapErr(err, "api key "+name)
		}
		k, err := r.toDomain(row)
		if err != nil {
			return err
		}
		if err := fn(&k); err != nil {
			return err
		}
		k.Name = name
		if err := r.save(tx, k); err != nil {
			return err
		}
		out = k
		return nil
	})
	return out, err
}

// UpdateProvider loads every key of provider in rotation order, lets fn pick
// and change them, and writes back the keys fn returns, in one write
// transaction: choosing a key and counting its use is atomic, so two chats
// never both take the last call of a daily quota.
func (r *APIKeys) UpdateProvider(ctx context.Context, provider string, fn func(keys []domain.APIKey) ([]domain.APIKey, error)) error {
	return r.s.writer.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []apiKeyRow
		if err := tx.Where("provider = ?", provider).Order("rowid").Find(&rows).Error; err != nil {
			return mapErr(err, "api keys")
		}
		keys, err := r.toDomainAll(rows)
		if err != nil {
			return err
		}
		changed, err := fn(keys)
		if err != nil {
			return err
		}
		for _, k := range changed {
			if err := r.save(tx, k); err != nil {
				return err
			}
		}
		return nil
	})
}

// save writes every column of k but its name and creation time.
func (r *APIKeys) save(tx *gorm.DB, k domain.APIKey) error {
	row := r.fromDomain(k)
	err := tx.Model(&apiKeyRow{}).Where("key_name = ?", k.Name).Select("*").Omit("key_name", "created_at").Updates(&row).Error
	return mapErr(err, "api key "+k.Name)
}
