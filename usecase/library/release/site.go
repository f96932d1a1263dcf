package release

import "strings"

// stripSite drops a web site's name that leads a release name: "www.Site.org
// - Title.2021", "[ www.site.ru ] Title", "NNM-Club.me_Title",
// "Kinozal.tv - Title". A bracketed one ("[ www.site.ru ] Title") is a
// leading bracket group, which the title skips anyway.
func stripSite(name string) string {
	i := skipSiteSpace(name, 0)
	end, www, ok := siteEnd(name, i)
	if !ok {
		return name
	}
	j := skipSiteSpace(name, end)
	switch {
	case j < len(name) && (name[j] == '-' || name[j] == '_'):
	case www && j > end:
	default:
		return name // "Despicable.Me 2010": no separator, so no site
	}
	for j < len(name) && (name[j] == ' ' || name[j] == '-' || name[j] == '_' || name[j] == '.') {
		j++
	}
	if j >= len(name) {
		return name
	}
	return name[j:]
}

func skipSiteSpace(s string, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

// siteEnd reads a domain name starting at i and returns where it ends: a
// "www." name of any top-level domain, or a name ending in one of the
// domains trackers and download sites use.
func siteEnd(s string, i int) (end int, www, ok bool) {
	j, lastDot, dots := i, -1, 0
	for j < len(s) && (isASCIILetter(s[j]) || isDigit(s[j]) || s[j] == '-' || s[j] == '.') {
		if s[j] == '.' {
			lastDot, dots = j, dots+1
		}
		j++
	}
	if dots == 0 || lastDot == j-1 || lastDot-i < 2 {
		return 0, false, false
	}
	if strings.HasPrefix(strings.ToLower(s[i:j]), "www.") && dots >= 2 {
		return j, true, true
	}
	return j, false, dots == 1 && siteDomain(strings.ToLower(s[lastDot+1:j]))
}

// siteDomain lists top-level domains of sites seen in release names. A
// name with one dot must be followed by a dash or an underscore to count,
// so "Despicable.Me 2010" is no site.
func siteDomain(tld string) bool {
	switch tld {
	case "com", "org", "net", "ru", "info", "tv", "cd", "cc", "biz", "su", "ua", "kz", "ws",
		"club", "xyz", "io", "lv", "me", "to", "mx", "ag", "se", "pw", "lol":
		return true
	}
	return false
}
