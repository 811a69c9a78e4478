package offline

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/internal/text"
)

func TestOfflineAnnotateDates(t *testing.T) {
	tests := []struct{ text, want string }{
		{"I went to a support group yesterday and it was great.", "I went to a support group yesterday (7 May 2023) and it was great."},
		{"Last Saturday I ran; next month I camp.", "Last Saturday (Saturday 6 May 2023) I ran; next month (June 2023) I camp."},
		{"Born on June 5, 2021.", "Born on June 5, 2021."},
		{"Nothing to see.", "Nothing to see."},
		// Said on 8 May 2023: an intention's March is the coming one, a past one's the last.
		{"I want to book flights from Berlin in March.", "I want to book flights from Berlin in March (March 2024)."},
		{"I was planning to visit in March.", "I was planning to visit in March (March 2023)."},
		{"We are in March.", "We are in March (March 2023)."},
		// An arrangement in the present progressive is ahead; a thought of the past is not.
		{"My sister Ana is getting married on June 14th.", "My sister Ana is getting married on June 14th (14 June 2023)."},
		{"Tomás is getting promoted in April.", "Tomás is getting promoted in April (April 2024)."},
		{"I'm flying to Lisbon on Friday.", "I'm flying to Lisbon on Friday (Friday 12 May 2023)."},
		{"I'm still thinking about our trip in March.", "I'm still thinking about our trip in March (March 2023)."},
		// What is on a weekday is the coming one; what was on it, the last.
		{"The release is on Thursday.", "The release is on Thursday (Thursday 11 May 2023)."},
		{"The release was on Thursday.", "The release was on Thursday (Thursday 4 May 2023)."},
		{"I have a dentist appointment on Thursday at 2pm.", "I have a dentist appointment on Thursday (Thursday 11 May 2023) at 2pm."},
		{"Piano lesson for Mia on Friday at 4pm.", "Piano lesson for Mia on Friday (Friday 12 May 2023) at 4pm."},
		{"I saw the dentist on Thursday.", "I saw the dentist on Thursday (Thursday 4 May 2023)."},
		// The past of any irregular verb is past; a word spelled as one, or a verb of
		// saying, tells no past of what it tells.
		{"We flew to Rome on Thursday.", "We flew to Rome on Thursday (Thursday 4 May 2023)."},
		{"Mia swam in the lake on Thursday.", "Mia swam in the lake on Thursday (Thursday 4 May 2023)."},
		{"Tom said he'd come on Thursday.", "Tom said he'd come on Thursday (Thursday 11 May 2023)."},
		{"A bit of gardening on Thursday.", "A bit of gardening on Thursday (Thursday 11 May 2023)."},
		{"On Friday, I got great news.", "On Friday (Friday 5 May 2023), I got great news."},
		{"My sister got married in April.", "My sister got married in April (April 2023)."},
		{"Got it, dentist on June 9.", "Got it, dentist on June 9 (9 June 2023)."},
		// A week of a month is that week, not the month.
		{"We're flying out the second week of November.", "We're flying out the second week of November (8 to 14 November 2023)."},
		{"We were there the third week of March.", "We were there the third week of March (15 to 21 March 2023)."},
		// A day something was moved to is the nearest; a move somewhere else stays past.
		{"My flight got moved to May 20th.", "My flight got moved to May 20th (20 May 2023)."},
		{"We moved to Lisbon in June.", "We moved to Lisbon in June (June 2022)."},
		// Other languages' days, dated as English ones are.
		{"Mañana tengo cita con el dentista.", "Mañana (9 May 2023) tengo cita con el dentista."},
		{"Am 3. März bin ich nach Hamburg gezogen.", "Am 3. März (3 March 2023) bin ich nach Hamburg gezogen."},
		{"我明天去北京。", "我明天 (9 May 2023)去北京。"},
	}
	for _, tt := range tests {
		s := tt.text
		if got := annotateDates(s, text.Dates(s, offlineNow, datesTense(s))); got != tt.want {
			t.Errorf("annotate(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

// What is expected, planned, scheduled, due or booked for a date lies ahead, an -ed word
// notwithstanding; an arrangement that was (or an action of its subject) stays past.
func TestOfflineAnnotateScheduledDates(t *testing.T) {
	march := time.Date(2026, time.March, 2, 10, 0, 0, 0, time.UTC)
	december := time.Date(2026, time.December, 20, 10, 0, 0, 0, time.UTC)
	january := time.Date(2026, time.January, 12, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		now        time.Time
		text, want string
	}{
		{march, "Your delivery is expected on March 20.", "Your delivery is expected on March 20 (20 March 2026)."},
		{march, "Your renewal is planned for April 3.", "Your renewal is planned for April 3 (3 April 2026)."},
		// A day moved to, its month abbreviated, is the coming one as a month named in full is.
		{time.Date(2026, time.December, 1, 8, 0, 0, 0, time.UTC), "The boiler service moved to Jan 19.", "The boiler service moved to Jan 19 (19 January 2027)."},
		{december, "Your subscription is scheduled to renew on January 5.", "Your subscription is scheduled to renew on January 5 (5 January 2027)."},
		{march, "Your order is scheduled for delivery on March 10.", "Your order is scheduled for delivery on March 10 (10 March 2026)."},
		{december, "Your payment is due on January 2.", "Your payment is due on January 2 (2 January 2027)."},
		{december, "Your table is booked for January 3.", "Your table is booked for January 3 (3 January 2027)."},
		// Negative: over, or the subject's own past action.
		{march, "My flight was scheduled for March 20 but got cancelled.", "My flight was scheduled for March 20 (20 March 2025) but got cancelled."},
		{march, "I was supposed to fly on April 3.", "I was supposed to fly on April 3 (3 April 2025)."},
		{march, "We planned for April 3 and it rained.", "We planned for April 3 (3 April 2025) and it rained."},
		{december, "I expected to finish on January 5.", "I expected to finish on January 5 (5 January 2026)."},
		{march, "We moved to Lisbon in June.", "We moved to Lisbon in June (June 2025)."},
		// A deadline said with no tense is ahead: this December, not the nearer last one.
		{january, "Great goal: $10,000 emergency fund by December.", "Great goal: $10,000 emergency fund by December (December 2026)."},
		{january, "I had saved $5,000 by December.", "I had saved $5,000 by December (December 2025)."},
	}
	for _, tt := range tests {
		if got := annotateDates(tt.text, text.Dates(tt.text, tt.now, datesTense(tt.text))); got != tt.want {
			t.Errorf("annotate(%q) said %s = %q, want %q", tt.text, tt.now.Format("2006-01-02"), got, tt.want)
		}
	}
}

// A day something slipped, moved or was pushed to lies ahead: the next one after the
// message. Dates in code are no dates of the message.
func TestOfflineAnnotateMovedDates(t *testing.T) {
	november := time.Date(2026, time.November, 14, 10, 0, 0, 0, time.UTC)
	tests := []struct{ text, want string }{
		{"The v3 launch slipped to November 2.", "The v3 launch slipped to November 2 (2 November 2027)."},
		{"The design review got pushed back to December 1.", "The design review got pushed back to December 1 (1 December 2026)."},
		{"Our offsite was postponed to March 12th.", "Our offsite was postponed to March 12th (12 March 2027)."},
		{"The audit moved from November 20 to December 3.", "The audit moved from November 20 (20 November 2026) to December 3 (3 December 2026)."},
		{"The cutover is on 2026-12-12, due by end of the month.", "The cutover is on 2026-12-12, due by end of the month (30 November 2026)."},
		{"Run `backup --since November 2` first.", "Run `backup --since November 2` first."},
		// A move somewhere else, or a past date with no move, stays past.
		{"We moved to Porto in October.", "We moved to Porto in October (October 2026)."},
		{"The release shipped on November 2.", "The release shipped on November 2 (2 November 2026)."},
	}
	wantAnnotated(t, november, tests)
}

// A day its clause says something is on, now, is the nearest one, whatever past word
// the message or the clause holds besides ("my last day", "confirmed:", a move told
// before it, "because billing slipped"): said on 4 March 2026, May 6 is this year's. A
// day something moves to lies ahead. What was done on a day stays past.
func TestOfflineAnnotatePresentDates(t *testing.T) {
	march := time.Date(2026, time.March, 4, 10, 0, 0, 0, time.FixedZone("", 3600))
	wantAnnotated(t, march, []struct{ text, want string }{
		{"Launch date confirmed: May 6.", "Launch date confirmed: May 6 (6 May 2026)."},
		{"My last day is March 27.", "My last day is March 27 (27 March 2026)."},
		{"The launch moves from April 15 to May 6 because billing slipped.", "The launch moves from April 15 (15 April 2026) to May 6 (6 May 2026) because billing slipped."},
		{"I was told the offsite is on April 2.", "I was told the offsite is on April 2 (2 April 2026)."},
		// Negative: a day something was done on, or was on, is past.
		{"We went to Rome on May 6.", "We went to Rome on May 6 (6 May 2025)."},
		{"My last day was May 6.", "My last day was May 6 (6 May 2025)."},
		{"We confirmed the venue on May 6.", "We confirmed the venue on May 6 (6 May 2025)."},
	})
	// A weekday something is on is the coming one, "last" notwithstanding; one it was on,
	// the last. Said on Monday 8 June 2026.
	monday := time.Date(2026, time.June, 8, 10, 0, 0, 0, time.UTC)
	wantAnnotated(t, monday, []struct{ text, want string }{
		{"My last day is Friday.", "My last day is Friday (Friday 12 June 2026)."},
		{"My last day is on Friday.", "My last day is on Friday (Friday 12 June 2026)."},
		{"The launch was moved, it's on Friday now.", "The launch was moved, it's on Friday (Friday 12 June 2026) now."},
		{"My last day was Friday.", "My last day was Friday (Friday 5 June 2026)."},
		{"My last day was on Friday.", "My last day was on Friday (Friday 5 June 2026)."},
	})
	// A relative clause's "is" tells of what its sentence names, done in the past: the
	// fair gone to was on the last May 20. Said in January 2026.
	january := time.Date(2026, time.January, 14, 10, 0, 0, 0, time.UTC)
	wantAnnotated(t, january, []struct{ text, want string }{
		{"We went to the fair, which is on May 20.", "We went to the fair, which is on May 20 (20 May 2025)."},
		{"We went to the fair that is on May 20.", "We went to the fair that is on May 20 (20 May 2025)."},
		// Negative: a fair ahead, or only told of.
		{"The fair is on May 20.", "The fair is on May 20 (20 May 2026)."},
		{"We're going to the fair, which is on May 20.", "We're going to the fair, which is on May 20 (20 May 2026)."},
		{"I was told about the fair, which is on May 20.", "I was told about the fair, which is on May 20 (20 May 2026)."},
	})
	october := time.Date(2025, time.October, 29, 9, 0, 0, 0, time.FixedZone("", -5*3600))
	wantAnnotated(t, october, []struct{ text, want string }{
		{"The appointment was moved, it is on November 19 now.", "The appointment was moved, it is on November 19 (19 November 2025) now."},
		{"The appointment was moved, it was on November 19.", "The appointment was moved, it was on November 19 (19 November 2024)."},
	})
}

// A date is placed by the tense of its own clause, not of the whole message: what someone
// wants, needs, asks for or plans for a month is the coming one, what was met or done in
// it the last one. Said in January 2026.
func TestOfflineAnnotateClauseTense(t *testing.T) {
	january := time.Date(2026, time.January, 20, 10, 0, 0, 0, time.UTC)
	tests := []struct{ text, want string }{
		{"Met Tom Becker at Acme; he wants a demo of the analytics module in May.", "Met Tom Becker at Acme; he wants a demo of the analytics module in May (May 2026)."},
		{"Called Tom. He needs the report by May 5.", "Called Tom. He needs the report by May 5 (5 May 2026)."},
		{"Met Tom; he will visit in May.", "Met Tom; he will visit in May (May 2026)."},
		{"Met Tom; they are planning a rollout for May.", "Met Tom; they are planning a rollout for May (May 2026)."},
		{"Met Tom; I met him in May.", "Met Tom; I met him in May (May 2025)."},
		{"I wanted a demo in March.", "I wanted a demo in March (March 2025)."},
		// Within a clause, the part between its "and"s holds the date's tense, unless that
		// part tells a past of its own.
		{"He wants a demo in May and asked for pricing.", "He wants a demo in May (May 2026) and asked for pricing."},
		{"He asked for pricing and wants a demo in May.", "He asked for pricing and wants a demo in May (May 2026)."},
		{"I met him in May and he wants a demo.", "I met him in May (May 2025) and he wants a demo."},
	}
	wantAnnotated(t, january, tests)
}

// wantAnnotated checks the dates the messages of tests, said at now, are annotated with.
func wantAnnotated(t *testing.T, now time.Time, tests []struct{ text, want string }) {
	t.Helper()
	for _, tt := range tests {
		if got := annotateDates(tt.text, datesOf(tt.text, "", now)); got != tt.want {
			t.Errorf("annotate(%q)\n got %q\nwant %q", tt.text, got, tt.want)
		}
	}
}

// The memory of a move is dated at the day moved to; an ISO date or the end of the month
// dates it too, never the day it was said.
func TestOfflineExtractMovedDate(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, time.November, 14, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text string
		want time.Time
	}{
		{"The audit moved from November 20 to December 3.", day(2026, time.December, 3)},
		{"The launch moves from November 20 to December 3 because billing slipped.", day(2026, time.December, 3)},
		{"The v3 launch slipped to November 2.", day(2027, time.November, 2)},
		{"The cutover window is on 2026-12-12.", day(2026, time.December, 12)},
		{"The expense report is due by the end of the month.", day(2026, time.November, 30)},
	} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "Ravi", Content: tt.text, ObservedAt: at}
		turn := ofType(mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates, realm.Event)
		if len(turn) == 0 || turn[0].TStart == nil || !turn[0].TStart.Equal(tt.want) {
			t.Errorf("%q: events %+v, want one starting %s", tt.text, turn, tt.want.Format("2006-01-02"))
		}
	}
}

// A month, day or weekday named in a plan, an arrangement or what one signed up for lies
// ahead, whatever the rest of the message says after a comma; a past event stays past.
func TestOfflineAnnotatePlannedDates(t *testing.T) {
	june := time.Date(2026, time.June, 12, 18, 0, 0, 0, time.UTC) // a Friday
	tests := []struct{ text, want string }{
		{"Kat and I are planning a trip to Lisbon in October, just the two of us.", "Kat and I are planning a trip to Lisbon in October (October 2026), just the two of us."},
		{"I signed up for the Portland half marathon in November.", "I signed up for the Portland half marathon in November (November 2026)."},
		{"Just signed up for a pottery class in March!", "Just signed up for a pottery class in March (March 2027)!"},
		{"I got tickets for the Phoebe Bridgers concert on November 21.", "I got tickets for the Phoebe Bridgers concert on November 21 (21 November 2026)."},
		{"I registered for the 10k on Sunday.", "I registered for the 10k on Sunday (Sunday 14 June 2026)."},
		{"It was a long week, but we're going back to the coast in August.", "It was a long week, but we're going back to the coast in August (August 2026)."},
		{"Work was crazy, we're flying to Denver on Thursday.", "Work was crazy, we're flying to Denver on Thursday (Thursday 18 June 2026)."},
		// A start is ahead, beside a past approval or signature too.
		{"Offer approved at $131,500, start in March.", "Offer approved at $131,500, start in March (March 2027)."},
		{"Alex signed the offer and is hired. Start date January 12.", "Alex signed the offer and is hired. Start date January 12 (12 January 2027)."},
		// Negative: the past stays past.
		{"I started in March and loved it.", "I started in March (March 2026) and loved it."},
		{"The start date was January 12.", "The start date was January 12 (12 January 2026)."},
		{"We went to Lisbon in October, just the two of us.", "We went to Lisbon in October (October 2025), just the two of us."},
		{"I signed up for a pottery class in March and loved it.", "I signed up for a pottery class in March (March 2026) and loved it."},
		{"I signed up in March.", "I signed up in March (March 2026)."},
		{"Kat and I were planning a trip to Lisbon in October.", "Kat and I were planning a trip to Lisbon in October (October 2025)."},
		{"We're going back to the place we visited in August.", "We're going back to the place we visited in August (August 2025)."},
		{"I ran the 10k on Sunday.", "I ran the 10k on Sunday (Sunday 7 June 2026)."},
	}
	wantAnnotated(t, june, tests)
}

// A booking is past, the date it is for ahead: a stay, a flight booked or saved for a day
// said in February is this year's, unless another word of its sentence is past; a stay
// said without a booking keeps its tense. A range of days is one date.
func TestOfflineAnnotateBookedDates(t *testing.T) {
	february := time.Date(2026, time.February, 10, 18, 30, 0, 0, time.FixedZone("", -5*3600))
	tests := []struct{ text, want string }{
		{"We booked Hotel Avenida Palace in Lisbon for March 14 to 18.", "We booked Hotel Avenida Palace in Lisbon for March 14 to 18 (14 to 18 March 2026)."},
		{"Booked ANA NH215 Tokyo Haneda to Frankfurt then LH1454 to Rome, departing May 16 at 11:05.",
			"Booked ANA NH215 Tokyo Haneda to Frankfurt then LH1454 to Rome, departing May 16 (16 May 2026) at 11:05."},
		{"Saved NH223/LH1456, June 13 at 10:20.", "Saved NH223/LH1456, June 13 (13 June 2026) at 10:20."},
		{"In Porto we booked the Hotel Infante Sagres, confirmation PRT-55821, for March 18 to 21.",
			"In Porto we booked the Hotel Infante Sagres, confirmation PRT-55821, for March 18 to 21 (18 to 21 March 2026)."},
		{"I reserved a table on March 3.", "I reserved a table on March 3 (3 March 2026)."},
		{"The hotel is booked for March 14.", "The hotel is booked for March 14 (14 March 2026)."},
		{"We fly to Lisbon on March 14 and back on the 21st.", "We fly to Lisbon on March 14 (14 March 2026) and back on the 21st (21 March 2026)."},
		// Negative: another past word, no booking, or a date the booking is not for.
		{"We booked the hotel for March 14 and loved it.", "We booked the hotel for March 14 (14 March 2025) and loved it."},
		{"We stayed at the Avenida from March 14 to 18.", "We stayed at the Avenida from March 14 to 18 (14 to 18 March 2025)."},
		{"I booked it in March.", "I booked it in March (March 2025)."},
		{"I saved the receipt from March 3.", "I saved the receipt from March 3 (3 March 2025)."},
	}
	wantAnnotated(t, february, tests)
}

// The memory of a booking for a range of days starts on its first day and ends at the end
// of its last.
func TestOfflineExtractBookedRange(t *testing.T) {
	a := New(Options{})
	boston := time.FixedZone("", -5*3600)
	at := time.Date(2026, time.February, 10, 18, 30, 0, 0, boston)
	for _, said := range []string{"We booked Hotel Avenida Palace in Lisbon for March 14 to 18.", "We stay at Hotel Avenida Palace 14–18 March."} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "Maria", Content: said, ObservedAt: at}
		turn := ofType(mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates, realm.Event)
		wantFrom, wantTo := time.Date(2026, time.March, 14, 0, 0, 0, 0, boston), time.Date(2026, time.March, 18, 23, 59, 59, 0, boston)
		if len(turn) == 0 || turn[0].TStart == nil || turn[0].TEnd == nil || !turn[0].TStart.Equal(wantFrom) || !turn[0].TEnd.Equal(wantTo) {
			t.Errorf("%q: events %+v, want one from %s to %s", said, turn, wantFrom, wantTo)
		}
	}
}

