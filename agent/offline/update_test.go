package offline

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// TestStateChange: a later statement about the same subject and slot with another value,
// an ended state or a plan carried out changes an older one; near misses change nothing.
func TestStateChange(t *testing.T) {
	tests := []struct {
		name            string
		oldSpeaker, old string // rewritten text of the older node
		newSpeaker, new string // rewritten text of the candidate
		wantPredicate   string
	}{
		{"Moved", "Nora", "Nora lives in Lisbon now.", "Nora", "Nora: Big news: we moved from Lisbon to Berlin last week.", "supersedes"},
		{"NewJob", "Mia", "Mia works at Spotify on the data team.", "Mia", "Mia quit Spotify and joined Stripe.", "supersedes"},
		{"NewJobAt", "Mia", "Mia works at Spotify.", "Mia", "Mia just started a new job at Stripe.", "supersedes"},
		{"NowWorkingAt", "Mia", "Mia works at Spotify.", "Mia", "Mia is now working at Google.", "supersedes"},
		{"HasRelocated", "Nora", "Nora lives in Lisbon.", "Nora", "Nora has relocated to Berlin.", "supersedes"},
		{"Favourite", "Hana", "Hana's favourite book is Dune.", "Hana", "Hana's new favourite book is Piranesi.", "supersedes"},
		{"FavouriteFirst", "Luis", "Pizza is Luis's favourite food.", "Luis", "Ramen has become Luis's favourite food.", "supersedes"},
		{"Count", "Rosa", "Rosa has two cats.", "Rosa", "Now Rosa has three cats.", "supersedes"},
		{"Status", "Tara", "Tara is single.", "Tara", "Tara is engaged!", "supersedes"},
		{"Diet", "Erik", "Erik is vegan.", "Erik", "Erik eats meat again.", "supersedes"},
		{"NoLonger", "Ruby", "Ruby is allergic to cats.", "Ruby", "Ruby is no longer allergic to cats.", "supersedes"},
		{"Anymore", "Lucy", "Lucy plays tennis every Saturday.", "Lucy", "Lucy doesn't play tennis anymore.", "supersedes"},
		{"InsteadOf", "Amir", "Amir takes the bus to work.", "Amir", "Amir cycles to work now instead of taking the bus.", "supersedes"},
		{"SwitchedCued", "Theo", "Theo uses an iPhone.", "Theo", "Theo switched to a Pixel phone.", "supersedes"},
		{"PlanDone", "Gwen", "Gwen is planning to run the Boston marathon.", "Gwen", "Gwen ran the Boston marathon on Monday.", "supersedes"},
		{"TwoSpeakers", "Nora", "Nora lives in Lisbon.", "Sam", "Nora lives in Porto.", "contradicts"},
		// A chat role or a handle as the speaker: the first-person rewrite writes it as the subject.
		{"ChatRole", "user", "user lives in Lisbon with user's wife.", "user", "user: We moved from Lisbon to Berlin last month.", "supersedes"},
		{"ChatRoleJob", "user", "User works at Spotify.", "user", "user quit Spotify and joined Stripe.", "supersedes"},
		// A move to a team, a department or an office is no move of home.
		{"MovedToTeam", "Alice", "Alice lives in Berlin now.", "assistant", "Got it, Alice moved to the fraud detection team.", ""},
		{"MovedToOffice", "Nora", "Nora lives in Lisbon.", "Nora", "Nora moved to the Porto office last week.", ""},
		{"RoleAtEmployer", "Bob", "Bob is a backend engineer at Dell in Austin, Texas.", "Bob", "Bob got a new job at Stripe, fully remote.", "supersedes"},
		{"NewJobAs", "user", "user works as a nurse at Santa Maria hospital.", "user", "user started a new job as a clinical data analyst at Charité, no more nursing shifts.", "supersedes"},
		{"MemberAtGym", "Bob", "Bob is a member at the gym on Main Street.", "Bob", "Bob got a new job at Stripe.", ""},
		{"BecameAnother", "Ben", "Ben works as a nurse at the children's hospital.", "Ben", "After ten years of nursing Ben became a paramedic, Ben started in May.", "supersedes"},
		{"BecameTitle", "Ben", "Ben works as a nurse.", "Ben", "Ben became CEO of Acme.", "supersedes"},
		{"BecameAFeeling", "Ben", "Ben works as a nurse.", "Ben", "Ben has become so confident at work now.", ""},
		{"GettingBetterAt", "Ben", "Ben works at Stripe.", "Ben", "Ben is now getting better at Go.", ""},
		{"Handle", "ana_92", "ana_92's favourite book is Dune.", "ana_92", "ana_92's new favourite book is Piranesi.", "supersedes"},
		{"ChatRoleOtherSubject", "user", "user lives in Lisbon.", "user", "Nora lives in Berlin.", ""},
		{"ChatRoleInsideAWord", "user", "user lives in Lisbon.", "user", "The username lives in Berlin.", ""},
		{"QuotedBySomeoneElse", "Will", `Tara said: "Tara is single and happy." Will: Good for Tara.`, "Tara", "Tara is engaged!", "supersedes"},

		{"GaveAway", "Olga", "Olga has a parrot named Kiwi.", "Olga", "Olga gave Kiwi to Olga's aunt, Olga has a rabbit now.", "supersedes"},
		{"DroppedOut", "Ivo", "Ivo studies law at Leiden.", "Ivo", "Ivo dropped out of law school.", "supersedes"},
		{"GaveUpOn", "Yara", "Yara is learning Spanish.", "Yara", "Yara gave up on Spanish.", "supersedes"},
		{"Replaced", "Enzo", "Enzo drives a Honda Civic.", "Enzo", "Enzo finally replaced the Civic with a Tesla.", "supersedes"},
		{"StoppedBy", "Abby", "Abby goes to the gym three times a week.", "Abby", "Abby stopped by the gym to say hi.", ""},

		{"SameValue", "Mia", "Mia works at Spotify.", "Mia", "Mia works at Spotify on the data team.", ""},
		{"GaveATalk", "Maria", "Maria volunteers at the homeless shelter.", "Maria", "Maria recently gave a few talks at the homeless shelter Maria volunteers at.", ""},
		{"DroppedOff", "Maria", "Maria is busy at the shelter getting ready for a fundraiser.", "Maria", "Last week Maria dropped off the food Maria baked at the shelter.", ""},
		{"LeftFor", "Nora", "Nora lives in Lisbon.", "Nora", "Nora left for Lisbon airport early.", ""},
		{"OtherSubject", "Nora", "Nora lives in Lisbon.", "Sam", "Sam lives in Berlin.", ""},
		{"SeveralAtOnce", "Emma", "Emma plays the piano.", "Emma", "Emma plays tennis on Sundays.", ""},
		{"PastEventNotAState", "Caroline", "Caroline went to the party with friends.", "Caroline", "Caroline left the party early.", ""},
		{"PlanNotDone", "Gwen", "Gwen is planning to run the Boston marathon.", "Gwen", "Gwen watched a film about Boston.", ""},
		{"PlanWordsNotDone", "Caroline", "Caroline wants to help people go through it.", "Caroline", "The support Caroline got helped. Caroline was lucky to have people around.", ""},
		{"PlanDoneWe", "Ian", "Ian: We want to buy a house with a garden.", "Ian", "Ian: We finally bought a house with a garden in November.", "supersedes"},
		{"PlanWordsOnly", "Caroline", "Caroline wants to help people go through it.", "Caroline", "Caroline got support from people who help.", ""},
		{"JoinedAnother", "Caroline", "Caroline joined a mentorship program for LGBTQ youth.", "Caroline", "Caroline just joined a new LGBTQ activist group.", ""},
		{"PlanStillPlanned", "Gwen", "Gwen is planning to run the Boston marathon.", "Gwen", "Gwen is going to run the Boston marathon in April.", ""},

		// A preference switched, for the same kind of thing and with a cue.
		{"PreferenceSwitched", "Lena", "Lena prefers morning meetings, Lena's head is clearest before lunch.", "Lena", "Now Lena prefers late-afternoon meetings, mornings are for deep work.", "supersedes"},
		{"PreferenceLikeBest", "Lena", "Lena likes window seats best on long flights.", "Lena", "These days Lena likes aisle seats best.", "supersedes"},
		{"PreferenceChatRole", "user", "user prefers morning meetings.", "user", "user prefers late-afternoon meetings these days.", "supersedes"},
		// What it replaces named, after a word that opens the sentence ("Actually", "Now").
		{"PreferenceInsteadOf", "user", "user prefers tea in the morning, green tea mostly.", "user", "Actually, now user prefers coffee in the morning instead of tea.", "supersedes"},
		{"PreferenceInsteadOfNamed", "Lena", "Lena prefers tea in the morning.", "Lena", "Now Lena prefers coffee instead of tea.", "supersedes"},
		{"PreferenceInsteadOfOther", "Lena", "Lena prefers tea in the morning.", "Lena", "Actually, now Lena prefers coffee instead of juice.", ""},
		{"PreferenceOtherKind", "Lena", "Lena prefers morning meetings.", "Lena", "Now Lena prefers tea to coffee.", ""},
		{"PreferenceNoCue", "Lena", "Lena prefers morning meetings.", "Lena", "Lena prefers short meetings with an agenda.", ""},
		{"PreferenceOtherPerson", "Lena", "Lena prefers morning meetings.", "Lena", "Now Lena's boss prefers late-afternoon meetings.", ""},

		// A break-up ends a partner named in passing, and nothing else said of them.
		{"BrokeUpWithPartner", "Nina", "Nina lives in Lisbon with Nina's partner Tomás.", "Nina", "Tomás and Nina broke up last month (April 2023).", "supersedes"},
		{"BrokeUpSpeakerFirst", "user", "user lives in Lisbon with user's boyfriend Tomás.", "user", "user and Tomás split up in the spring.", "supersedes"},
		{"BrokeUpOthers", "Nina", "Nina lives in Lisbon with Nina's partner Tomás.", "Nina", "Ana and Leo broke up last month.", ""},
		{"BrokeUpNotThePartner", "Nina", "Nina goes hiking with Tomás on Sundays.", "Nina", "Tomás and Nina broke up last month.", ""},
		{"SplitTheBill", "Nina", "Nina lives in Lisbon with Nina's partner Tomás.", "Nina", "Tomás and Nina split the bill at dinner.", ""},
		{"NewPartnerNoCue", "Nina", "Nina lives with Nina's partner Tomás.", "Nina", "Nina's partner Leo cooked dinner.", ""},

		// A detail corrected: "X, not Y" of a word Y of an older memory of the speaker that
		// shares another word with the correction.
		{"CorrectedName", "Nina", "Nina's sister Marta is visiting us next week (the week after 8 May 2023).", "Nina", "Oops, Nina's sister's name is Marina, not Marta.", "supersedes"},
		{"CorrectedKind", "Nina", "Nina: Our dog Biscuit, a beagle, loves the beach.", "Nina", "Nina: Biscuit is a golden retriever, not a beagle.", "supersedes"},
		{"CorrectedNotBut", "user", "user: Our dog Biscuit, a beagle, loves the beach.", "user", "user: Biscuit is not a beagle but a golden retriever.", "supersedes"},
		{"CorrectedDay", "Maya", "Maya: Went to the dentist on Monday (9 March 2026).", "Maya", "Maya: Actually the dentist was on Tuesday (10 March 2026), not Monday.", "supersedes"},
		{"CorrectedDayOfAnother", "Maya", "Maya: Went to the dentist on Monday (9 March 2026).", "Maya", "Maya: Actually the haircut was on Tuesday, not Monday.", ""},
		{"CorrectedDayNotSaid", "Maya", "Maya: Went to the dentist on Wednesday.", "Maya", "Maya: Actually the dentist was on Tuesday, not Monday.", ""},
		{"CorrectedAnotherSpeaker", "Nina", "Nina's sister Marta is visiting us next week.", "Sam", "Sam: Nina's sister's name is Marina, not Marta.", ""},
		{"CorrectedNothingElseShared", "Nina", "Nina had lunch with Marta.", "Nina", "Her name is Marina, not Marta.", ""},
		{"NotBadNotGreat", "Nina", "Nina: The new pasta place near the office is great.", "Nina", "Nina: The pasta place was not bad, not great.", ""},
		{"NotNow", "Nina", "Nina wants to talk about the move now.", "Nina", "Nina: Let's talk about the move later, not now.", ""},
		{"SaidTheSameWay", "Nina", "Nina drinks tea, not coffee.", "Nina", "Nina: Green tea, not coffee, every morning.", ""},

		// A weekly schedule moved to another weekday: what recurs on the old one, not a day's.
		{"ScheduleMoved", "user", "user has therapy every Tuesday at 5pm with Dr. Alvarez.", "user", "user's therapy moved to Thursdays at 6pm, Dr. Alvarez changed her schedule.", "supersedes"},
		{"ScheduleAsUsual", "user", "user: Therapy is on Tuesday (Tuesday 4 August 2026) this week (the week of 8 August 2026) as usual.", "user", "user's therapy moved to Thursdays at 6pm.", "supersedes"},
		{"ScheduleNowOn", "Lena", "Lena does yoga every Monday evening.", "Lena", "Lena's yoga class is now on Wednesdays.", "supersedes"},
		{"ScheduleNewDayAlready", "user", "user: Therapy is on Thursday this week as usual.", "user", "user's therapy moved to Thursdays at 6pm.", ""},
		{"ScheduleOtherThing", "user", "user has therapy every Tuesday at 5pm.", "user", "user's book club moved to Thursdays.", ""},
		{"ScheduleOneDay", "user", "user has therapy every Tuesday at 5pm.", "user", "user's therapy moved to Thursday this week.", ""},
		{"ScheduleNotRecurring", "user", "user had therapy on Tuesday.", "user", "user's therapy moved to Thursdays.", ""},

		// Something begun, signed up for or held, and what ends it.
		{"GaveUpOnDiet", "user", "user started the keto diet today (9 June 2026). No more bread for user!", "user", "user gave up on keto. user is eating carbs again and honestly user feels better.", "supersedes"},
		{"NotDoingAnymore", "user", "user signed up for the Portland half marathon in November.", "user", "user is not doing the half marathon anymore, user's knee is injured.", "supersedes"},
		{"StartedSomethingElse", "user", "user started the keto diet today.", "user", "user gave up on Spanish.", ""},
		{"PetDied", "user", "user lives in Portland with our cat Mochi.", "user", "Mochi died this morning (5 August 2026). He was fourteen.", "supersedes"},
		{"PetNamedDied", "Nina", "Nina has a dog named Rex.", "Nina", "Rex passed away last night.", "supersedes"},
		{"PartnerDied", "Nina", "Nina lives with Nina's husband Tom.", "Nina", "Tom passed away in March.", "supersedes"},
		{"PetMentionedDied", "user", "Mochi woke user up at 6am again, demanding food.", "user", "Mochi died this morning.", ""},
		{"OtherPetDied", "user", "user lives in Portland with our cat Mochi.", "user", "Rex died this morning.", ""},
		{"FriendsPetDied", "user", "Tom's dog Rex is the sweetest.", "user", "Tom's dog Rex died yesterday.", "supersedes"},
		{"FriendsPetDiedTold", "Tom", "Tom has a dog named Rex.", "user", "Rex passed away, Tom told me.", "supersedes"},
		{"FriendsOtherPetDied", "Tom", "Tom has a dog named Rex.", "user", "Tom's cat Mochi died.", ""},
		{"GotTheJobAt", "user", "user works as a junior accountant at Hartwell & Co.", "user", "user got the job at Lumen Analytics!", "supersedes"},
		{"FirstDayAt", "user", "user works at Hartwell & Co.", "user", "user: First day at Lumen Analytics today (14 July 2026) as a data analyst.", "supersedes"},
		{"StartsAt", "user", "user works at Hartwell & Co.", "user", "user starts at Lumen on July 14.", "supersedes"},
		{"PromotedTo", "user", "user works as a data analyst at Lumen.", "user", "user got promoted to senior data analyst at Lumen!", "supersedes"},
		// A title in capitals, as a CRM's notes say it of a contact.
		{"TitlePromoted", "Sam", "Sam: Raj Patel is VP Engineering at Initech.", "Sam", "Sam: Raj Patel was promoted to CTO at Initech.", "supersedes"},
		{"TitleNow", "Sam", "Sam: Raj Patel is VP Engineering at Initech.", "Sam", "Sam: Raj Patel is now CTO.", "supersedes"},
		{"TitleOfACard", "Sam", "Sam: New contact: Raj Patel, IT Director at Initech. Email raj.patel@initech.com", "Sam", "Sam: Raj Patel is now Head of Data.", "supersedes"},
		{"TitleLeftAndJoined", "Sam", "Sam: New contact: Raj Patel, VP Engineering at Initech. Email raj.patel@initech.com", "Sam", "Sam: Raj Patel left Initech and joined Globex as CTO.", "supersedes"},
		{"TitleSame", "Sam", "Sam: Raj Patel is VP Engineering at Initech.", "Sam", "Sam: Raj Patel is still VP Engineering at Initech.", ""},
		{"TitleOfAnother", "Sam", "Sam: Raj Patel is VP Engineering at Initech.", "Sam", "Sam: Anna Kim is now CTO.", ""},
		{"TitleMovedTo", "Sam", "Sam: Raj Patel works at Acme.", "Sam", "Sam: Raj Patel moved from Acme to Globex as VP Sales.", "supersedes"},
		{"FirstDayAbbreviation", "Maya", "Maya works at Hartwell & Co., mostly on payroll.", "Maya", "Maya: First day at Lumen Analytics today, Maya's manager is called Jordan.", "supersedes"},
		{"FirstDayOfSchool", "user", "user works at Hartwell & Co.", "user", "First day of school for user's son today.", ""},

		// An amount changed: a cue, another amount of the same unit, the same thing.
		{"DoseRaised", "Nina", "Nina takes 20mg of sertraline every morning.", "Nina", "Nina's doctor raised Nina's sertraline dose to 40mg.", "supersedes"},
		{"DoseChangedAgain", "Nina", "Nina's doctor raised Nina's sertraline dose to 100mg.", "Nina", "Nina's psychiatrist lowered Nina's sertraline to 75mg because of side effects.", "supersedes"},
		{"PriceNow", "user", "user's gym membership is 30 euros a month.", "user", "user: The gym now costs 45 euros a month.", "supersedes"},
		{"AmountOfAnotherThing", "Nina", "Nina's rent is 900 euros a month.", "Nina", "Nina: The gym now costs 45 euros a month.", ""},
		{"AmountOfAnotherPerson", "Nina", "Nina takes 20mg of sertraline every morning.", "Nina", "Nina's sister now takes 40mg of sertraline.", ""},
		{"AmountAnotherSpeaker", "Nina", "Nina takes 20mg of sertraline every morning.", "Sam", "Sam's doctor raised Sam's sertraline dose to 40mg.", ""},
		{"AmountNoCue", "Nina", "Nina takes 20mg of sertraline every morning.", "Nina", "Nina takes 50mg of sertraline on bad days.", ""},
		{"AmountPastEvent", "Nina", "Nina ran 5 km along the river on Sunday.", "Nina", "Nina now runs 10 km along the river.", ""},
		{"AmountPaid", "Nina", "Nina paid 300 euros for the flight to Madrid.", "Nina", "Nina: The flight to Madrid now costs 450 euros.", ""},
		{"AmountSameRelative", "Nina", "Nina's daughter takes 10mg of melatonin to sleep.", "Nina", "Nina's daughter now takes 5mg of melatonin.", "supersedes"},
		{"AmountDateOnly", "Nina", "Nina's gym membership renews on May 9.", "Nina", "Nina's gym membership now renews on May 16.", ""},
		{"DoseTimesADay", "user", "user takes amoxicillin 500 mg three times a day.", "user", "The doctor changed user's amoxicillin to twice a day.", "supersedes"},
		{"DoseCutDownTo", "user", "user drink 4 cups of coffee a day.", "user", "user has cut user's coffee down to one cup a day.", "supersedes"},
		{"DoseUnitsSinceSwitch", "user", "user's endocrinologist switched user from metformin to insulin glargine, 12 units at bedtime.", "user", "The doctor increased user's insulin to 16 units.", "supersedes"},
		// The old amount named beside the new one: the unit alone tells what changed.
		{"WeightDecimal", "user", "user weigh 72.5 kg.", "user", "user now weigh 71 kg.", "supersedes"},
		{"WeightDecimalRestated", "user", "user weigh 72.5 kg.", "user", "user now weigh 72.5 kg.", ""},
		{"WeightDecimalAnother", "user", "user weigh 72 kg.", "user", "user now weigh 72.5 kg.", "supersedes"},
		{"DoseInsteadOf", "user", "user uses user's albuterol inhaler, 1 puff when needed.", "user", "user now takes 2 puffs instead of 1.", "supersedes"},
		{"DoseInsteadOfOtherUnit", "user", "user uses user's albuterol inhaler, 1 puff when needed.", "user", "user now takes 2 pills instead of 1.", ""},
		{"DoseTimesOtherThing", "user", "user takes amoxicillin 500 mg three times a day.", "user", "user now goes to the gym twice a week.", ""},
		{"SpeltCountNoUnit", "user", "user drink 4 cups of coffee a day.", "user", "user now likes the one with oat milk.", ""},
		{"AmountOfARelativeBefore", "user", "user's sister takes levothyroxine 50 mcg.", "user", "user's levothyroxine was changed to 88 mcg.", ""},
		// Money: a value changed however it is said, of the same thing only; a separator
		// inside an amount ("$2,100") makes no second amount.
		{"RentWentUp", "user", "user's rent is $1,850 a month.", "user", "user: Rent went up to $2,100 in March (March 2026).", "supersedes"},
		{"RentWentUpInWords", "user", "user's rent is 1900 dollars.", "user", "user: Rent went up to 2100 dollars.", "supersedes"},
		{"OwesAfterRepaying", "Corin", "Corin paid Pell some back; now Corin owes Pell 40 gold.", "Corin", "Corin paid Pell some back; now Corin owes Pell 30 gold.", "supersedes"},
		{"FriendNowEnemy", "Mira", "Aldric is Mira's best friend.", "Mira", "Aldric is Mira's enemy now.", "supersedes"},
		{"EnemyFriendAgain", "Mira", "Aldric is Mira's enemy now.", "Mira", "Aldric is Mira's friend again.", "supersedes"},
		{"AnotherIsEnemy", "Mira", "Aldric is Mira's best friend.", "Mira", "Bran is Mira's enemy now.", ""},
		{"StillFriend", "Mira", "Aldric is Mira's best friend.", "Mira", "Aldric is still Mira's friend.", ""},
		{"PhonePlanSwitched", "user", "user's phone plan is with Verizon, $70 a month.", "user", "Switched user's phone plan to Mint, $15 a month.", "supersedes"},
		{"DueDateMoved", "user", "user's Chase Sapphire credit card is due on the 15th of each month.", "user", "Chase moved user's credit card due date to the 22nd of each month.", "supersedes"},
		{"SalaryAfterAClause", "user", "user's salary is £48k a year.", "user", "user: Got promoted, salary is now £52.5k.", "supersedes"},
		{"Remortgaged", "user", "user's mortgage with Nationwide is £1,420 a month on a 5.19% fixed rate.", "user", "user: Remortgaged to Halifax at 4.39%, now £1,336.20 a month.", "supersedes"},
		{"ElectricitySwitched", "user", "user: Electricity is with Stadtwerke, €95 a month.", "user", "user: Switched electricity to Octopus, €78.40 a month.", "supersedes"},
		// The same amount written another way is said again, not changed.
		{"SalarySameAmount", "user", "user's salary is $85,000 a year.", "user", "user's salary is now $85k.", ""},
		{"SalarySameAmountEchoed", "assistant", "assistant: Noted: salary $85,000 a year.", "user", "user's salary is now $85k.", ""},
		{"SalaryOtherAmount", "user", "user's salary is $85,000 a year.", "user", "user's salary is now $90k.", "supersedes"},
		{"SalaryOtherAmountEchoed", "assistant", "assistant: Noted: salary $85,000 a year.", "user", "user's salary is now $90k.", "supersedes"},
		{"ProviderOtherAtSameAmount", "user", "user's internet provider is Comcast at $70 a month.", "user", "user's internet provider is now Sonic at $70 a month.", "supersedes"},
		// A raise in percent changes the salary, not another amount, nor someone else's.
		{"RaisePercent", "user", "user's salary is $85,000 a year before tax.", "user", "user got a 5% raise.", "supersedes"},
		{"RaisePercentEchoed", "assistant", "assistant: Noted: salary $85,000/year.", "user", "user got a 5% raise!", "supersedes"},
		{"PayCutPercent", "user", "user earns £48k a year.", "user", "user: Took a 10% pay cut this month.", "supersedes"},
		{"RaisePercentOfAnother", "user", "user's salary is $85,000 a year.", "user", "user's sister got a 5% raise.", ""},
		{"RaisePercentOfARelative", "user", "user's sister's salary is $85,000 a year.", "user", "user got a 5% raise.", ""},
		{"RaisePercentNotSalary", "user", "user's rent is $1,850 a month.", "user", "user got a 5% raise.", ""},
		{"RaisePercentNotAPayment", "user", "user paid 300 euros for the flight to Madrid.", "user", "user got a 5% raise.", ""},
		{"RaisePercentAsked", "user", "user's salary is $85,000 a year.", "user", "Should user ask for a 5% raise?", ""},
		{"RaisePercentNoAmount", "user", "user's salary is paid monthly.", "user", "user got a 5% raise.", ""},
		{"RentOfAnotherAmount", "user", "user's salary is $85,000 a year before tax.", "user", "user: Rent went up to $2,100 in March.", ""},
		{"SwitchedAnotherThing", "user", "user's rent is $1,850 a month.", "user", "Switched user's phone plan to Mint, $15 a month.", ""},
		{"DueDateOfATime", "user", "user's card is due on the 15th of each month.", "user", "user's card was declined for the 3rd time now.", ""},
		{"GoalProgress", "user", "user wants to save $10,000 for an emergency fund by December.", "user", "user's emergency fund is at $6,420.18 now.", ""},
		// A debt paid off ends; not a payment, a debt paid in part, nor another debt.
		{"PaidOffLoan", "user", "user has a car loan with Capital One, $14,500 left at 6.9% APR.", "user", "user paid off the car loan!", "supersedes"},
		{"PaidBackBrother", "user", "user owe user's brother Lukas €800 from the move.", "user", "Paid back user's brother Lukas, we're even now.", "supersedes"},
		{"ClearedOverdraft", "user", "user has an overdraft of £650 at 39.9% EAR.", "user", "user: Cleared the overdraft completely.", "supersedes"},
		{"PaidOffEchoed", "assistant", "assistant: Noted the car loan: $14,500 at 6.9%.", "user", "user paid off the car loan!", "supersedes"},
		{"PaidOffNotADebt", "Nina", "Nina paid 300 euros for the flight to Madrid.", "Nina", "Nina paid off the flight to Madrid.", ""},
		{"PaidOffHalf", "user", "user has a car loan with Capital One, $14,500 left.", "user", "user paid off half the car loan.", ""},
		{"PaidOffAnotherDebt", "user", "user has a car loan with Capital One, $14,500 left.", "user", "user paid off the overdraft.", ""},
		{"PaidOffQuestion", "user", "user has a car loan with Capital One, $14,500 left.", "user", "Should user pay off the car loan or invest?", ""},
		{"PaidOffSistersLoan", "user", "user has a car loan with Capital One, $14,500 left.", "user", "user's sister paid off her car loan.", ""},
		// The speaker's amount or medicine echoed by the assistant changes with it.
		{"DoseEchoed", "assistant", "assistant: Noted: user takes metformin 500 mg twice a day.", "user", "user's doctor raised user's metformin to 1000 mg twice a day.", "supersedes"},
		{"DoseEchoedStopped", "assistant", "assistant: Noted: user takes metformin 500 mg twice a day.", "user", "user is off metformin now.", "supersedes"},
		{"DoseEchoedOfAnother", "assistant", "assistant: Noted: Tom takes metformin 500 mg twice a day.", "user", "user's doctor raised user's metformin to 1000 mg twice a day.", ""},
		// An acknowledgement that names no one is the user's too.
		{"AmountEchoedNamingNoOne", "assistant", "assistant: Noted: salary $85,000/year.", "user", "user got a raise, user's salary is now $95,000.", "supersedes"},
		{"AmountSaidByAssistantNotEchoed", "assistant", "assistant: A good rent is $1,500 a month.", "user", "user: Rent went up to $2,100 in March.", ""},
		// A medicine switched, stopped or given up, however it is said.
		{"SwitchedFromTo", "user", "user takes metformin 500 mg twice a day.", "user", "user's endocrinologist switched user from metformin to insulin glargine, 12 units at bedtime.", "supersedes"},
		{"SwitchedToTheOneHeld", "user", "user takes insulin glargine, 12 units at bedtime.", "user", "user switched from metformin to insulin.", ""},
		{"SwitchedByToTheOneHeld", "user", "user takes insulin glargine, 12 units at bedtime.", "user", "user's endocrinologist switched user from metformin to insulin glargine.", ""},
		{"OffIt", "user", "user takes metformin 500 mg twice a day.", "user", "user is off metformin now.", "supersedes"},
		{"TookOff", "user", "user takes lisinopril 10 mg daily.", "user", "The doctor took user off lisinopril.", "supersedes"},
		{"TookAnotherOff", "user", "user takes lisinopril 10 mg daily.", "user", "The doctor took Tom off lisinopril.", ""},
		{"OffToAPlace", "user", "user goes to college in Boston.", "user", "user is off to college now.", ""},
		{"OffWork", "user", "user takes metformin 500 mg twice a day.", "user", "user is off work today.", ""},
		{"QuitSmoking", "user", "user smoke about ten cigarettes a day.", "user", "user quit smoking last month (February 2026).", "supersedes"},
		{"QuitAnotherHabit", "user", "user smoke about ten cigarettes a day.", "user", "user quit drinking last month.", ""},
		{"LostAJobNotAHabit", "John", "John just started helping out with a food drive for folks who lost their jobs.", "John", "John lost John's job at the mechanical engineering company.", ""},
		{"DietInsteadOf", "user", "user follow a low-carb diet.", "user", "user has switched to a Mediterranean diet instead of low-carb.", "supersedes"},
		// A switch, or another value said with a cue, of a slot that holds many kinds of
		// thing at once replaces one of its own kind only.
		{"SwitchedOtherKind", "user", "user uses user's albuterol inhaler twice a day.", "user", "user switched to a Mediterranean diet instead of low-carb.", ""},
		{"SwitchedSameKind", "user", "user uses a Ventolin inhaler.", "user", "user switched to a Symbicort inhaler.", "supersedes"},
		{"SwitchedInsteadOfAnother", "user", "user uses a diet tracker app.", "user", "user switched to a Mediterranean diet instead of low-carb.", ""},
		{"SwitchedFromIt", "user", "user uses a Ventolin inhaler.", "user", "user switched from Ventolin to a Symbicort inhaler.", "supersedes"},
		{"NowPlaysOtherKind", "Emma", "Emma plays the piano.", "Emma", "Emma now plays tennis on Sundays.", ""},

		// A support chat's user: a plan, an account manager, where an order ships, a count corrected.
		{"PlanSwitched", "user", "user is on the Starter plan.", "user", "user switched to the Enterprise plan.", "supersedes"},
		{"PlanUpgraded", "user", "user is on the Basic plan.", "user", "user upgraded to the Pro plan.", "supersedes"},
		{"PlanNowOn", "user", "user is on the Basic plan.", "user", "user is now on the Pro plan.", "supersedes"},
		{"PlanNamed", "Nora", "Nora is on the Starter plan.", "Nora", "Nora moved to the Pro plan last week.", "supersedes"},
		{"PlanSame", "user", "user is on the Pro plan.", "user", "user is on the Pro plan and loves it.", ""},
		{"PlanNotAHome", "user", "user lives in Denver.", "user", "user moved to the Pro plan.", ""},
		{"MealPlan", "user", "user is on the Starter plan.", "user", "user is on a meal plan now.", ""},
		{"AccountManagerNow", "user", "user's account manager is Tom.", "user", "user's account manager is now Lisa.", "supersedes"},
		{"AccountManagerNew", "user", "user's account manager is Tom.", "user", "user's new account manager is Lisa.", "supersedes"},
		{"PossessiveNoCue", "user", "user's account manager is Tom.", "user", "user's account manager is Lisa.", ""},
		{"PossessiveOtherThing", "user", "user's account manager is Tom.", "user", "user's team lead is now Lisa.", ""},
		{"PossessiveRelative", "Nina", "Nina's sister is a nurse.", "Nina", "Nina's sister is now in Berlin.", ""},
		{"PossessiveClause", "Nina", "Nina's plan is to move to Porto.", "Nina", "Nina's plan is now to stay in Lisbon.", ""},
		{"ShipsTo", "user", "user's order ships to Boston.", "user", "Please ship user's order to Denver instead.", "supersedes"},
		{"ShipsToNotAHome", "user", "user lives in Boston.", "user", "Please ship user's order to Denver instead.", ""},
		{"SeatsCorrected", "user", "user: We need 3 seats for the team.", "user", "user: Actually we need 5 seats, not 3.", "supersedes"},
		{"SeatsOtherUnit", "user", "user: We need 3 licences for the team.", "user", "user: Actually we need 5 seats, not 3.", ""},
		{"SeatsOtherNumber", "user", "user: We need 4 seats for the team.", "user", "user: Actually we need 5 seats, not 3.", ""},
		// A number of the same thing corrected, without its unit or the wrong one: the memory
		// that states the old number, not another study's, nor another year's.
		{"NumberCorrected", "Dana", "The Smith 2021 study had a sample size of 214 adolescents.", "Dana", "Correction: the Smith 2021 study's sample size was 412, not 214.", "supersedes"},
		{"NumberCorrectedActually", "Dana", "The Smith 2021 study had a sample size of 214 adolescents.", "Dana", "Actually the sample size of the Smith 2021 study is 412.", "supersedes"},
		{"NumberCorrectedActuallyUnit", "Dana", "The Smith 2021 study had a sample size of 214 adolescents.", "Dana", "Sorry, the Smith 2021 study's sample was 412 adolescents.", "supersedes"},
		{"NumberCorrectedOtherStudy", "Dana", "The Smith 2021 study had a sample size of 214 adolescents.", "Dana", "Actually the sample size of the Garcia study is 412.", ""},
		{"NumberCorrectedOtherYear", "Dana", "The Smith 2021 study had a sample size of 214 adolescents.", "Dana", "Actually the sample size of the Smith 2019 study is 412.", ""},
		{"NumberCorrectedOtherNumber", "Dana", "The Smith 2021 study had a sample size of 214 adolescents.", "Dana", "The Smith 2021 study's sample size was 412, not 240.", ""},
		{"NumberNoCue", "Dana", "The Smith 2021 study had a sample size of 214 adolescents.", "Dana", "The sample size of the Smith 2021 study is 412.", ""},
		{"NumberOneWordShared", "Dana", "Dana ran 3 miles on Sunday.", "Dana", "Actually the race was 5.", ""},

		// A customer states a change by asking for it: a plan, a cancellation, how to be
		// contacted; not a question about it, a hedge, another person's plan, nor another slot.
		{"PlanRequested", "user", "Please switch user's plan to Plus", "user", "Switch user's plan to Pro please", "supersedes"},
		{"PlanUpgradeMe", "user", "user is on the Basic plan", "user", "Upgrade user to Premium please", "supersedes"},
		{"PlanUpgradeNamed", "Dana", "Dana is on the Basic plan.", "Dana", "Upgrade Dana to Premium please.", "supersedes"},
		{"PlanPoliteRequest", "user", "user is on the Basic plan.", "user", "Could assistant switch user's plan to Pro, please?", "supersedes"},
		{"PlanSubscriptionChanged", "Dana", "Dana is on the Basic plan.", "Dana", "Dana changed Dana's subscription to Plus.", "supersedes"},
		{"PlanMoveMe", "user", "user is on the Basic plan.", "user", "Please move user to the Team plan.", "supersedes"},
		{"PlanCancelled", "user", "user is on the Pro plan.", "user", "Cancel user's subscription.", "supersedes"},
		{"PlanNoProblem", "user", "user is on the Basic plan.", "user", "No problem, please switch user's plan to Pro.", "supersedes"},
		{"PlanIfPossible", "user", "user is on the Basic plan.", "user", "If possible, please switch user's plan to Pro.", "supersedes"},
		{"PlanQuestion", "user", "user is on the Basic plan.", "user", "Can user switch user's plan to Pro?", ""},
		{"PlanNegated", "user", "user is on the Basic plan.", "user", "Please don't switch user's plan to Pro yet.", ""},
		{"PlanHedged", "user", "user is on the Basic plan.", "user", "If user switches, would assistant move user to the Pro plan?", ""},
		// The sentence a hedge or a question mark is read in runs past an abbreviation's point.
		{"PlanHedgedPastTitle", "user", "user is on the Basic plan.", "user", "If Dr. Lee agrees, switch user's plan to Pro.", ""},
		{"PlanQuestionPastTime", "user", "user is on the Basic plan.", "user", "Can user switch user's plan to Pro at 9 a.m. tomorrow?", ""},
		{"SwitchTheLights", "user", "user is on the Basic plan.", "user", "Switch the lights off, please.", ""},
		{"PlanOtherPerson", "user", "user is on the Basic plan.", "user", "Please switch Tom's plan to Pro.", ""},
		{"PlanOtherRelative", "user", "user is on the Basic plan.", "user", "Upgrade user's wife to Premium please.", ""},
		{"PlanMoveMeNotAPlan", "user", "user is on the Basic plan.", "user", "Please move user to Berlin next month.", ""},
		{"PlanUpgradeAThing", "user", "user is on the Basic plan.", "user", "Let's upgrade Postgres to Aurora.", ""},
		{"CancelQuestion", "user", "user is on the Pro plan.", "user", "How can user cancel user's subscription?", ""},
		{"CancelAnotherProduct", "user", "user is on the Pro plan.", "user", "Cancel user's Netflix subscription.", ""},
		{"PlanNotAHomeOrJob", "user", "user lives in Denver and works at Acme.", "user", "Switch user's plan to Pro please", ""},
		{"ContactSwitched", "user", "Please contact user by email only", "user", "Actually, assistant can call user now instead of emailing", "supersedes"},
		{"ContactPreferNow", "user", "Please contact user by email only.", "user", "Now user prefers phone calls.", "supersedes"},
		{"ContactReachedBy", "Dana", "Dana prefers to be contacted by email.", "Dana", "From now on please text Dana instead.", "supersedes"},
		{"ContactNoCue", "user", "Please contact user by email only.", "user", "Please call user at 555-0199.", ""},
		{"ContactWillCall", "Dana", "Please contact Dana by email only.", "Dana", "Sam will call Dana now.", ""},
		{"ContactDont", "user", "Please contact user by email only.", "user", "Please don't call user now.", ""},
		{"ContactCallMeName", "Dana", "Please contact Dana by email only.", "Dana", "Now you can call Dana Danny.", ""},
		{"ContactOtherPerson", "user", "Please contact user by email only.", "user", "Now assistant can call user's wife instead.", ""},
		{"ContactSameChannel", "user", "Please contact user by email only.", "user", "Now user prefers email.", ""},
		{"ContactNotThePlan", "user", "user is on the Basic plan.", "user", "Actually, assistant can call user now instead of emailing", ""},
		// Support phrasing: a plan named as plans are, with no word "plan"; a way to be
		// contacted from now on, not for once.
		{"SwitchMeToPlan", "user", "user is on the Basic plan.", "user", "Switch user to Pro, please.", "supersedes"},
		{"MoveMeToPlan", "user", "user is on the Starter plan.", "user", "Please move user to Premium.", "supersedes"},
		{"SwitchMeNotAPlan", "user", "user is on the Basic plan.", "user", "Please switch user to Berlin.", ""},
		{"SwitchOthersPlan", "user", "user is on the Basic plan.", "user", "Switch Tom to Pro, please.", ""},
		{"SwitchMeQuestion", "user", "user is on the Basic plan.", "user", "Can user switch user to Pro?", ""},
		{"TextFromNowOn", "user", "Please contact user by email only.", "user", "Please text user from now on.", "supersedes"},
		{"TextFromNowOnOpening", "user", "Please email user.", "user", "Text user from now on.", "supersedes"},
		{"FromNowOnText", "user", "user prefers email.", "user", "From now on, text user please.", "supersedes"},
		{"TextGoingForward", "user", "Please call user.", "user", "Please text user going forward.", "supersedes"},
		{"OnlyText", "user", "Please email user.", "user", "Please only text user.", "supersedes"},
		{"EmailMeOnly", "user", "Please call user.", "user", "Email user only, please.", "supersedes"},
		{"TextOnce", "user", "Please contact user by email only.", "user", "Text user, please.", ""},
		{"CallAtNumber", "user", "Please contact user by email only.", "user", "Call user at 555-0199.", ""},
		{"CallMeName", "Dana", "Please contact Dana by email only.", "Dana", "Call Dana Danny from now on.", ""},
		{"TextNotNow", "user", "Please contact user by email only.", "user", "Please don't text user from now on.", ""},

		// A move, a number, an email, an address, a plan said in German or Spanish.
		{"MovedGerman", "user", "user: Ich wohne in München.", "user", "user: Ich bin nach Hamburg umgezogen.", "supersedes"},
		{"MovedGermanAfterEnglish", "Lena", "Lena lives in Munich.", "Lena", "Lena: Wir sind letzte Woche nach Hamburg umgezogen.", "supersedes"},
		{"NewNumberGerman", "user", "user: Meine Telefonnummer ist 0171 5551234.", "user", "user: Meine neue Telefonnummer ist 0176 9998877.", "supersedes"},
		{"NewEmailGerman", "user", "user's email is lena@alt.de.", "user", "user: Neue E-Mail-Adresse: lena@neu.de", "supersedes"},
		{"PlanGerman", "user", "user: Ich bin im Basic-Tarif.", "user", "user: Bitte stellen Sie mich auf den Pro-Tarif um.", "supersedes"},
		{"PlanGermanWechseln", "user", "user is on the Basic plan.", "user", "user: Ich möchte zu Premium wechseln.", "supersedes"},
		{"MovedSpanish", "Ana", "Ana: Vivo en Madrid.", "Ana", "Ana mudé a Valencia.", "supersedes"},
		{"NewNumberSpanish", "Ana", "Ana's phone number is 612 345 678.", "Ana", "Ana: Mi nuevo número es 699 111 222.", "supersedes"},
		{"NewAddressSpanish", "Ana", "Ana: Mi dirección es Calle Mayor 3.", "Ana", "Ana: Mi nueva dirección es Calle Sol 8.", "supersedes"},
		{"PlanSpanish", "user", "user: Estoy en el plan Básico.", "user", "user: Cambia mi plan a Premium, por favor.", "supersedes"},
		{"GermanOtherPerson", "user", "user: Ich wohne in München.", "user", "user: Meine Schwester wohnt in Hamburg.", ""},
		{"GermanPlanOtherPerson", "user", "user: Ich bin im Basic-Tarif.", "user", "user: Mein Mann möchte zu Premium wechseln.", ""},
		{"GermanPlanQuestion", "user", "user: Ich bin im Basic-Tarif.", "user", "user: Kann ich zu Premium wechseln?", ""},
		{"GermanNumberNotTheHome", "user", "user: Ich wohne in München.", "user", "user: Meine neue Telefonnummer ist 0176 9998877.", ""},
		{"SpanishOtherPerson", "Ana", "Ana: Vivo en Madrid.", "Ana", "Ana: Mi hermana se mudó a Valencia.", ""},
		{"SpanishQuestion", "Ana", "Ana: Vivo en Madrid.", "Ana", "Ana: ¿Me mudo a Valencia?", ""},

		// A new contact detail in English, however it is said.
		{"NewEmail", "user", "user's email is ana@oldmail.org.", "user", "user's new email is ana@newmail.net.", "supersedes"},
		{"EmailChangedTo", "user", "user's email is ana@oldmail.org.", "user", "user's email changed to ana@newmail.net.", "supersedes"},
		{"NewAddressNoSubject", "user", "user's address is 12 Elm Street.", "user", "user: New address: 40 Oak Avenue.", "supersedes"},
		{"NewAddressOfAnother", "user", "user's address is 12 Elm Street.", "user", "user: Tom's new address is 40 Oak Avenue.", ""},

		// A journal's line with no subject is the speaker's: a move, a job; a street lived on.
		{"MovedNoSubject", "Maya", "Maya lives in a small flat on Elm Street in Leeds.", "Maya", "Maya: Moved to Manchester today.", "supersedes"},
		{"LiveOnAStreet", "Maya", "Maya lives in a small flat on Elm Street in Leeds.", "Maya", "Maya: We now live on Canal Road in Manchester.", "supersedes"},
		{"WorkNoSubject", "Maya", "Maya: Work at Brightline Insurance as an analyst.", "Maya", "Maya: First day at my new job at Northwind Labs as a data engineer.", "supersedes"},
		{"MovedNoSubjectADay", "Maya", "Maya lives in Leeds.", "Maya", "Maya: Moved to Thursday.", ""},
		{"WorkNoSubjectNoEmployer", "Maya", "Maya works at Brightline.", "Maya", "Maya: Work at the office was hectic.", ""},
		{"MovedOfAnother", "Maya", "Maya lives in Leeds.", "Maya", "Maya: Tom moved to Manchester today.", ""},

		// A record's labelled value of a person, as a tracker's notes say it: the later value of
		// the same label and person replaces the earlier, of no other label nor person.
		{"StageFromApplied", "Lena Ortiz", "Lena Ortiz: New application: Liam Fischer applied for the Product Designer role. Email liam.fischer@example.com. Stage: applied.", "Lena Ortiz", "Lena Ortiz: Phone screen done with Liam Fischer. Liam Fischer moved to stage: screened.", "supersedes"},
		{"StageNowAt", "Lena", "Lena: Phone screen done with Liam Fischer. Liam Fischer moved to stage: screened.", "Lena", "Lena: Interview feedback for Liam Fischer: recommend moving forward. Liam Fischer is now at stage: interviewed.", "supersedes"},
		{"StageAtBare", "Priya", "Alex Kim is at stage screened.", "Priya", "Alex Kim is at stage interviewed.", "supersedes"},
		{"StageLabelled", "Priya", "Alex Kim is now at stage: interviewed.", "Priya", "Priya: Offer approved for Alex Kim, start in January. Stage: offer.", "supersedes"},
		{"StageChangedFromTo", "Priya", "Priya: Offer approved for Alex Kim. Stage: offer.", "Priya", "Alex Kim's stage changed from offer to hired.", "supersedes"},
		{"StageOtherSpeaker", "Priya", "Alex Kim is at stage screened.", "Tom", "Tom: Alex Kim signed the offer. Stage: hired.", "supersedes"},
		{"StageSame", "Priya", "Alex Kim is at stage screened.", "Priya", "Priya: Call with Alex Kim. Stage: screened.", ""},
		{"StageOfAnother", "Priya", "Alex Kim is now at stage: interviewed.", "Priya", "Priya: Offer approved for Alex Novak. Stage: offer.", ""},
		{"StageOfOneOfTwo", "Priya", "Alex Kim is now at stage: interviewed.", "Priya", "Priya: Interview feedback for Alex Kim from Sam Patel. Stage: offer.", ""},
		{"StageOtherLabel", "Priya", "Alex Kim is now at stage: interviewed.", "Priya", "Priya: Offer approved for Alex Kim. Priority: high.", ""},
		{"StageNotAnEmail", "Lena", "Lena: Email liam.fischer@example.com, phone +1 415 555 1005.", "Lena", "Liam Fischer moved to stage: screened.", ""},
		{"StageNotAHome", "Nora", "Nora lives in Lisbon.", "Nora", "Nora moved to stage: screened.", ""},
		{"NoteNoField", "Priya", "Priya: Call Alex Kim back. Note: urgent.", "Priya", "Priya: Emailed Alex Kim. Note: done.", ""},

		// A team's decisions: a tool for a role, an owner, a version.
		{"ToolSwitchedRole", "user", "user: For Python we lint with flake8 and format with black.", "user", "user: Let's switch the linter to ruff and drop flake8.", "supersedes"},
		{"ToolDropped", "user", "user: We lint with flake8.", "user", "user: Let's drop flake8.", "supersedes"},
		{"ToolInsteadOf", "user", "user: We test with Jest.", "user", "user: From now on use Vitest instead of Jest.", "supersedes"},
		{"ToolDeprecated", "user", "user: We use moment for dates.", "user", "user: moment is deprecated here; use date-fns instead.", "supersedes"},
		{"ToolNoLongerUsed", "user", "user: For Python we lint with flake8 and format with black.", "user", "user: We no longer use black.", "supersedes"},
		{"ToolReplaces", "user", "user: For Python we lint with flake8 and format with black.", "user", "user: ruff format replaces black.", "supersedes"},
		{"ToolReplacedBy", "user", "user: We deploy with Heroku.", "user", "user: Heroku was replaced by Fly.", "supersedes"},
		{"ToolNowForRole", "user", "user: Our pipelines run on Jenkins.", "user", "user: We now use GitLab CI for all pipelines.", "supersedes"},
		{"ToolNowForRoleUseFor", "user", "user: We use npm for packages.", "user", "user: We now use pnpm for all packages.", "supersedes"},
		{"ToolMigratedFromTo", "user", "user: Our database is Postgres 14 on RDS.", "user", "user: We migrated from Postgres 14 to Postgres 16.", "supersedes"},
		{"ToolUpgradedRole", "user", "user: We run the API gateway on Node 20.", "user", "user: The API gateway was upgraded to Node 22.", "supersedes"},
		{"ToolRunsOnUpgraded", "user", "user: The API gateway runs on Node 18.", "user", "user: The API gateway was upgraded to Node 22 yesterday.", "supersedes"},
		{"ToolUpgradedProduct", "user", "user: Our database is Postgres 14.", "user", "user: We upgraded to Postgres 16.", "supersedes"},
		{"OwnerTookOver", "user", "user: Priya owns the billing service.", "user", "user: Jonas took over the billing service from Priya.", "supersedes"},
		{"OwnerHandedOver", "user", "user: The billing service is owned by Priya.", "user", "user: Priya handed the billing service over to Jonas.", "supersedes"},
		{"OwnerNoCue", "user", "user: Priya owns the billing service.", "user", "user: Jonas owns the billing service.", "supersedes"},
		{"OwnerTwoSpeakers", "user", "user: Priya owns the billing service.", "Sam", "Sam: Jonas owns the billing service.", "contradicts"},
		{"OwnerToldByAnother", "user", "user: Priya owns the billing service.", "Jonas", "Jonas: Jonas took over the billing service last week.", "supersedes"},
		// A team's "we" and "our" are the team's, whoever of the space says them.
		{"ToolNowForRoleTeammate", "Alice", "Alice: Our pipelines run on Jenkins.", "Bob", "Bob: We now use GitLab CI for all pipelines.", "supersedes"},
		{"ToolSwitchedTeammate", "planner", "planner: For Python we lint with flake8.", "coder", "coder: Let's switch the linter to ruff.", "supersedes"},
		{"ToolInsteadOfTeammate", "Alice", "Alice: We test with Jest.", "Bob", "Bob: From now on use Vitest instead of Jest.", "supersedes"},
		{"ToolNoCueTeammate", "Alice", "Alice: Our pipelines run on Jenkins.", "Bob", "Bob: We use GitLab CI for pipelines.", ""},
		{"ToolTheRole", "user", "user: The linter is flake8.", "user", "user: Switch the linter to ruff.", "supersedes"},
		{"ToolTheRoleTeammate", "Alice", "Alice: The package manager is Yarn.", "Bob", "Bob: Switch the package manager to pnpm.", "supersedes"},
		{"TheRoleNoTool", "user", "user: The winner is Maria.", "user", "user: Now the winner is Tom.", ""},
		{"ToolOtherRole", "user", "user: We use pnpm.", "user", "user: We now use GitLab CI for all pipelines.", ""},
		{"ToolOtherRoleUseFor", "user", "user: We use pnpm for packages.", "user", "user: We now use GitLab CI for all pipelines.", ""},
		{"InsteadOtherTool", "user", "user: We use pnpm for all JavaScript packages.", "user", "user: For Python we use ruff format instead of black.", ""},
		{"InsteadOtherToolTS", "user", "user: We use TypeScript 5.6 in the frontend.", "user", "user: For Python we use ruff format instead of black.", ""},
		{"ToolOtherRoleSwitched", "user", "user: We lint with flake8.", "user", "user: Let's switch the bundler to Vite.", ""},
		{"ToolInsteadOfAnother", "user", "user: We test with Jest.", "user", "user: From now on use date-fns instead of moment.", ""},
		{"ToolNoCue", "user", "user: Our pipelines run on Jenkins.", "user", "user: We use GitLab CI for pipelines.", ""},
		{"ToolUpgradedOtherProduct", "user", "user: We run the API gateway on Node 20.", "user", "user: We upgraded to Postgres 16.", ""},
		{"ToolMovedHome", "user", "user: Our database is Postgres 14.", "user", "user: We moved to Berlin.", ""},
		{"OwnerOtherThing", "user", "user: Priya owns the billing service.", "user", "user: Jonas took over the search indexer.", ""},
		// A hand-over said as "X now owns Y", "Y is now X's", "Z is off it"; a ticket owned.
		{"OwnerNowOwnsOffIt", "Priya", "Priya: Tom owns the billing migration.", "Priya", "Priya: Ana now owns the billing migration, Tom is off it.", "supersedes"},
		{"OwnerNowOwnsTicket", "Priya", "Priya: Omar owns PAY-150, the invoice export.", "Priya", "Priya: Lena now owns PAY-150, Omar is off it.", "supersedes"},
		{"OwnerNowOwnsToldByAnother", "Priya", "Priya: Tom owns the billing migration.", "Sam", "Sam: Ana now owns the billing migration.", "supersedes"},
		{"OwnerIsNowTheirs", "Priya", "Priya: Omar owns PAY-150, the invoice export.", "Sam", "Sam: PAY-150 is now Lena's.", "supersedes"},
		{"OwnerOtherTicket", "Priya", "Priya: Omar owns PAY-150, the invoice export.", "Priya", "Priya: Lena now owns PAY-151.", ""},
		// A ticket's status, whoever tells it: the later replaces the earlier.
		{"TicketReopened", "Ana", "Ana: PAY-142 is done.", "Sam", "Sam: We reopened PAY-142, the fix broke refunds.", "supersedes"},
		{"TicketDone", "Ana", "Ana: PAY-142 is open.", "Sam", "Sam: PAY-142 is done.", "supersedes"},
		{"TicketUnblocked", "Sam", "Sam: PAY-1420 is blocked on the vendor API.", "Ana", "Ana: PAY-1420 is unblocked.", "supersedes"},
		{"TicketInReview", "Sam", "Sam: PAY-1420 is blocked on the vendor API.", "Sam", "Sam: PAY-1420 is in review.", "supersedes"},
		{"TicketOther", "Ana", "Ana: PAY-142 is done.", "Sam", "Sam: PAY-1420 is blocked on the vendor API.", ""},
		{"TicketSameStatus", "Ana", "Ana: PAY-142 is done.", "Sam", "Sam: PAY-142 is done, finally.", ""},
		{"OwnerSameOwner", "user", "user: Priya owns the billing service.", "user", "user: Priya took over the billing service again.", ""},
		{"DropBy", "user", "user: We lint with flake8.", "user", "user: Let's drop by the office and fix flake8.", ""},

		// A thing's version: another version of the same name replaces it, not a version of
		// another thing, nor what the thing runs on.
		{"VersionRunsUpgraded", "Dana", "Dana: The api runs v2.14.2", "Dana", "Dana: The api was upgraded to v2.14.3", "supersedes"},
		{"VersionRunsOnUpgraded", "Dana", "Dana: The api runs on v2.14.2", "Dana", "Dana: The api was upgraded to v2.14.3", "supersedes"},
		{"VersionIsNow", "Dana", "Dana: The api version is v2.14.2", "Dana", "Dana: The api version is now v2.14.3", "supersedes"},
		{"VersionDeployed", "deploy", "deploy: Deployed api v2.14.2", "deploy", "deploy: Deployed api v2.14.3", "supersedes"},
		{"VersionDeployedTeammate", "Dana", "Dana: Deployed api version 2.14.2", "Sam", "Sam: Deployed api version 2.14.3", "supersedes"},
		{"VersionRunsAgain", "Dana", "Dana: The api runs v2.14.2", "Dana", "Dana: The api runs v2.14.3", "supersedes"},
		{"VersionRunsTwoSpeakers", "Dana", "Dana: The api runs v2.14.2", "Sam", "Sam: The api runs v2.14.3", "contradicts"},
		{"VersionSame", "deploy", "deploy: Deployed api v2.14.3", "deploy", "deploy: Deployed api v2.14.3", ""},
		{"VersionOtherThing", "deploy", "deploy: Deployed billing service v1.2", "deploy", "deploy: Deployed search service v1.3", ""},
		{"VersionNotRuntime", "Dana", "Dana: The api runs on Node 20.", "Dana", "Dana: The api version is now v2.14.3", ""},
		{"RuntimeNotVersion", "Dana", "Dana: The api runs v2.14.2", "Dana", "Dana: The api was upgraded to Node 22.", ""},

		// A gauge's reading: a later one of the same gauge, in the same unit, replaces it; a
		// happening measured is a new one.
		{"ReadingTool", "thermostat", "Thermostat living room 21.5C", "thermostat", "Thermostat living room 22.0C", "supersedes"},
		{"ReadingAt", "disk", "Disk /dev/sda1 at 81%", "disk", "Disk /dev/sda1 at 86%", "supersedes"},
		{"ReadingIsNow", "Dana", "Dana: The living room temperature is 21.5C", "Dana", "Dana: The living room temperature is now 22.0C", "supersedes"},
		{"ReadingOtherReporter", "thermostat", "Thermostat living room 21.5C", "Dana", "Dana: Thermostat living room 22.0C", "supersedes"},
		{"ReadingSame", "thermostat", "Thermostat living room 21.5C", "thermostat", "Thermostat living room 21.5C", ""},
		{"ReadingOtherGauge", "thermostat", "Thermostat living room 21.5C", "thermostat", "Thermostat bedroom 19.0C", ""},
		{"ReadingOtherUnit", "disk", "Disk /dev/sda1 at 81%", "disk", "Disk /dev/sda1 at 120 GB", ""},
		{"ReadingEvent", "backup", "Backup job nightly-db finished OK in 312 s", "backup", "Backup job nightly-db finished OK in 298 s", ""},
		{"ReadingWordAlone", "user", "user: lol 100%", "user", "user: lol 90%", ""},
		{"ReadingEventPercent", "backup", "Backup nightly-db finished at 95%", "backup", "Backup nightly-db finished at 97%", ""},
		// A gauge's measure alone, as a device labels it ("Battery 80%"): the device's own.
		{"ReadingLabelled", "phone", "Battery 80%", "phone", "Battery 65%", "supersedes"},
		{"ReadingLabelledAt", "phone", "Battery at 80%", "phone", "Battery 65%", "supersedes"},
		{"ReadingLabelledOtherDevice", "phone", "Battery 80%", "laptop", "Battery 65%", ""},
		{"ReadingWordNoGauge", "user", "user: Agreed 100%", "user", "user: Agreed 90%", ""},
		// A set-point, a power draw: a gauge too.
		{"ReadingSetTo", "thermostat", "Thermostat set to 19 degrees", "thermostat", "Thermostat set to 21 degrees", "supersedes"},
		{"ReadingSetToHalf", "thermostat", "Thermostat set to 20 degrees", "thermostat", "Thermostat set to 20.5 degrees", "supersedes"},
		{"ReadingWatts", "power", "House power draw 340 W", "power", "House power draw 1210 W", "supersedes"},
		{"ReadingKWh", "meter", "Energy used today 4.2 kWh", "meter", "Energy used today 6.8 kWh", "supersedes"},
		{"ReadingWattsOtherGauge", "power", "House power draw 340 W", "power", "Oven power draw 2000 W", ""},
		// A person setting a gauge reads it, as the gauge's own reading does.
		{"ReadingSetByPerson", "thermostat", "Thermostat set to 19 degrees", "Sarah", "Sarah set the thermostat to 20 degrees", "supersedes"},
		{"ReadingSetByPersonSaid", "thermostat", "Thermostat set to 19 degrees", "Sarah", "Sarah: I set the thermostat to 20 degrees", "supersedes"},
		{"ReadingSetByPersonThenGauge", "Sarah", "Sarah set the thermostat to 20 degrees", "thermostat", "Thermostat set to 21 degrees", "supersedes"},
		{"ReadingSetByPersonTurned", "James", "James turned the thermostat down to 18 degrees", "Sarah", "Sarah set the thermostat to 20 degrees", "supersedes"},
		{"ReadingSetByPersonOtherGauge", "thermostat", "Thermostat set to 19 degrees", "Sarah", "Sarah set the oven to 180 degrees", ""},
		{"ReadingSetByPersonNoUnit", "Sarah", "Sarah set the alarm to 7", "Sarah", "Sarah set the alarm to 8", ""},
		// Where a thing is kept, said with "now", is a move of it, as "we moved it to…" is.
		{"KeptNow", "Sarah", "Sarah: The spare key is under the blue flowerpot by the back door.", "James", "James: We now keep the spare key with the neighbour at number 14.", "supersedes"},
		{"IsNowWith", "Sarah", "Sarah: The spare key is under the blue flowerpot by the back door.", "James", "James: The spare key is now with the neighbour at number 14.", "supersedes"},
		{"MovedThing", "Sarah", "Sarah: The spare key is under the blue flowerpot by the back door.", "James", "James: We moved the spare key to the neighbour at number 14.", "supersedes"},
		{"KeptNowOtherThing", "Sarah", "Sarah: The spare key is under the blue flowerpot by the back door.", "James", "James: We now keep the bikes in the garage.", ""},
		{"KeptNoNow", "Sarah", "Sarah: The spare key is under the blue flowerpot by the back door.", "James", "James: We keep the spare key with the neighbour at number 14.", ""},
		{"ReadingSetToSame", "thermostat", "Thermostat set to 21 degrees", "thermostat", "Thermostat set to 21 degrees", ""},

		// Versions compared as versions: a patch is another version, a zero added the same.
		{"VersionPatch", "deploy", "deploy: Deployed api v2.14", "deploy", "deploy: Deployed api v2.14.1", "supersedes"},
		{"VersionPatchRuns", "Dana", "Dana: The api runs 2.14", "Dana", "Dana: The api was upgraded to 2.14.1", "supersedes"},
		{"VersionZeroAdded", "deploy", "deploy: Deployed api v2.14.0", "deploy", "deploy: Deployed api 2.14", ""},

		// A withdrawal is a status, which a return replaces.
		{"BackAfterWithdrawal", "Priya", "Olivia Turner withdrew from the process.", "Priya", "Olivia Turner is back in the process; no longer withdrawn.", "supersedes"},
		{"NoLongerWithdrawn", "Priya", "Priya: Olivia Turner has withdrawn her application.", "Priya", "Priya: Olivia Turner is no longer withdrawn.", "supersedes"},
		{"WithdrewMoney", "Priya", "Priya: Olivia Turner withdrew $200 from the ATM.", "Priya", "Priya: Olivia Turner is back in the process.", ""},

		// Where one lives at, a street and its number, is an address.
		{"NewAddressAfterLivesAt", "Anna", "Anna lives at Hauptstrasse 5.", "Anna", "Anna's new address is Lindenweg 12.", "supersedes"},
		{"AddressAfterLivesAtNumberFirst", "Anna", "Anna lives at 12 Oak Lane.", "Anna", "Anna's address is 4 Elm Road.", "supersedes"},
		{"LivesAtHome", "Anna", "Anna lives at home.", "Anna", "Anna's address is Lindenweg 12.", ""},

		// A value that ends a quotation, its point inside the quotes.
		{"QuotedNumber", "Priya", `Priya: Email from Maria Chen: "Maria Chen's number is +1 415 555 0101."`, "Priya", `Priya: Email from Maria Chen: "Maria Chen's new number is +1 415 555 0199."`, "supersedes"},

		// A space's "we" and "our" are its members': another member's move ends one's home,
		// "our" car or address is the speaker's, as "we" is.
		{"WeMovedOtherMember", "Ana", "Ana lives in Lisbon.", "Tom", "Tom: We moved to Berlin.", "supersedes"},
		{"WeMovedNotOfAnother", "Ana", "Nora lives in Lisbon.", "Tom", "Tom: We moved to Berlin.", ""},
		{"OurCarSold", "David", "David: Our car is a 2012 Honda Civic.", "David", "David: We sold the Honda Civic and bought a blue 2025 Toyota RAV4.", "supersedes"},
		{"OurAddressNewAddress", "Sarah", "Sarah: Our address is 12 Oak Street, Springfield.", "David", "David: New address: 48 Maple Avenue, Riverton.", "supersedes"},
		// A street address is a home: a move to another one ends it.
		{"WeMovedStreet", "Sarah", "Sarah: We live at 12 Oak Street, Springfield.", "Sarah", "Sarah: We moved to 48 Maple Avenue, Riverton.", "supersedes"},
		{"MovedStreet", "Sarah", "Sarah lives at 12 Oak Street, Springfield.", "Sarah", "Sarah moved to 48 Maple Avenue, Riverton.", "supersedes"},
		{"MovedToADay", "Sarah", "Sarah lives at 12 Oak Street, Springfield.", "Sarah", "Sarah: The meeting moved to 12 May.", ""},
		// A team's decisions: an owner said as a plan, a tool gone back on.
		{"TakesOverFrom", "Tom", "Tom will own the billing migration.", "Sara", "Sara takes over the billing migration from Tom.", "supersedes"},
		{"DroppedAfterAll", "Jonas", "Jonas: For the database we go with MySQL.", "Jonas", "Jonas: Back to Postgres after all, MySQL is dropped.", "supersedes"},
		// A person's score on what is measured is a reading of that measure: a standing or a
		// test of it replaces one, said by whoever; not another measure, nor another person's.
		{"ScoreQuizThenStanding", "Ms. Rivera", "Ms. Rivera: Ana scored 62% on the fractions quiz.", "Ms. Rivera", "Ms. Rivera: Ana is now at 85% on fractions.", "supersedes"},
		{"ScoreStanding", "Rivera", "Rivera: Ana is at 62% on fractions.", "Rivera", "Rivera: Ana is now at 85% on fractions.", "supersedes"},
		{"ScoreQuizAgain", "Rivera", "Rivera: Ana scored 62% on the fractions quiz.", "Tom", "Tom: Ana scored 70% on the fractions test.", "supersedes"},
		{"ScoreOtherMeasure", "Rivera", "Rivera: Ana scored 62% on the fractions quiz.", "Rivera", "Rivera: Ana scored 70% on the decimals quiz.", ""},
		{"ScoreOtherStudent", "Rivera", "Rivera: Ana scored 62% on the fractions quiz.", "Rivera", "Rivera: Ben is now at 85% on fractions.", ""},
		{"ScoreSame", "Rivera", "Rivera: Ana scored 62% on the fractions quiz.", "Rivera", "Rivera: Ana is at 62% on fractions.", ""},
		// A score said alone in reply to a question is its speaker's, which a later one replaces.
		{"ScoreAnswered", "Ana", `Tutor asked: "How did the quiz go?" Ana: 62% on fractions.`, "Tutor", "Tutor: Ana is now at 85% on fractions.", "supersedes"},
		{"ScoreAnsweredOfTheUser", "user", `assistant asked: "How did the quiz go?" user: 62% on fractions.`, "assistant", "assistant: the user is now at 85% on fractions.", "supersedes"},
		{"ScoreAnsweredOtherStudent", "Ana", `Tutor asked: "How did the quiz go?" Ana: 62% on fractions.`, "Tutor", "Tutor: Ben is now at 85% on fractions.", ""},

		// A plan for the next session: the one said later replaces it; a plan for another
		// day does not.
		{"NextSessionPlan", "Rivera", "Rivera: Next session we should review decimals.", "Rivera", "Rivera: Next session we should review long division.", "supersedes"},
		{"NextLessonPlan", "Rivera", "Rivera: In the next lesson we will practise scales.", "Rivera", "Rivera: Next lesson we'll start the Bach minuet.", "supersedes"},
		{"NextSessionSame", "Rivera", "Rivera: Next session we should review decimals.", "Rivera", "Rivera: Next session we should review decimals.", ""},
		{"NextSessionOtherPlan", "Rivera", "Rivera: Next session we should review decimals.", "Rivera", "Rivera: Tomorrow we should review long division.", ""},

		// An allergy outgrown ends it; a school started replaces the one gone to, whoever says it.
		{"Outgrew", "Sarah", "Leo is allergic to milk.", "Sarah", "Leo outgrew his milk allergy! The allergist says he can drink milk now.", "supersedes"},
		{"OutgrewOther", "Sarah", "Leo is allergic to milk.", "Sarah", "Leo outgrew his shoes.", ""},
		{"SchoolStarted", "Mia", "Mia goes to Lincoln Elementary School, Mia is in 5th grade.", "Sarah", "Mia started 6th grade at Jefferson Middle School today.", "supersedes"},
		{"SchoolKindergarten", "Sarah", "Leo goes to Sunny Days Preschool on weekday mornings.", "Sarah", "Leo started kindergarten at Maple Grove Elementary today.", "supersedes"},
		{"SchoolOfAnother", "Sarah", "Leo goes to Sunny Days Preschool.", "Sarah", "Mia started 6th grade at Jefferson Middle School today.", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := changeOf(newStatement(tt.new, tt.newSpeaker), agent.Candidate{Content: tt.new, Description: "Said by " + tt.newSpeaker + " on 2 May 2023."}, realm.Node{Content: tt.old, Description: "Said by " + tt.oldSpeaker + " on 1 May 2023."})
			if got.predicate != tt.wantPredicate {
				t.Errorf("predicate %q (%s), want %q; claims new %+v old %+v", got.predicate, got.description, tt.wantPredicate,
					stateClaims(tt.new, tt.newSpeaker), stateClaims(tt.old, tt.oldSpeaker))
			}
		})
	}
}

