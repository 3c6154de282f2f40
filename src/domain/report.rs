//! The daily report: per local day of the store's time zone, how many orders were placed,
//! completed and cancelled, the units sold and the revenue. An order counts on the day it
//! was placed (placed, units, revenue), on the day it was completed (completed) and on the
//! day it was cancelled (cancelled; its units and revenue then count nowhere).
//!
//! Interface 1.2 adds the counter: a sale counts on the day of its `soldAt` (an offline sale
//! sent later on the day it was made): `sales`, its `tax`, and what it took by method less
//! change (`cash`, `card`, `other`); a refund counts on the day it was made (`createdAt`):
//! `refunds`, less its tax from `tax`, less its amount from the method it was paid back by.

use chrono::{DateTime, Days, NaiveDate, NaiveDateTime, TimeZone, Utc};
use chrono_tz::Tz;
use serde::Serialize;

use super::payment::{ByMethod, Method};
use super::time;

/// Most days one report covers.
pub const DAYS_MAX: i64 = crate::contract::REPORT_DAYS.max;
/// Days a report covers when the client does not say.
pub const DAYS_DEFAULT: u64 = crate::contract::REPORT_DAYS_DEFAULT as u64;

/// One day of the report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Day {
    pub date: String,
    pub orders_placed: i64,
    pub orders_completed: i64,
    pub orders_cancelled: i64,
    pub units_sold: i64,
    pub revenue: i64,
    /// Sales made that day.
    pub sales: i64,
    /// Their tax, less the tax refunded that day.
    pub tax: i64,
    /// The amount refunded that day.
    pub refunds: i64,
    /// Payments taken that day less change, less refunds paid back that way.
    pub cash: i64,
    pub card: i64,
    pub other: i64,
}

/// The CSV header of the report, in the order of [`Day::cells`].
pub const CSV_HEADER: [&str; 12] = [
    "date",
    "ordersPlaced",
    "ordersCompleted",
    "ordersCancelled",
    "unitsSold",
    "revenue",
    "sales",
    "tax",
    "refunds",
    "cash",
    "card",
    "other",
];

impl Day {
    /// The day as CSV cells, in the order of [`CSV_HEADER`].
    pub fn cells(&self) -> [String; 12] {
        [
            self.date.clone(),
            self.orders_placed.to_string(),
            self.orders_completed.to_string(),
            self.orders_cancelled.to_string(),
            self.units_sold.to_string(),
            self.revenue.to_string(),
            self.sales.to_string(),
            self.tax.to_string(),
            self.refunds.to_string(),
            self.cash.to_string(),
            self.card.to_string(),
            self.other.to_string(),
        ]
    }

    fn by_method(&mut self, method: Method) -> &mut i64 {
        match method {
            Method::Cash => &mut self.cash,
            Method::Card => &mut self.card,
            Method::Other => &mut self.other,
        }
    }
}

/// A range of local days, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub from: NaiveDate,
    pub to: NaiveDate,
}

impl Range {
    /// The range asked for: `to` defaults to today, `from` to the 30 days up to `to`; at most
    /// [`DAYS_MAX`] days, `from` not after `to`. The error says what is wrong.
    pub fn new(
        from: Option<NaiveDate>,
        to: Option<NaiveDate>,
        today: NaiveDate,
    ) -> Result<Self, String> {
        let to = to.unwrap_or(today);
        let from = from.unwrap_or_else(|| to - Days::new(DAYS_DEFAULT - 1));
        if from > to {
            return Err("\"from\" must not be after \"to\"".into());
        }
        if (to - from).num_days() + 1 > DAYS_MAX {
            return Err(format!("a report covers at most {DAYS_MAX} days"));
        }
        Ok(Self { from, to })
    }

    /// The first instant of `from` and the first instant after `to`, in UTC as the store
    /// writes times, so rows can be selected by plain string comparison.
    pub fn utc_bounds(&self, tz: Tz) -> (String, String) {
        (
            time::format(start_of_day(tz, self.from)),
            time::format(start_of_day(tz, self.to + Days::new(1))),
        )
    }