// april is Monday 8 April 2024.
var april = time.Date(2024, time.April, 8, 10, 0, 0, 0, time.UTC)

// A memory's text carries its dates as written: a part of a month as one expression, a
// week by its Monday, whatever the day it was said; a holiday, a day of the month alone,
// the weekday after next, weekends ago.
func TestOfflineExtractAnnotatedDates(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		at         time.Time
		text, want string
	}{
		{time.Date(2026, time.November, 1, 10, 0, 0, 0, time.UTC), "Deploy freezes happen during the last week of December.",
			"user: Deploy freezes happen during the last week of December (25 to 31 December 2026)."},
		{time.Date(2024, time.May, 8, 10, 0, 0, 0, time.UTC), "I'm painting the fence this week.",
			"user is painting the fence this week (the week of 6 May 2024)."},
		{april, "Last Christmas we were in Vienna.", "user: Last Christmas (25 December 2023) we were in Vienna."},
		{april, "Parents evening is on the 14th.", "user: Parents evening is on the 14th (14 April 2024)."},
		{april, "The Thursday after next is the school play.", "user: The Thursday after next (Thursday 18 April 2024) is the school play."},
		{april, "Two weekends ago I visited my grandma.", "Two weekends ago (the weekend of 30 March 2024) user visited user's grandma."},
	} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "user", Content: tt.text, ObservedAt: tt.at}
		var got []string
		for _, c := range mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates {
			got = append(got, c.Content)
		}
		if !slices.Contains(got, tt.want) {
			t.Errorf("%q: memories %q, want %q", tt.text, got, tt.want)
		}
	}
}

