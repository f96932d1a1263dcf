package release

// chooseYear picks the release year among the year-like tokens. A year in
// brackets wins (rutracker's "[2009, США, драма]", "Title (1999)"); otherwise
// the last one outside brackets does, since titles may hold years
// ("Wonder.Woman.1984.2020.1080p") but the release year comes after them.
// The first word of the title is never the year ("1917.2019", "2012 BDRip"),
// so a year-like title stays a title.
func (p *parsed) chooseYear() {
	last := -1
	for i := range p.toks {
		t := &p.toks[i]
		if t.kind != kYear {
			continue
		}
		if t.group >= 0 {
			p.setYear(i)
			return
		}
		if i != p.start {
			last = i
		}
	}
	if last >= 0 {
		p.setYear(last)
	}
}

func (p *parsed) setYear(i int) {
	p.year, p.yearIdx = int(p.toks[i].num), i
}
