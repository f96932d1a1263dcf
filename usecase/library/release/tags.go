package release

import "strings"

// junkCat says what a release tag describes.
type junkCat uint8

const (
	catNone    junkCat = iota
	catQuality         // 1080p, 2160p …
	catSource          // BluRay, WEB-DL …
	catCodec           // x264, HEVC …
	catTag             // audio, HDR, language, edition, tracker
	catStudio          // a dubbing studio or release team (LostFilm …)
)

// lookupTag names a lower-case word as a release tag and gives its usual
// spelling. Weak tags are also ordinary English words ("web", "proper"), so
// they count only when written in capitals, the way scene names write them.
func lookupTag(low string) (cat junkCat, canon string, weak bool) {
	if q := qualityFor(low); q != "" {
		return catQuality, q, false
	}
	if s := sourceFor(low); s != "" {
		return catSource, s, weakSource(low)
	}
	if c := codecFor(low); c != "" {
		return catCodec, c, false
	}
	if s := studioFor(low); s != "" {
		return catStudio, s, false
	}
	return tagFor(low)
}

// qualityFor reads a resolution tag: 1080p, 720P, 1080i, 4K, 1920x1080.
func qualityFor(low string) string {
	switch low {
	case "4k", "uhd", "2160p":
		return "2160p"
	case "fullhd", "fhd":
		return "1080p"
	}
	n := len(low)
	if n >= 4 && n <= 5 && (low[n-1] == 'p' || low[n-1] == 'i') && allDigits(low[:n-1]) {
		switch atoi(low[:n-1]) {
		case 240, 360, 480, 540, 576, 720, 1080, 1440, 2160, 4320:
			return low
		}
		return ""
	}
	x := strings.IndexByte(low, 'x')
	if x < 3 || x > 4 || !allDigits(low[:x]) || !allDigits(low[x+1:]) || n-x-1 < 3 || n-x-1 > 4 {
		return ""
	}
	switch h := atoi(low[x+1:]); {
	case h >= 2000:
		return "2160p"
	case h >= 1000:
		return "1080p"
	case h >= 700:
		return "720p"
	case h >= 560:
		return "576p"
	case h >= 400:
		return "480p"
	}
	return ""
}

// sourceFor names where a release was taken from.
func sourceFor(low string) string {
	if s := discSource(low); s != "" {
		return s
	}
	switch low {
	case "web-dl", "webdl":
		return "WEB-DL"
	case "web-dlrip", "webdlrip", "web-dl-rip":
		return "WEB-DLRip"
	case "webrip", "web-rip":
		return "WEBRip"
	case "web":
		return "WEB"
	case "hdtv":
		return "HDTV"
	case "hdtvrip", "hdtv-rip":
		return "HDTVRip"
	case "hdrip", "hd-rip":
		return "HDRip"
	case "tvrip", "tv-rip":
		return "TVRip"
	case "satrip", "sat-rip":
		return "SATRip"
	case "iptvrip":
		return "IPTVRip"
	case "camrip", "cam-rip", "cam", "hdcam":
		return "CAMRip"
	case "telesync", "ts", "hdts", "hd-ts", "tsrip":
		return "TS"
	case "telecine", "tc", "hdtc":
		return "TC"
	case "pdtv", "dsr", "dsrip", "sdtv", "dthrip", "dvbrip":
		return "TVRip"
	case "ppv", "ppvrip":
		return "PPV"
	case "vodrip", "vod":
		return "VODRip"
	case "r5", "r6":
		return "R5"
	case "hddvd", "hd-dvd", "hddvdrip":
		return "HDDVD"
	}
	return ""
}

// weakSource reports the source words that are also ordinary words or
// too short to trust alone: they count in capitals or next to another tag.
func weakSource(low string) bool {
	switch low {
	case "web", "bd", "cam", "ts", "tc", "dsr", "ppv", "vod":
		return true
	}
	return false
}