// A time that comes round again — each month, week or year, a bill's due day of the month,
// a birthday — is no single day: the memory of it is a fact without a time of its own and
// its text carries no date; a time counted from now beside it stays one.
func TestOfflineExtractRecurringDates(t *testing.T) {
	a := New(Options{})
	march := time.Date(2026, time.March, 2, 10, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text string
		want string // "" the memory is a fact with no time; else the day it is dated
	}{
		{"My credit card is due on the 15th of each month.", ""},
		{"My credit card is now due on the 22nd.", ""},
		{"Rent is due on the 1st of every month.", ""},
		{"I get paid every other Friday.", ""},
		{"I have swimming every Monday.", ""},
		{"I'm paying for the gym monthly.", ""},
		{"The cleaner will come weekly.", ""},
		{"The insurance renews each year on 3 May.", ""},
		{"My birthday is on 14 February.", ""},
		{"Our anniversary is June 3.", ""},
		{"I have yoga on Thursday every week.", ""},
		{"We meet weekly on Mondays.", ""},
		{"I call my mum on Sundays, on a weekly basis.", ""},
		{"Updated: Chase Sapphire is now due on the 22nd.", ""},
		{"Okay, Amex due on the 28th.", ""},
		{"Updated: Barclaycard due on the 10th.", ""},
		// A day said bare, without an article or a possessive, comes each week.
		{"Trash day is Tuesday.", ""},
		{"Tuesday is trash day.", ""},
		{"Thursday is date night.", ""},
		{"Pay day is the 15th.", ""},
		// Negative: one day, or a time counted from now.
		{"The plumber is coming on the 22nd.", "2026-03-22"},
		{"My birthday is next Friday.", "2026-03-06"},
		{"My birthday is on Friday.", "2026-03-06"},
		{"My birthday is tomorrow.", "2026-03-03"},
		{"Our anniversary is next week.", "2026-03-09"},
		{"Amex is due on the 22nd of March.", "2026-03-22"},
		{"My credit card is due on the 22nd of March.", "2026-03-22"},
		{"Amex due on March 22.", "2026-03-22"},
		{"My rent is due on the 5th next month.", "2026-04-01"},
		{"My birthday party is on 14 March.", "2026-03-14"},
		{"The big day is Tuesday.", "2026-03-03"},
		{"Moving day is Friday.", "2026-03-06"},
		{"Launch day is the 14th.", "2026-03-14"},
		{"Launch day is this Friday.", "2026-03-06"},
		{"Friday is the deadline for the grant.", "2026-03-06"},
		{"I swam every Monday last week.", "2026-02-23"},
		// "weekly" or "monthly" before a noun says what a thing is, not how often the fact holds.
		{"The weekly meeting on Thursday was cancelled.", "2026-02-26"},
		{"I got my monthly bonus on Friday.", "2026-02-27"},
		{"I finally escaped the daily grind.", "2026-03-02"},
	} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "user", Content: tt.text, ObservedAt: march}
		var memories []agent.Candidate
		for _, c := range mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates {
			if c.Type == realm.Fact || c.Type == realm.Event {
				memories = append(memories, c)
			}
		}
		if len(memories) == 0 {
			t.Errorf("%q: no memory", tt.text)
			continue
		}
		c := memories[0]
		switch {
		case tt.want == "" && (c.Type != realm.Fact || c.TStart != nil || strings.Contains(c.Content, "(")):
			t.Errorf("%q: %s %q dated %v, want a fact with no time", tt.text, c.Type, c.Content, c.TStart)
		case tt.want != "" && (c.TStart == nil || c.TStart.Format(time.DateOnly) != tt.want):
			t.Errorf("%q: %s %q dated %v, want %s", tt.text, c.Type, c.Content, c.TStart, tt.want)
		}
	}
}

