package classify

import (
	"path/filepath"
	"strings"

	"mediateka/domain"
)

// systemInstruction tells the model its job. It asks for null rather than a
// guess: a wrong year or director in the catalogue is worse than a gap a
// person can fill later.
const systemInstruction = `You catalogue a home media library. You are given what is known about one ` +
	`movie or series: its file or folder name, the names of the folders above it, the title and year ` +
	`read from the name, and the fields the catalogue already has. Identify the work and answer with one ` +
	`JSON object that follows the given schema exactly. Use null for anything you are not sure of; never ` +
	`invent. title_ru is the Russian title, title_orig the original title; main_category is one slug of ` +
	`the list in the schema; genres, country, plot, why_watch, mood, atmosphere and final_verdict are in ` +
	`Russian; directors and cast are names as usually written in Russian; plot, why_watch and ` +
	`final_verdict have no spoilers.`

// maxFolders is how many folders above the file the prompt names: enough
// for "Фильмы/Боевики/Матрица (1999)", without the machine's own layout.
const maxFolders = 3

// promptFor builds the question about one record. Only names from the
// library reach the model, never the full path of the file.
func promptFor(m domain.Media, schema []byte) domain.Prompt {
	known := map[string]any{
		"media_type": m.MediaType,
		"name":       filepath.Base(m.Path),
		"folders":    parentFolders(m.Path),
		"title":      m.Title,
	}
	if m.Year != nil {
		known["year"] = *m.Year
	}
	for name, v := range map[string]string{"title_ru": m.TitleRu, "title_orig": m.TitleOrig,
		"main_category": m.MainCategory, "country": m.Country} {
		if v != "" {
			known[name] = v
		}
	}
	if len(m.Genres) > 0 {
		known["genres"] = m.Genres
	}
	return domain.Prompt{
		System:  systemInstruction,
		Message: "What is known about the entry:\n" + jsonCompact(known),
		Schema:  schema,
	}
}

// parentFolders names up to maxFolders folders above path, nearest last.
func parentFolders(path string) []string {
	dir := filepath.Dir(filepath.Clean(path))
	parts := strings.Split(filepath.ToSlash(dir), "/")
	var out []string
	for _, p := range parts {
		if p != "" && p != "." {
			out = append(out, p)
		}
	}
	if len(out) > maxFolders {
		out = out[len(out)-maxFolders:]
	}
	return out
}