// discSource names the sources read from a disc or tape.
func discSource(low string) string {
	switch low {
	case "bluray", "blu-ray", "bd", "bdmv":
		return "BluRay"
	case "bdrip", "bd-rip":
		return "BDRip"
	case "brrip":
		return "BRRip"
	case "bdremux", "remux", "bd-remux", "bd25", "bd50":
		return "BDRemux"
	case "dvdrip", "dvd-rip", "dvdivx", "dvdxvid":
		return "DVDRip"
	case "dvd", "dvd5", "dvd9", "dvdr":
		return "DVD"
	case "dvdscr", "screener", "scr", "dvdscreener":
		return "DVDScr"
	case "uhdrip", "uhd-rip":
		return "UHDRip"
	case "vhsrip":
		return "VHSRip"
	}
	return ""
}

// codecFor names a video codec.
func codecFor(low string) string {
	switch low {
	case "x264":
		return "x264"
	case "x265":
		return "x265"
	case "h264", "h.264", "x.264":
		return "H.264"
	case "h265", "h.265", "x.265":
		return "H.265"
	case "hevc":
		return "HEVC"
	case "avc":
		return "AVC"
	case "xvid":
		return "XviD"
	case "divx", "divx5", "divx6":
		return "DivX"
	case "av1":
		return "AV1"
	case "vp9":
		return "VP9"
	case "mpeg2", "mpeg-2":
		return "MPEG-2"
	case "vc1", "vc-1":
		return "VC-1"
	}
	return ""
}

// studioFor names a dubbing studio or release team whose tag follows a title.
func studioFor(low string) string {
	switch low {
	case "lostfilm", "lostfilm.tv", "lostfilmtv":
		return "LostFilm"
	case "newstudio", "newstudio.tv":
		return "NewStudio"
	case "alexfilm":
		return "AlexFilm"
	case "coldfilm":
		return "ColdFilm"
	case "baibako", "baibako.tv":
		return "BaibaKo"
	case "kerob":
		return "Kerob"
	case "hdrezka", "rezka":
		return "HDRezka"
	case "jaskier":
		return "Jaskier"
	case "amedia":
		return "Amedia"
	case "novafilm", "novafilm.tv":
		return "NovaFilm"
	case "ideafilm":
		return "IdeaFilm"
	}
	return ""
}

// tagFor names the other tags worth keeping: audio, HDR, language and dub,
// edition, streaming service, tracker.
func tagFor(low string) (junkCat, string, bool) {
	if c := audioTag(low); c != "" {
		return catTag, c, false
	}
	if c := partTag(low); c != "" {
		return catTag, c, false
	}
	if c, weak := editionTag(low); c != "" {
		return catTag, c, weak
	}
	if c, weak := languageTag(low); c != "" {
		return catTag, c, weak
	}
	if c, weak := videoTag(low); c != "" {
		return catTag, c, weak
	}
	switch low {
	case "дубляж", "дублированный", "многоголосый", "двухголосый", "одноголосый", "субтитры", "лицензия",
		"профессиональный", "любительский", "авторский", "itunes":
		return catTag, low, false
	case "пм", "пд", "по", "лм", "ло", "ад":
		return catTag, strings.ToUpper(low), true
	case "rutracker", "rutracker.org", "rutor", "kinozal", "nnm-club", "nnmclub", "rarbg", "ettv", "eztv", "yts", "yify":
		return catTag, strings.TrimSuffix(low, ".org"), false
	}
	return catNone, "", false
}

// videoTag names HDR, bit depth, 3D and video-standard tags.
func videoTag(low string) (string, bool) {
	switch low {
	case "hdr", "hdr10", "hdr10+", "sdr", "hlg":
		return strings.ToUpper(low), false
	case "dovi":
		return "DV", false
	case "dv":
		return "DV", true
	case "10bit", "10-bit", "hi10p", "hi10", "8bit", "8-bit", "12bit":
		return strings.TrimSuffix(strings.ReplaceAll(low, "-", ""), "p"), false
	case "sbs", "hsbs", "half-sbs", "h-sbs", "hou", "half-ou", "h-ou", "3d-sbs":
		return strings.ToUpper(low), false
	case "3d", "ou", "ws", "fs", "pal", "secam":
		return strings.ToUpper(low), true
	case "ntsc", "widescreen", "fullscreen", "upscaled", "upscale", "60fps", "hfr":
		return strings.ToUpper(low), low == "widescreen" || low == "fullscreen"
	}
	return "", false
}