// A short turn of filler or a reaction, with or without a time, is no memory.
func TestOfflineExtractShortReactionDropped(t *testing.T) {
	a := New(Options{})
	march := time.Date(2026, time.March, 2, 10, 0, 0, 0, time.UTC)
	for _, said := range []string{"Thanks!", "See you tomorrow!", "Thanks, talk tomorrow."} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "user", Content: said, ObservedAt: march}
		for _, c := range mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates {
			if c.Type == realm.Fact || c.Type == realm.Event {
				t.Errorf("%q: %s %q, want no memory", said, c.Type, c.Content)
			}
		}
	}
}

// A title of relative days' words ("Tomorrow, and Tomorrow, and Tomorrow") is no day: the
// turn is dated by the day it does name, "tonight", and its words are not annotated.
func TestOfflineExtractTitledDays(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, time.August, 8, 21, 0, 0, 0, time.UTC)
	for _, tt := range []struct{ text, want string }{
		{"Finished reading Tomorrow, and Tomorrow, and Tomorrow tonight.", "Finished reading Tomorrow, and Tomorrow, and Tomorrow tonight (8 August 2026)."},
		{"Listened to Yesterday by the Beatles.", "Listened to Yesterday by the Beatles."},
	} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "Maya", Content: tt.text, ObservedAt: at}
		turn := ofType(mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates, realm.Event)
		if len(turn) == 0 || !strings.HasSuffix(turn[0].Content, tt.want) || turn[0].TStart == nil || !turn[0].TStart.Equal(day(2026, time.August, 8)) {
			t.Errorf("%q: events %+v, want one ending %q, starting 2026-08-08", tt.text, turn, tt.want)
		}
	}
}

