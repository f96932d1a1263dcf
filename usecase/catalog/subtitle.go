package catalog

import (
	"context"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"mediateka/domain"
)

// maxSubtitleBytes bounds a subtitle file read into memory.
const maxSubtitleBytes = 10 << 20

// Subtitle is a sidecar subtitle file of a video.
type Subtitle struct {
	Index    int
	Language string // ISO 639-1 code, "" when the name does not say
	Label    string
	Path     string
}

// Subtitles lists the .srt and .vtt files beside a video whose names start
// with the video's name ("Film.mkv" → "Film.srt", "Film.ru.srt",
// "Film.en.forced.vtt"), and those in a Subs or Subtitles folder beside it
// that start with its name, or any there when the video is the only one in
// its folder (the usual layout of a movie release). Ordered by file name.
func (s *Service) Subtitles(ctx context.Context, id int64) ([]Subtitle, error) {
	m, err := s.fileEntry(ctx, id)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(m.Path)
	base := strings.TrimSuffix(filepath.Base(m.Path), filepath.Ext(m.Path))
	entries, err := s.files.ReadDir(dir)
	if err != nil {
		return []Subtitle{}, nil
	}
	var paths []string
	videos := 0
	var subDirs []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir() && isSubsFolder(name):
			subDirs = append(subDirs, filepath.Join(dir, name))
		case isSubtitle(name) && hasNamePrefix(name, base):
			paths = append(paths, filepath.Join(dir, name))
		case ContentType(name) != "application/octet-stream":
			videos++
		}
	}
	for _, sd := range subDirs {
		inner, err := s.files.ReadDir(sd)
		if err != nil {
			continue
		}
		for _, e := range inner {
			if !e.IsDir() && isSubtitle(e.Name()) && (videos == 1 || hasNamePrefix(e.Name(), base)) {
				paths = append(paths, filepath.Join(sd, e.Name()))
			}
		}
	}
	paths = s.insideRoots(paths, dir)
	sort.Slice(paths, func(i, j int) bool {
		return filepath.Base(paths[i]) < filepath.Base(paths[j]) || (filepath.Base(paths[i]) == filepath.Base(paths[j]) && paths[i] < paths[j])
	})
	out := make([]Subtitle, 0, len(paths))
	for i, p := range paths {
		lang, label := describeSubtitle(filepath.Base(p), base)
		out = append(out, Subtitle{Index: i, Language: lang, Label: label, Path: p})
	}
	return out, nil
}

// SubtitleVTT returns subtitle index of entry id as WebVTT text.
func (s *Service) SubtitleVTT(ctx context.Context, id int64, index int) ([]byte, error) {
	subs, err := s.Subtitles(ctx, id)
	if err != nil {
		return nil, err
	}
	if index < 0 || index >= len(subs) {
		return nil, domain.ErrSubtitleMissing
	}
	info, err := s.files.Stat(subs[index].Path)
	if err != nil {
		return nil, domain.ErrSubtitleMissing
	}
	if info.Size() > maxSubtitleBytes {
		return nil, domain.NewError(domain.KindTooLarge, "subtitle_too_large", "the subtitle file is larger than 10 MiB")
	}
	raw, err := s.files.ReadFile(subs[index].Path)
	if err != nil {
		return nil, domain.ErrSubtitleMissing
	}
	return ToWebVTT(raw), nil
}

// insideRoots keeps the paths whose real path (every symbolic link
// resolved) lies inside a library folder, or inside videoDir when no
// folders are known: a link in the library pointing elsewhere on the disk
// (/etc/passwd.srt) is never served. Folders are compared as written
// first; only a path outside all of them resolves the folders' own links
// (there may be thousands of folders).
func (s *Service) insideRoots(paths []string, videoDir string) []string {
	roots := []string{videoDir}
	if s.roots != nil {
		roots = roots[:0]
		for _, r := range s.roots() {
			roots = append(roots, filepath.Clean(r.Path))
		}
	}
	var real []string // resolved roots, made on first need
	out := paths[:0]
	for _, p := range paths {
		rp, err := s.files.RealPath(p)
		if err != nil {
			continue
		}
		inside := func(root string) bool { return within(root, rp) }
		if !slices.ContainsFunc(roots, inside) {
			if real == nil {
				real = s.realPaths(roots)
			}
			if !slices.ContainsFunc(real, inside) {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// realPaths resolves the links of each path, leaving out those that fail.
func (s *Service) realPaths(paths []string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if rp, err := s.files.RealPath(p); err == nil {
			out = append(out, rp)
		}
	}
	return out
}

// within reports whether path is root or lies below it.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func isSubtitle(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".srt" || ext == ".vtt"
}

func isSubsFolder(name string) bool {
	switch strings.ToLower(name) {
	case "subs", "subtitles", "sub", "субтитры":
		return true
	}
	return false
}

// hasNamePrefix reports whether name is base plus extensions
// ("Film.ru.srt" for base "Film"), ignoring case.
func hasNamePrefix(name, base string) bool {
	n, b := strings.ToLower(name), strings.ToLower(base)
	return strings.HasPrefix(n, b+".")
}

// describeSubtitle reads the language and flags from the words of a name
// that follow the video's name ("Film.rus.forced.srt" → "ru",
// "Русский (forced)").
func describeSubtitle(name, base string) (lang, label string) {
	rest := strings.TrimSuffix(name, filepath.Ext(name))
	if hasNamePrefix(name, base) {
		rest = rest[len(base):]
	}
	var extras []string
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return r == '.' || r == '_' || r == '-' || r == ' ' || r == '[' || r == ']' }) {
		if code, ok := LanguageCode(w); ok && lang == "" {
			lang = code
			continue
		}
		if !isDigits(w) {
			extras = append(extras, w)
		}
	}
	label = LanguageName(lang)
	if len(extras) > 0 {
		if label == "" {
			label = strings.Join(extras, " ")
		} else {
			label += " (" + strings.Join(extras, ", ") + ")"
		}
	}
	if label == "" {
		label = name
	}
	return lang, label
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// LanguageCode maps a language word to its ISO 639-1 code: the words
// people put in subtitle names and the ISO 639-2 tags of containers
// ("rus", "eng"); false for a word it does not know.
func LanguageCode(w string) (string, bool) {
	switch strings.ToLower(w) {
	case "ru", "rus", "russian", "русский", "рус":
		return "ru", true
	case "en", "eng", "english", "английский", "англ":
		return "en", true
	case "uk", "ukr", "ukrainian", "украинский":
		return "uk", true
	case "de", "ger", "deu", "german":
		return "de", true
	case "fr", "fre", "fra", "french":
		return "fr", true
	case "es", "spa", "spanish":
		return "es", true
	case "it", "ita", "italian":
		return "it", true
	case "ja", "jpn", "japanese":
		return "ja", true
	case "zh", "chi", "zho", "chinese":
		return "zh", true
	}
	return "", false
}

// LanguageName is a language's own name for its ISO 639-1 code; "" for
// a code LanguageCode never gives.
func LanguageName(code string) string {
	switch code {
	case "ru":
		return "Русский"
	case "en":
		return "English"
	case "uk":
		return "Українська"
	case "de":
		return "Deutsch"
	case "fr":
		return "Français"
	case "es":
		return "Español"
	case "it":
		return "Italiano"
	case "ja":
		return "日本語"
	case "zh":
		return "中文"
	}
	return ""
}