// TestLabelledSlot: a memory that states a labelled value is of its person's label, the
// slot whose current holders the write path reads however large the space; not a home.
func TestLabelledSlot(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct{ text, subject string }{
		{"Phone screen done with Liam Fischer. Liam Fischer moved to stage: screened.", "Liam Fischer"},
		{"Offer approved for Alex Kim: start in January. Stage: offer.", "Alex Kim"},
	} {
		obs := realm.Observation{ID: "o1", SessionID: "s1", Speaker: "Priya Shah", Content: tt.text, ObservedAt: time.Date(2026, 10, 4, 9, 0, 0, 0, time.UTC)}
		for _, c := range mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates {
			if strings.Contains(c.Content, "tage") && (c.Subject != tt.subject || c.Attribute != "stage") {
				t.Errorf("%q: slot %q %q, want %q stage", c.Content, c.Subject, c.Attribute, tt.subject)
			}
		}
	}
}

// TestHabitOfAVerbAlone: a verb alone answers ("Yes, I do."), it states no habit that a
// change could read; a verb with what is done does.
func TestHabitOfAVerbAlone(t *testing.T) {
	for _, tt := range []struct {
		text  string
		habit bool
	}{
		{"Yes, user does.", false},
		{"Yes, user has.", false},
		{"Yes, Nina is.", false},
		{"Yes, user does yoga every morning.", true},
	} {
		habit := slices.ContainsFunc(stateClaims(tt.text, "user"), func(c stateClaim) bool { return c.slot == "habit" })
		if habit != tt.habit {
			t.Errorf("%q: a habit %v, want %v (claims %+v)", tt.text, habit, tt.habit, stateClaims(tt.text, "user"))
		}
	}
}

