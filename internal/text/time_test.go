package text_test

import (
	"slices"
	"testing"
	"time"

	"github.com/realm-memory/realm/internal/text"
)

// monday is a Monday: 8 May 2023, 1:56 pm (LoCoMo conv-26, session 1).
var monday = time.Date(2023, time.May, 8, 13, 56, 0, 0, time.UTC)

// wednesday is Wednesday 8 May 2024; november is Sunday 1 November 2026; april is
// Monday 8 April 2024; february is Tuesday 10 February 2026.
var (
	wednesday = time.Date(2024, time.May, 8, 10, 0, 0, 0, time.UTC)
	november  = time.Date(2026, time.November, 1, 10, 0, 0, 0, time.UTC)
	april     = time.Date(2024, time.April, 8, 10, 0, 0, 0, time.UTC)
	february  = time.Date(2026, time.February, 10, 18, 30, 0, 0, time.UTC)
)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestDates(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		now   time.Time
		tense int
		from  time.Time // zero: no date expected
		to    time.Time // the last day of the span
		label string
	}{
		{"Yesterday", "I went there yesterday", monday, text.TensePast, date(2023, 5, 7), date(2023, 5, 7), "7 May 2023"},
		{"LastNight", "we danced last night", monday, text.TensePast, date(2023, 5, 7), date(2023, 5, 7), "7 May 2023"},
		{"Today", "today is busy", monday, 0, date(2023, 5, 8), date(2023, 5, 8), "8 May 2023"},
		{"Tomorrow", "Tomorrow I fly", monday, text.TenseFuture, date(2023, 5, 9), date(2023, 5, 9), "9 May 2023"},
		// A relative day's word capitalised inside a sentence is a title's, not a day.
		{"TitleYesterday", "Listened to Yesterday by the Beatles", monday, text.TensePast, time.Time{}, time.Time{}, ""},
		{"TitleTomorrow", "Finished reading Tomorrow, and Tomorrow, and Tomorrow tonight.", monday, text.TensePast, date(2023, 5, 8), date(2023, 5, 8), "8 May 2023"},
		{"YesterdayOpens", "Great news. Yesterday I went there", monday, text.TensePast, date(2023, 5, 7), date(2023, 5, 7), "7 May 2023"},
		{"TomorrowBeforeTime", "see you Tomorrow at 5", monday, text.TenseFuture, date(2023, 5, 9), date(2023, 5, 9), "9 May 2023"},
		{"TomorrowInHeading", "Dentist Tomorrow", monday, text.TenseFuture, date(2023, 5, 9), date(2023, 5, 9), "9 May 2023"},
		{"DayBeforeYesterday", "the day before yesterday", monday, 0, date(2023, 5, 6), date(2023, 5, 6), "6 May 2023"},
		{"LastWeek", "last week", monday, text.TensePast, date(2023, 5, 1), date(2023, 5, 7), "the week of 1 May 2023"},
		{"ThisWeek", "this week", monday, 0, date(2023, 5, 8), date(2023, 5, 14), "the week of 8 May 2023"},
		{"NextWeek", "next week", monday, text.TenseFuture, date(2023, 5, 15), date(2023, 5, 21), "the week of 15 May 2023"},
		// A weekday said on that weekday is today, in any tense; last, next and this keep
		// their weeks.
		{"OnTodaysWeekdayPast", "I saw the dentist on Monday", monday, text.TensePast, date(2023, 5, 8), date(2023, 5, 8), "Monday 8 May 2023"},
		{"OnTodaysWeekday", "Disk /dev/sda1 at 81% at 10:05 on Monday", monday, 0, date(2023, 5, 8), date(2023, 5, 8), "Monday 8 May 2023"},
		{"OnTodaysWeekdayFuture", "the meeting is on Monday", monday, text.TenseFuture, date(2023, 5, 8), date(2023, 5, 8), "Monday 8 May 2023"},
		{"LastTodaysWeekday", "last Monday", monday, text.TensePast, date(2023, 5, 1), date(2023, 5, 1), "Monday 1 May 2023"},
		{"NextTodaysWeekday", "next Monday", monday, text.TenseFuture, date(2023, 5, 15), date(2023, 5, 15), "Monday 15 May 2023"},
		{"ThisTodaysWeekday", "this Monday", monday, 0, date(2023, 5, 8), date(2023, 5, 8), "Monday 8 May 2023"},
		// A weekday something was, without "on", is past: a correction of the day.
		{"WasWeekday", "Actually my first day at Northwind was Tuesday, not Monday", wednesday, 0, date(2024, 5, 7), date(2024, 5, 7), "Tuesday 7 May 2024"},
		{"WasWeekdayToday", "my first day was Wednesday", wednesday, text.TenseFuture, date(2024, 5, 8), date(2024, 5, 8), "Wednesday 8 May 2024"},
		// A weekday something is, without "on", is the coming one, whatever the tense of the
		// rest ("last" is none here), or today said on that weekday; a kind of day is none.
		{"IsWeekday", "my last day is Friday", wednesday, text.TensePast, date(2024, 5, 10), date(2024, 5, 10), "Friday 10 May 2024"},
		{"IsWeekdayToday", "the party is Wednesday", wednesday, 0, date(2024, 5, 8), date(2024, 5, 8), "Wednesday 8 May 2024"},
		{"IsWeekdayNoDate", "my favourite day is Tuesday", wednesday, 0, time.Time{}, time.Time{}, ""},
		{"WasWeekdayNoDate", "my best day was Tuesday", wednesday, text.TensePast, time.Time{}, time.Time{}, ""},
		// A weekday something is due by is a deadline on that day: the coming one, unless
		// the text is past.
		{"ByWeekday", "The signed copy is due by Friday.", wednesday, 0, date(2024, 5, 10), date(2024, 5, 10), "Friday 10 May 2024"},
		{"ByWeekdayPastTense", "I finished the draft by Friday", wednesday, text.TensePast, date(2024, 5, 3), date(2024, 5, 3), "Friday 3 May 2024"},
		{"ByWeekdayToday", "send it by Wednesday", wednesday, 0, date(2024, 5, 8), date(2024, 5, 8), "Wednesday 8 May 2024"},
		// A weekday opening a sentence as what something is or was, the same; a day said
		// bare, without an article or a possessive, is a kind of day that comes each week.
		{"WeekdayIs", "Friday is my last day", wednesday, text.TensePast, date(2024, 5, 10), date(2024, 5, 10), "Friday 10 May 2024"},
		{"WeekdayWas", "Sorry. Tuesday was the deadline", wednesday, 0, date(2024, 5, 7), date(2024, 5, 7), "Tuesday 7 May 2024"},
		{"IsWeekdayOneDay", "Big day is Friday", wednesday, 0, date(2024, 5, 10), date(2024, 5, 10), "Friday 10 May 2024"},
		{"IsWeekdayKindOfDay", "Trash day is Tuesday", wednesday, 0, time.Time{}, time.Time{}, ""},
		{"WeekdayIsKindOfDay", "Tuesday is leg day", wednesday, 0, time.Time{}, time.Time{}, ""},
		{"WeekdayIsKindOfNight", "Sure, Thursday is date night", wednesday, 0, time.Time{}, time.Time{}, ""},
		// The day of an occasion that comes once is one day.
		{"IsWeekdayOccasion", "Moving day is Friday", wednesday, 0, date(2024, 5, 10), date(2024, 5, 10), "Friday 10 May 2024"},
		{"WeekdayIsOccasion", "Friday is moving day", wednesday, 0, date(2024, 5, 10), date(2024, 5, 10), "Friday 10 May 2024"},
		{"DayIsNth", "Launch day is the 14th.", wednesday, text.TenseFuture, date(2024, 5, 14), date(2024, 5, 14), "14 May 2024"},
		{"KindOfDayIsNth", "Pay day is the 15th.", wednesday, text.TenseFuture, time.Time{}, time.Time{}, ""},
		// A week is named by its Monday, whatever the day it is said.
		{"ThisWeekOnWednesday", "this week", wednesday, 0, date(2024, 5, 6), date(2024, 5, 12), "the week of 6 May 2024"},
		{"LastWeekOnWednesday", "last week", wednesday, text.TensePast, date(2024, 4, 29), date(2024, 5, 5), "the week of 29 April 2024"},
		{"NextWeekOnWednesday", "next week", wednesday, text.TenseFuture, date(2024, 5, 13), date(2024, 5, 19), "the week of 13 May 2024"},
		{"PastWeekOnWednesday", "the past week", wednesday, text.TensePast, date(2024, 5, 1), date(2024, 5, 8), "the week before 8 May 2024"},
		// A part of a month is one expression, its year placed as the month's.
		{"LastWeekOfDecember", "Deploy freezes happen during the last week of December", november, 0, date(2026, 12, 25), date(2026, 12, 31), "25 to 31 December 2026"},
		{"LastWeekOfDecemberPast", "We froze deploys during the last week of December", november, text.TensePast, date(2025, 12, 25), date(2025, 12, 31), "25 to 31 December 2025"},
		{"FirstWeekOfMarchFuture", "I will travel the first week of March", november, text.TenseFuture, date(2027, 3, 1), date(2027, 3, 7), "1 to 7 March 2027"},
		{"SecondWeekOfNovember", "We fly out the second week of November", november, text.TenseFuture, date(2026, 11, 8), date(2026, 11, 14), "8 to 14 November 2026"},
		{"ThirdWeekOfMarchPast", "We were in Rome the third week of March", november, text.TensePast, date(2026, 3, 15), date(2026, 3, 21), "15 to 21 March 2026"},
		{"FourthWeekOfNextMonth", "the fourth week of next month", november, text.TenseFuture, date(2026, 12, 22), date(2026, 12, 28), "22 to 28 December 2026"},
		{"LastWeekOfFebruaryYear", "the last week of February 2024", november, 0, date(2024, 2, 23), date(2024, 2, 29), ""},
		// A deadline said with no tense is ahead (12 January 2026: this December).
		{"ByDecember", "$10,000 emergency fund by December", time.Date(2026, 1, 12, 10, 0, 0, 0, time.UTC), 0, date(2026, 12, 1), date(2026, 12, 31), "December 2026"},
		{"InDecemberNearest", "$10,000 emergency fund in December", time.Date(2026, 1, 12, 10, 0, 0, 0, time.UTC), 0, date(2025, 12, 1), date(2025, 12, 31), "December 2025"},
		{"ByDecemberPast", "we had it by December", time.Date(2026, 1, 12, 10, 0, 0, 0, time.UTC), text.TensePast, date(2025, 12, 1), date(2025, 12, 31), "December 2025"},
		{"EndOfJune", "the report is due by the end of June", november, text.TenseFuture, date(2027, 6, 30), date(2027, 6, 30), "30 June 2027"},
		{"StartOfJanuary", "we start at the beginning of January", november, text.TenseFuture, date(2027, 1, 1), date(2027, 1, 1), "1 January 2027"},
		{"MiddleOfAugustPast", "we moved in the middle of August", november, text.TensePast, date(2026, 8, 15), date(2026, 8, 15), "15 August 2026"},
		// A range of days is one span, from its first day to the end of its last.
		{"RangeTo", "We booked the hotel for March 14 to 18", february, text.TenseFuture, date(2026, 3, 14), date(2026, 3, 18), "14 to 18 March 2026"},
		{"RangeHyphen", "Hotel Avenida Palace, March 14-18, noted.", february, 0, date(2026, 3, 14), date(2026, 3, 18), "14 to 18 March 2026"},
		{"RangeDayFirst", "We stay in Lisbon 14–18 March", february, text.TenseFuture, date(2026, 3, 14), date(2026, 3, 18), "14 to 18 March 2026"},
		{"RangeFromTo", "from March 14 to March 18", february, text.TenseFuture, date(2026, 3, 14), date(2026, 3, 18), "14 to 18 March 2026"},
		{"RangeYears", "14 March 2026 to 18 March 2026", february, 0, date(2026, 3, 14), date(2026, 3, 18), ""},
		{"RangeYearAtEnd", "14 March to 18 March 2027", february, 0, date(2027, 3, 14), date(2027, 3, 18), "14 to 18 March 2027"},
		{"RangeOverNewYear", "We're away December 28 to January 3", november, text.TenseFuture, date(2026, 12, 28), date(2027, 1, 3), "28 December 2026 to 3 January 2027"},
		{"RangePast", "We stayed at the Avenida from March 14 to 18", april, text.TensePast, date(2024, 3, 14), date(2024, 3, 18), "14 to 18 March 2024"},
		{"LastWeekOfNextMonth", "the last week of next month", november, text.TenseFuture, date(2026, 12, 25), date(2026, 12, 31), "25 to 31 December 2026"},
		{"FirstWeekOfTheYear", "in the first week of the year", november, 0, date(2026, 1, 1), date(2026, 1, 7), "1 to 7 January 2026"},
		// Fixed-date holidays, fortnights, weekends ago, the weekday after next, a day of
		// the month alone.
		{"LastChristmas", "Last Christmas we were in Vienna.", april, text.TensePast, date(2023, 12, 25), date(2023, 12, 25), "25 December 2023"},
		{"ThisChristmas", "this Christmas we stay home", april, text.TenseFuture, date(2024, 12, 25), date(2024, 12, 25), "25 December 2024"},
		{"NextHalloween", "next Halloween", april, 0, date(2024, 10, 31), date(2024, 10, 31), "31 October 2024"},
		{"OnNewYearsEvePast", "We kissed on New Year's Eve.", april, text.TensePast, date(2023, 12, 31), date(2023, 12, 31), "31 December 2023"},
		{"OnNewYearsEveFuture", "We'll dance on New Year's Eve.", april, text.TenseFuture, date(2024, 12, 31), date(2024, 12, 31), "31 December 2024"},
		{"ForValentinesDay", "I got flowers for Valentine’s Day", april, text.TensePast, date(2024, 2, 14), date(2024, 2, 14), "14 February 2024"},
		{"ChristmasTree", "We bought a Christmas tree", april, text.TensePast, time.Time{}, time.Time{}, ""},
		{"InAFortnight", "In a fortnight I have the follow-up.", april, text.TenseFuture, date(2024, 4, 22), date(2024, 4, 28), "the week of 22 April 2024"},
		{"AFortnightAgo", "a fortnight ago", april, text.TensePast, date(2024, 3, 25), date(2024, 3, 31), "the week of 25 March 2024"},
		{"TwoWeekendsAgo", "Two weekends ago I visited my grandma.", april, text.TensePast, date(2024, 3, 30), date(2024, 3, 31), "the weekend of 30 March 2024"},
		{"InTwoWeekends", "in two weekends", april, text.TenseFuture, date(2024, 4, 20), date(2024, 4, 21), "the weekend of 20 April 2024"},
		{"ThursdayAfterNext", "The Thursday after next is the school play.", april, text.TenseFuture, date(2024, 4, 18), date(2024, 4, 18), "Thursday 18 April 2024"},
		{"OnThe14th", "Parents evening is on the 14th.", april, 0, date(2024, 4, 14), date(2024, 4, 14), "14 April 2024"},
		{"OnThe1stNextMonth", "Rent is due on the 1st.", april, text.TenseFuture, date(2024, 5, 1), date(2024, 5, 1), "1 May 2024"},
		{"OnThe14thPast", "We met on the 14th, at noon", april, text.TensePast, date(2024, 3, 14), date(2024, 3, 14), "14 March 2024"},
		{"OnThe31stSkipsApril", "The plumber comes on the 31st.", april, text.TenseFuture, date(2024, 5, 31), date(2024, 5, 31), "31 May 2024"},
		{"OnThe3rdFloor", "I live on the 3rd floor", april, 0, time.Time{}, time.Time{}, ""},
		{"NumericDateSkipped", "Book club on 4/20 at 7pm.", april, text.TenseFuture, time.Time{}, time.Time{}, ""},
		{"EndOfTheWeekStillEndOf", "by the end of the week", november, text.TenseFuture, date(2026, 11, 1), date(2026, 11, 1), "1 November 2026"},
		{"LastMonth", "last month", monday, text.TensePast, date(2023, 4, 1), date(2023, 4, 30), "April 2023"},
		{"NextMonth", "next month", monday, text.TenseFuture, date(2023, 6, 1), date(2023, 6, 30), "June 2023"},
		{"LastMonthInJanuary", "last month", time.Date(2023, 1, 10, 9, 0, 0, 0, time.UTC), text.TensePast, date(2022, 12, 1), date(2022, 12, 31), "December 2022"},
		{"LastYear", "last year", monday, text.TensePast, date(2022, 1, 1), date(2022, 12, 31), "2022"},
		// A month or a day with a year named from now: that year's, whatever the tense.
		{"MonthLastYear", "the dentist I saw in March last year", monday, text.TensePast, date(2022, 3, 1), date(2022, 3, 31), "March 2022"},
		{"MonthOfNextYear", "we go in February of next year", monday, 0, date(2024, 2, 1), date(2024, 2, 29), "February 2024"},
		{"DayLastYear", "on May 3 last year", monday, 0, date(2022, 5, 3), date(2022, 5, 3), "3 May 2022"},
		{"NextYear", "next year", monday, text.TenseFuture, date(2024, 1, 1), date(2024, 12, 31), "2024"},
		{"LastWeekend", "last weekend", monday, text.TensePast, date(2023, 5, 6), date(2023, 5, 7), "the weekend before 8 May 2023"},
		{"LastWeekendOnSunday", "last weekend", time.Date(2023, 5, 14, 9, 0, 0, 0, time.UTC), text.TensePast, date(2023, 5, 6), date(2023, 5, 7), "the weekend before 14 May 2023"},
		{"ThisWeekend", "this weekend", monday, 0, date(2023, 5, 13), date(2023, 5, 14), "the weekend of 13 May 2023"},
		{"NextWeekend", "next weekend", monday, text.TenseFuture, date(2023, 5, 13), date(2023, 5, 14), "the weekend of 13 May 2023"},
		{"LastSaturday", "last Saturday", monday, text.TensePast, date(2023, 5, 6), date(2023, 5, 6), "Saturday 6 May 2023"},
		{"LastMondayOnAMonday", "last Monday", monday, text.TensePast, date(2023, 5, 1), date(2023, 5, 1), "Monday 1 May 2023"},
		{"LastFriAbbrev", "last fri", monday, text.TensePast, date(2023, 5, 5), date(2023, 5, 5), "Friday 5 May 2023"},
		{"NextFriday", "next Friday", monday, text.TenseFuture, date(2023, 5, 12), date(2023, 5, 12), "Friday 12 May 2023"},
		{"OnFridayPast", "I ran on Friday", monday, text.TensePast, date(2023, 5, 5), date(2023, 5, 5), "Friday 5 May 2023"},
		{"OnFridayFuture", "I will run on Friday", monday, text.TenseFuture, date(2023, 5, 12), date(2023, 5, 12), "Friday 12 May 2023"},
		{"DaysAgo", "3 days ago", monday, text.TensePast, date(2023, 5, 5), date(2023, 5, 5), "5 May 2023"},
		{"TwoWeeksAgo", "two weeks ago", monday, text.TensePast, date(2023, 4, 24), date(2023, 4, 30), "the week of 24 April 2023"},
		{"AMonthAgo", "a month ago", monday, text.TensePast, date(2023, 4, 1), date(2023, 4, 30), "April 2023"},
		{"FiveYearsAgo", "five years ago", monday, text.TensePast, date(2018, 1, 1), date(2018, 12, 31), "2018"},
		{"AFewYearsAgo", "a few years ago", monday, text.TensePast, date(2020, 1, 1), date(2020, 12, 31), "around 2020"},
		{"InThreeDays", "in 3 days", monday, text.TenseFuture, date(2023, 5, 11), date(2023, 5, 11), "11 May 2023"},
		{"InTwoWeeks", "in two weeks", monday, text.TenseFuture, date(2023, 5, 22), date(2023, 5, 28), "the week of 22 May 2023"},
		{"MonthDayFuture", "the show is on May 20", monday, text.TenseFuture, date(2023, 5, 20), date(2023, 5, 20), "20 May 2023"},
		{"MonthDayPast", "I saw it on May 20", monday, text.TensePast, date(2022, 5, 20), date(2022, 5, 20), "20 May 2022"},
		{"DayOfMonth", "on the 20th of June", monday, 0, date(2023, 6, 20), date(2023, 6, 20), "20 June 2023"},
		// Neither tense: the nearest occurrence.
		{"MonthDayNearestNextYear", "Lily turns 7 on March 3rd", time.Date(2026, 11, 10, 9, 0, 0, 0, time.UTC), 0, date(2027, 3, 3), date(2027, 3, 3), "3 March 2027"},
		{"MonthDayNearestLastYear", "the party on December 30", time.Date(2027, 1, 4, 9, 0, 0, 0, time.UTC), 0, date(2026, 12, 30), date(2026, 12, 30), "30 December 2026"},
		{"InMonthNearestNextYear", "the trip in January", time.Date(2026, 11, 10, 9, 0, 0, 0, time.UTC), 0, date(2027, 1, 1), date(2027, 1, 31), "January 2027"},
		{"FullDate", "on June 5, 2021", monday, 0, date(2021, 6, 5), date(2021, 6, 5), ""},
		{"FullDateDayFirst", "8 May, 2023", monday, 0, date(2023, 5, 8), date(2023, 5, 8), ""},
		{"InMarchPast", "we met in March", monday, text.TensePast, date(2023, 3, 1), date(2023, 3, 31), "March 2023"},
		{"InMarchFuture", "we will meet in March", monday, text.TenseFuture, date(2024, 3, 1), date(2024, 3, 31), "March 2024"},
		{"InAugustPast", "I travelled in August", monday, text.TensePast, date(2022, 8, 1), date(2022, 8, 31), "August 2022"},
		{"LastMay", "last May", monday, text.TensePast, date(2022, 5, 1), date(2022, 5, 31), "May 2022"},
		{"MonthAndYear", "in July 2021", monday, 0, date(2021, 7, 1), date(2021, 7, 31), ""},
		{"InYear", "in 2022", monday, text.TensePast, date(2022, 1, 1), date(2022, 12, 31), ""},
		{"LastSummer", "last summer", monday, text.TensePast, date(2022, 6, 1), date(2022, 8, 31), "summer 2022"},
		{"ThisSummer", "this summer", monday, text.TenseFuture, date(2023, 6, 1), date(2023, 8, 31), "summer 2023"},
		{"LastSummerInOctober", "last summer", time.Date(2023, 10, 2, 9, 0, 0, 0, time.UTC), text.TensePast, date(2023, 6, 1), date(2023, 8, 31), "summer 2023"},
		// A day of a month is read whole, not as the month after its preposition.
		{"FromMonthDay", "the demo moved from March 9", monday, 0, date(2023, 3, 9), date(2023, 3, 9), "9 March 2023"},
		{"BeforeMonthDay", "finish it before August 3", monday, text.TenseFuture, date(2023, 8, 3), date(2023, 8, 3), "3 August 2023"},
		{"InMonthBeforeYears", "in June 2020 we met", monday, 0, date(2020, 6, 1), date(2020, 6, 30), ""},
		// February 29 without a year falls in a leap year, on the side of now the tense
		// picks; a day no year of it has is read as none, not as its month alone.
		{"LeapDayPast", "Lisa was born on February 29", time.Date(2025, 11, 20, 10, 0, 0, 0, time.UTC), text.TensePast, date(2024, 2, 29), date(2024, 2, 29), "29 February 2024"},
		{"LeapDayNearest", "Lisa's birthday is February 29", time.Date(2025, 11, 20, 10, 0, 0, 0, time.UTC), 0, date(2028, 2, 29), date(2028, 2, 29), "29 February 2028"},
		{"LeapDayFuture", "the party is on 29 February", time.Date(2025, 1, 5, 10, 0, 0, 0, time.UTC), text.TenseFuture, date(2028, 2, 29), date(2028, 2, 29), "29 February 2028"},
		{"LeapDayThisYear", "Ben's birthday is February 29", time.Date(2024, 1, 5, 10, 0, 0, 0, time.UTC), 0, date(2024, 2, 29), date(2024, 2, 29), "29 February 2024"},
		{"LeapDayOfCommonYear", "The audit is on February 29, 2025", time.Date(2025, 11, 20, 10, 0, 0, 0, time.UTC), 0, time.Time{}, time.Time{}, ""},
		{"NoSuchDay", "The invoice is due on April 31", time.Date(2025, 11, 20, 10, 0, 0, 0, time.UTC), text.TenseFuture, time.Time{}, time.Time{}, ""},
		// ISO dates.
		{"ISODate", "the audit is on 2023-06-14", monday, 0, date(2023, 6, 14), date(2023, 6, 14), ""},
		{"ISODateNoTimestamp", "backup taken 2021-02-28", time.Time{}, 0, date(2021, 2, 28), date(2021, 2, 28), ""},
		{"ISONoSuchDay", "build 2023-02-30", monday, 0, time.Time{}, time.Time{}, ""},
		// The end of a period is its last day.
		{"EndOfTheMonth", "the invoice is due by the end of the month", monday, text.TenseFuture, date(2023, 5, 31), date(2023, 5, 31), "31 May 2023"},
		{"EndOfMonthBare", "done by end of month", monday, 0, date(2023, 5, 31), date(2023, 5, 31), "31 May 2023"},
		{"EndOfNextWeek", "at the end of next week", monday, text.TenseFuture, date(2023, 5, 21), date(2023, 5, 21), "21 May 2023"},
		{"EndOfTheYear", "by the end of the year", monday, text.TenseFuture, date(2023, 12, 31), date(2023, 12, 31), "31 December 2023"},
		{"EndOfLastYear", "at the end of last year", monday, text.TensePast, date(2022, 12, 31), date(2022, 12, 31), "31 December 2022"},
		{"ModalMay", "May I ask something?", monday, 0, time.Time{}, time.Time{}, ""},
		{"ForMonth", "a rollout planned for March", monday, text.TenseFuture, date(2024, 3, 1), date(2024, 3, 31), "March 2024"},
		// Other languages: a day of a month and the days next to today.
		{"SpanishDay", "Tengo cita con el dentista el 3 de marzo.", monday, 0, date(2023, 3, 3), date(2023, 3, 3), "3 March 2023"},
		{"GermanDayYear", "Am 3. März 2023 flog ich nach Berlin.", monday, 0, date(2023, 3, 3), date(2023, 3, 3), ""},
		{"FrenchDay", "Le 14 juillet on fait la fête.", monday, 0, date(2023, 7, 14), date(2023, 7, 14), "14 July 2023"},
		{"ItalianDay", "Parto il 20 maggio.", monday, 0, date(2023, 5, 20), date(2023, 5, 20), "20 May 2023"},
		{"ChineseDay", "我3月3日去北京", monday, 0, date(2023, 3, 3), date(2023, 3, 3), "3 March 2023"},
		{"JapaneseDayYear", "2023年6月1日に引っ越した", monday, 0, date(2023, 6, 1), date(2023, 6, 1), ""},
		{"SpanishTomorrow", "Mañana tengo meeting con Ana.", monday, 0, date(2023, 5, 9), date(2023, 5, 9), "9 May 2023"},
		{"SpanishThisMorning", "Esta mañana fui al gimnasio.", monday, 0, date(2023, 5, 8), date(2023, 5, 8), "8 May 2023"},
		{"SpanishTheMorning", "Por la mañana corro.", monday, 0, time.Time{}, time.Time{}, ""},
		{"GermanTomorrow", "Ich komme morgen.", monday, 0, date(2023, 5, 9), date(2023, 5, 9), "9 May 2023"},
		{"GermanGoodMorning", "Guten Morgen!", monday, 0, time.Time{}, time.Time{}, ""},
		{"FrenchDayBeforeYesterday", "Avant-hier, j'ai vu Paul.", monday, 0, date(2023, 5, 6), date(2023, 5, 6), "6 May 2023"},
		{"PortugueseTomorrow", "Amanhã vou a Lisboa.", monday, 0, date(2023, 5, 9), date(2023, 5, 9), "9 May 2023"},
		{"ChineseTomorrow", "我明天去北京", monday, 0, date(2023, 5, 9), date(2023, 5, 9), "9 May 2023"},
		{"JapaneseYesterday", "昨日、映画を見た", monday, 0, date(2023, 5, 7), date(2023, 5, 7), "7 May 2023"},
		{"SpanishTomorrowDecomposed", "Man\u0303ana tengo cita.", monday, 0, date(2023, 5, 9), date(2023, 5, 9), "9 May 2023"},
		{"GermanDayDecomposed", "Am 3. Ma\u0308rz 2023 flog ich.", monday, 0, date(2023, 3, 3), date(2023, 3, 3), ""},
		{"SpanishQuestionTomorrow", "¿Mañana vienes?", monday, 0, date(2023, 5, 9), date(2023, 5, 9), "9 May 2023"},
		// English words and names are no dates.
		{"MayoIsNoMonth", "I saw 2 mayo packets", monday, 0, time.Time{}, time.Time{}, ""},
		{"MaiTais", "I ate 2 Mai Tais", monday, 0, time.Time{}, time.Time{}, ""},
		{"MarsBars", "3 Mars bars", monday, 0, time.Time{}, time.Time{}, ""},
		{"MarzoStreet", "7 Marzo Street", monday, 0, time.Time{}, time.Time{}, ""},
		{"GermanHere", "Ich bin hier in Berlin.", monday, 0, time.Time{}, time.Time{}, ""},
		{"Ayer", "I read A. J. Ayer today", monday, 0, date(2023, 5, 8), date(2023, 5, 8), "8 May 2023"},
		{"CousinMorgen", "My cousin Morgen called.", monday, 0, time.Time{}, time.Time{}, ""},
		{"DoctorMorgen", "I saw Dr. Morgen today", monday, 0, date(2023, 5, 8), date(2023, 5, 8), "8 May 2023"},
		{"GermanMorning", "Den ganzen Morgen war es kalt.", monday, 0, time.Time{}, time.Time{}, ""},
		{"JapaneseName", "明日香は私の妹", monday, 0, time.Time{}, time.Time{}, ""},
		{"AnotherWord", "el hoyo 9", monday, 0, time.Time{}, time.Time{}, ""},
		{"NoDate", "I love painting", monday, 0, time.Time{}, time.Time{}, ""},
		{"NoTimestampRelative", "yesterday", time.Time{}, text.TensePast, time.Time{}, time.Time{}, ""},
		{"NoTimestampExplicit", "in 2019", time.Time{}, text.TensePast, date(2019, 1, 1), date(2019, 12, 31), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := text.Dates(tt.text, tt.now, tt.tense)
			if tt.from.IsZero() {
				if len(ms) != 0 {
					t.Fatalf("want no date, got %+v", ms)
				}
				return
			}
			if len(ms) != 1 {
				t.Fatalf("want one date, got %d: %+v", len(ms), ms)
			}
			m := ms[0]
			if !m.From.Equal(tt.from) {
				t.Errorf("from = %v, want %v", m.From, tt.from)
			}
			if want := tt.to.AddDate(0, 0, 1).Add(-time.Second); !m.To.Equal(want) {
				t.Errorf("to = %v, want %v", m.To, want)
			}
			if m.Label != tt.label {
				t.Errorf("label = %q, want %q", m.Label, tt.label)
			}
		})
	}
}