// An event said on the weekday it is said is dated that day; a correction of the day
// ("was Tuesday, not Monday") is dated at the weekday it names, the last before the message.
func TestOfflineExtractWeekdayDate(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		text string
		at   time.Time
		want time.Time
	}{
		{"Disk /dev/sda1 at 81% at 10:05 on Tuesday", time.Date(2026, time.December, 1, 10, 6, 0, 0, time.UTC), day(2026, time.December, 1)},
		// A reading tells what was measured, on the last Monday; a plan said so is ahead.
		{"Disk at 81% on Monday", time.Date(2026, time.December, 3, 10, 0, 0, 0, time.UTC), day(2026, time.November, 30)},
		{"Thermostat living room 21.5C at 07:30 on Tuesday.", time.Date(2026, time.December, 3, 10, 0, 0, 0, time.UTC), day(2026, time.December, 1)},
		{"The disk will be at 81% on Monday", time.Date(2026, time.December, 3, 10, 0, 0, 0, time.UTC), day(2026, time.December, 7)},
		{"Dinner with Sam on Friday", time.Date(2026, time.December, 2, 10, 0, 0, 0, time.UTC), day(2026, time.December, 4)},
		// What is on a weekday, said with a present "is", is the coming one.
		{"My last day is Friday.", time.Date(2026, time.December, 7, 10, 0, 0, 0, time.UTC), day(2026, time.December, 11)},
		{"My last day at Acme is on Friday.", time.Date(2026, time.December, 7, 10, 0, 0, 0, time.UTC), day(2026, time.December, 11)},
		// A weekday opening the turn as what something is or was, the same.
		{"Friday is my last day.", time.Date(2026, time.December, 7, 10, 0, 0, 0, time.UTC), day(2026, time.December, 11)},
		{"Friday is my last day at Acme.", time.Date(2026, time.December, 7, 10, 0, 0, 0, time.UTC), day(2026, time.December, 11)},
		{"Tuesday was the deadline for the grant.", time.Date(2026, time.December, 7, 10, 0, 0, 0, time.UTC), day(2026, time.December, 1)},
		{"Actually my first day at Northwind was Tuesday, not Monday", time.Date(2026, time.June, 3, 20, 0, 0, 0, time.UTC), day(2026, time.June, 2)},
		{"Actually the dentist was on Tuesday, not Monday.", time.Date(2026, time.June, 11, 20, 0, 0, 0, time.UTC), day(2026, time.June, 9)},
	} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "Maya", Content: tt.text, ObservedAt: tt.at}
		turn := ofType(mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates, realm.Event)
		if len(turn) == 0 || turn[0].TStart == nil || !turn[0].TStart.Equal(tt.want) {
			t.Errorf("%q: events %+v, want one starting %s", tt.text, turn, tt.want.Format("2006-01-02"))
		}
	}
}

