package heuristic

// termCat classifies a lexicon term.
type termCat uint8

const (
	catTool termCat = iota + 1 // a tool with no fact key: a uses edge
	catPackageManager
	catDatabase
	catDeploy
	catEditor
	catDrink
	catIndent
	catDiet
	catHobby
)

// catKey is the fact key of a category ("" for catTool).
func catKey(c termCat) string {
	switch c {
	case catPackageManager:
		return keyPackageMgr
	case catDatabase:
		return keyDatabase
	case catDeploy:
		return keyDeployPlatfrm
	case catEditor:
		return keyEditor
	case catDrink:
		return keyDrinks
	case catIndent:
		return keyIndentation
	case catDiet:
		return keyDiet
	case catHobby:
		return keyHobby
	}
	return ""
}

// catTag is the tag a tool node of the category gets.
func catTag(c termCat) string {
	switch c {
	case catPackageManager:
		return "package manager"
	case catDatabase:
		return "database"
	case catDeploy:
		return "deploy platform"
	case catEditor:
		return "editor"
	}
	return "tool"
}

// projTerm is a lexicon term: lower-case words (matched on consecutive
// tokens), the canonical spelling used as value or node name, and its
// category.
type projTerm struct {
	words string
	canon string
	cat   termCat
}

// projTerms lists the known tools, drinks, diets and hobbies. The longest
// term that matches at an object position wins. Several spellings of one
// thing share a canonical value so that a restatement does not look like
// a change of state ("PostgreSQL" after "Postgres").
var projTerms = []projTerm{
	// Package managers.
	{"npm", "npm", catPackageManager},
	{"pnpm", "pnpm", catPackageManager},
	{"yarn", "Yarn", catPackageManager},
	{"bun", "Bun", catPackageManager},
	// Databases.
	{"postgres", "Postgres", catDatabase},
	{"postgresql", "Postgres", catDatabase},
	{"sqlite", "SQLite", catDatabase},
	{"sqlite3", "SQLite", catDatabase},
	{"mysql", "MySQL", catDatabase},
	{"mariadb", "MariaDB", catDatabase},
	{"mongodb", "MongoDB", catDatabase},
	{"mongo", "MongoDB", catDatabase},
	{"dynamodb", "DynamoDB", catDatabase},
	{"supabase", "Supabase", catDatabase},
	{"firebase", "Firebase", catDatabase},
	// Deploy platforms.
	{"fly.io", "Fly.io", catDeploy},
	{"fly", "Fly.io", catDeploy},
	{"heroku", "Heroku", catDeploy},
	{"vercel", "Vercel", catDeploy},
	{"render", "Render", catDeploy},
	{"netlify", "Netlify", catDeploy},
	{"aws", "AWS", catDeploy},
	{"gcp", "GCP", catDeploy},
	{"google cloud", "Google Cloud", catDeploy},
	{"azure", "Azure", catDeploy},
	{"railway", "Railway", catDeploy},
	{"digitalocean", "DigitalOcean", catDeploy},
	{"cloudflare", "Cloudflare", catDeploy},
	{"hetzner", "Hetzner", catDeploy},
	// Editors.
	{"vs code", "VS Code", catEditor},
	{"vscode", "VS Code", catEditor},
	{"visual studio code", "VS Code", catEditor},
	{"neovim", "Neovim", catEditor},
	{"nvim", "Neovim", catEditor},
	{"vim", "Vim", catEditor},
	{"emacs", "Emacs", catEditor},
	{"sublime text", "Sublime Text", catEditor},
	{"sublime", "Sublime Text", catEditor},
	{"zed", "Zed", catEditor},
	{"helix", "Helix", catEditor},
	{"intellij", "IntelliJ", catEditor},
	{"cursor", "Cursor", catEditor},
	// Other tools written in lower case.
	{"docker compose", "Docker Compose", catTool},
	{"docker", "Docker", catTool},
	{"git", "Git", catTool},
	{"vite", "Vite", catTool},
	{"webpack", "webpack", catTool},
	{"kubernetes", "Kubernetes", catTool},
	{"k8s", "Kubernetes", catTool},
	{"terraform", "Terraform", catTool},
	{"redis", "Redis", catTool},
	{"nginx", "nginx", catTool},
	{"prettier", "Prettier", catTool},
	{"eslint", "ESLint", catTool},
	{"grafana", "Grafana", catTool},
	// Drinks.
	{"coffee", "coffee", catDrink},
	{"tea", "tea", catDrink},
	{"green tea", "tea", catDrink},
	{"black tea", "tea", catDrink},
	{"matcha", "matcha", catDrink},
	{"decaf", "decaf", catDrink},
	// Indentation.
	{"tabs", "tabs", catIndent},
	{"spaces", "spaces", catIndent},
	// Diets.
	{"vegetarian", "vegetarian", catDiet},
	{"vegan", "vegan", catDiet},
	{"pescatarian", "pescatarian", catDiet},
	{"gluten-free", "gluten-free", catDiet},
	{"dairy-free", "dairy-free", catDiet},
	{"keto", "keto", catDiet},
	{"paleo", "paleo", catDiet},
	{"halal", "halal", catDiet},
	{"kosher", "kosher", catDiet},
	// Hobbies.
	{"trail running", "trail running", catHobby},
	{"running", "running", catHobby},
	{"bouldering", "bouldering", catHobby},
	{"climbing", "climbing", catHobby},
	{"rock climbing", "climbing", catHobby},
	{"hiking", "hiking", catHobby},
	{"cycling", "cycling", catHobby},
	{"biking", "cycling", catHobby},
	{"swimming", "swimming", catHobby},
	{"surfing", "surfing", catHobby},
	{"skiing", "skiing", catHobby},
	{"snowboarding", "snowboarding", catHobby},
	{"yoga", "yoga", catHobby},
	{"chess", "chess", catHobby},
	{"bass", "bass", catHobby},
	{"guitar", "guitar", catHobby},
	{"piano", "piano", catHobby},
	{"drums", "drums", catHobby},
	{"violin", "violin", catHobby},
	{"tennis", "tennis", catHobby},
	{"football", "football", catHobby},
	{"soccer", "soccer", catHobby},
	{"basketball", "basketball", catHobby},
	{"painting", "painting", catHobby},
	{"photography", "photography", catHobby},
	{"knitting", "knitting", catHobby},
	{"baking", "baking", catHobby},
	{"gardening", "gardening", catHobby},
	{"pottery", "pottery", catHobby},
	{"dancing", "dancing", catHobby},
}

