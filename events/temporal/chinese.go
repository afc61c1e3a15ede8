package temporal

import (
	"time"
	"unicode/utf8"
)

// Chinese forms. Han text has no spaces, so every Han character is its own
// token and phrases are matched character by character.

// cnOffset pairs a phrase with a signed offset in some unit.
type cnOffset struct {
	s   string
	off int
}

var (
	cnDays = []cnOffset{
		{"昨天", -1}, {"昨日", -1}, {"昨晚", -1}, {"前天", -2}, {"今天", 0}, {"今日", 0},
		{"今晚", 0}, {"明天", 1}, {"明日", 1}, {"后天", 2},
	}
	cnWeeks = []cnOffset{
		{"上周", -1}, {"上个星期", -1}, {"上星期", -1}, {"上个礼拜", -1}, {"上礼拜", -1},
		{"这周", 0}, {"本周", 0}, {"这个星期", 0}, {"这星期", 0}, {"这个礼拜", 0},
		{"下周", 1}, {"下个星期", 1}, {"下星期", 1}, {"下个礼拜", 1}, {"下礼拜", 1},
	}
	cnMonths = []cnOffset{
		{"上个月", -1}, {"上月", -1}, {"这个月", 0}, {"本月", 0}, {"下个月", 1}, {"下月", 1},
	}
	cnYears = []cnOffset{
		{"去年", -1}, {"前年", -2}, {"今年", 0}, {"明年", 1}, {"后年", 2},
	}
	cnWeekPrefixes = []string{"星期", "礼拜", "周"}
	cnUnits        = []struct {
		s string
		u unit
	}{
		{"年", uYear}, {"个月", uMonth}, {"天", uDay}, {"个星期", uWeek}, {"星期", uWeek},
		{"个礼拜", uWeek}, {"周", uWeek}, {"个小时", uHour}, {"小时", uHour},
	}
	cnBefore = []string{"以前", "之前", "前"}
	cnAfter  = []string{"以后", "之后", "后"}
	cnDigits = map[rune]int{'零': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
)

// runeAt is the rune of Han token i, or -1.
func (p *parser) runeAt(i int) rune {
	if i < 0 || i >= len(p.toks) || p.toks[i].kind != tHan {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(p.toks[i].s)
	return r
}

// han returns the number of tokens when the Han tokens at i spell s, else 0.
func (p *parser) han(i int, s string) int {
	n := 0
	for _, r := range s {
		if p.runeAt(i+n) != r {
			return 0
		}
		n++
	}
	return n
}

// hanAny returns the length of the first of list matching at i.
func (p *parser) hanAny(i int, list []string) int {
	for _, s := range list {
		if n := p.han(i, s); n > 0 {
			return n
		}
	}
	return 0
}

// cnWeekday parses a weekday character (一..六, 日, 天).
func (p *parser) cnWeekday(i int) (time.Weekday, bool) {
	switch r := p.runeAt(i); r {
	case '日', '天':
		return time.Sunday, true
	default:
		if v, ok := cnDigits[r]; ok && v >= 1 && v <= 6 {
			return time.Weekday(v), true
		}
	}
	return 0, false
}

// cnNum parses an ASCII number or Han numerals up to 99; 几 is vague.
func (p *parser) cnNum(i int) (q qty, n int, ok bool) {
	if v, digits, ok := p.num(i); ok && digits <= 6 && v >= 1 {
		return qty{n: v}, 1, true
	}
	r := p.runeAt(i)
	if r == '几' {
		return qty{vague: true}, 1, true
	}
	v, isDigit := cnDigits[r]
	switch {
	case r == '十':
		v, n = 10, 1
	case isDigit && v > 0 && p.runeAt(i+1) == '十':
		v, n = v*10, 2
	case isDigit && v > 0:
		return qty{n: v}, 1, true
	default:
		return qty{}, 0, false
	}
	if d, ok := cnDigits[p.runeAt(i+n)]; ok && d > 0 {
		v, n = v+d, n+1
	}
	return qty{n: v}, n, true
}

// chinese parses 昨天, 上周(六), 上个月, 去年, N年前, 三天后, 2023年5月7日 and
// related forms.
func (p *parser) chinese(i int) (cand, bool) {
	var b best
	for _, e := range cnDays {
		if n := p.han(i, e.s); n > 0 {
			b.add(cand{p.dayRes(p.addDays(p.today, e.off), BasisRelative), n}, true)
		}
	}
	for _, e := range cnWeeks {
		if n := p.han(i, e.s); n > 0 {
			wk := p.addDays(p.today, 7*e.off)
			b.add(cand{p.weekRes(wk, BasisRelative), n}, true)
			if wd, ok := p.cnWeekday(i + n); ok {
				b.add(cand{p.dayRes(p.weekdayIn(wk, wd), BasisRelative), n + 1}, true)
			}
		}
	}
	if n := p.hanAny(i, cnWeekPrefixes); n > 0 {
		if wd, ok := p.cnWeekday(i + n); ok {
			b.add(cand{p.dayRes(p.weekdayBefore(p.today, wd), BasisInferred), n + 1}, true)
		}
	}
	for _, e := range cnMonths {
		if n := p.han(i, e.s); n > 0 {
			b.add(cand{p.shift(uMonth, e.off), n}, true)
		}
	}
	for _, e := range cnYears {
		if n := p.han(i, e.s); n > 0 {
			b.add(cand{p.shift(uYear, e.off), n}, true)
		}
	}
	b.add(p.cnRelative(i))
	b.add(p.cnDate(i))
	return b.c, b.ok
}

// cnRelative parses N年前 / 三个月后 / 几天前.
func (p *parser) cnRelative(i int) (cand, bool) {
	q, n, ok := p.cnNum(i)
	if !ok {
		return cand{}, false
	}
	for _, cu := range cnUnits {
		un := p.han(i+n, cu.s)
		if un == 0 {
			continue
		}
		j := i + n + un
		dir := -1
		k := p.hanAny(j, cnBefore)
		if k == 0 {
			dir, k = 1, p.hanAny(j, cnAfter)
		}
		if k == 0 || (cu.u == uYear && q.n >= 1000) {
			return cand{}, false
		}
		var r Resolution
		if q.vague {
			lo, hi := vagueBounds[cu.u][0], vagueBounds[cu.u][1]
			a, b := p.shift(cu.u, dir*hi), p.shift(cu.u, dir*lo)
			if dir > 0 {
				a, b = p.shift(cu.u, lo), p.shift(cu.u, hi)
			}
			r = span(a.Start, b.End, a.Precision, BasisRelative)
			r.Approx = true
		} else {
			r = p.shift(cu.u, dir*q.n)
		}
		return cand{r, j + k - i}, true
	}
	return cand{}, false
}

// cnDate parses YYYY年M月D日 (or 号), YYYY年M月, YYYY年, M月D日 and M月 (the
// last two: nearest occurrence, inferred).
func (p *parser) cnDate(i int) (cand, bool) {
	var b best
	j := i
	y, hasYear := p.yearAt(j, 1000, 2999)
	if hasYear {
		if p.runeAt(j+1) != '年' {
			return cand{}, false
		}
		b.add(cand{p.yearRes(y, BasisExplicit), 2}, true)
		j += 2
	}
	m, digits, ok := p.num(j)
	if !ok || digits > 2 || m < 1 || m > 12 || p.runeAt(j+1) != '月' {
		return b.c, b.ok
	}
	if hasYear {
		b.add(cand{p.monthRes(y, time.Month(m), BasisExplicit), j + 2 - i}, true)
	} else {
		b.add(cand{p.nearestMonth(time.Month(m)), 2}, true)
	}
	j += 2
	d, digits, ok := p.num(j)
	if !ok || digits > 2 || (p.runeAt(j+1) != '日' && p.runeAt(j+1) != '号') {
		return b.c, b.ok
	}
	yn := 0
	if hasYear {
		yn = 1
	}
	if r, ok := p.dayResult(y, time.Month(m), d, yn); ok {
		b.add(cand{r, j + 2 - i}, true)
	}
	return b.c, b.ok
}
