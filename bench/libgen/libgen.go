// Package libgen makes synthetic media libraries for benchmarks: tens of
// thousands of small files with distinct contents, laid out the ways people
// lay out real ones (category shelves, "Title (Year)" folders, scene and
// rutracker release names, series → season → episode folders, LostFilm
// packs), in Russian and English.
package libgen

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

// Stats counts what Generate wrote.
type Stats struct {
	Files   int
	Movies  int
	Series  int
	Folders int
}

// Generate writes about n video files under root (created if needed),
// deterministically for a seed: 30% movies, the rest episodes.
func Generate(root string, n int, seed uint64) (Stats, error) {
	g := &gen{root: root, rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), dirs: map[string]bool{}}
	movies := n * 3 / 10
	for g.st.Files < movies {
		if err := g.movie(); err != nil {
			return g.st, err
		}
	}
	for g.st.Files < n {
		if err := g.series(n - g.st.Files); err != nil {
			return g.st, err
		}
	}
	return g.st, nil
}

type gen struct {
	root string
	rnd  *rand.Rand
	dirs map[string]bool
	st   Stats
}

func (g *gen) pick(list []string) string { return list[g.rnd.IntN(len(list))] }

// title makes a two- or three-word title in Russian or English.
func (g *gen) title(ru bool) string {
	if ru {
		t := g.pick(ruAdjectives()) + " " + g.pick(ruNouns())
		if g.rnd.IntN(4) == 0 {
			t += " " + g.pick(ruTails())
		}
		return t
	}
	t := "The " + g.pick(enAdjectives()) + " " + g.pick(enNouns())
	if g.rnd.IntN(4) == 0 {
		t += " of " + g.pick(enNouns())
	}
	return t
}

func (g *gen) year() int { return 1950 + g.rnd.IntN(75) }

func (g *gen) quality() string {
	return g.pick([]string{"720p", "1080p", "2160p", "BDRip", "WEB-DL 1080p", "HDTVRip"})
}

// movie writes one movie in one of five layouts.
func (g *gen) movie() error {
	shelf := filepath.Join("Фильмы", g.pick(shelves()))
	ru, en, y := g.title(true), g.title(false), g.year()
	var rel string
	switch g.rnd.IntN(5) {
	case 0: // scene name, loose on the shelf
		rel = filepath.Join(shelf, fmt.Sprintf("%s.%d.%s.x264-GRP%d.mkv", dotted(en), y, g.pick([]string{"1080p.BluRay", "720p.WEB-DL", "2160p.UHD"}), g.rnd.IntN(999)))
	case 1: // Title (Year) folder
		rel = filepath.Join(shelf, fmt.Sprintf("%s (%d)", en, y), fmt.Sprintf("%s.%d.%s.mkv", dotted(en), y, "1080p"))
	case 2: // rutracker style
		rel = filepath.Join(shelf, fmt.Sprintf("%s (%s) [%d, драма, %s].avi", ru, en, y, g.quality()))
	case 3: // transliterated with underscores
		rel = filepath.Join(shelf, fmt.Sprintf("%s_%d_BDRip.avi", strings.ReplaceAll(translit(ru), " ", "_"), y))
	default: // numbered collection
		rel = filepath.Join(shelf, "Коллекция "+g.title(true), fmt.Sprintf("%02d. %s (%s) %d.mp4", 1+g.rnd.IntN(30), ru, en, y))
	}
	g.st.Movies++
	return g.write(rel)
}

// series writes one show (up to limit episodes) in one of four layouts.
func (g *gen) series(limit int) error {
	ru, en, y := g.title(true), g.title(false), g.year()
	seasons := 1 + g.rnd.IntN(6)
	style := g.rnd.IntN(4)
	g.st.Series++
	for s := 1; s <= seasons; s++ {
		episodes := 6 + g.rnd.IntN(19)
		for e := 1; e <= episodes; e++ {
			if limit == 0 {
				return nil
			}
			if err := g.write(g.episode(style, ru, en, y, s, e)); err != nil {
				return err
			}
			limit--
		}
	}
	return nil
}