// TestOfflineExtractEachClauseItsDate: a turn telling two things on two days dates each
// clause by its own: the signing yesterday, the start on January 12 (the coming one),
// whether a full stop or a comma parts them.
func TestOfflineExtractEachClauseItsDate(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		text   string
		events map[string]time.Time
	}{
		{"I signed the offer yesterday. Start date January 12.", map[string]time.Time{
			"Ana signed the offer yesterday (13 October 2026).": day(2026, time.October, 13), "Ana: Start date January 12 (12 January 2027).": day(2027, time.January, 12)}},
		{"Offer signed yesterday, start date January 12.", map[string]time.Time{
			"Ana: Offer signed yesterday (13 October 2026)": day(2026, time.October, 13), "Ana: start date January 12 (12 January 2027).": day(2027, time.January, 12)}},
		// A part keeps its clause's reading: the 21st of the month named before it.
		{"We landed in Lisbon on March 14, and the conference started on the 21st.", map[string]time.Time{
			"Ana: We landed in Lisbon on March 14 (14 March 2026)": day(2026, time.March, 14), "Ana: and the conference started on the 21st (21 March 2026).": day(2026, time.March, 21)}},
	} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "Ana", Role: "user",
			Content: tt.text, ObservedAt: time.Date(2026, time.October, 14, 10, 0, 0, 0, time.UTC)}
		events := ofType(mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates, realm.Event)
		for said, want := range tt.events {
			if !slices.ContainsFunc(events, func(c agent.Candidate) bool { return c.Content == said && c.TStart != nil && c.TStart.Equal(want) }) {
				t.Errorf("%q: events %+v, want %q starting %s", tt.text, events, said, want.Format(time.DateOnly))
			}
		}
	}
}