// partTag names the part of a film split over discs: CD1, Disc2, DVD1.
func partTag(low string) string {
	for _, prefix := range [...]string{"cd", "disc", "disk", "dvd"} {
		rest, ok := strings.CutPrefix(low, prefix)
		if ok && (len(rest) == 1 || len(rest) == 2 && rest[0] == '0') && allDigits(rest) {
			return strings.ToUpper(prefix) + rest[len(rest)-1:]
		}
	}
	return ""
}

// audioTag names an audio format or channel layout.
func audioTag(low string) string {
	switch low {
	case "aac", "ac3", "eac3", "dts", "dts-hd", "flac", "mp3", "lpcm", "ddp", "dd+",
		"dd5.1", "ddp5.1", "dd2.0", "aac2.0", "5.1", "7.1":
		return strings.ToUpper(low)
	case "truehd":
		return "TrueHD"
	case "atmos":
		return "Atmos"
	}
	return ""
}

// editionTag names a release edition, a scene flag or a streaming
// service. Most are also English words, hence weak.
func editionTag(low string) (string, bool) {
	switch low {
	case "repack", "rerip", "readnfo", "nfofix", "dirfix", "amzn", "dsnp", "hmax", "atvp", "pcok", "hulu",
		"uncensored", "festival", "stv", "ituneshd", "web-hd":
		return strings.ToUpper(low), false
	case "proper", "extended", "unrated", "remastered", "uncut", "imax", "hybrid", "restored",
		"limited", "internal", "theatrical", "complete", "nf", "dc", "criterion":
		return strings.ToUpper(low), true
	}
	return "", false
}

// languageTag names the language or dubbing of a release. Scene-only words
// (TRUEFRENCH, VOSTFR, MULTi) are strong; the names of languages are also
// ordinary words ("The French Connection"), hence weak.
func languageTag(low string) (string, bool) {
	switch low {
	case "rus", "eng", "ukr", "truefrench", "subfrench", "vostfr", "vost", "vff", "vfq", "vfi", "vf2",
		"korsub", "hardsub", "hardsubs", "multisub", "multisubs", "multi-sub", "dual-audio", "dualaudio",
		"engsub", "rusub", "ensub", "dublado", "legendado":
		return strings.ToUpper(low[:1]) + low[1:], false
	case "mvo", "dvo", "avo":
		return strings.ToUpper(low), false
	case "sub", "subs", "dub", "vo", "multi", "dual", "dubbed", "subbed", "dl", "hc", "vf",
		"german", "french", "italian", "spanish", "english", "russian", "japanese", "korean", "chinese",
		"hindi", "tamil", "telugu", "polish", "czech", "dutch", "flemish", "swedish", "danish", "norwegian",
		"finnish", "nordic", "portuguese", "brazilian", "turkish", "hungarian", "greek", "latino",
		"castellano", "catalan", "hebrew", "arabic", "thai", "ukrainian", "swesub", "nlsub", "nlsubs", "md", "ld",
		"fr", "de", "nl", "ger", "fre", "ita", "spa", "esp", "jpn", "jap", "kor", "chi", "pl", "cz", "hun", "swe",
		"nor", "dan", "fin", "por", "tur", "heb", "ara", "hin":
		return strings.ToUpper(low[:1]) + low[1:], true
	}
	return "", false
}

// isUpper reports whether s has no lower-case letters.
func isUpper(s string) bool {
	return strings.ToUpper(s) == s
}

// IsTag reports whether a lower-case word is a release tag that never is
// an ordinary word (1080p, x264, bluray, lostfilm, rus): text built from a
// file name drops such words before it is indexed or compared. Tags that
// are also English words ("proper", "french") count only in capitals in a
// release name, so IsTag, which sees lower case, leaves them.
func IsTag(low string) bool {
	cat, _, weak := lookupTag(low)
	return cat != catNone && !weak
}