    fn days(&self) -> impl Iterator<Item = NaiveDate> {
        let to = self.to;
        self.from.iter_days().take_while(move |d| *d <= to)
    }
}

/// A date as `YYYY-MM-DD`.
pub fn parse_date(raw: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d")
        .ok()
        .filter(|_| raw.trim().len() == 10)
}

/// Today in `tz`.
pub fn today(tz: Tz) -> NaiveDate {
    Utc::now().with_timezone(&tz).date_naive()
}

/// When `date` begins in `tz`: local midnight, or the first moment after it where a clock
/// change skips midnight.
pub fn start_of_day(tz: Tz, date: NaiveDate) -> DateTime<Utc> {
    let midnight: NaiveDateTime = date.and_time(chrono::NaiveTime::MIN);
    for hour in 0..24 {
        let local = midnight + chrono::Duration::hours(hour);
        if let Some(at) = tz.from_local_datetime(&local).earliest() {
            return at.with_timezone(&Utc);
        }
    }
    Utc.from_utc_datetime(&midnight)
}

/// The local date in `tz` of an instant as the store writes it.
pub fn local_date(tz: Tz, at: &str) -> Option<NaiveDate> {
    DateTime::parse_from_rfc3339(at)
        .ok()
        .map(|t| t.with_timezone(&tz).date_naive())
}

/// What the report is made of, as the store has it.
#[derive(Debug, Clone, Default)]
pub struct Activity {
    /// Orders still on the books: placed at, units, total (if priced), completed at.
    pub orders: Vec<(String, i64, Option<i64>, Option<String>)>,
    /// Cancelled orders: placed at, cancelled at.
    pub cancelled: Vec<(String, String)>,
    /// Sales: sold at, tax, and what they took by method less change.
    pub sales: Vec<(String, i64, ByMethod)>,
    /// Refunds: made at, amount, tax, and the method they were paid back by.
    pub refunds: Vec<(String, i64, i64, Method)>,
}

