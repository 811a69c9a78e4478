package offline

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// The state-claim patterns (update.go) were most of the offline agent's CPU: Go's regexp
// package tries each of them at every position of a text, though most need a word
// ("lives", "moved", "favourite") that most texts lack. A literalPattern knows, from the
// parsed pattern, literal strings that every match contains (one of each set), and runs
// the regexp only on a text that holds them: the same matches, found or ruled out with a
// few strings.Contains.

// literalPattern is a regexp and the literals every match of it contains.
type literalPattern struct {
	*regexp.Regexp
	need [][]string // every match contains at least one string of each set
}

func mustPattern(expr string) literalPattern {
	return withLiterals(regexp.MustCompile(expr))
}

func withLiterals(re *regexp.Regexp) literalPattern {
	tree, err := syntax.Parse(re.String(), syntax.Perl) // the flags regexp.Compile parses with
	if err != nil {
		panic(err) // regexp compiled it
	}
	return literalPattern{Regexp: re, need: requiredLiterals(tree)}
}

// findAll is FindAllStringSubmatch(text, -1), not run when text lacks a required literal.
func (p literalPattern) findAll(text string) [][]string {
	if !p.mayMatch(text) {
		return nil
	}
	return p.FindAllStringSubmatch(text, -1)
}

// findAllIndex is FindAllStringSubmatchIndex(text, -1), not run when text lacks a
// required literal.
func (p literalPattern) findAllIndex(text string) [][]int {
	if !p.mayMatch(text) {
		return nil
	}
	return p.FindAllStringSubmatchIndex(text, -1)
}

// mayMatch reports whether text holds one string of each required set.
func (p literalPattern) mayMatch(text string) bool {
	for _, set := range p.need {
		found := false
		for _, s := range set {
			if strings.Contains(text, s) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// requiredLiterals are sets of strings such that any match of re contains one string of
// each set. It only keeps what it can prove: a case-folded literal, a class or an
// optional part requires nothing, a sequence requires what each of its parts does, an
// alternation one of its branches' strings (one set of each branch, all of them
// required or the alternation requires nothing).
func requiredLiterals(re *syntax.Regexp) [][]string {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(re.Rune) < 2 {
			return nil // one byte is in nearly every text; folding is not strings.Contains
		}
		return [][]string{{string(re.Rune)}}
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		var need [][]string
		for _, sub := range re.Sub {
			need = append(need, requiredLiterals(sub)...)
		}
		return need
	case syntax.OpAlternate:
		var any []string
		for _, sub := range re.Sub {
			best := mostSelective(requiredLiterals(sub))
			if best == nil {
				return nil
			}
			any = append(any, best...)
		}
		return [][]string{any}
	}
	return nil
}

// mostSelective is the set whose shortest string is longest (nil for none).
func mostSelective(sets [][]string) []string {
	var best []string
	bestLen := 0
	for _, set := range sets {
		shortest := len(set[0])
		for _, s := range set {
			shortest = min(shortest, len(s))
		}
		if shortest > bestLen {
			best, bestLen = set, shortest
		}
	}
	return best
}