// A move from one day to another is two days, not a range; a day followed by a time is
// one day.
func TestDatesNoRange(t *testing.T) {
	wantLabels(t, november, []labelsCase{
		{"The audit moved from November 20 to December 3.", []string{"20 November 2026", "3 December 2026"}},
		{"We moved the review from November 20 to November 27.", []string{"20 November 2026", "27 November 2026"}},
		{"The launch moves from November 20 to December 3.", []string{"20 November 2026", "3 December 2026"}},
		{"The review slips from November 20 to November 27.", []string{"20 November 2026", "27 November 2026"}},
		{"Open house on November 20 to 9 pm.", []string{"20 November 2026"}},
	})
}

// A day of the month alone after a day named in the same text is of that day's month, or
// of the month after when it comes before that day; with none, the next such day.
func TestDatesDayOfNamedMonth(t *testing.T) {
	wantLabels(t, february, []labelsCase{
		{"We fly to Lisbon on March 14 and back on the 21st.", []string{"14 March 2026", "21 March 2026"}},
		{"We leave on March 28 and come back on the 3rd.", []string{"28 March 2026", "3 April 2026"}},
		{"We fly back on the 21st.", []string{"21 February 2026"}},
	})
}

// labelsCase is a text and the labels of its dates.
type labelsCase struct {
	text string
	want []string
}

