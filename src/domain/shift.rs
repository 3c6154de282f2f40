//! The cash drawer's arithmetic: what a shift took, what should be in the drawer, and how far
//! the count is from it (the Z report's numbers).
//!
//! `byMethod` sums the sales' payments less their change (so cash is net of change);
//! `expectedCash = openingCash + cash taken − change − cash refunded`, and `difference =
//! countedCash − expectedCash`, negative when the drawer is short.
//!
//! Bounds: a drawer's `openingCash` and `countedCash` are 0 to [`CASH`]`.max` (10¹² minor
//! units). A shift's sums grow with its sales; they are added saturating, so a shift far past
//! anything a till can ring up (about 46,000 sales of the largest size) stops at the end of
//! the `i64` range rather than wrap.

use serde::Serialize;

pub use crate::contract::CASH;

use super::payment::{ByMethod, Method, Payment};

/// What a shift's sales took.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SalesTally {
    pub count: i64,
    pub total: i64,
    pub tax: i64,
    pub by_method: ByMethod,
}

/// What a shift's refunds gave back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RefundsTally {
    pub count: i64,
    pub amount: i64,
}

/// A shift's sales and refunds, added up as they are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Tally {
    pub sales: SalesTally,
    pub refunds: RefundsTally,
    /// The part of the refunds paid out in cash.
    pub cash_refunded: i64,
}

impl Tally {
    /// Counts a sale of `total` with `tax`, paid by `payments` with `change` given back.
    pub fn add_sale(&mut self, total: i64, tax: i64, payments: &[Payment], change: i64) {
        let sales = &mut self.sales;
        sales.count = sales.count.saturating_add(1);
        sales.total = sales.total.saturating_add(total);
        sales.tax = sales.tax.saturating_add(tax);
        let taken = ByMethod::taken(payments, change);
        for method in Method::ALL {
            sales.by_method.add(method, taken.get(method));
        }
    }

    /// Counts a refund of `amount` paid back by `method`.
    pub fn add_refund(&mut self, method: Method, amount: i64) {
        self.refunds.count = self.refunds.count.saturating_add(1);
        self.refunds.amount = self.refunds.amount.saturating_add(amount);
        if method == Method::Cash {
            self.cash_refunded = self.cash_refunded.saturating_add(amount);
        }
    }

    /// The cash that should be in the drawer: what it opened with, plus the cash taken net of
    /// change, less the cash refunded.
    pub fn expected_cash(&self, opening_cash: i64) -> i64 {
        opening_cash
            .saturating_add(self.sales.by_method.cash)
            .saturating_sub(self.cash_refunded)
    }
}

/// How far the count is from what was expected: negative when the drawer is short.
pub fn difference(counted_cash: i64, expected_cash: i64) -> i64 {
    counted_cash.saturating_sub(expected_cash)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Method::*;

    fn pay(list: &[(Method, i64)]) -> Vec<Payment> {
        list.iter()
            .map(|&(method, amount)| Payment { method, amount })
            .collect()
    }

    #[test]
    fn an_empty_shift_expects_its_opening_cash() {
        let tally = Tally::default();
        assert_eq!(tally.expected_cash(10_000), 10_000);
        assert_eq!(difference(10_000, tally.expected_cash(10_000)), 0);
    }

    #[test]
    fn the_drawer_expects_opening_cash_plus_cash_taken_less_change_and_cash_refunds() {
        let mut tally = Tally::default();
        // 1,500 paid with 2,000 in cash: 500 change
        tally.add_sale(1_500, 250, &pay(&[(Cash, 2_000)]), 500);
        // 3,000 paid 1,000 by card and 2,500 in cash: 500 change
        tally.add_sale(3_000, 500, &pay(&[(Card, 1_000), (Cash, 2_500)]), 500);
        // 700 by other
        tally.add_sale(700, 0, &pay(&[(Other, 700)]), 0);
        tally.add_refund(Cash, 300);
        tally.add_refund(Card, 1_000);
        assert_eq!(
            tally.sales,
            SalesTally {
                count: 3,
                total: 5_200,
                tax: 750,
                by_method: ByMethod {
                    cash: 3_500,
                    card: 1_000,
                    other: 700
                }
            }
        );
        assert_eq!(
            tally.refunds,
            RefundsTally {
                count: 2,
                amount: 1_300
            }
        );
        assert_eq!(tally.expected_cash(10_000), 10_000 + 4_500 - 1_000 - 300);
    }

    /// (expected, counted) → difference.
    #[test]
    fn the_difference_is_negative_when_the_drawer_is_short() {
        for (expected, counted, want) in [
            (13_200, 13_200, 0),
            (13_200, 13_000, -200),
            (13_200, 13_250, 50),
            (0, 0, 0),
            (500, 0, -500),
        ] {
            assert_eq!(difference(counted, expected), want);
        }
    }

    #[test]
    fn card_and_other_sales_leave_the_expected_cash_alone() {
        let mut tally = Tally::default();
        tally.add_sale(1_000, 0, &pay(&[(Card, 1_000)]), 0);
        tally.add_sale(1_000, 0, &pay(&[(Other, 1_000)]), 0);
        tally.add_refund(Other, 400);
        assert_eq!(tally.expected_cash(2_000), 2_000);
        assert_eq!(tally.sales.count, 2);
    }

    #[test]
    fn the_largest_sums_stop_at_the_end_of_the_range_rather_than_wrap() {
        let mut tally = Tally::default();
        let most = 200_000_000_000_000;
        for _ in 0..50_000 {
            tally.add_sale(most, most / 2, &pay(&[(Cash, most)]), 0);
        }
        assert_eq!(tally.sales.total, i64::MAX);
        assert_eq!(tally.sales.by_method.cash, i64::MAX);
        assert_eq!(tally.expected_cash(CASH.max), i64::MAX);
        assert_eq!(difference(0, i64::MAX), -i64::MAX);
        let mut one = Tally::default();
        one.add_sale(most, 0, &pay(&[(Cash, most)]), 0);
        assert_eq!(one.expected_cash(CASH.max), CASH.max + most);
    }
}
