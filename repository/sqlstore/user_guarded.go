package sqlstore

import (
	"context"

	"gorm.io/gorm"

	"mediateka/domain"
)

// adminsOther counts the administrators (either flag) other than id, in tx.
func adminsOther(tx *gorm.DB, id int64) (int64, error) {
	var n int64
	err := tx.Model(&userRow{}).Where("id <> ? AND (role = ? OR is_admin)", id, domain.RoleAdmin).Count(&n).Error
	return n, err
}

// Change loads account id and the number of other administrators, lets fn
// decide the new state and writes it, in one write transaction (BEGIN
// IMMEDIATE on the one writer connection): a rule such as "the last
// administrator stays one" cannot be raced by another change, even from
// another process. An error of fn is returned as it is and nothing is
// written. fn must not call the store.
func (r *Users) Change(ctx context.Context, id int64, fn func(u domain.User, otherAdmins int64) (domain.User, error)) (domain.User, error) {
	var out domain.User
	err := r.s.writer.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var row userRow
		if err := tx.Where("id = ?", id).First(&row).Error; err != nil {
			return mapErr(err, "user")
		}
		others, err := adminsOther(tx, id)
		if err != nil {
			return mapErr(err, "users")
		}
		u, err := fn(row.toDomain(), others)
		if err != nil {
			return err
		}
		next := userFromDomain(u)
		next.ID, next.CreatedAt = id, row.CreatedAt
		if err := tx.Model(&userRow{}).Where("id = ?", id).Select("*").Omit("id", "created_at").Updates(&next).Error; err != nil {
			return mapErr(err, "user")
		}
		out = next.toDomain()
		return nil
	})
	return out, err
}

// Remove deletes account id when check, given the account and the number
// of other administrators inside the same write transaction, agrees; its
// activity and watching rows go with it (ON DELETE CASCADE). An error of
// check is returned as it is and nothing is deleted.
func (r *Users) Remove(ctx context.Context, id int64, check func(u domain.User, otherAdmins int64) error) error {
	return r.s.writer.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var row userRow
		if err := tx.Where("id = ?", id).First(&row).Error; err != nil {
			return mapErr(err, "user")
		}
		others, err := adminsOther(tx, id)
		if err != nil {
			return mapErr(err, "users")
		}
		if err := check(row.toDomain(), others); err != nil {
			return err
		}
		return mapErr(tx.Delete(&userRow{}, id).Error, "user")
	})
}
