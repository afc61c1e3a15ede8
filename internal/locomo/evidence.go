package locomo

import (
	"regexp"
	"strconv"
	"strings"
)

var evidenceID = regexp.MustCompile(`^[Dd](\d+):(\d+)$`)

// NormalizeEvidence splits raw evidence entries on ";", "," and whitespace
// ("D8:6; D9:17" → "D8:6", "D9:17"), trims them, upper-cases a leading "d",
// strips leading zeros from both numbers ("D30:05" → "D30:5") and drops
// duplicates, keeping first appearance order. An id that is not of the form D<n>:<n>, or not in known,
// goes to unresolved (normalised when well formed, else as written). A nil
// known checks the form only.
func NormalizeEvidence(raw []string, known map[string]bool) (ids, unresolved []string) {
	seen := map[string]bool{}
	for _, entry := range raw {
		for _, piece := range strings.FieldsFunc(entry, func(r rune) bool {
			return r == ';' || r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
		}) {
			id, ok := normalizeID(piece)
			if seen[id] {
				continue
			}
			seen[id] = true
			if ok && (known == nil || known[id]) {
				ids = append(ids, id)
			} else {
				unresolved = append(unresolved, id)
			}
		}
	}
	return ids, unresolved
}

func normalizeID(s string) (string, bool) {
	s = strings.TrimSpace(s)
	m := evidenceID.FindStringSubmatch(s)
	if m == nil {
		return s, false
	}
	a, err1 := strconv.ParseUint(m[1], 10, 32)
	b, err2 := strconv.ParseUint(m[2], 10, 32)
	if err1 != nil || err2 != nil {
		return s, false
	}
	return "D" + strconv.FormatUint(a, 10) + ":" + strconv.FormatUint(b, 10), true
}