// TestFullName: a claim's subject is the whole name that the patterns read the last word
// of, where they read it, not a capitalised word that stands before the name elsewhere.
func TestFullName(t *testing.T) {
	for _, tt := range []struct{ text, subject string }{
		{"Raj Patel is VP Engineering at Initech.", "Raj Patel"},
		{"New contact: Lisa Schultz, Head of Data at Acme.", "Lisa Schultz"},
		{"Omar has lived in Cairo Omar's whole life.", "Omar"},
		{"Yesterday Nina moved to Berlin.", "Nina"},
		{"Whenever Caroline hears this jam, Caroline thinks of home.", "Caroline"},
		{"Nina said that Kofi Mensah moved to Accra.", "Kofi Mensah"},
	} {
		if cs := stateClaims(tt.text, "Sam"); len(cs) == 0 || cs[0].subject != tt.subject {
			t.Errorf("%q: claims %+v, want of %q", tt.text, cs, tt.subject)
		}
	}
}

// TestJoinedAs: a job taken, a promotion or a move at an employer as a title is two
// claims, where and as what; the employer's name ends before "as", the title before "at".
func TestJoinedAs(t *testing.T) {
	for _, tt := range []struct{ text, at, as string }{
		{"Raj Patel left Initech and joined Globex as CTO.", "Globex", "CTO"},
		{"Mia joined Stripe as a backend engineer last May.", "Stripe", "backend engineer"},
		{"Raj was promoted to CTO at Initech.", "Initech", "CTO"},
		{"Raj was promoted to CTO.", "", "CTO"},
		{"Raj moved from Acme to Globex as VP Sales.", "Globex", "VP Sales"},
		{"Raj Patel moved to Globex as Head of Data last week.", "Globex", "Head of Data"},
		{"Mia joined Stripe in May.", "Stripe", ""},
	} {
		var at, as string
		for _, c := range stateClaims(tt.text, "Sam") {
			switch c.slot {
			case "works at":
				at = c.value
			case "works as":
				as = c.value
			}
		}
		if at != tt.at || as != tt.as {
			t.Errorf("%q: works at %q as %q, want at %q as %q", tt.text, at, as, tt.at, tt.as)
		}
	}
}

