package torznab

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"mediateka/domain"
)

// Caps is what t=caps says an indexer can do.
type Caps struct {
	Search, TVSearch, MovieSearch bool
	// Categories are the top-level categories with their subcategories.
	Categories []Category
}

// Category is a Torznab category (2000 Movies, 5000 TV …).
type Category struct {
	ID      int
	Name    string
	Subcats []Category
}

// Offers reports whether the indexer has search function fn.
func (c Caps) Offers(fn string) bool {
	switch fn {
	case FuncTV:
		return c.TVSearch
	case FuncMovie:
		return c.MovieSearch
	}
	return c.Search
}

type capsXML struct {
	XMLName   xml.Name `xml:"caps"`
	Searching struct {
		Search      availability `xml:"search"`
		TVSearch    availability `xml:"tv-search"`
		MovieSearch availability `xml:"movie-search"`
	} `xml:"searching"`
	Categories []categoryXML `xml:"categories>category"`
}

type availability struct {
	Available string `xml:"available,attr"`
}

func (a availability) yes() bool { return strings.EqualFold(a.Available, "yes") }

type categoryXML struct {
	ID      int           `xml:"id,attr"`
	Name    string        `xml:"name,attr"`
	Subcats []categoryXML `xml:"subcat"`
}

func (c categoryXML) domain() Category {
	out := Category{ID: c.ID, Name: c.Name}
	for _, s := range c.Subcats {
		out.Subcats = append(out.Subcats, s.domain())
	}
	return out
}

func parseCaps(body []byte) (Caps, error) {
	var x capsXML
	if err := decode(body, &x); err != nil {
		return Caps{}, fmt.Errorf("caps are not Torznab XML: %w", err)
	}
	s := x.Searching
	caps := Caps{Search: s.Search.yes(), TVSearch: s.TVSearch.yes(), MovieSearch: s.MovieSearch.yes()}
	for _, c := range x.Categories {
		caps.Categories = append(caps.Categories, c.domain())
	}
	return caps, nil
}

// feedXML is an RSS feed; the torznab:attr elements are matched by local
// name, so newznab:attr (older indexers) read the same.
type feedXML struct {
	XMLName xml.Name
	Items   []itemXML `xml:"channel>item"`
}

type itemXML struct {
	Title     string `xml:"title"`
	Link      string `xml:"link"`
	PubDate   string `xml:"pubDate"`
	Size      int64  `xml:"size"`
	Enclosure []struct {
		URL    string `xml:"url,attr"`
		Length int64  `xml:"length,attr"`
	} `xml:"enclosure"`
	Attrs []struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	} `xml:"attr"`
}

func parseFeed(body []byte, indexer string) ([]domain.TorrentRelease, error) {
	var f feedXML
	if err := decode(body, &f); err != nil {
		return nil, fmt.Errorf("answer is not a Torznab feed: %w", err)
	}
	if f.XMLName.Local != "rss" {
		return nil, fmt.Errorf("answer is <%s>, not an RSS feed", f.XMLName.Local)
	}
	out := make([]domain.TorrentRelease, 0, len(f.Items))
	for _, it := range f.Items {
		if r, ok := it.release(indexer); ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// release reads one item; an item with no title or no link is dropped.
func (it itemXML) release(indexer string) (domain.TorrentRelease, bool) {
	r := domain.TorrentRelease{Title: strings.TrimSpace(it.Title), Indexer: indexer, Size: it.Size,
		Seeders: -1, Leechers: -1, DownloadFactor: 1, UploadFactor: 1, Published: parseDate(it.PubDate)}
	peers := -1
	for _, a := range it.Attrs {
		v := strings.TrimSpace(a.Value)
		switch strings.ToLower(a.Name) {
		case "seeders":
			r.Seeders = atoi(v)
		case "leechers":
			r.Leechers = atoi(v)
		case "peers":
			peers = atoi(v)
		case "size":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 {
				r.Size = n
			}
		case "magneturl":
			r.Magnet = v
		case "infohash":
			r.InfoHash = strings.ToLower(v)
		case "category":
			if n := atoi(v); n > 0 {
				r.Categories = append(r.Categories, n)
			}
		case "downloadvolumefactor":
			r.DownloadFactor = factor(v)
		case "uploadvolumefactor":
			r.UploadFactor = factor(v)
		}
	}
	// Torznab's peers are seeders and leechers together.
	if r.Leechers < 0 && peers >= 0 && r.Seeders >= 0 && peers >= r.Seeders {
		r.Leechers = peers - r.Seeders
	}
	r.Seeders = max(r.Seeders, 0)
	for _, link := range it.links() {
		switch {
		case strings.HasPrefix(link, "magnet:") && r.Magnet == "":
			r.Magnet = link
		case (strings.HasPrefix(link, "http://") || strings.HasPrefix(link, "https://")) && r.DownloadURL == "":
			r.DownloadURL = link
		}
	}
	if r.Size <= 0 {
		for _, e := range it.Enclosure {
			r.Size = max(r.Size, e.Length)
		}
	}
	return r, r.Title != "" && (r.Magnet != "" || r.DownloadURL != "")
}

// links are the item's enclosures, then its link.
func (it itemXML) links() []string {
	var out []string
	for _, e := range it.Enclosure {
		out = append(out, strings.TrimSpace(e.URL))
	}
	return append(out, strings.TrimSpace(it.Link))
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// factor reads a volume factor; the spec asks clients to refuse negative
// or extreme values, which then count as the default 1.
func factor(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || f > 100 {
		return 1
	}
	return f
}

// dateLayouts are RSS's RFC 822 dates as indexers write them.
var dateLayouts = []string{time.RFC1123Z, time.RFC1123, "Mon, 2 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05 MST", time.RFC3339}

func parseDate(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}

// parseError reads an error element (<error code="100"
// description="Incorrect user credentials"/>); nil when body is not one.
func parseError(body []byte) *domain.IndexerError {
	if !bytes.Contains(body, []byte("<error")) {
		return nil
	}
	var e struct {
		XMLName     xml.Name
		Code        string `xml:"code,attr"`
		Description string `xml:"description,attr"`
	}
	if decode(body, &e) != nil || e.XMLName.Local != "error" {
		return nil
	}
	code, _ := strconv.Atoi(e.Code)
	return &domain.IndexerError{Code: code, Description: strings.TrimSpace(e.Description)}
}

// decode reads XML; documents declaring another encoding than UTF-8 are
// refused (Torznab answers are UTF-8).
func decode(body []byte, v any) error {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.CharsetReader = func(charset string, in io.Reader) (io.Reader, error) {
		if strings.EqualFold(charset, "utf-8") || strings.EqualFold(charset, "utf8") {
			return in, nil
		}
		return nil, errors.New("unsupported encoding " + charset)
	}
	return d.Decode(v)
}
