package release

import "strings"

// edgeCases are year bounds, broken bytes, huge and empty names.
func edgeCases() []parseCase {
	return []parseCase{
		{file: "Film [2027].mkv", want: Release{Title: "Film", Year: 2027}},
		{file: "Film [2028].mkv", want: Release{Title: "Film"}, zero: "Year"},
		{file: "Film (1899).mkv", want: Release{Title: "Film"}, zero: "Year"},
		{file: "Film.1900.mkv", want: Release{Title: "Film", Year: 1900}},
		{file: "Film 1080.mkv", want: Release{Title: "Film 1080"}, zero: "Year"},
		{file: "Film.2160p.mkv", want: Release{Title: "Film", Quality: "2160p"}, zero: "Year"},
		{file: "Film.720p.mkv", want: Release{Title: "Film", Quality: "720p"}, zero: "Year"},
		{file: "Film (1999) [2010, США, BDRip].mkv", want: Release{Title: "Film", Year: 1999}},
		// A bracketed year wins over one outside brackets, so the 1999 stays in
		// the title here: the price of reading rutracker's "[2009, США, …]".
		{file: "Film 1999 [2010 Remaster].mkv", want: Release{Title: "Film 1999", Year: 2010}},
		{file: "Film.1984.1999.2005.720p.mkv", want: Release{Title: "Film 1984 1999", Year: 2005}},
		{file: "1999.mkv", want: Release{Title: "1999", MediaType: mv}, zero: "Year"},
		{file: "Сериал (2008-2013) WEB-DL.mkv", want: Release{Title: "Сериал", Year: 2008}},
		{file: "Сериал 2008–2013 WEB-DL.mkv", want: Release{Title: "Сериал", Year: 2008}},
		{file: "Hello\xffWorld.2010.mkv", want: Release{Title: "HelloWorld", Year: 2010}},
		{file: "\xff\xfe\xfd.mkv", want: Release{MediaType: mv}, zero: "Title Year"},
		{file: "Тест\xd0.2010.mkv", want: Release{Title: "Тест", Year: 2010}},
		{file: "", want: Release{MediaType: mv}, zero: "Title Year Season Episode Tags"},
		{file: ".mkv", want: Release{MediaType: mv}, zero: "Title Year"},
		{file: "   ...   ", want: Release{MediaType: mv}, zero: "Title"},
		{file: "((([[[{{{Film}}}]]])))", want: Release{MediaType: mv}},
		{file: "Film ) ] } (2001.mkv", want: Release{Title: "Film", Year: 2001}},
		{file: "Film [unclosed 2004, BDRip", want: Release{Title: "Film", Year: 2004, Source: "BDRip"}},
		{file: strings.Repeat("Very.Long.Name.", 500) + "2010.mkv", want: Release{MediaType: mv}},
		{file: strings.Repeat("Ж", 10000) + ".mkv", want: Release{MediaType: mv}},
		{file: "Film\tWith\nControl\x00Chars.2003.mkv", want: Release{Title: "Film With Control Chars", Year: 2003}},
		{file: "Amélie.2001.mkv", want: Release{Title: "Amélie", Year: 2001}},
		{file: "Ame\u0301lie.2001.mkv", want: Release{Title: "Amélie", Year: 2001}},
		{file: "Ёлки.2010.mkv", want: Release{Title: "Ёлки"}},
		{file: "Е\u0308лки.2010.mkv", want: Release{Title: "Ёлки", Year: 2010}},
		{file: "Film\u200b.2001.mkv", want: Release{Title: "Film", Year: 2001}},
		{file: "Dr.No.1962.mkv", want: Release{Title: "Dr No", Year: 1962}},
		{file: "Mr. Robot S01E01.mkv", want: Release{SeriesTitle: "Mr. Robot", Season: 1, Episode: 1}},
	}
}