// projTermIndex maps a term's first word to its entries, longest first.
var projTermIndex = buildProjTermIndex()

type projTermPhrase struct {
	words []string
	term  *projTerm
}

func buildProjTermIndex() map[string][]projTermPhrase {
	idx := make(map[string][]projTermPhrase, len(projTerms))
	for i := range projTerms {
		t := &projTerms[i]
		w := splitWords(t.words)
		idx[w[0]] = append(idx[w[0]], projTermPhrase{words: w, term: t})
	}
	for k, list := range idx {
		for i := 1; i < len(list); i++ {
			for j := i; j > 0 && len(list[j].words) > len(list[j-1].words); j-- {
				list[j], list[j-1] = list[j-1], list[j]
			}
		}
		idx[k] = list
	}
	return idx
}

// projTermSet maps each whole term (lower-case words) to its entry.
var projTermSet = func() map[string]*projTerm {
	m := make(map[string]*projTerm, len(projTerms))
	for i := range projTerms {
		m[projTerms[i].words] = &projTerms[i]
	}
	return m
}()

// isTerm reports whether name, as a whole, is a lexicon term.
func isTerm(name string) bool {
	_, ok := projTermSet[nkey(name)]
	return ok
}

// lowerOnlyTerm reports whether the lower-case term w is also a common
// English word, so that it counts as a tool only after a deploy phrase
// ("deploy on fly") or when written capitalised ("Render").
func lowerOnlyTerm(w string) bool {
	switch w {
	case "fly", "render", "railway", "cursor", "bun", "helix", "zed", "sublime":
		return true
	}
	return false
}