/// The report's days, oldest first, every day of `range` included.
pub fn daily(range: Range, tz: Tz, activity: &Activity) -> Vec<Day> {
    let mut days: Vec<Day> = range
        .days()
        .map(|d| Day {
            date: d.format("%Y-%m-%d").to_string(),
            ..Day::default()
        })
        .collect();
    let mut slot = |at: &str| -> Option<usize> {
        let date = local_date(tz, at)?;
        if date < range.from || date > range.to {
            return None;
        }
        usize::try_from((date - range.from).num_days()).ok()
    };
    for (placed_at, units, total, completed_at) in &activity.orders {
        if let Some(i) = slot(placed_at) {
            days[i].orders_placed += 1;
            days[i].units_sold += units;
            days[i].revenue += total.unwrap_or(0);
        }
        if let Some(i) = completed_at.as_deref().and_then(&mut slot) {
            days[i].orders_completed += 1;
        }
    }
    for (placed_at, cancelled_at) in &activity.cancelled {
        if let Some(i) = slot(placed_at) {
            days[i].orders_placed += 1;
        }
        if let Some(i) = slot(cancelled_at) {
            days[i].orders_cancelled += 1;
        }
    }
    for (sold_at, tax, taken) in &activity.sales {
        if let Some(i) = slot(sold_at) {
            let day = &mut days[i];
            day.sales += 1;
            day.tax = day.tax.saturating_add(*tax);
            for method in Method::ALL {
                let sum = day.by_method(method);
                *sum = sum.saturating_add(taken.get(method));
            }
        }
    }
    for (made_at, amount, tax, method) in &activity.refunds {
        if let Some(i) = slot(made_at) {
            let day = &mut days[i];
            day.refunds = day.refunds.saturating_add(*amount);
            day.tax = day.tax.saturating_sub(*tax);
            let sum = day.by_method(*method);
            *sum = sum.saturating_sub(*amount);
        }
    }
    days
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn date(raw: &str) -> NaiveDate {
        parse_date(raw).unwrap()
    }

    /// The days `from` to `to`, asked on the day `to`.
    fn up_to_today(from: &str, to: &str) -> Range {
        Range::new(Some(date(from)), Some(date(to)), date(to)).unwrap()
    }

    #[test]
    fn the_default_range_is_the_last_thirty_days_up_to_today() {
        let r = Range::new(None, None, date("2026-03-31")).unwrap();
        assert_eq!((r.from, r.to), (date("2026-03-02"), date("2026-03-31")));
        assert!(Range::new(
            Some(date("2026-01-02")),
            Some(date("2026-01-01")),
            date("2026-03-31")
        )
        .is_err());
        assert!(Range::new(
            Some(date("2025-01-01")),
            Some(date("2026-01-01")),
            date("2026-03-31")
        )
        .is_ok());
        assert!(Range::new(
            Some(date("2025-01-01")),
            Some(date("2026-01-02")),
            date("2026-03-31")
        )
        .is_err());
    }

    #[test]
    fn dates_are_strictly_year_month_day() {
        assert!(parse_date("2026-02-30").is_none());
        assert!(parse_date("2026-2-3").is_none());
        assert!(parse_date("2026-02-03T00:00:00Z").is_none());
    }

    #[test]
    fn orders_fall_on_the_local_day_of_the_store() {
        let tz = Tz::from_str("America/New_York").unwrap();
        let range = up_to_today("2026-01-10", "2026-01-11");
        // 04:30 UTC on the 11th is 23:30 on the 10th in New York; 05:30 UTC is 00:30 on the 11th.
        let activity = Activity {
            orders: vec![
                (
                    "2026-01-11T04:30:00Z".into(),
                    2,
                    Some(500),
                    Some("2026-01-11T05:30:00Z".into()),
                ),
                ("2026-01-11T05:30:00Z".into(), 1, None, None),
            ],
            cancelled: vec![("2026-01-11T04:00:00Z".into(), "2026-01-11T06:00:00Z".into())],
            ..Activity::default()
        };
        let days = daily(range, tz, &activity);
        assert_eq!(days[0].date, "2026-01-10");
        assert_eq!(
            (days[0].orders_placed, days[0].units_sold, days[0].revenue),
            (2, 2, 500)
        );
        assert_eq!((days[0].orders_completed, days[0].orders_cancelled), (0, 0));
        assert_eq!(
            (days[1].orders_placed, days[1].units_sold, days[1].revenue),
            (1, 1, 0)
        );
        assert_eq!((days[1].orders_completed, days[1].orders_cancelled), (1, 1));
    }

    #[test]
    fn sales_count_on_their_sold_day_and_refunds_on_theirs_less_their_tax_and_method() {
        let tz = Tz::from_str("America/New_York").unwrap();
        let range = up_to_today("2026-01-10", "2026-01-11");
        let took = |cash, card, other| ByMethod { cash, card, other };
        let activity = Activity {
            sales: vec![
                // 23:30 on the 10th in New York: cash 2,400 net of change, card 1,000.
                ("2026-01-11T04:30:00Z".into(), 400, took(2_400, 1_000, 0)),
                ("2026-01-11T15:00:00Z".into(), 50, took(0, 0, 300)),
                // Outside the range.
                ("2026-01-12T15:00:00Z".into(), 999, took(999, 0, 0)),
            ],
            refunds: vec![
                // On the 11th, of the sale of the 10th: 1,200 in cash, tax 200.
                ("2026-01-11T16:00:00Z".into(), 1_200, 200, Method::Cash),
                ("2026-01-11T17:00:00Z".into(), 100, 0, Method::Card),
            ],
            ..Activity::default()
        };
        let days = daily(range, tz, &activity);
        let figures = |d: &Day| (d.sales, d.tax, d.refunds, d.cash, d.card, d.other);
        assert_eq!(figures(&days[0]), (1, 400, 0, 2_400, 1_000, 0));
        assert_eq!(figures(&days[1]), (1, 50 - 200, 1_300, -1_200, -100, 300));
    }

    #[test]
    fn a_day_begins_at_local_midnight_in_utc() {
        let tz = Tz::from_str("Europe/Paris").unwrap();
        let range = up_to_today("2026-07-01", "2026-07-01");
        assert_eq!(
            range.utc_bounds(tz),
            ("2026-06-30T22:00:00Z".into(), "2026-07-01T22:00:00Z".into())
        );
    }
}