// TestStateEndedDescription: an ended state's supersedes edge names the slot that changed,
// which the read path compares with a question (retrieval/validity.go).
func TestStateEndedDescription(t *testing.T) {
	got := changeBetween(newStatement("Mia quit Spotify last week.", "Mia"), nodeClaims(realm.Node{Content: "Mia works at Spotify on the data team.", Description: "Said by Mia on 1 May 2023."}))
	if want := "Mia works at: no longer Spotify"; got.predicate != "supersedes" || got.description != want {
		t.Errorf("%s %q, want supersedes %q", got.predicate, got.description, want)
	}
}

// TestChangeDescription: a supersedes edge restates the older memory's clause with the new
// value and names the old one, or names the old one alone; never a value neither says
// ("db-prod-4").
func TestChangeDescription(t *testing.T) {
	for _, tt := range []struct{ old, new, want string }{
		{"user: Our database is Postgres 14 on RDS, instance db-prod-1.", "user: We moved from Postgres 14 to Postgres 16 last week; db-prod-1 now runs 16.4.", "user: Our database is Postgres 16 on RDS, instance db-prod-1 (previously Postgres 14)"},
		{"user: Our database is Postgres 14 on RDS, instance db-prod-1.", "user: db-prod-1 now runs Postgres 16.", "user: Our database is Postgres 16 on RDS, instance db-prod-1 (previously 14)"},
		{"user: Our pipelines run on Jenkins.", "user: We now use GitLab CI for all pipelines.", "user: Our pipelines run on GitLab CI (previously Jenkins)"},
		{"user: We run the API gateway on Node 20.", "user: The API gateway was upgraded to Node 22.", "user: We run the API gateway on Node 22 (previously Node 20)"},
		{"user: We use moment for dates.", "user: moment is deprecated here; use date-fns instead.", "user: We use date-fns for dates (previously moment)"},
		{"user: We lint with flake8.", "user: Let's drop flake8.", "user lint: no longer flake8"},
		{"user: Priya owns the billing service.", "user: Jonas took over the billing service from Priya.", "user: Jonas owns the billing service (previously Priya)"},
		// A signatory's title is the old one's, not the new one's.
		{"user: Jane Porter, General Counsel, signs for Acme Corp.", "user: Mark Chen now signs for Acme Corp instead.", "user: Mark Chen signs for Acme Corp (previously Jane Porter)"},
		// An amount of a section: the section's number is none.
		{"user: Section 7.2 (Term): Either party shall notify the Source Code within 90 days.", "user: Amendment 3: the period in Section 7.2 is changed to 15 days.", "user: Section 7.2 (Term): Either party shall notify the Source Code within 15 days (previously 90 days)"},
		// Of two amounts of one unit, the one the change names: by its value, or by an
		// amount of another unit said beside it.
		{"user: Section 5.1 (Payment): the Licensee shall pay $5,000 within 30 days, then $2,000 within 60 days.", "user: Amendment 6: the payment due within 30 days under Section 5.1 is changed to $4,000.", "user: Section 5.1 (Payment): the Licensee shall pay $4,000 within 30 days, then $2,000 within 60 days (previously $5,000)"},
		{"user: Section 5.1 (Payment): the Licensee shall pay $5,000 within 30 days, then $2,000 within 60 days.", "user: Amendment 6: the $5,000 payment under Section 5.1 is changed to $4,500.", "user: Section 5.1 (Payment): the Licensee shall pay $4,500 within 30 days, then $2,000 within 60 days (previously $5,000)"},
		{"user: Section 5.1 (Payment): the Licensee shall pay $5,000 within 30 days, then $2,000 within 60 days.", "user: Amendment 6: the $5,000 payment under Section 5.1 is now due within 45 days.", "user: Section 5.1 (Payment): the Licensee shall pay $5,000 within 45 days, then $2,000 within 60 days (previously 30 days)"},
		{"user: Section 5.1 (Payment): the Licensee shall pay $5,000 within 30 days, then $2,000 within 60 days.", "user: Amendment 6: the payment due within 60 days under Section 5.1 is changed to $2,500.", "user: Section 5.1 (Payment): the Licensee shall pay $5,000 within 30 days, then $2,500 within 60 days (previously $2,000)"},
		{"user's rent is $1,850 a month.", "user: Rent went up to $2,100 in March (March 2026).", "user's rent is $2,100 a month (previously $1,850)"},
		{"user's rent is $1,850 a month.", "user's rent is now $2,100 a month.", "user rent: $2,100 a month, previously $1,850 a month"},
		{"user's mortgage with Nationwide is £1,420 a month on a 5.19% fixed rate.", "user: Remortgaged to Halifax at 4.39%, now £1,336.20 a month.", "user's mortgage: 4.39%, £1,336.20, previously 5.19%, £1,420"},
		{"user: Council tax is £148 a month on a 5% rate.", "user: Council tax went up to £156.40, a 6% rate.", "user: Council tax is £156.40 a month on a 6% rate (previously £148, 5%)"},
		{"user has a car loan with Capital One, $14,500 left at 6.9% APR.", "user paid off the car loan!", "user's car loan: paid off"},
		{"user's salary is $85,000 a year before tax.", "user got a 5% raise.", "user's salary: raised 5%, previously $85,000"},
		{"user earns £48k a year.", "user: Took a 10% pay cut this month.", "user's salary: cut 10%, previously £48k"},
		// A phone number is one value, named whole, not the amounts of its digit groups.
		{"user: Lisa Schultz's phone number is +1 415 555 0101.", "user: Lisa Schultz's phone is now +44 20 7946 0958.", "Lisa Schultz phone number: +44 20 7946 0958, previously +1 415 555 0101"},
	} {
		got, _ := changeOf(newStatement(tt.new, "user"), agent.Candidate{Content: tt.new, Description: "Said by user on 2 November 2026."}, realm.Node{Content: tt.old, Description: "Said by user on 1 October 2026."})
		if got.predicate != "supersedes" || got.description != tt.want {
			t.Errorf("%q after %q: %s %q, want supersedes %q", tt.new, tt.old, got.predicate, got.description, tt.want)
		}
	}
}

