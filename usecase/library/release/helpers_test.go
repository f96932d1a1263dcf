package release

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNormalizeSeparators(t *testing.T) {
	for in, want := range map[string]string{
		"As Good as It Gets.1997.HDRip-AVC":     "As Good as It Gets 1997 HDRip-AVC",
		"show_name_2005.8x12.ep_title.720p":     "show name 2005 8x12 ep title 720p",
		"Mr. Smith Goes to Washington (1939)":   "Mr. Smith Goes to Washington (1939)",
		"L.A.Confidential.1997":                 "L.A Confidential 1997",
		"Live.Free.or.Die.Hard.4.0.2007":        "Live Free or Die Hard 4.0 2007",
		"Movie.2010.DD5.1.H.264-GRP":            "Movie 2010 DD5.1 H.264-GRP",
		"Сериал. Сезон №9. Серия №180":          "Сериал. Сезон №9. Серия №180",
		"www.Site.org - Title.2021.1080p":       "Title 2021 1080p",
		"NNM-Club.me_Дневной.дозор.2006":        "Дневной дозор 2006",
		"Despicable.Me 2010":                    "Despicable Me 2010",
		"series-s09e14-1080p":                   "series s09e14 1080p",
		"spider-man-far-from-home":              "spider-man-far-from-home",
		"[ www.site.ru ] Ночной поезд (2018)":   "[ www site ru ] Ночной поезд (2018)",
		"Back.to.the.Future - Part 2":           "Back to the Future - Part 2",
		"Kinozal.tv - Дневной дозор (2006)":     "Дневной дозор (2006)",
		"Kill Bill Vol. 1 (2003)":               "Kill Bill Vol. 1 (2003)",
		"AC3.5.1-RARBG":                         "AC3.5.1-RARBG",
		"\u00a0Film\u200b\u2013Name\u00a0":      "Film-Name",
		"Зимний вечер в Гаграх.1985.DVDRip-AVC": "Зимний вечер в Гаграх 1985 DVDRip-AVC",
	} {
		assert.Equal(t, want, normalize(in, false), in)
	}
}

func TestYearWord(t *testing.T) {
	for in, want := range map[string]int{
		"2006г":       2006,
		"1956g":       1956,
		"2008-2013":   2008,
		"2011-18":     2011,
		"1957-1958гг": 1957,
		"20113-2018":  2013, // a doubled key: 2013
		"19999-2001":  1999,
		"20191-2020":  2019, // no doubled digit: the first four
		"2013-2008":   0,    // the range runs backwards
		"1080p":       0,
		"2160":        0,
		"2030-2040":   0, // after next year
		"12345-2018":  0,
	} {
		got, ok := yearWord(in, 2027)
		assert.Equal(t, want != 0, ok, in)
		if ok {
			assert.Equal(t, want, got, in)
		}
	}
}

func TestIndexNames(t *testing.T) {
	for _, name := range []string{"A", "Б", "0-9", "#", "А-Г", "A - C", "Z"} {
		assert.True(t, isIndexName(name), name)
		assert.True(t, isGeneric(name), name)
	}
	for _, name := range []string{"AB", "300", "Up", "9 рота", "A-Team", "M (1931)"} {
		assert.False(t, isIndexName(name), name)
	}
}

func TestObfuscatedNames(t *testing.T) {
	for name, want := range map[string]bool{
		"c48db7d2e1":                       true,
		"5d41402abc4b2a76b9719d911017c592": true,
		"hp309":                            true,
		"grp-fn":                           true,
		"sparks-tshr-720p":                 true,
		"arw-deep.water.blues.dvdrip.xvid": true,
		"Film Name":                        false,
		"spider-man":                       true, // but a folder with the same title keeps it
		"Spider-Man":                       false,
		"1883":                             false,
		"Matrix2":                          false,
		"brat":                             false,
	} {
		p := parseName(name+".mkv", true, 2027)
		assert.Equal(t, want, p.obfuscated(), name)
	}
	f := parseName("spider-man.mkv", true, 2027)
	d := parseName("Spider-Man.2002.DVDRip-GRP", false, 2027)
	assert.Same(t, f, fromReleaseFolder(f, d), "the same title is no obfuscation")
}

func TestSortNumberAgreement(t *testing.T) {
	for name, want := range map[string]string{
		"11 Большой куш (2000)":                "Большой куш",
		"12 Стульев (1971)":                    "12 Стульев",
		"17 Мгновений весны (1973)":            "17 Мгновений весны",
		"3 Богатыря на дальних берегах (2012)": "3 Богатыря на дальних берегах",
		"104 Зелёная миля (1999)":              "Зелёная миля",
		"12 The Matrix (1999)":                 "The Matrix",
		"12 Angry Men (1957)":                  "12 Angry Men",
		"9 рота (2005)":                        "9 рота",
	} {
		assert.Equal(t, want, ParseAt(name+".avi", nil, testNow()).Title, name)
	}
}
