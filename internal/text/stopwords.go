package text

import "strings"

// The one stop-word list, in three classes, each word in one. Statements (turns,
// memories) drop the shared words and the chat words; questions drop the shared words and
// the question words: a question's "love", "new" or "feel" is what it asks about, while
// "long" (how long), "went" or "ago" only frame it (its time window carries time words).
var (
	// sharedStopwords are function words, pronouns, auxiliaries and vague words.
	sharedStopwords = wordSet(`a about after all am an and any are as at be been before being both but by can could did do does
during each for from had has have having he her here him his how i if in into is it its me my no
not of on or other our out over own same she should so some such than that the their them then
there these they this those to too up very was we were what when where which who whom why will
with would you your also just much many thing things get got one like know think go make made
kind day today yesterday tomorrow last next week month year`)
	// chatStopwords are the fillers, greetings and vague verbs and adjectives a chat turn
	// is made of, not what it is about.
	chatStopwords = wordSet(`above again against aren't because below between can't cannot couldn't didn't doesn't doing
don't down few further hadn't hasn't haven't he'd he'll he's here's hers herself himself how's
i'd i'll i'm i've isn't it's itself let's more most mustn't myself nor off once only ought ours
ourselves shan't she'd she'll she's shouldn't that's theirs themselves there's they'd they'll
they're they've through under until wasn't we'd we'll we're we've weren't what's when's where's
while who's why's won't wouldn't you'd you'll you're you've yours yourself yourselves im ive
dont cant thats whats it'd really still even lot lots something anything everything stuff
getting gonna wanna gotta would've could've should've ones well way sure yeah yes yep nope okay
ok oh wow hey hi hello thanks thank lol haha hahaha omg cool awesome great good nice glad
amazing super pretty totally definitely absolutely kinda sorta maybe lots always never sounds
sound feel feels felt see seen look looks looking going said say let new old bit mean means wait
hope hopes time times tho though yours ya u ur yay aww wish congrats congratulations cheers bye
take care sweet fun love loved loving`)
	// questionStopwords are what a question asks with, and time words.
	questionStopwords = wordSet(`done shall may might must whose ever s t went ago days weeks months years tell often long`)
)

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// IsStopword reports whether the lower-cased word w of a statement is a stop word.
func IsStopword(w string) bool { return sharedStopwords[w] || chatStopwords[w] }

// IsQuestionStopword reports whether the lower-cased word w of a question is a stop word.
func IsQuestionStopword(w string) bool { return sharedStopwords[w] || questionStopwords[w] }

// IsFunctionWord reports whether w is a stop word of statements and questions alike.
func IsFunctionWord(w string) bool { return sharedStopwords[w] }