// TestCorrectedSaidLater: a correction supersedes what its speaker said before it, not
// what was said on a later day (a chat's history sent late); its edge goes from the
// correction to the older memory even when that one tells of a later time (a visit next
// week), and the older memory holds until the correction was told.
func TestCorrectedSaidLater(t *testing.T) {
	old := realm.Node{Content: "Nina's sister Marta is visiting us next week.", Description: "Said by Nina on 2 May 2023."}
	said := newStatement("Nina's sister's name is Marina, not Marta.", "Nina")
	for _, tt := range []struct {
		name, description string
		want              string
	}{
		{"Later", "Said by Nina on 6 May 2023.", "supersedes"},
		{"SameDay", "Said by Nina on 2 May 2023.", "supersedes"},
		{"Earlier", "Said by Nina on 1 May 2023.", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, untilTold := changeOf(said, agent.Candidate{Content: said.text, Description: tt.description}, old)
			if got.predicate != tt.want || (tt.want != "" && !untilTold) {
				t.Errorf("%s %q (until told %v), want %q until told", got.predicate, got.description, untilTold, tt.want)
			}
		})
	}
}

// TestCorrectedInSession: a correction that shares no other word with the memory it
// corrects ("Her name is Marina, not Marta") corrects one of its session when it says it
// corrects; not one of another session, nor "X, not Y" that says no such thing.
func TestCorrectedInSession(t *testing.T) {
	visit := realm.Node{Content: "Nina's sister Marta is visiting us next week.", Description: "Said by Nina on 2 May 2023 in session s1."}
	drive := realm.Node{Content: "Marta offered to drive us to the airport.", Description: "Said by Nina on 2 May 2023 in session s1."}
	for _, tt := range []struct {
		name, text, session string
		old                 realm.Node
		want                string
	}{
		{"SameSession", "Her name is Marina, not Marta.", "s1", visit, "supersedes"},
		{"SameSessionInReply", "Her name is Marina, not Marta.", "s1, in reply to Sam", visit, "supersedes"},
		{"AnotherSession", "Her name is Marina, not Marta.", "s2", visit, ""},
		{"NotACorrection", "Nina: We will invite Marina, not Marta.", "s1", drive, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			said := newStatement(tt.text, "Nina")
			got, _ := changeOf(said, agent.Candidate{Content: tt.text, Description: "Said by Nina on 2 May 2023 in session " + tt.session + "."}, tt.old)
			if got.predicate != tt.want {
				t.Errorf("%s %q, want %q", got.predicate, got.description, tt.want)
			}
		})
	}
}

// TestAmountsOf: a number and its unit; not a year, an ordinal, a time of day, a day of a
// month, nor a date the rewrite wrote in parentheses.
func TestAmountsOf(t *testing.T) {
	for _, tt := range []struct{ text, want string }{
		{"Nina takes 20mg of sertraline.", "20 mg"},
		{"Nina takes 20 mg of sertraline.", "20 mg"},
		{"The gym now costs 45 euros a month.", "45 euro"},
		{"The rent went up to $1200.", "1200 $"},
		{"Nina's daily goal is 8000.", "8000 "},
		{"Ana is 8 now.", "8 "},
		{"The flight on May 9th at 7pm, May 16 or 12 December (12 December 2026), in 2023.", ""},
		// A year-like number of money is money.
		{"Rent is 1900 dollars; Nina owes 2000 gold since 2019.", "1900 dollar, 2000 gold"},
		// A number that ends a name is no amount of its own; a decimal, a number written
		// with thousands separators or in thousands is one.
		{"The instance db-prod-1 now runs 16.4.", "16.4 "},
		{"Nina weighs 72.5 kg, 2,5 kg more.", "72.5 kg, 2.5 kg"},
		{"Rent went up to $2,100 in March.", "2100 $"},
		{"Rent is €1.310,75 now, the house was $1,298,001.10.", "1310.75 €, 1298001.10 $"},
		{"Salary is now £52.5k, was £48k, bonus ₹18,500.", "52500 £, 48000 £, 18500 ₹"},
		// A point before one group of three digits is a decimal point, as English writes
		// one, but in money or among other groups.
		{"Nina ran 2.100 km, paid €2.100 and 1.250.000 for the house.", "2.1 km, 2100 €, 1250000 "},
		{"Nina earns $2.100k.", "2100 $"},
		// A day of every month is one; a rank or a date is not.
		{"The card is due on the 15th of each month, moved to the 22nd.", "15 day, 22 day"},
		{"The 3rd time, on the 4th of July, on the 5th floor.", ""},
		{"Nina weighs 72.5 kg, pays €1,250.50 at 4.5% and earns $2.1k.", "72.5 kg, 1250.50 €, 4.5 %, 2100 $"},
		{"The rent is $2,000, 1,250 euros or 72,5 kg.", "2000 $, 1250 euro, 72.5 kg"},
		// A number written as a word counts with what it counts; "twice" counts times.
		{"Nina drinks three cups of coffee, 500 mg of it twice a day and 2 times at night.", "3 cup, 500 mg, 2 time, 2 time"},
		{"Nina likes the one with oat milk.", ""},
		// A phone number is no amount, whether a "+" or a label says it is one.
		{"Lisa's number is +44 20 7946 0958, phone 415 555 0101 or mobile: 415-555-0102; 20 mg at +5 kg.", "20 mg, 5 kg"},
		// A number that names a part of a text is no amount.
		{"Amendment 3 changes Section 7.2 and § 4.3 to 15 days, clause 9 to $3,000.", "15 day, 3000 $"},
	} {
		var got []string
		for _, a := range amountsOf(tt.text) {
			got = append(got, a.value+" "+a.unit)
		}
		if strings.Join(got, ", ") != tt.want {
			t.Errorf("%q: %q, want %q", tt.text, strings.Join(got, ", "), tt.want)
		}
	}
}

// TestRescheduled: a text that moves what an older one of its speaker told of to another
// date supersedes it; another speaker's, the same date, or one word in common do not.
func TestRescheduled(t *testing.T) {
	dec := func(d int) *time.Time { t := time.Date(2026, 12, d, 0, 0, 0, 0, time.UTC); return &t }
	flight := realm.Node{Content: "user's flight to Madrid is on December 12th (12 December 2026).", Description: "Said by user on 1 December 2026.", TStart: dec(12)}
	tests := []struct {
		name, speaker, text string
		at                  *time.Time
		want                string
	}{
		{"Moved", "user", "user's flight to Madrid got moved to December 14th (14 December 2026).", dec(14), "user's flight madrid: moved from 12 December 2026 to 14 December 2026"},
		{"AnotherSpeaker", "Ana", "Ana's flight to Madrid got moved to December 14th (14 December 2026).", dec(14), ""},
		{"SameDay", "user", "user's flight to Madrid got moved to another gate (12 December 2026).", dec(12), ""},
		{"OneWordInCommon", "user", "user's dentist moved the appointment to Madrid time, December 14th (14 December 2026).", dec(14), ""},
		{"Slipped", "user", "user's flight to Madrid slipped to December 14th (14 December 2026).", dec(14), "user's flight madrid: moved from 12 December 2026 to 14 December 2026"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rescheduled(newStatement(tt.text, tt.speaker), agent.Candidate{Content: tt.text, TStart: tt.at}, flight)
			if got.description != tt.want || (got.predicate == "supersedes") != (tt.want != "") {
				t.Errorf("%s %q, want %q", got.predicate, got.description, tt.want)
			}
		})
	}
}

// TestDateSlipped: a date moved, slipped or pushed, however said, and by whoever tells it
// when it is no one's own (the launch, Mia's appointment), ends the older date; another
// person's own date is theirs to move.
func TestDateSlipped(t *testing.T) {
	day := func(y int, m time.Month, d int) *time.Time { t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC); return &t }
	launch := realm.Node{Content: "Sara: The launch is on April 15 (15 April 2026).", Description: "Said by Sara on 4 February 2026.", TStart: day(2026, 4, 15)}
	planned := realm.Node{Content: "Sara: The launch is planned for April 15 (15 April 2026).", Description: "Said by Sara on 4 February 2026.", TStart: day(2026, 4, 15)}
	deadline := realm.Node{Content: "Sara: The billing migration deadline is end of February (February 2026).", Description: "Said by Sara on 4 February 2026.", TStart: day(2026, 2, 1), TEnd: day(2026, 2, 28)}
	dentist := realm.Node{Content: "Sarah: Dr. Patel's office rescheduled Mia's dentist appointment to November 12 (12 November 2025) at 3pm.", Description: "Said by Sarah on 15 October 2025.", TStart: day(2025, 11, 12)}
	own := realm.Node{Content: "Sarah: Sarah's dentist appointment is on November 5 (5 November 2025).", Description: "Said by Sarah on 1 October 2025.", TStart: day(2025, 11, 5)}
	tuesday := realm.Node{Content: "Anna: Dentist on Tuesday (Tuesday 3 March 2026) at 3pm.", Description: "Said by Anna on 2 March 2026.", TStart: day(2026, 3, 3)}
	call := realm.Node{Content: "Anna: The call with the landlord is at 3pm.", Description: "Said by Anna on 2 March 2026."}
	flight := realm.Node{Content: "Anna: We're on the 7:15 flight to Lisbon on Friday (Friday 6 March 2026).", Description: "Said by Anna on 2 March 2026.", TStart: day(2026, 3, 6)}
	trip := realm.Node{Content: "Anna: We're going to Lisbon in May (May 2026).", Description: "Said by Anna on 2 March 2026.", TStart: day(2026, 5, 1), TEnd: day(2026, 5, 31)}
	ownTrip := realm.Node{Content: "Anna: Anna is going to Lisbon in May (May 2026).", Description: "Said by Anna on 2 March 2026.", TStart: day(2026, 5, 1), TEnd: day(2026, 5, 31)}
	boiler := realm.Node{Content: "James: The boiler service is booked for Jan 12 (12 January 2027).", Description: "Said by James on 26 November 2026.", TStart: day(2027, 1, 12)}
	moved := realm.Node{Content: "Tom: The release moved to Friday the 18th.", Description: "Said by Tom on 2 March 2026."}
	tests := []struct {
		name          string
		old           realm.Node
		speaker, text string
		start, end    *time.Time
		want          string
	}{
		{"MovesFromTo", planned, "Sara", "Sara: The launch moves from April 15 to May 6 (15 April to 6 May 2026).", day(2026, 4, 15), day(2026, 5, 6), "supersedes"},
		{"Pushed", launch, "Sara", "Sara: The launch was pushed to May 6 (6 May 2026).", day(2026, 5, 6), nil, "supersedes"},
		{"Slipped", launch, "Sara", "Sara: The launch slipped to May 6 (6 May 2026).", day(2026, 5, 6), nil, "supersedes"},
		{"SlippedOtherMember", launch, "Tom", "Tom: The launch slipped to May 6 (6 May 2026).", day(2026, 5, 6), nil, "supersedes"},
		{"DeadlineMoves", deadline, "Sara", "Sara: The billing migration deadline moves to March 20 (20 March 2026).", day(2026, 3, 20), nil, "supersedes"},
		{"RescheduledOtherMember", dentist, "David", "David: Dr. Patel's office rescheduled Mia's dentist appointment to November 19 (19 November 2025) at 4pm.", day(2025, 11, 19), nil, "supersedes"},
		{"AnothersOwn", own, "David", "David: The dentist appointment was rescheduled to November 12 (12 November 2025).", day(2025, 11, 12), nil, ""},
		{"PushedTheDoor", launch, "Sara", "Sara: The launch team pushed the door to May (May 2026).", day(2026, 5, 1), day(2026, 5, 31), ""},
		// Another member's move or cancellation counts when it tells of none of its speaker's
		// own ("our" is the space's members'), and either names whose it is or moves to a date
		// or an hour, calls off, or says "we", of what is not told as another's own.
		{"OurSlippedOtherMember", launch, "Tom", "Tom: Our launch slipped to May 6 (6 May 2026).", day(2026, 5, 6), nil, "supersedes"},
		{"WeekdayOfNamedMember", tuesday, "Ben", "Ben: Anna's dentist moved to Thursday.", day(2026, 3, 2), nil, "supersedes"},
		{"WeekdayOfNoOne", tuesday, "Ben", "Ben: The dentist moved to Thursday.", day(2026, 3, 2), nil, ""},
		{"WeekdayOfOwn", tuesday, "Ben", "Ben: Ben's dentist moved to Thursday.", day(2026, 3, 2), nil, ""},
		{"HourOtherMember", call, "Ben", "Ben: The call moved to 4pm.", nil, nil, "supersedes"},
		{"FlightHourOtherMember", flight, "Ben", "Ben: We're on the 9:40 flight now instead of the 7:15.", nil, nil, "supersedes"},
		{"FlightHourOfOwn", flight, "Ben", "Ben: Ben's flight moved to 9:40.", nil, nil, ""},
		{"CancelledOtherMember", trip, "Ben", "Ben: The Lisbon trip is cancelled.", day(2026, 3, 20), nil, "supersedes"},
		{"CancelledAnothersOwn", ownTrip, "Ben", "Ben: The Lisbon trip is cancelled.", day(2026, 3, 20), nil, ""},
		// A day of a month said by its abbreviation ("Jan 19") is a date moved to.
		{"AbbreviatedMonthOtherMember", boiler, "Sarah", "Sarah: The boiler service moved to Jan 19 (19 January 2027).", day(2027, 1, 19), nil, "supersedes"},
		{"AbbreviatedMonthNoDay", boiler, "Sarah", "Sarah: The boiler service man moved to Mars.", nil, nil, ""},
		// A move to a weekday and its day of the month is to a date; a move told is the plan
		// at the day it names, which another move replaces, whoever tells it.
		{"MovedAgainOtherMember", moved, "Priya", "Priya: The release moved again, to Tuesday the 22nd.", nil, nil, "supersedes"},
		{"MovedAgainToWeekdayOtherMember", moved, "Priya", "Priya: The release moved again, to Tuesday.", nil, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := agent.Candidate{Content: tt.text, Description: "Said by " + tt.speaker + " on 4 March 2026.", TStart: tt.start, TEnd: tt.end}
			got, _ := changeOf(newStatement(tt.text, tt.speaker), c, tt.old)
			if got.predicate != tt.want {
				t.Errorf("%q (%s), want %q", got.predicate, got.description, tt.want)
			}
		})
	}
}

// TestRescheduledMonthRead: a move from one day to another read as a month starting on the
// older day (a date written "December 1" inside "from December 1 to December 8") is still a
// move, told without a day that would be wrong.
func TestRescheduledMonthRead(t *testing.T) {
	day := func(d int) *time.Time { t := time.Date(2026, 12, d, 0, 0, 0, 0, time.UTC); return &t }
	beta := realm.Node{Content: "user: The beta release is planned for December 1 (1 December 2026).", Description: "Said by user on 5 October 2026.", TStart: day(1)}
	text := "user: The beta release moved from December (December 2026) 1 to December 8 (8 December 2026)."
	got := rescheduled(newStatement(text, "user"), agent.Candidate{Content: text, TStart: day(1), TEnd: day(31)}, beta)
	if want := "user's beta release: moved from 1 December 2026"; got.predicate != "supersedes" || got.description != want {
		t.Errorf("%s %q, want supersedes %q", got.predicate, got.description, want)
	}
}

// TestOfflineSupersedes: through Integrate, a state change is an add with a supersedes
// edge from the new node to the old one, which is never merged into or skipped for.
func TestOfflineSupersedes(t *testing.T) {
	a := New(Options{})
	day := time.Date(2023, 3, 20, 10, 0, 0, 0, time.UTC)
	old := realm.Node{ID: "old", Type: realm.Fact, Content: "Nora lives in Lisbon now, in a small flat.", Description: "Said by Nora on 10 January 2023."}
	other := realm.Node{ID: "other", Type: realm.Fact, Content: "Sam lives in Leeds.", Description: "Said by Sam on 10 January 2023."}
	obs := realm.Observation{ID: "o9", SessionID: "s9", Speaker: "Nora", Content: "We moved from Lisbon to Berlin last week.", ObservedAt: day}
	ext, out := integrateBeside(t, a, obs, old, other)
	found := false
	for i, d := range out {
		if ext.Candidates[i].Type != realm.Event && ext.Candidates[i].Type != realm.Fact {
			continue
		}
		if d.Action != agent.ActionAdd {
			t.Errorf("candidate %d: %s, want add", i, d.Action)
		}
		for _, e := range d.Edges {
			if e.Predicate == realm.Supersedes && e.From == agent.Self && e.To == "old" {
				found = true
			}
			if e.To == "other" && (e.Predicate == realm.Supersedes || e.Predicate == realm.Contradicts) {
				t.Errorf("edge %+v to another person's fact", e)
			}
		}
	}
	if !found {
		t.Errorf("no supersedes edge to the old fact: %+v", out)
	}
}

// TestOfflineChangeNotMerged: a statement of another value that reads almost as the older
// one (an email of the same local part, found as similar as the same statement) is added
// and supersedes it, never merged into it; the same value said again is still skipped.
func TestOfflineChangeNotMerged(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		speaker, older, newer string
		want                  string
	}{
		{"Sam Carter", "Carlos Sato's email is carlos.sato@initech.com.", "Carlos Sato's email is now carlos.sato@globex.com.", agent.ActionAdd},
		{"Sam Carter", "Carlos Sato's email is carlos.sato@initech.com.", "Carlos Sato's email is still carlos.sato@initech.com.", agent.ActionSkip},
		// A hand-over says every word of the owner it replaces: the older owner stays.
		{"Priya", "Tom owns the billing migration.", "Ana now owns the billing migration, Tom is off it.", agent.ActionAdd},
	} {
		old := realm.Node{ID: "old", Type: realm.Fact, Content: tt.speaker + ": " + tt.older, Description: "Said by " + tt.speaker + " on 1 February 2026."}
		obs := realm.Observation{ID: "o2", SessionID: "s2", Speaker: tt.speaker, Content: tt.newer, ObservedAt: time.Date(2026, 6, 1, 10, 0, 0, 0, time.UTC)}
		ext := mustExtract(t, a, agent.ExtractInput{Observation: obs})
		in := agent.IntegrateInput{Observation: obs}
		for _, c := range ext.Candidates {
			in.Candidates = append(in.Candidates, agent.CandidateContext{Candidate: c, Neighbours: []agent.Neighbour{{Node: old, Similar: true, Similarity: 0.97}}})
		}
		out, _, err := a.Integrate(context.Background(), in)
		if err != nil {
			t.Fatal(err)
		}
		for i, d := range out {
			if ext.Candidates[i].Type != realm.Fact {
				continue
			}
			superseded := slices.ContainsFunc(d.Edges, func(e agent.EdgeOp) bool { return e.Predicate == realm.Supersedes && e.To == "old" })
			if d.Action != tt.want || superseded != (tt.want == agent.ActionAdd) {
				t.Errorf("%q: %s (superseded %v), want %s", tt.newer, d.Action, superseded, tt.want)
			}
		}
	}
}