// wantLabels checks the labels of the dates of each text, said at now in the future tense.
func wantLabels(t *testing.T, now time.Time, tests []labelsCase) {
	t.Helper()
	for _, tt := range tests {
		var got []string
		for _, m := range text.Dates(tt.text, now, text.TenseFuture) {
			got = append(got, m.Label)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: dates %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestQuestionTime(t *testing.T) {
	now := time.Date(2023, 5, 24, 15, 0, 0, 0, time.UTC) // a Wednesday
	tests := []struct {
		q        string
		from, to time.Time // to exclusive
		rest     string
		relative bool
		label    bool // the year was not spelled out
		future   bool // asked in TenseFuture, else TensePast
	}{
		{"What did Caroline do in May 2023?", date(2023, 5, 1), date(2023, 6, 1), "What did Caroline do ?", false, false, false},
		{"What happened on 8 May 2023?", date(2023, 5, 8), date(2023, 5, 9), "What happened ?", false, false, false},
		{"Where was Mel on May 8, 2023?", date(2023, 5, 8), date(2023, 5, 9), "Where was Mel ?", false, false, false},
		{"What did Mel paint last week?", date(2023, 5, 15), date(2023, 5, 22), "What did Mel paint ?", true, true, false},
		{"Who called yesterday?", date(2023, 5, 23), date(2023, 5, 24), "Who called ?", true, true, false},
		{"What did she buy last month", date(2023, 4, 1), date(2023, 5, 1), "What did she buy", true, true, false},
		{"Plans for next year", date(2024, 1, 1), date(2025, 1, 1), "Plans for", true, true, false},
		{"What happened two weeks ago?", date(2023, 5, 8), date(2023, 5, 15), "What happened ?", true, true, false},
		{"Where did they go in August?", date(2022, 8, 1), date(2022, 9, 1), "Where did they go ?", false, true, false},
		{"What changed in 2022?", date(2022, 1, 1), date(2023, 1, 1), "What changed ?", false, false, false},
		{"What was the name of the dentist I saw in March last year?", date(2022, 3, 1), date(2022, 4, 1), "What was the name of the dentist I saw ?", false, true, false},
		{"Who came last weekend?", date(2023, 5, 20), date(2023, 5, 22), "Who came ?", true, true, false},
		{"What did they give him on Aug 15th?", date(2022, 8, 15), date(2022, 8, 16), "What did they give him ?", false, true, false},
		// A weekend or season without which: the one begun by now, else the last.
		{"What did I do over the weekend?", date(2023, 5, 20), date(2023, 5, 22), "What did I do ?", true, true, false},
		{"Where did they go during the summer?", date(2022, 6, 1), date(2022, 9, 1), "Where did they go ?", true, true, false},
		{"What did we plant in the spring?", date(2023, 3, 1), date(2023, 6, 1), "What did we plant ?", true, true, false},
		{"What did Mel paint last week, as mentioned on May 8, 2023?", date(2023, 5, 8), date(2023, 5, 9), "What did Mel paint last week, as mentioned ?", false, false, false},
		// Asked of what is to come: the coming weekday, the next such date.
		{"What do I have on Tuesday?", date(2023, 5, 30), date(2023, 5, 31), "What do I have ?", true, true, true},
		{"What do I have on April 2?", date(2024, 4, 2), date(2024, 4, 3), "What do I have ?", false, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.q, func(t *testing.T) {
			tense := text.TensePast
			if tt.future {
				tense = text.TenseFuture
			}
			m, rest, ok := text.QuestionTime(tt.q, now, tense)
			if !ok {
				t.Fatal("no time expression")
			}
			if !m.From.Equal(tt.from) || !m.To.Equal(tt.to.Add(-time.Second)) {
				t.Errorf("span %v – %v, want %v – %v", m.From, m.To, tt.from, tt.to)
			}
			if rest != tt.rest {
				t.Errorf("rest %q, want %q", rest, tt.rest)
			}
			if m.Relative != tt.relative || (m.Label != "") != tt.label {
				t.Errorf("relative %v, label %q; want relative %v, a label %v", m.Relative, m.Label, tt.relative, tt.label)
			}
		})
	}
	t.Run("None", func(t *testing.T) {
		if m, rest, ok := text.QuestionTime("What may Caroline like?", now, text.TensePast); ok || rest != "What may Caroline like?" {
			t.Errorf("got %+v, %q, want no time expression", m, rest)
		}
	})
}