// TestOfflineExtractDateInParentheses: a date inside parentheses is resolved after a comma,
// not in a parenthesis of its own inside the first: "(accessed 3 Dec, 3 December 2026)".
func TestOfflineExtractDateInParentheses(t *testing.T) {
	a := New(Options{})
	at := time.Date(2026, time.December, 7, 10, 0, 0, 0, time.UTC)
	for said, want := range map[string]string{
		"I read the Vaswani paper (accessed 3 Dec).":                "Ana read the Vaswani paper (accessed 3 Dec, 3 December 2026).",
		"I met Tom (on Friday at the lab) about the consent forms.": "Ana met Tom (on Friday, Friday 4 December 2026, at the lab) about the consent forms.",
		"I met Tom on Friday about the consent forms.":              "Ana met Tom on Friday (Friday 4 December 2026) about the consent forms.",
	} {
		obs := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "Ana", Role: "user", Content: said, ObservedAt: at}
		events := ofType(mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates, realm.Event)
		if !slices.ContainsFunc(events, func(c agent.Candidate) bool { return c.Content == want }) {
			t.Errorf("%q: events %+v, want %q", said, events, want)
		}
	}
}

// A correction of a day told on a later day ("Actually the dentist was on Tuesday, not
// Monday") is dated in the week of the day it corrects, as the speaker's earlier message
// among the recent ones dated it; the last such weekday before it when none names it.
func TestOfflineExtractCorrectedDay(t *testing.T) {
	a := New(Options{})
	monday := realm.Observation{ID: "o1", Space: "t", SessionID: "s1", Speaker: "Maya", Content: "Went to the dentist on Monday.", ObservedAt: time.Date(2026, time.June, 1, 18, 0, 0, 0, time.UTC)}
	haircut := realm.Observation{ID: "o2", Space: "t", SessionID: "s1", Speaker: "Maya", Content: "Got a haircut on Monday.", ObservedAt: time.Date(2026, time.June, 1, 18, 5, 0, 0, time.UTC)}
	other := monday
	other.Speaker = "Sam"
	later := time.Date(2026, time.June, 11, 20, 0, 0, 0, time.UTC) // a Thursday
	for _, tt := range []struct {
		name   string
		text   string
		recent []realm.Observation
		want   time.Time
		label  string
	}{
		{"OfTheCorrectedWeek", "Actually the dentist was on Tuesday, not Monday.", []realm.Observation{monday, haircut}, day(2026, time.June, 2), "Tuesday 2 June 2026"},
		{"WasWeekday", "Actually my dentist appointment was Tuesday, not Monday", []realm.Observation{monday}, day(2026, time.June, 2), "Tuesday 2 June 2026"},
		{"NotSaid", "Actually the dentist was on Tuesday, not Monday.", nil, day(2026, time.June, 9), ""},
		{"OfAnotherThing", "Actually the dentist was on Tuesday, not Monday.", []realm.Observation{haircut}, day(2026, time.June, 9), ""},
		{"OfAnotherSpeaker", "Actually the dentist was on Tuesday, not Monday.", []realm.Observation{other}, day(2026, time.June, 9), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			obs := realm.Observation{ID: "o9", Space: "t", SessionID: "s2", Speaker: "Maya", Content: tt.text, ObservedAt: later}
			turn := ofType(mustExtract(t, a, agent.ExtractInput{Observation: obs, Recent: tt.recent}).Candidates, realm.Event)
			if len(turn) == 0 || turn[0].TStart == nil || !turn[0].TStart.Equal(tt.want) || !strings.Contains(turn[0].Content, tt.label) {
				t.Errorf("events %+v, want one starting %s, saying %q", turn, tt.want.Format("2006-01-02"), tt.label)
			}
		})
	}
}