// TestOfflineOtherNumberNotMerged: a statement of another number, its decimals aside
// ("20.5" is not "20"), is added, never merged into the one it reads almost as; the
// same number said again is still skipped.
func TestOfflineOtherNumberNotMerged(t *testing.T) {
	a := New(Options{})
	said := time.Date(2026, 12, 1, 7, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		speaker, older, newer, want string
	}{
		{"thermostat", "Thermostat set to 20 degrees", "Thermostat set to 20.5 degrees", agent.ActionAdd},
		{"Sam", "Sam: The recipe needs 2 cups of flour and 3 eggs.", "The recipe needs 2.5 cups of flour and 3 eggs.", agent.ActionAdd},
		{"thermostat", "Thermostat set to 20.5 degrees", "Thermostat set to 20.5 degrees", agent.ActionSkip},
	} {
		old := realm.Node{ID: "old", Type: realm.Fact, Content: tt.older, Description: "Said by " + tt.speaker + " on 1 December 2026.", LearnedAt: &said}
		obs := realm.Observation{ID: "o2", Speaker: tt.speaker, Role: "tool", Content: tt.newer, ObservedAt: said.Add(time.Hour)}
		ext, out := integrateBeside(t, a, obs, old)
		for i, d := range out {
			if ext.Candidates[i].Type == realm.Fact && d.Action != tt.want {
				t.Errorf("%q after %q: %s %q, want %s", tt.newer, tt.older, d.Action, d.Merged, tt.want)
			}
		}
	}
}

// TestOfflineSupersedesCurrentHolder: a second change of the same value supersedes the
// first change, which holds, not the original statement that the first one superseded.
func TestOfflineSupersedesCurrentHolder(t *testing.T) {
	a := New(Options{})
	raised := time.Date(2026, 7, 8, 19, 0, 0, 0, time.UTC)
	original := realm.Node{ID: "50mg", Type: realm.Fact, Content: "user takes 50mg of sertraline every morning.", Description: "Said by user on 2 June 2026 in session s1.", ValidUntil: &raised}
	first := realm.Node{ID: "100mg", Type: realm.Event, Content: "user's doctor raised user's sertraline dose to 100mg.", Description: "Said by user on 8 July 2026 in session s2.", TStart: &raised}
	obs := realm.Observation{ID: "o3", SessionID: "s3", Speaker: "user", Content: "My psychiatrist lowered my sertraline to 75mg because of side effects.", ObservedAt: time.Date(2026, 10, 21, 19, 0, 0, 0, time.UTC)}
	_, out := integrateBeside(t, a, obs, original, first)
	var got []string
	for _, d := range out {
		for _, e := range d.Edges {
			if e.Predicate == realm.Supersedes {
				got = append(got, e.From+" → "+e.To+": "+e.Description)
			}
		}
	}
	if want := agent.Self + " → 100mg: user's sertraline: 75mg, previously 100mg"; len(got) != 1 || got[0] != want {
		t.Errorf("supersedes edges %q, want %q", got, want)
	}
}

// TestOfflineReadingSaidAgain: a gauge's value said again, after another reading of it
// replaced it, replaces that reading only: not another gauge's reading of the same day,
// whose device's name shares a word with it ("humidity-sensor", "living-room-sensor").
func TestOfflineReadingSaidAgain(t *testing.T) {
	a := New(Options{})
	at := func(minute int) *time.Time { t := time.Date(2026, 12, 7, 8, minute, 0, 0, time.UTC); return &t }
	reading := func(id, device, content string, minute int, until *time.Time) realm.Node {
		return realm.Node{ID: id, Type: realm.Fact, Content: device + ": " + content, Description: "Said by " + device + " on 7 December 2026.",
			Sources: []string{id}, LearnedAt: at(minute), ValidUntil: until}
	}
	obs := realm.Observation{ID: "a4", Speaker: "humidity-sensor", Role: "tool", Content: "Bathroom humidity 48%", ObservedAt: *at(4)}
	_, out := integrateBeside(t, a, obs,
		reading("a0", "humidity-sensor", "Bathroom humidity 48%", 0, at(2)),
		reading("a1", "living-room-sensor", "Living room temperature 20.6C", 1, at(3)),
		reading("a2", "humidity-sensor", "Bathroom humidity 65%", 2, nil),
		reading("a3", "living-room-sensor", "Living room temperature 20.3C", 3, nil))
	if got := changedBy(out); !slices.Equal(got, []string{"a2"}) {
		t.Errorf("superseded %q, want the humidity's current reading [a2] only", got)
	}
}

// TestOfflineReadingEndedNotSupersededAgain: a gauge's reading supersedes what holds only;
// readings that later ones already replaced are not superseded again, when the one that
// holds is not among the neighbours.
func TestOfflineReadingEndedNotSupersededAgain(t *testing.T) {
	a := New(Options{})
	at := func(minute int) *time.Time { t := time.Date(2026, 12, 7, 8, minute, 0, 0, time.UTC); return &t }
	reading := func(id, content string, minute int, until *time.Time) realm.Node {
		return realm.Node{ID: id, Type: realm.Fact, Content: "living-room-sensor: " + content, Description: "Said by living-room-sensor on 7 December 2026.",
			Sources: []string{id}, LearnedAt: at(minute), ValidUntil: until}
	}
	obs := realm.Observation{ID: "a9", Speaker: "living-room-sensor", Role: "tool", Content: "Living room temperature 19.8C", ObservedAt: *at(9)}
	_, out := integrateBeside(t, a, obs,
		reading("a1", "Living room temperature 20.6C", 1, at(3)),
		reading("a3", "Living room temperature 20.3C", 3, at(5)))
	if got := changedBy(out); len(got) > 0 {
		t.Errorf("superseded %q, readings already replaced", got)
	}
}

// TestOfflineCorrection: through Integrate, a correction supersedes the older memory it
// corrects, which holds until the correction was told, though that memory tells of a later
// time (a visit next week).
func TestOfflineCorrection(t *testing.T) {
	a := New(Options{})
	visit := time.Date(2023, 5, 9, 0, 0, 0, 0, time.UTC)
	old := realm.Node{ID: "old", Type: realm.Event, Content: "Nina's sister Marta is visiting us next week (the week after 2 May 2023).", Description: "Said by Nina on 2 May 2023 in session s1.", TStart: &visit}
	obs := realm.Observation{ID: "o2", SessionID: "s2", Speaker: "Nina", Content: "Oops, I got that wrong: my sister's name is Marina, not Marta.", ObservedAt: time.Date(2023, 5, 6, 10, 0, 0, 0, time.UTC)}
	_, out := integrateBeside(t, a, obs, old)
	found := false
	for _, d := range out {
		for _, e := range d.Edges {
			if e.Predicate != realm.Supersedes {
				continue
			}
			if e.From != agent.Self || e.To != "old" || e.ValidUntil == nil || !e.ValidUntil.Equal(obs.ObservedAt) {
				t.Errorf("edge %s → %s until %v, want the correction to supersede the older memory until %v", e.From, e.To, e.ValidUntil, obs.ObservedAt)
			}
			found = true
		}
	}
	if !found {
		t.Errorf("no supersedes edge: %+v", out)
	}
}

// TestOfflineSupersedesHistorySentLate: a chat's history sent after its newer part; the
// older statement does not supersede the newer one, the newer one supersedes it, from
// when it began (its own time, else the day it was said).
func TestOfflineSupersedesHistorySentLate(t *testing.T) {
	a := New(Options{})
	moved := time.Date(2025, 3, 15, 0, 0, 0, 0, time.UTC)
	for _, newer := range []realm.Node{
		{ID: "move", Type: realm.Event, Content: "Nora moved from Lisbon to Berlin last weekend.", Description: "Said by Nora on 20 March 2025.", TStart: &moved},
		{ID: "move", Type: realm.Fact, Content: "Nora lives in Berlin now.", Description: "Said by Nora on 15 March 2025."},
	} {
		obs := realm.Observation{ID: "o1", SessionID: "s1", Speaker: "Nora", Content: "I live in Lisbon with my partner.", ObservedAt: time.Date(2025, 3, 3, 10, 0, 0, 0, time.UTC)}
		_, out := integrateBeside(t, a, obs, newer)
		found := false
		for _, d := range out {
			for _, e := range d.Edges {
				if e.Predicate != realm.Supersedes {
					continue
				}
				if e.From != "move" || e.To != agent.Self {
					t.Errorf("%s: edge %s → %s, want the newer memory to supersede the older statement", newer.Content, e.From, e.To)
					continue
				}
				found = true
				// The description tells the change as it happened: Berlin now, Lisbon before.
				if !strings.Contains(e.Description, "Berlin") || !strings.Contains(e.Description, "Lisbon") || strings.Contains(e.Description, "previously Berlin") {
					t.Errorf("%s: description %q, want Berlin the newer value", newer.Content, e.Description)
				}
				if e.ValidUntil != nil && !e.ValidUntil.Equal(moved) {
					t.Errorf("%s: the older statement holds until %v, want %v", newer.Content, e.ValidUntil, moved)
				}
			}
		}
		if !found {
			t.Errorf("%s: no supersedes edge: %+v", newer.Content, out)
		}
	}
}

// TestOfflineSupersedesAmountSentLate: an amount told before its change, sent after it, is
// superseded by the change, from the day the change was told, as a home is.
func TestOfflineSupersedesAmountSentLate(t *testing.T) {
	a := New(Options{})
	raised := realm.Node{ID: "raised", Type: realm.Event, Content: "user's doctor raised user's sertraline dose from 50 mg to 100 mg.", Description: "Said by user on 10 February 2026 in session s2."}
	for _, tt := range []struct{ older, want string }{
		{"I take sertraline 50 mg once a day.", "raised → $self until 2026-02-10: user takes sertraline 100 mg once a day (previously 50 mg)"},
		{"I take melatonin 5 mg at night.", ""},
	} {
		obs := realm.Observation{ID: "o1", SessionID: "s1", Speaker: "user", Content: tt.older, ObservedAt: time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)}
		_, out := integrateBeside(t, a, obs, raised)
		var got []string
		for _, d := range out {
			for _, e := range d.Edges {
				if e.Predicate == realm.Supersedes {
					until := "ever"
					if e.ValidUntil != nil {
						until = e.ValidUntil.Format(time.DateOnly)
					}
					got = append(got, fmt.Sprintf("%s → %s until %s: %s", e.From, e.To, until, e.Description))
				}
			}
		}
		if want := slices.DeleteFunc([]string{tt.want}, func(s string) bool { return s == "" }); !slices.Equal(got, want) {
			t.Errorf("%q after the change: supersedes edges %q, want %q", tt.older, got, want)
		}
	}
}

// TestOfflineSupersedesPlanBeforeItsDate: a plan dated after the day it was said holds
// from that day, so a change told before the plan's date is the newer one: it supersedes
// the plan, not the other way round.
func TestOfflineSupersedesPlanBeforeItsDate(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct{ plan, change string }{
		{"Maya signed up for the Portland half marathon in November (November 2026).", "I'm not doing the half marathon anymore, my knee is injured."},
		{"Kat and Maya are planning a trip to Lisbon in October (October 2026), just the two of them.", "Kat and I cancelled the Lisbon trip."},
	} {
		month := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
		if strings.Contains(tt.plan, "November") {
			month = month.AddDate(0, 1, 0)
		}
		plan := realm.Node{ID: "plan", Type: realm.Event, Content: tt.plan, Description: "Said by Maya on 12 June 2026.", TStart: &month}
		obs := realm.Observation{ID: "o2", SessionID: "s2", Speaker: "Maya", Content: tt.change, ObservedAt: time.Date(2026, 9, 5, 10, 0, 0, 0, time.UTC)}
		_, out := integrateBeside(t, a, obs, plan)
		found := false
		for _, d := range out {
			for _, e := range d.Edges {
				if e.Predicate == realm.Supersedes {
					found = true
					if e.From != agent.Self || e.To != "plan" {
						t.Errorf("%q: edge %s → %s, want the change to supersede the plan", tt.change, e.From, e.To)
					}
				}
			}
		}
		if !found {
			t.Errorf("%q: no supersedes edge: %+v", tt.change, out)
		}
	}
}

// TestOfflineShortState: a state said in few words is a memory, not filler.
func TestOfflineShortState(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct {
		text string
		want bool
	}{{"I'm 29 years old, still feel 19.", true}, {"Haha, still 19!", false}, {"Her name is Marina, not Marta.", true}, {"Not bad, not great!", false},
		// A team's short statements: a verb and a named thing.
		{"Our database is Postgres 14.", true}, {"We deploy with Heroku.", true}, {"Our cache is Redis.", true},
		{"Builds run on Kubernetes.", true}, {"Sprint 42 ends on 11/27.", true}, {"Thanks, Mel!", false},
		// A plan called off by a pronoun; not one moved to nothing said.
		{"It's off.", true}, {"That's off now.", true}, {"Ok, it's moved.", false}} {
		ext := mustExtract(t, a, agent.ExtractInput{Observation: obsAt("o1", "s1", "Quin", tt.text)})
		got := false
		for _, c := range ext.Candidates {
			got = got || c.Type == realm.Fact || c.Type == realm.Event
		}
		if got != tt.want {
			t.Errorf("%q: a fact or event %v, want %v (%+v)", tt.text, got, tt.want, ext.Candidates)
		}
	}
}

// TestOfflineSupersedesLateDescription: with the older message sent last, the edge's
// description still names the newer value as the current one.
func TestOfflineSupersedesLateDescription(t *testing.T) {
	a := New(Options{})
	newer := realm.Node{ID: "seattle", Type: realm.Fact, Content: "Bob Chen lives in Seattle.", Description: "Said by Bob Chen on 20 March 2025."}
	obs := realm.Observation{ID: "o1", SessionID: "s1", Speaker: "Bob Chen", Content: "I live in Portland.", ObservedAt: time.Date(2025, 2, 3, 10, 0, 0, 0, time.UTC)}
	_, out := integrateBeside(t, a, obs, newer)
	var got []string
	for _, d := range out {
		for _, e := range d.Edges {
			if e.Predicate == realm.Supersedes {
				got = append(got, e.From+" → "+e.To+": "+e.Description)
			}
		}
	}
	want := "seattle → " + agent.Self + ": Bob Chen lives in: Seattle, previously Portland"
	if len(got) != 1 || got[0] != want {
		t.Errorf("supersedes edges %q, want %q", got, want)
	}
}

// TestOfflineSupersedesTeamHistorySentLate: a team's older decision sent after its newer
// one, by the same speaker or another of the team, is superseded by it as if it had come
// first: the newer one's cue ("now", "switch") counts, though the older one has none.
func TestOfflineSupersedesTeamHistorySentLate(t *testing.T) {
	a := New(Options{})
	for _, tt := range []struct{ older, olderSpeaker, newer, newerSpeaker string }{
		{"Our pipelines run on Jenkins.", "user", "user: We now use GitLab CI for all pipelines.", "user"},
		{"Our pipelines run on Jenkins.", "planner", "coder: We now use GitLab CI for all pipelines.", "coder"},
		{"The linter is flake8.", "user", "user: Switch the linter to ruff.", "user"},
	} {
		newer := realm.Node{ID: "newer", Type: realm.Fact, Content: tt.newer, Description: "Said by " + tt.newerSpeaker + " on 10 November 2026 in session s2."}
		obs := realm.Observation{ID: "o1", SessionID: "s1", Speaker: tt.olderSpeaker, Content: tt.older, ObservedAt: time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)}
		_, out := integrateBeside(t, a, obs, newer)
		var got []string
		for _, d := range out {
			for _, e := range d.Edges {
				if e.Predicate == realm.Supersedes || e.Predicate == realm.Contradicts {
					got = append(got, fmt.Sprintf("%s %s → %s", e.Predicate, e.From, e.To))
				}
			}
		}
		if want := "supersedes newer → " + agent.Self; len(got) != 1 || got[0] != want {
			t.Errorf("%s, then %q said before it: edges %q, want %q", tt.newer, tt.older, got, want)
		}
	}
}

