package sqlstore

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"mediateka/domain"
)

// Vectors is the semantic-search index's repository (table media_vector):
// one vector per movie or series, stored as little-endian float32 so the
// file is the same on every machine.
type Vectors struct {
	s   *Store
	now func() time.Time
}

// NewVectors returns the vector repository of s.
func NewVectors(s *Store) *Vectors { return &Vectors{s: s, now: time.Now} }

// Vectors calls fn for every stored vector, in media id order, reading one
// row at a time.
func (r *Vectors) Vectors(ctx context.Context, fn func(domain.MediaVector) error) error {
	db, err := r.s.reader.DB()
	if err != nil {
		return err
	}
	rows, err := db.QueryContext(detached(ctx),
		`SELECT media_id, embedder, model, dimensions, content_hash, embedding FROM media_vector ORDER BY media_id`)
	if err != nil {
		return fmt.Errorf("read vectors: %w", err)
	}
	defer rows.Close()
	var blob []byte
	for n := 1; rows.Next(); n++ {
		if n%rowCheck == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		var v domain.MediaVector
		if err := rows.Scan(&v.MediaID, &v.Embedder, &v.Model, &v.Dimensions, &v.Hash, &blob); err != nil {
			return fmt.Errorf("read vectors: %w", err)
		}
		if v.Vector, err = decodeVector(blob, v.Dimensions); err != nil {
			return fmt.Errorf("read the vector of media %d: %w", v.MediaID, err)
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read vectors: %w", err)
	}
	return nil
}

// SaveVectors writes vs in one transaction, replacing any vector stored
// for the same media. A vector whose media is gone meanwhile is skipped
// (the entry was deleted while it was being embedded).
func (r *Vectors) SaveVectors(ctx context.Context, vs []domain.MediaVector) error {
	if len(vs) == 0 {
		return nil
	}
	db, err := r.s.writer.DB()
	if err != nil {
		return err
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("save vectors: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO media_vector (media_id, embedder, model, dimensions, content_hash, embedding, updated_at)
		SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM media WHERE id = ?)
		ON CONFLICT (media_id) DO UPDATE SET embedder = excluded.embedder, model = excluded.model,
			dimensions = excluded.dimensions, content_hash = excluded.content_hash, embedding = excluded.embedding,
			updated_at = excluded.updated_at`)
	if err != nil {
		return fmt.Errorf("save vectors: %w", err)
	}
	defer stmt.Close()
	at := r.now().UTC()
	for _, v := range vs {
		if len(v.Vector) != v.Dimensions || v.Dimensions == 0 {
			return fmt.Errorf("save the vector of media %d: %d values for %d dimensions", v.MediaID, len(v.Vector), v.Dimensions)
		}
		if _, err := stmt.ExecContext(ctx, v.MediaID, v.Embedder, v.Model, v.Dimensions, v.Hash, encodeVector(v.Vector), at, v.MediaID); err != nil {
			return fmt.Errorf("save the vector of media %d: %w", v.MediaID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("save vectors: %w", err)
	}
	return nil
}

// DeleteVectors removes the vectors of ids (entries that are no longer
// movies or series).
func (r *Vectors) DeleteVectors(ctx context.Context, ids []int64) error {
	for len(ids) > 0 {
		n := min(len(ids), 500)
		if err := r.s.writer.WithContext(ctx).Exec(`DELETE FROM media_vector WHERE media_id IN ?`, ids[:n]).Error; err != nil {
			return fmt.Errorf("delete vectors: %w", err)
		}
		ids = ids[n:]
	}
	return nil
}

// encodeVector is v as little-endian float32.
func encodeVector(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

// decodeVector reads dims little-endian float32 from b.
func decodeVector(b []byte, dims int) ([]float32, error) {
	if len(b) != 4*dims {
		return nil, fmt.Errorf("%d bytes for %d dimensions", len(b), dims)
	}
	v := make([]float32, dims)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v, nil
}