func (g *gen) episode(style int, ru, en string, y, s, e int) string {
	switch style {
	case 0:
		return filepath.Join("Сериалы", fmt.Sprintf("%s (%d)", en, y), fmt.Sprintf("Season %d", s), fmt.Sprintf("%s.S%02dE%02d.720p.WEB-DL.mkv", dotted(en), s, e))
	case 1:
		return filepath.Join("Сериалы", ru, fmt.Sprintf("Сезон %d", s), fmt.Sprintf("%02d %s.avi", e, ru))
	case 2:
		return filepath.Join("Сериалы", fmt.Sprintf("%s %d - LostFilm.TV [1080p]", en, s), fmt.Sprintf("%s.S%02dE%02d.1080p.rus.LostFilm.TV.mkv", dotted(en), s, e))
	}
	return filepath.Join("Series", fmt.Sprintf("%s - %s (Сезон %d) [%d, WEB-DL 1080p]", ru, en, s, y), fmt.Sprintf("%s.s%02de%02d.mkv", strings.ToLower(dotted(en)), s, e))
}

// write creates one small file whose contents differ from every other's.
func (g *gen) write(rel string) error {
	p := filepath.Join(g.root, rel)
	if _, err := os.Stat(p); err == nil {
		p = strings.TrimSuffix(p, filepath.Ext(p)) + fmt.Sprintf(" v%d", g.st.Files) + filepath.Ext(p)
	}
	dir := filepath.Dir(p)
	if !g.dirs[dir] {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		g.dirs[dir] = true
		g.st.Folders++
	}
	body := fmt.Sprintf("mediateka synthetic video %d\n%s\n%x\n", g.st.Files, rel, g.rnd.Uint64())
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		return err
	}
	g.st.Files++
	return nil
}

func dotted(s string) string { return strings.ReplaceAll(s, " ", ".") }

// translit writes Russian in Latin letters the way release names do.
func translit(s string) string {
	table := map[rune]string{'а': "a", 'б': "b", 'в': "v", 'г': "g", 'д': "d", 'е': "e", 'ё': "e", 'ж': "zh", 'з': "z",
		'и': "i", 'й': "y", 'к': "k", 'л': "l", 'м': "m", 'н': "n", 'о': "o", 'п': "p", 'р': "r", 'с': "s", 'т': "t",
		'у': "u", 'ф': "f", 'х': "kh", 'ц': "ts", 'ч': "ch", 'ш': "sh", 'щ': "sch", 'ъ': "", 'ы': "y", 'ь': "'",
		'э': "e", 'ю': "yu", 'я': "ya"}
	var b strings.Builder
	for i, r := range strings.ToLower(s) {
		if t, ok := table[r]; ok {
			if i == 0 || strings.HasSuffix(b.String(), " ") {
				t = strings.ToUpper(t[:min(1, len(t))]) + t[min(1, len(t)):]
			}
			b.WriteString(t)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func shelves() []string {
	return []string{"Боевики", "Комедии", "Драмы", "Триллеры", "Ужасы", "Фантастика", "Мультфильмы", "Документальные", "Action", "Comedy", "Новинки"}
}

func ruAdjectives() []string {
	return []string{"Тёмный", "Последний", "Белый", "Тихий", "Красный", "Далёкий", "Холодный", "Золотой", "Старый", "Ночной",
		"Железный", "Зелёный", "Бесконечный", "Чужой", "Горячий", "Лесной", "Морской", "Новый", "Прекрасный", "Забытый"}
}

func ruNouns() []string {
	return []string{"лес", "город", "берег", "путь", "ветер", "дом", "сад", "остров", "мост", "поезд",
		"король", "брат", "капитан", "доктор", "сон", "снег", "огонь", "край", "век", "вокзал"}
}

func ruTails() []string {
	return []string{"навсегда", "в огне", "на закате", "без имени", "зимой", "возвращается", "и море", "у реки"}
}

func enAdjectives() []string {
	return []string{"Silent", "Last", "Dark", "Golden", "Broken", "Hidden", "Lost", "Wild", "Crimson", "Frozen",
		"Secret", "Burning", "Endless", "Quiet", "Iron", "Distant", "Fallen", "Shining", "Hollow", "Savage"}
}

func enNouns() []string {
	return []string{"River", "City", "Road", "Empire", "Garden", "Island", "Bridge", "Train", "King", "Brother",
		"Captain", "Doctor", "Dream", "Winter", "Fire", "Shore", "Kingdom", "Station", "Storm", "Harbor"}
}