// integrateBeside extracts obs and integrates each of its candidates beside nodes, each
// found similar to it.
func integrateBeside(t *testing.T, a *Agent, obs realm.Observation, nodes ...realm.Node) (agent.Extraction, []agent.Integration) {
	t.Helper()
	ext := mustExtract(t, a, agent.ExtractInput{Observation: obs})
	in := agent.IntegrateInput{Observation: obs}
	for _, c := range ext.Candidates {
		cc := agent.CandidateContext{Candidate: c}
		for _, n := range nodes {
			cc.Neighbours = append(cc.Neighbours, agent.Neighbour{Node: n, Similar: true})
		}
		in.Candidates = append(in.Candidates, cc)
	}
	out, _, err := a.Integrate(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	return ext, out
}

// changedBy are the memories that integrations supersede or contradict, in their order.
func changedBy(out []agent.Integration) []string {
	var ids []string
	for _, d := range out {
		for _, e := range d.Edges {
			if e.Predicate == realm.Supersedes || e.Predicate == realm.Contradicts {
				ids = append(ids, e.To)
			}
		}
	}
	return ids
}

// TestOfflineChangeOfOneClause: a change that a clause of an older message carries
// supersedes the clause, not the message, which still says what did not change; a
// message that told the changed value alone is superseded as before.
func TestOfflineChangeOfOneClause(t *testing.T) {
	a := New(Options{})
	tests := []struct {
		name, older, newer string
		want               []string // the contents superseded (or contradicted)
	}{
		{"Move", "I live in Lisbon, I'm on the Basic plan, and my email is ana@example.com.", "I moved to Berlin.", []string{"user lives in Lisbon"}},
		{"Plan", "I live in Lisbon, I'm on the Basic plan, and my email is ana@example.com.", "I'm now on the Pro plan.", []string{"user is on the Basic plan"}},
		{"Contact", "Ticket T-4410 is about my invoice; contact me by email only.", "Actually, you can call me now instead of emailing.", []string{"contact user by email only."}},
		{"JobAndHome", "I live in Lisbon and I work as a nurse.", "I moved to Berlin.", []string{"user lives in Lisbon"}},
		{"SingleFact", "I live in Lisbon.", "I moved to Berlin.", []string{"user lives in Lisbon."}},
		// A contact's card: its title and employer end, its email stays in the whole.
		{"ContactCard", "New contact: Raj Patel, VP Engineering at Initech. Email raj.patel@initech.com", "Raj Patel left Initech and joined Globex as CTO.", []string{"user: New contact: Raj Patel, VP Engineering at Initech."}},
		// Money: a value changed, a debt paid off.
		{"RentWentUp", "My rent is $1,850 a month.", "Rent went up to $2,100 in March.", []string{"user's rent is $1,850 a month."}},
		{"PaidOffLoan", "I have a car loan with Capital One, $14,500 left at 6.9% APR.", "I paid off the car loan!", []string{"user has a car loan with Capital One, $14,500 left at 6.9% APR."}},
		// A card's labelled details are its person's, a clause apart: a new email or phone
		// number (a first name alone says whose) ends that clause, not the card nor its title.
		{"CardEmail", "New contact: Lisa Schultz, Head of Data at Acme. Email lisa.schultz@acme.com, phone +1 415 555 0101", "Lisa's email is now lisa@globex.com.", []string{"user: Email lisa.schultz@acme.com"}},
		{"CardPhone", "New contact: Lisa Schultz, Head of Data at Acme. Email lisa.schultz@acme.com, phone +1 415 555 0101", "Lisa Schultz's phone is now +44 20 7946 0958.", []string{"user: phone +1 415 555 0101"}},
		// A note that opens with a full name, then a title or details, is that person's card.
		{"CardOfAName", "Raj Patel, IT Director at Initech. Email raj@initech.com, phone +1 212 555 0199", "Raj Patel's email is now raj@globex.com.", []string{"user: Email raj@initech.com"}},
		{"CardTitle", "New contact: Lisa Schultz. Title: Head of Data. Email lisa.schultz@acme.com", "Lisa Schultz was promoted to CTO.", []string{"user: Title: Head of Data."}},
		// A pet held is a clause apart from the home: a move and a death each end their own.
		{"MoveLivingWith", "Hi! I'm Maya. I live in Portland with my boyfriend Daniel and our cat Mochi.", "I moved to Seattle.", []string{"user lives in Portland with user's boyfriend Daniel"}},
		{"PetDiedLivingWith", "Hi! I'm Maya. I live in Portland with my boyfriend Daniel and our cat Mochi.", "Mochi died this morning.", []string{"user: our cat Mochi."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := realm.Observation{ID: "o1", SessionID: "s1", Speaker: "user", Content: tt.older, ObservedAt: time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC)}
			var nodes []realm.Node
			for k, c := range mustExtract(t, a, agent.ExtractInput{Observation: old}).Candidates {
				if c.Type == realm.Event || c.Type == realm.Fact {
					nodes = append(nodes, realm.Node{ID: fmt.Sprintf("m%d", k), Type: c.Type, Content: c.Content, Description: c.Description, Sources: []string{old.ID}, CreatedAt: old.ObservedAt})
				}
			}
			obs := realm.Observation{ID: "o2", SessionID: "s2", Speaker: "user", Content: tt.newer, ObservedAt: time.Date(2026, 6, 10, 10, 0, 0, 0, time.UTC)}
			_, out := integrateBeside(t, a, obs, nodes...)
			content := map[string]string{}
			for _, n := range nodes {
				content[n.ID] = n.Content
			}
			changed := map[string]bool{}
			for _, d := range out {
				for _, e := range d.Edges {
					if e.Predicate == realm.Supersedes || e.Predicate == realm.Contradicts {
						changed[content[e.To]] = true
					}
				}
			}
			if got := slices.Sorted(maps.Keys(changed)); !slices.Equal(got, tt.want) {
				t.Errorf("changed %q, want %q (memories %q)", got, tt.want, slices.Collect(maps.Values(content)))
			}
		})
	}
}

// TestOfflineFirstName: a claim is of a full name, not of its last word ("Anna Becker" is
// not "Tom Becker"); a first name alone is the one full name of the space's claims it
// opens, and none when two open with it.
func TestOfflineFirstName(t *testing.T) {
	a := New(Options{})
	said := "Said by Sam on 10 March 2026 in session s1."
	nodes := []realm.Node{
		{ID: "raj", Type: realm.Fact, Content: "Sam: Raj Patel is VP Engineering at Initech.", Description: said, Sources: []string{"o1"}},
		{ID: "becker", Type: realm.Fact, Content: "Sam: Tom Becker is Head of IT at Acme.", Description: said, Sources: []string{"o2"}},
		{ID: "ruiz", Type: realm.Fact, Content: "Sam: Tom Ruiz is Procurement Director at Globex.", Description: said, Sources: []string{"o3"}},
	}
	for _, tt := range []struct {
		newer string
		want  []string
	}{
		{"Raj was promoted to CTO.", []string{"raj"}},
		{"Tom Becker was promoted to CTO.", []string{"becker"}},
		{"Tom was promoted to CTO.", nil},
		{"Anna Becker is now CTO.", nil},
	} {
		obs := realm.Observation{ID: "o9", SessionID: "s2", Speaker: "Sam", Content: tt.newer, ObservedAt: time.Date(2026, 6, 10, 10, 0, 0, 0, time.UTC)}
		_, out := integrateBeside(t, a, obs, nodes...)
		got := changedBy(out)
		if slices.Sort(got); !slices.Equal(got, tt.want) {
			t.Errorf("%q changed %q, want %q", tt.newer, got, tt.want)
		}
	}
}

// TestOfflineSupersedesCopies: a change supersedes the speaker's statement and the copies
// that state it in another's words (an assistant's echo, an exchange that quotes it and
// only acknowledges it), not an exchange that quotes an echo beside a fact of its own.
func TestOfflineSupersedesCopies(t *testing.T) {
	a := New(Options{})
	day := time.Date(2026, 1, 10, 0, 0, 0, 0, time.UTC)
	said := func(speaker string) string { return "Said by " + speaker + " on 10 January 2026 in session a." }
	nodes := []realm.Node{
		{ID: "own", Type: realm.Fact, Content: "user takes levothyroxine 75 mcg every morning.", Description: said("user"), Sources: []string{"o1"}},
		{ID: "echo", Type: realm.Event, Content: "assistant: Noted: user takes levothyroxine 75 mcg every morning.", Description: said("assistant"), Sources: []string{"o2"}},
		{ID: "acknowledged", Type: realm.Event, Content: `user said: "user takes levothyroxine 75 mcg every morning." assistant: Noted: levothyroxine 75 mcg.`,
			Description: "Said by assistant on 10 January 2026 in session a, in reply to user.", Sources: []string{"o1", "o2"}},
		{ID: "apart", Type: realm.Event, Content: `assistant said: "Noted: levothyroxine 75 mcg." user's grandmother had breast cancer.`,
			Description: "Said by user on 10 January 2026 in session a, in reply to assistant.", Sources: []string{"o2", "o3"}, TStart: &day},
		{ID: "sister", Type: realm.Fact, Content: "user's sister takes levothyroxine 50 mcg.", Description: said("user"), Sources: []string{"o4"}},
	}
	for _, tt := range []struct {
		newer string
		want  []string
	}{
		{"My levothyroxine was changed to 88 mcg.", []string{"acknowledged", "echo", "own"}},
		{"I'm off levothyroxine now.", []string{"acknowledged", "echo", "own"}},
	} {
		obs := realm.Observation{ID: "o9", SessionID: "b", Speaker: "user", Content: tt.newer, ObservedAt: time.Date(2026, 2, 14, 9, 0, 0, 0, time.UTC)}
		_, out := integrateBeside(t, a, obs, nodes...)
		changed := map[string]bool{}
		for _, d := range out {
			for _, e := range d.Edges {
				if e.Predicate == realm.Supersedes || e.Predicate == realm.Contradicts {
					changed[e.To] = true
				}
			}
		}
		if got := slices.Sorted(maps.Keys(changed)); !slices.Equal(got, tt.want) {
			t.Errorf("%q: changed %q, want %q", tt.newer, got, tt.want)
		}
	}
}

// TestOfflineChangesOnlyWhatItChanges: among a user's medicines, habits and diet, a
// change supersedes the one memory it changes and no other ("" none: a switch to a diet
// is no change of the inhaler used).
func TestOfflineChangesOnlyWhatItChanges(t *testing.T) {
	a := New(Options{})
	mem := extractedOf(t, a, "user", time.Date(2026, 1, 10, 9, 0, 0, 0, time.UTC), "I take metformin 500 mg twice a day.", "I take insulin glargine, 12 units at bedtime.", "I take lisinopril 10 mg daily.",
		"I take amoxicillin 500 mg three times a day.", "I use my albuterol inhaler, 1 puff when needed.", "I smoke about ten cigarettes a day.",
		"I follow a low-carb diet.", "I drink 4 cups of coffee a day.", "My sister takes lisinopril 20 mg.")
	for _, tt := range []struct{ newer, want string }{
		{"My endocrinologist switched me from metformin to insulin glargine, 12 units at bedtime.", "user takes metformin 500 mg twice a day."},
		{"I'm off metformin now.", "user takes metformin 500 mg twice a day."},
		{"The doctor took me off lisinopril.", "user takes lisinopril 10 mg daily."},
		{"The doctor changed my amoxicillin to twice a day.", "user takes amoxicillin 500 mg three times a day."},
		{"I now take 2 puffs instead of 1.", "user uses user's albuterol inhaler, 1 puff when needed."},
		{"I quit smoking last month.", "user smokes about ten cigarettes a day."},
		{"I've cut my coffee down to one cup a day.", "user drinks 4 cups of coffee a day."},
		{"I've switched to a Mediterranean diet instead of low-carb.", "user follows a low-carb diet."},
		{"I switched to a Mediterranean diet.", ""},
		{"The doctor increased my insulin to 16 units.", "user takes insulin glargine, 12 units at bedtime."},
	} {
		got := mem.changedBy(t, a, "user", tt.newer, time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC))
		if want := slices.DeleteFunc([]string{tt.want}, func(w string) bool { return w == "" }); !slices.Equal(got, want) {
			t.Errorf("%q changed %q, want %q", tt.newer, got, want)
		}
	}
}

// TestOfflineAmendsOnlyItsClause: in a contract, a change that names its thing (a
// section's period or cap, "the notice period") supersedes the memories of that thing
// only: not another section's clause that holds an amount of the same unit, nor the
// renewal date, nor an amendment of another section; a section number is no amount, a
// clause number without "Section" where its words make it one ("the cap in 9.1", "clause
// 9.1(b)", a sub-clause of 9.1) included. An amendment that names a section supersedes
// its clause with or without a verb of change ("Amendment 4: the payment term in Section
// 4.3 is 30 days"); a statement without the amendment's heading does not. A role held for
// a party ("signs for Acme Corp"), said anew with "now … instead", replaces the one who
// held it.
func TestOfflineAmendsOnlyItsClause(t *testing.T) {
	a := New(Options{})
	day := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	escrow := extractedOf(t, a, "Paralegal", day,
		"Section 7.2 (Term): Either party shall notify the Source Code within 90 days.",
		"Section 22.2 (Notices): The licensor shall maintain the Documentation within 5 business days.",
		"Section 16.7 (Data Protection): Either party shall deliver the Source Code within 45 days, and the cap under this clause is $50,000.",
		"Section 25.7 (Escrow): Either party shall provide the Documentation within 60 days, and the cap under this clause is $10,000.",
		"Amendment 3: the period in Section 7.2 is changed to 15 days.")
	licence := extractedOf(t, a, "Paralegal", day,
		"Section 7.2 (Termination for Convenience): the termination notice period is 30 days written notice.",
		"Section 9.1 (Indemnity): the Licensor shall indemnify the Licensee against third-party IP claims, capped at $2,000,000.",
		"Section 10.2 (Insurance): the Licensee shall carry cyber insurance of at least $2,000,000.",
		"Section 12.1: the agreement renews automatically on 2027-06-30 unless either party gives notice.",
		"Section 4.3: license fees are payable within 45 days of invoice.",
		"Jane Porter, General Counsel, signs for Acme Corp.")
	terms := extractedOf(t, a, "Paralegal", day,
		"The notice period is 30 days.", "The payment period is 45 days.",
		"The agreement renews automatically on 2027-06-30 unless either party gives notice.")
	for _, tt := range []struct {
		mem            memories
		speaker, newer string
		want           []string
	}{
		{escrow, "Paralegal", "Amendment 3: the period in Section 7.2 is changed to 15 days.", []string{"Paralegal: Section 7.2 (Term): Either party shall notify the Source Code within 90 days."}},
		{escrow, "Paralegal", "Amendment 4: the cap under Section 16.7 is changed to $75,000.", []string{"Paralegal: Section 16.7 (Data Protection): Either party shall deliver the Source Code within 45 days, and the cap under this clause is $50,000."}},
		{licence, "Paralegal", "Amendment 2, effective March 1 2027: the notice period in Section 7.2 is changed to 60 days.", []string{"Paralegal: Section 7.2 (Termination for Convenience): the termination notice period is 30 days written notice."}},
		{licence, "Paralegal", "Amendment 5: the indemnity cap in Section 9.1 is raised to $3,000,000.", []string{"Paralegal: Section 9.1 (Indemnity): the Licensor shall indemnify the Licensee against third-party IP claims, capped at $2,000,000."}},
		{licence, "Paralegal", "Amendment 5: the cap in 9.1 is raised to $3,000,000.", []string{"Paralegal: Section 9.1 (Indemnity): the Licensor shall indemnify the Licensee against third-party IP claims, capped at $2,000,000."}},
		{licence, "Paralegal", "Amendment 5: the indemnity cap in clause 9.1(b) is raised to $3,000,000.", []string{"Paralegal: Section 9.1 (Indemnity): the Licensor shall indemnify the Licensee against third-party IP claims, capped at $2,000,000."}},
		{licence, "Paralegal", "Amendment 4: the payment term in Section 4.3 is 30 days.", []string{"Paralegal: Section 4.3: license fees are payable within 45 days of invoice."}},
		{licence, "Paralegal", "Amendment 2, effective March 1 2027: the notice period in Section 7.2 is 60 days.", []string{"Paralegal: Section 7.2 (Termination for Convenience): the termination notice period is 30 days written notice."}},
		{licence, "Paralegal", "Draft for discussion: the payment term in Section 4.3 is 30 days.", nil},
		{licence, "Tom Reyes", "Jane Porter has left Acme; Mark Chen, CFO, now signs for Acme Corp instead.", []string{"Paralegal: Jane Porter, General Counsel, signs for Acme Corp."}},
		{terms, "Paralegal", "Amendment 2, effective March 1 2027: the notice period is changed to 60 days.", []string{"Paralegal: The notice period is 30 days."}},
	} {
		got := tt.mem.changedBy(t, a, tt.speaker, tt.newer, time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC))
		if got = slices.Compact(got); !slices.Equal(got, tt.want) {
			t.Errorf("%q changed %q, want %q", tt.newer, got, tt.want)
		}
	}
}

// TestOfflineAmendmentOfAmendment: an amendment that changes what an earlier amendment
// set supersedes it with an edge that says what changed, the thing and its section ("the
// period in Section 7.2: 20 days, previously 15 days"), not the words the two share
// ("Paralegal's amendment period section changed").
func TestOfflineAmendmentOfAmendment(t *testing.T) {
	a := New(Options{})
	amended := extractedOf(t, a, "Paralegal", time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC),
		"Amendment 3: the period in Section 7.2 is changed to 15 days.")
	for _, tt := range []struct{ newer, want string }{
		{"Amendment 6: the period in Section 7.2 is changed to 20 days.", "the period in Section 7.2: 20 days, previously 15 days"},
		{"Amendment 6: the notice period in Section 7.2 is 20 days.", "the notice period in Section 7.2: 20 days, previously 15 days"},
		{"Amendment 6: the period in Amendment 3 is changed to 20 days.", "the period in Amendment 3: 20 days, previously 15 days"},
	} {
		obs := realm.Observation{ID: "o99", SessionID: "s2", Speaker: "Paralegal", Content: tt.newer, ObservedAt: time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)}
		_, out := integrateBeside(t, a, obs, amended.nodes...)
		var got []string
		for _, d := range out {
			for _, e := range d.Edges {
				if e.Predicate == realm.Supersedes {
					got = append(got, e.Description)
				}
			}
		}
		if !slices.Equal(got, []string{tt.want}) {
			t.Errorf("%q supersedes with %q, want %q", tt.newer, got, tt.want)
		}
	}
}

// memories are the events and facts extracted from messages, by id, and their contents.
type memories struct {
	nodes   []realm.Node
	content map[string]string
}

// extractedOf extracts each of olders, said by speaker a minute apart from day on.
func extractedOf(t *testing.T, a *Agent, speaker string, day time.Time, olders ...string) memories {
	t.Helper()
	m := memories{content: map[string]string{}}
	for k, older := range olders {
		obs := realm.Observation{ID: fmt.Sprintf("o%d", k), SessionID: "s1", Speaker: speaker, Content: older, ObservedAt: day.Add(time.Duration(k) * time.Minute)}
		for j, c := range mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates {
			if c.Type == realm.Event || c.Type == realm.Fact {
				n := realm.Node{ID: fmt.Sprintf("m%d.%d", k, j), Type: c.Type, Content: c.Content, Description: c.Description, Sources: []string{obs.ID}, CreatedAt: obs.ObservedAt, TStart: c.TStart, TEnd: c.TEnd}
				m.nodes = append(m.nodes, n)
				m.content[n.ID] = n.Content
			}
		}
	}
	return m
}

// changedBy are the contents of the memories that newer, said by speaker at at,
// supersedes or contradicts, in order.
func (m memories) changedBy(t *testing.T, a *Agent, speaker, newer string, at time.Time) []string {
	t.Helper()
	obs := realm.Observation{ID: "o99", SessionID: "s2", Speaker: speaker, Content: newer, ObservedAt: at}
	_, out := integrateBeside(t, a, obs, m.nodes...)
	var got []string
	for _, id := range changedBy(out) {
		got = append(got, m.content[id])
	}
	return got
}

// TestSparedWholes: a whole turn is spared when a clause of it (derived from the same
// message, fewer words, all of them the whole's) is changed too; not for a memory of
// another message, nor for an exchange that quotes the older statement.
func TestSparedWholes(t *testing.T) {
	const said = "Said by user on 1 May 2026."
	whole := realm.Node{ID: "w", Content: "user lives in Lisbon, user is on the Basic plan.", Description: said, Sources: []string{"o1"}}
	clause := realm.Node{ID: "c", Content: "user lives in Lisbon", Description: said, Sources: []string{"o1"}}
	other := realm.Node{ID: "x", Content: "user lives in Lisbon", Description: said, Sources: []string{"o7"}}
	exchange := realm.Node{ID: "e", Content: `Sam asked: "Where do you live?" user lives in Lisbon, user is on the Basic plan.`, Description: said, Sources: []string{"o0", "o1"}}
	quoting := realm.Node{ID: "q", Content: `user said: "user lives in Lisbon" Sam: Lisbon is lovely!`, Description: said, Sources: []string{"o1", "o2"}}
	// A clause made for its date alone says what its whole says: both end.
	dietWhole := realm.Node{ID: "dw", Content: "user started the keto diet today (9 June 2026). No more bread for user!", Description: said, Sources: []string{"o3"}}
	dietClause := realm.Node{ID: "dc", Content: "user started the keto diet today (9 June 2026).", Description: said, Sources: []string{"o3"}}
	change := func(ns ...realm.Node) []nodeChange {
		var out []nodeChange
		for _, n := range ns {
			out = append(out, nodeChange{node: n, change: stateChange{predicate: "supersedes"}})
		}
		return out
	}
	for _, tt := range []struct {
		name    string
		changed []nodeChange
		want    []string
	}{
		{"ClauseAndWhole", change(whole, clause), []string{"w"}},
		{"WholeAlone", change(whole), nil},
		{"AnotherMessage", change(whole, other), nil},
		{"ExchangeOfTheClause", change(exchange, clause), []string{"e"}},
		{"ClauseAlone", change(clause), nil},
		{"ExchangeQuotingAnOlderStatement", change(quoting, clause), nil},
		{"ClauseOfItsDate", change(dietWhole, dietClause), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := slices.Sorted(maps.Keys(sparedWholes(tt.changed))); !slices.Equal(got, tt.want) {
				t.Errorf("spared %q, want %q", got, tt.want)
			}
		})
	}
}

