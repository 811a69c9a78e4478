package offline

import (
	"testing"
	"time"
)

// offlineNow is a Monday: 8 May 2023, 1:56 pm (LoCoMo conv-26, session 1).
var offlineNow = time.Date(2023, time.May, 8, 13, 56, 0, 0, time.UTC)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

func TestOfflineResolveDates(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		now   time.Time
		tense int
		from  time.Time // zero: no date expected
		to    time.Time // the last day of the span
		label string
	}{
		{"Yesterday", "I went there yesterday", offlineNow, tensePast, day(2023, 5, 7), day(2023, 5, 7), "7 May 2023"},
		{"LastNight", "we danced last night", offlineNow, tensePast, day(2023, 5, 7), day(2023, 5, 7), "7 May 2023"},
		{"Today", "today is busy", offlineNow, 0, day(2023, 5, 8), day(2023, 5, 8), "8 May 2023"},
		{"Tomorrow", "Tomorrow I fly", offlineNow, tenseFuture, day(2023, 5, 9), day(2023, 5, 9), "9 May 2023"},
		{"DayBeforeYesterday", "the day before yesterday", offlineNow, 0, day(2023, 5, 6), day(2023, 5, 6), "6 May 2023"},
		{"LastWeek", "last week", offlineNow, tensePast, day(2023, 5, 1), day(2023, 5, 7), "the week before 8 May 2023"},
		{"ThisWeek", "this week", offlineNow, 0, day(2023, 5, 8), day(2023, 5, 14), "the week of 8 May 2023"},
		{"NextWeek", "next week", offlineNow, tenseFuture, day(2023, 5, 15), day(2023, 5, 21), "the week after 8 May 2023"},
		{"LastMonth", "last month", offlineNow, tensePast, day(2023, 4, 1), day(2023, 4, 30), "April 2023"},
		{"NextMonth", "next month", offlineNow, tenseFuture, day(2023, 6, 1), day(2023, 6, 30), "June 2023"},
		{"LastMonthInJanuary", "last month", time.Date(2023, 1, 10, 9, 0, 0, 0, time.UTC), tensePast, day(2022, 12, 1), day(2022, 12, 31), "December 2022"},
		{"LastYear", "last year", offlineNow, tensePast, day(2022, 1, 1), day(2022, 12, 31), "2022"},
		{"NextYear", "next year", offlineNow, tenseFuture, day(2024, 1, 1), day(2024, 12, 31), "2024"},
		{"LastWeekend", "last weekend", offlineNow, tensePast, day(2023, 5, 6), day(2023, 5, 7), "the weekend before 8 May 2023"},
		{"LastWeekendOnSunday", "last weekend", time.Date(2023, 5, 14, 9, 0, 0, 0, time.UTC), tensePast, day(2023, 5, 6), day(2023, 5, 7), "the weekend before 14 May 2023"},
		{"ThisWeekend", "this weekend", offlineNow, 0, day(2023, 5, 13), day(2023, 5, 14), "the weekend of 13 May 2023"},
		{"NextWeekend", "next weekend", offlineNow, tenseFuture, day(2023, 5, 13), day(2023, 5, 14), "the weekend of 13 May 2023"},
		{"LastSaturday", "last Saturday", offlineNow, tensePast, day(2023, 5, 6), day(2023, 5, 6), "Saturday 6 May 2023"},
		{"LastMondayOnAMonday", "last Monday", offlineNow, tensePast, day(2023, 5, 1), day(2023, 5, 1), "Monday 1 May 2023"},
		{"LastFriAbbrev", "last fri", offlineNow, tensePast, day(2023, 5, 5), day(2023, 5, 5), "Friday 5 May 2023"},
		{"NextFriday", "next Friday", offlineNow, tenseFuture, day(2023, 5, 12), day(2023, 5, 12), "Friday 12 May 2023"},
		{"OnFridayPast", "I ran on Friday", offlineNow, tensePast, day(2023, 5, 5), day(2023, 5, 5), "Friday 5 May 2023"},
		{"OnFridayFuture", "I will run on Friday", offlineNow, tenseFuture, day(2023, 5, 12), day(2023, 5, 12), "Friday 12 May 2023"},
		{"DaysAgo", "3 days ago", offlineNow, tensePast, day(2023, 5, 5), day(2023, 5, 5), "5 May 2023"},
		{"TwoWeeksAgo", "two weeks ago", offlineNow, tensePast, day(2023, 4, 24), day(2023, 4, 30), "the week of 24 April 2023"},
		{"AMonthAgo", "a month ago", offlineNow, tensePast, day(2023, 4, 1), day(2023, 4, 30), "April 2023"},
		{"FiveYearsAgo", "five years ago", offlineNow, tensePast, day(2018, 1, 1), day(2018, 12, 31), "2018"},
		{"AFewYearsAgo", "a few years ago", offlineNow, tensePast, day(2020, 1, 1), day(2020, 12, 31), "around 2020"},
		{"InThreeDays", "in 3 days", offlineNow, tenseFuture, day(2023, 5, 11), day(2023, 5, 11), "11 May 2023"},
		{"InTwoWeeks", "in two weeks", offlineNow, tenseFuture, day(2023, 5, 22), day(2023, 5, 28), "the week of 22 May 2023"},
		{"MonthDayFuture", "the show is on May 20", offlineNow, tenseFuture, day(2023, 5, 20), day(2023, 5, 20), "20 May 2023"},
		{"MonthDayPast", "I saw it on May 20", offlineNow, tensePast, day(2022, 5, 20), day(2022, 5, 20), "20 May 2022"},
		{"DayOfMonth", "on the 20th of June", offlineNow, 0, day(2023, 6, 20), day(2023, 6, 20), "20 June 2023"},
		{"FullDate", "on June 5, 2021", offlineNow, 0, day(2021, 6, 5), day(2021, 6, 5), ""},
		{"FullDateDayFirst", "8 May, 2023", offlineNow, 0, day(2023, 5, 8), day(2023, 5, 8), ""},
		{"InMarchPast", "we met in March", offlineNow, tensePast, day(2023, 3, 1), day(2023, 3, 31), "March 2023"},
		{"InMarchFuture", "we will meet in March", offlineNow, tenseFuture, day(2024, 3, 1), day(2024, 3, 31), "March 2024"},
		{"InAugustPast", "I travelled in August", offlineNow, tensePast, day(2022, 8, 1), day(2022, 8, 31), "August 2022"},
		{"LastMay", "last May", offlineNow, tensePast, day(2022, 5, 1), day(2022, 5, 31), "May 2022"},
		{"MonthAndYear", "in July 2021", offlineNow, 0, day(2021, 7, 1), day(2021, 7, 31), ""},
		{"InYear", "in 2022", offlineNow, tensePast, day(2022, 1, 1), day(2022, 12, 31), ""},
		{"LastSummer", "last summer", offlineNow, tensePast, day(2022, 6, 1), day(2022, 8, 31), "summer 2022"},
		{"ThisSummer", "this summer", offlineNow, tenseFuture, day(2023, 6, 1), day(2023, 8, 31), "summer 2023"},
		{"LastSummerInOctober", "last summer", time.Date(2023, 10, 2, 9, 0, 0, 0, time.UTC), tensePast, day(2023, 6, 1), day(2023, 8, 31), "summer 2023"},
		{"ModalMay", "May I ask something?", offlineNow, 0, time.Time{}, time.Time{}, ""},
		{"NoDate", "I love painting", offlineNow, 0, time.Time{}, time.Time{}, ""},
		{"NoTimestampRelative", "yesterday", time.Time{}, tensePast, time.Time{}, time.Time{}, ""},
		{"NoTimestampExplicit", "in 2019", time.Time{}, tensePast, day(2019, 1, 1), day(2019, 12, 31), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ms := resolveDates(tt.text, tt.now, tt.tense)
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
			if !m.from.Equal(tt.from) {
				t.Errorf("from = %v, want %v", m.from, tt.from)
			}
			if want := tt.to.AddDate(0, 0, 1).Add(-time.Second); !m.to.Equal(want) {
				t.Errorf("to = %v, want %v", m.to, want)
			}
			if m.label != tt.label {
				t.Errorf("label = %q, want %q", m.label, tt.label)
			}
		})
	}
}

func TestOfflineAnnotateDates(t *testing.T) {
	tests := []struct{ text, want string }{
		{"I went to a support group yesterday and it was great.", "I went to a support group yesterday (7 May 2023) and it was great."},
		{"Last Saturday I ran; next month I camp.", "Last Saturday (Saturday 6 May 2023) I ran; next month (June 2023) I camp."},
		{"Born on June 5, 2021.", "Born on June 5, 2021."},
		{"Nothing to see.", "Nothing to see."},
	}
	for _, tt := range tests {
		text := tt.text
		if got := annotateDates(text, resolveDates(text, offlineNow, tenseOf(text))); got != tt.want {
			t.Errorf("annotate(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}
