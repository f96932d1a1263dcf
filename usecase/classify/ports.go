package classify

import (
	"context"

	"mediateka/domain"
)

// Store is what classification needs from the media repository.
type Store interface {
	// Unclassified yields the movies and series on disk that the model has
	// not answered for yet.
	Unclassified(ctx context.Context, fn func(domain.Media) error) error
	// ByIDs loads records in the order of ids, skipping unknown ids.
	ByIDs(ctx context.Context, ids []int64) ([]domain.Media, error)
	// FillMissing writes the named columns of values into record id in one
	// transaction, only where the stored value is still empty and no person
	// edited the field, marks the record classified and returns the columns
	// it wrote.
	FillMissing(ctx context.Context, id int64, values domain.Media, columns []string) ([]string, error)
}

// Publisher sends events to live listeners; it must never block.
type Publisher interface {
	Publish(e domain.Event)
}

// ChangeListener hears that catalogue records were written, so caches such
// as the title index can refresh.
type ChangeListener interface {
	MediaChanged()
}