// TestOfflinePlanChanged: a plan called off, moved to another place or time, or set to
// another hour, named by the words its first telling has, or moved to another hour or
// flight number, is superseded from when the change was told; not another plan of the
// same kind (another person's party), a past event ("the party was great"), another
// speaker's plan told as their own ("I'm throwing a party"), nor a plan that a "move"
// leaves where it was. Another member's change of a plan told as no one's own or as the
// space's ("Our wedding", "Dinner with Paul") counts as its teller's would (byAnother),
// when it tells of none of its own teller's ("because of my flight").
func TestOfflinePlanChanged(t *testing.T) {
	a := New(Options{})
	const (
		flight = "Our flight TP218 departs at 18:25."
		ba     = "Flight BA117 from Heathrow, confirmation ZK4R8M."
	)
	tests := []struct {
		name, plan, change string
		want               string // the edge's description; "" for none
	}{
		{"CancelledOneOff", "I'm throwing a party for Jonas on Saturday.", "The party for Jonas is cancelled, he's sick.", "Lena's party jonas: cancelled"},
		{"CalledOff", "I'm hosting a barbecue for Priya on Sunday.", "The barbecue for Priya is called off, it's going to rain.", "Lena's barbecue priya: cancelled"},
		{"CalledOffNamedAfter", "Our wedding is on June 20 in Sintra.", "We called off the wedding.", "Lena's wedding: cancelled"},
		{"MembershipCancelled", "I joined the climbing gym, I go every Tuesday and Friday evening.", "I cancelled my climbing gym membership.", "Lena's climbing gym: cancelled"},
		{"OtherCity", "The workshop with Acme is in Hamburg on April 18.", "The Acme workshop moved to Munich, same day.", "Lena's acme workshop: now Munich"},
		{"TripToOtherCity", "We're going to Boston on May 18.", "The Boston trip is moved to Philadelphia, same weekend.", "Lena's boston: now Philadelphia"},
		{"NewHour", "My yoga class is every Thursday at 6pm.", "Yoga is now at 7:30pm on Thursdays.", "Lena's yoga: now 7:30pm on Thursdays"},
		{"PostponedToMonth", "We are going to Lisbon in June.", "We postponed the Lisbon trip to September.", "Lena's lisbon: now September"},
		{"BroughtForward", "Haircut on June 14 at 5pm.", "The hairdresser brought my haircut forward to June 11.", "Lena's haircut: now June 11"},
		{"FlightMoved", "We fly out to Rome on June 3.", "The Rome flight got moved to June 5.", "Lena's rome: now June 5"},
		// "on the 14th" is read as a day: the move is one of days.
		{"DayOfMonth", "Dinner with Paul on the 14th at Nobelhart.", "Dinner with Paul got moved to February 12 because of my flight.", "Lena's dinner paul: moved from 14 February 2024 to 12 February 2024"},
		// A meeting moved to a weekday: one told once, or what recurs, but for one time of it.
		{"StandupMovedToWeekday", "Standup with the design team on Monday at 9am.", "The standup is moved to Thursday.", "Lena's standup: now Thursday"},
		{"RecurringStandupMovedToWeekday", "We have a standup every Monday at 9am.", "The standup is moved to Thursday.", "Lena's standup: now Thursday"},
		{"OneTimeOfStandupMoved", "We have a standup every Monday at 9am.", "Next week's standup is moved to Thursday.", ""},
		{"DinnerWasCancelled", "Dinner with Paul on Friday at Nobelhart.", "The dinner with Paul was cancelled.", "Lena's dinner paul: cancelled"},
		{"CancelledBecause", "Dinner with Paul on Friday at Nobelhart.", "The dinner with Paul was cancelled because Paul got sick.", "Lena's dinner paul: cancelled"},
		{"CalledItOffNamed", "I'm hosting a barbecue for Priya on Sunday.", "We called the barbecue off.", "Lena's barbecue: cancelled"},
		// A booking is a plan, whatever the tense it was told in: named by its city or its name.
		{"BookingByCity", "We booked Hotel Infante Sagres in Porto.", "We cancelled the Porto hotel and booked one in Braga instead.", "Lena's porto hotel: cancelled"},
		{"BookingByName", "We booked Hotel Infante Sagres in Porto.", "We cancelled the Hotel Infante Sagres.", "Lena's hotel infante sagres: cancelled"},
		{"AnotherBooking", "We booked Hotel Infante Sagres in Porto.", "We cancelled the Lisbon hotel.", ""},
		// One of the company cancels their own part: the plan holds for the others.
		{"CompanionCancelled", "My partner Dev is coming, and my friend Leah joins us for the weekend.", "Leah cancelled, she can't make it.", ""},
		{"OnlyGuestCancelled", "Dinner with Paul on Friday at Nobelhart.", "Paul cancelled.", "Lena's paul: cancelled"},
		// A plan moved to another hour, dated or not: not to the hour it already has, nor
		// when the two share no word.
		{"HourMoved", flight, "The flight moved to 9:40.", "Lena's flight: moved from 18:25 to 9:40"},
		{"HourInsteadOf", flight, "Our flight TP218 now departs at 9:40 instead of 18:25.", "Lena's flight departs: moved from 18:25 to 9:40"},
		{"HourAmPm", "Dinner with Paul is at 7pm.", "We changed dinner with Paul to 8 pm.", "Lena's dinner paul: moved from 7pm to 8 pm"},
		{"SameHour", flight, "Our flight TP218 now departs at 18:25 sharp.", ""},
		{"HourOfAnother", flight, "My dentist appointment moved to 9:40.", ""},
		{"HourOfAPastFlight", "We took flight TP218, it left at 18:25.", "The flight moved to 9:40.", ""},
		// A flight changed to another number of the same airline: not another airline's,
		// the same number, nor a number of something other than a flight.
		{"FlightSwitched", ba, "We switched to BA115.", "Lena's flight: BA115, previously BA117"},
		{"NewFlights", "Booked ANA NH215 Tokyo Haneda to Frankfurt then LH1454 to Rome, departing May 16.", "New flights: NH223 and LH1456, departing June 13.", "Lena's flight: NH223, LH1456, previously NH215, LH1454"},
		{"AnotherAirline", ba, "We switched to LH900.", ""},
		{"SameFlightNumber", ba, "We switched to BA117 again.", ""},
		{"NumberOfNoFlight", "Our room is B210.", "We switched to B215.", ""},
		{"AnotherParty", "I'm throwing a party for Jonas on Saturday.", "The party for Mia is cancelled.", ""},
		{"CalledSomeone", "I'm hosting a barbecue for Priya on Sunday.", "I called the barbecue place twice.", ""},
		{"PastEvent", "The party was great, Jonas loved it.", "The party is moved to Sunday.", ""},
		{"SamePlace", "The workshop with Acme is in Munich on April 18.", "The Acme workshop moved to Munich, same day.", ""},
		{"NowNoTime", "My yoga class is every Thursday at 6pm.", "Yoga is now my favourite sport.", ""},
		// A person who moves is no plan: their move ends no detail of theirs ("Email …").
		{"PersonMovedToAStage", "Email liam.fischer@example.com, phone +1 415 555 1005.", "Liam Fischer moved to stage: screened.", ""},
		{"PersonMovedToACity", "Email liam.fischer@example.com, phone +1 415 555 1005.", "Liam Fischer moved to Berlin.", ""},
	}
	byAnother := map[string]bool{"CalledOffNamedAfter": true, "PostponedToMonth": true, "FlightMoved": true, "DinnerWasCancelled": true,
		"CancelledBecause": true, "BookingByCity": true, "BookingByName": true, "OnlyGuestCancelled": true, "HourMoved": true,
		"HourInsteadOf": true, "HourAmPm": true, "FlightSwitched": true}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, speaker := range []string{"Lena", "Sam"} {
				plan := planNode(t, a, tt.plan, speaker)
				obs := realm.Observation{ID: "o2", SessionID: "s2", Speaker: "Lena", Content: tt.change, ObservedAt: time.Date(2024, 2, 8, 11, 0, 0, 0, time.UTC)}
				_, out := integrateBeside(t, a, obs, plan)
				var got []string
				for _, e := range supersedesUntilTold(t, out, obs) {
					got = append(got, e.Description)
					if e.To != "plan" {
						t.Errorf("edge to %s, want the plan", e.To)
					}
				}
				want := []string{strings.Replace(tt.want, "Lena's", speaker+"'s", 1)}
				if tt.want == "" || speaker != "Lena" && !byAnother[tt.name] {
					want = nil
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s's plan: supersedes %q, want %q", speaker, got, want)
				}
			}
		})
	}
}

// supersedesUntilTold are the supersedes edges of out, each checked to go from the
// candidate and to hold until obs was told.
func supersedesUntilTold(t *testing.T, out []agent.Integration, obs realm.Observation) []agent.EdgeOp {
	t.Helper()
	var edges []agent.EdgeOp
	for _, d := range out {
		for _, e := range d.Edges {
			if e.Predicate != realm.Supersedes {
				continue
			}
			if e.From != agent.Self || e.ValidUntil == nil || !e.ValidUntil.Equal(obs.ObservedAt) {
				t.Errorf("edge %s → %s until %v, want the change to supersede the plan until it was told", e.From, e.To, e.ValidUntil)
			}
			edges = append(edges, e)
		}
	}
	return edges
}

// planNode is the memory of a plan told on 5 February 2024: the event or fact its telling
// becomes.
func planNode(t *testing.T, a *Agent, plan, speaker string) realm.Node {
	t.Helper()
	obs := realm.Observation{ID: "o1", SessionID: "s1", Speaker: speaker, Content: plan, ObservedAt: time.Date(2024, 2, 5, 11, 0, 0, 0, time.UTC)}
	for _, c := range mustExtract(t, a, agent.ExtractInput{Observation: obs}).Candidates {
		if c.Type == realm.Event || c.Type == realm.Fact {
			return realm.Node{ID: "plan", Type: c.Type, Content: c.Content, Description: c.Description, TStart: c.TStart, TEnd: c.TEnd, Sources: []string{obs.ID}}
		}
	}
	t.Fatalf("%q: no event or fact", plan)
	return realm.Node{}
}

// TestOfflinePlanReferred: a plan called off or moved by a pronoun ("It's off.") or a
// plan noun alone ("The trip is cancelled.") is the one plan of the speaker's conversation
// just before, superseded until the change was told; not an older plan found only as a
// similar memory, another session's, another speaker's, a statement that plans nothing,
// a plan that lacks the noun, nor either of two plans.
func TestOfflinePlanReferred(t *testing.T) {
	a := New(Options{})
	type told struct {
		id, speaker, session, text string
		recent                     bool
	}
	lisbon := told{"lisbon", "Lena", "s1", "We're going to Lisbon for a trip on May 3.", true}
	tests := []struct {
		name   string
		plans  []told
		change string
		want   []string // the plans superseded
	}{
		{"PlanNoun", []told{lisbon}, "The trip is cancelled.", []string{"lisbon"}},
		{"Pronoun", []told{lisbon}, "It's off.", []string{"lisbon"}},
		{"PronounNow", []told{lisbon}, "That's off now.", []string{"lisbon"}},
		{"AfterAComma", []told{lisbon}, "Actually, it's off. Kat got sick.", []string{"lisbon"}},
		// An answer to the assistant's question is one exchange of the same session.
		{"InReply", []told{lisbon}, "Do you need hotel ideas?|Actually, it's off.", []string{"lisbon"}},
		{"PronounMovedToADay", []told{lisbon}, "We pushed it back to June 7.", []string{"lisbon"}},
		{"PlanNounPast", []told{lisbon}, "The trip was cancelled.", []string{"lisbon"}},
		{"CalledItOff", []told{lisbon}, "We called it off.", []string{"lisbon"}},
		{"PlanNounPastWhen", []told{lisbon}, "The trip was cancelled yesterday.", []string{"lisbon"}},
		{"CalledItOffBecause", []told{lisbon}, "We called it off because Kat got sick.", []string{"lisbon"}},
		{"CalledSomeone", []told{lisbon}, "We called it a day.", nil},
		// None in the conversation just before: a plan noun names the one current plan that says it.
		{"OlderPlan", []told{{"lisbon", "Lena", "s1", lisbon.text, false}}, "The trip is cancelled.", []string{"lisbon"}},
		{"OtherSession", []told{{"lisbon", "Lena", "s0", lisbon.text, true}}, "The trip is cancelled.", []string{"lisbon"}},
		{"OlderTripGoingSomewhere", []told{{"italy", "Lena", "s0", "We're going to Italy for the 3rd week of May.", false}}, "The trip is postponed to June.", []string{"italy"}},
		{"OlderPlanPronoun", []told{{"lisbon", "Lena", "s0", lisbon.text, false}}, "It's off.", nil},
		{"TwoOlderTrips", []told{{"lisbon", "Lena", "s0", lisbon.text, false}, {"rome", "Lena", "s0", "And a trip to Rome on June 9.", false}}, "The trip is cancelled.", nil},
		{"OlderPastTrip", []told{{"croatia", "Lena", "s0", "Last summer we went on a trip to Croatia.", false}}, "The trip is cancelled.", nil},
		{"AnotherSpeaker", []told{{"lisbon", "Sam", "s1", lisbon.text, true}}, "It's off.", nil},
		{"TwoTrips", []told{lisbon, {"rome", "Lena", "s1", "And a trip to Rome on June 9.", true}}, "The trip is cancelled.", nil},
		{"PronounOfTwoPlans", []told{lisbon, {"dinner", "Lena", "s1", "Dinner with Paul on Friday at Nobelhart.", true}}, "It's off.", nil},
		{"NoPlan", []told{{"love", "Lena", "s1", "I love Lisbon so much.", true}}, "It's off.", nil},
		{"OtherNoun", []told{lisbon}, "The flight is cancelled.", nil},
		{"PronounMovedToAPlace", []told{lisbon}, "I moved it to my calendar.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := time.Date(2024, 2, 5, 11, 0, 0, 0, time.UTC)
			asked, change, reply := strings.Cut(tt.change, "|") // "question|answer": an answer to the assistant
			if !reply {
				change = asked
			}
			obs := realm.Observation{ID: "o9", SessionID: "s1", Speaker: "Lena", Content: change, ObservedAt: at.Add(10 * time.Minute)}
			var recent []realm.Observation
			if reply {
				recent = append(recent, realm.Observation{ID: "o8", SessionID: "s1", Speaker: "assistant", Content: asked, ObservedAt: at.Add(5 * time.Minute)})
			}
			var nbs []agent.Neighbour
			for k, p := range tt.plans {
				o := realm.Observation{ID: "o" + p.id, SessionID: p.session, Speaker: p.speaker, Content: p.text, ObservedAt: at.Add(time.Duration(k) * time.Minute)}
				for _, c := range mustExtract(t, a, agent.ExtractInput{Observation: o}).Candidates {
					if c.Type == realm.Event || c.Type == realm.Fact {
						n := realm.Node{ID: p.id, Type: c.Type, Content: c.Content, Description: c.Description, TStart: c.TStart, TEnd: c.TEnd, Sources: []string{o.ID}}
						nbs = append(nbs, agent.Neighbour{Node: n, Similar: !p.recent, Recent: p.recent})
						break
					}
				}
			}
			ext := mustExtract(t, a, agent.ExtractInput{Observation: obs, Recent: recent})
			in := agent.IntegrateInput{Observation: obs}
			for _, c := range ext.Candidates {
				in.Candidates = append(in.Candidates, agent.CandidateContext{Candidate: c, Neighbours: nbs})
			}
			out, _, err := a.Integrate(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range supersedesUntilTold(t, out, obs) {
				got = append(got, e.To)
				if tt.name == "PlanNoun" && e.Description != "Lena: We're going to Lisbon for a trip on May 3 (cancelled)" {
					t.Errorf("description %q", e.Description)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("supersedes %q, want %q (candidates %+v)", got, tt.want, ext.Candidates)
			}
		})
	}
}

// TestOfflinePlanReferredCurrent: a plan noun names the one plan that still holds, not
// one that a change already ended.
func TestOfflinePlanReferredCurrent(t *testing.T) {
	a := New(Options{})
	italy := planNode(t, a, "We're going to Italy for the 3rd week of May.", "Lena")
	lisbon := planNode(t, a, "We're going to Lisbon for a trip on May 3.", "Lena")
	ended := time.Date(2024, 2, 6, 9, 0, 0, 0, time.UTC)
	italy.ID, lisbon.ID, lisbon.Sources, lisbon.ValidUntil = "italy", "lisbon", []string{"o0"}, &ended
	obs := realm.Observation{ID: "o2", SessionID: "s2", Speaker: "Lena", Content: "The trip is postponed to June.", ObservedAt: time.Date(2024, 2, 8, 11, 0, 0, 0, time.UTC)}
	_, out := integrateBeside(t, a, obs, italy, lisbon)
	var got []string
	for _, e := range supersedesUntilTold(t, out, obs) {
		got = append(got, e.To)
	}
	if !slices.Equal(got, []string{"italy"}) {
		t.Errorf("supersedes %q, want the Italy trip", got)
	}
}

// TestOfflineCancelledUntilTold: a cancellation dated only by the day it was told ends
// what it cancels when it was told, not at that day's start, when no one knew of it yet.
func TestOfflineCancelledUntilTold(t *testing.T) {
	a := New(Options{})
	gym := planNode(t, a, "I signed up for the gym, I go every Monday and Thursday morning.", "Lena")
	obs := realm.Observation{ID: "o2", SessionID: "s2", Speaker: "Lena", Content: "I cancelled my gym membership.", ObservedAt: time.Date(2024, 2, 8, 11, 0, 0, 0, time.UTC)}
	_, out := integrateBeside(t, a, obs, gym)
	found := false
	for _, d := range out {
		for _, e := range d.Edges {
			if e.Predicate == realm.Supersedes && e.To == "plan" {
				found = true
				if e.ValidUntil == nil || !e.ValidUntil.Equal(obs.ObservedAt) {
					t.Errorf("the gym holds until %v, want %v", e.ValidUntil, obs.ObservedAt)
				}
			}
		}
	}
	if !found {
		t.Errorf("no supersedes edge to the gym: %+v", out)
	}
}

// TestOfflineSupersedesStatementRepliedTo: a speaker's statement that the other speaker's
// reply was merged into (the exchange quoting it read as the same statement, completed)
// is still the speaker's statement, and a change of its amount supersedes it, reply and
// all; an exchange of the other speaker's, whose reply says something of its own, holds.
func TestOfflineSupersedesStatementRepliedTo(t *testing.T) {
	a := New(Options{})
	exchange := `Chandra said: "Chandra's phone plan is with Verizon, $70 a month." Sam: That's on the pricey side.`
	for _, tt := range []struct {
		description string
		want        []string
	}{
		{"Said by Chandra on 7 January 2026 in session a.", []string{"old"}},
		{"Said by Sam on 7 January 2026 in session a, in reply to Chandra.", nil},
	} {
		old := realm.Node{ID: "old", Type: realm.Fact, Content: exchange, Description: tt.description, Sources: []string{"o1", "o2"}}
		obs := realm.Observation{ID: "o3", SessionID: "b", Speaker: "Chandra", Content: "Switched my phone plan to Mint, $15 a month.", ObservedAt: time.Date(2026, 3, 10, 10, 0, 0, 0, time.UTC)}
		if _, out := integrateBeside(t, a, obs, old); !slices.Equal(changedBy(out), tt.want) {
			t.Errorf("%s: changed %q, want %q", tt.description, changedBy(out), tt.want)
		}
	}
}
