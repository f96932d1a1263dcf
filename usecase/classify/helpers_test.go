package classify

import "mediateka/domain"

func mediaAt(path string, year *int) domain.Media {
	return domain.Media{ID: 1, Path: path, Title: "The Matrix", Year: year, MediaType: domain.MediaMovie}
}
