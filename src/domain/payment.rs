//! Paying for a sale: the methods, whether the payments cover the total, and the change.
//!
//! The payments must cover the total: their sum is at least the total, and only cash may
//! exceed it. The excess is `change`, given back in cash, so it is never more than the cash
//! paid. Anything else is `payment_mismatch`.
//!
//! Bounds: one payment is 0 to [`PAYMENT_AMOUNT`]`.max` (10¹⁵ minor units), a sale has at
//! most [`PAYMENTS`]`.max` (5) of them, so their sum stays below 10¹⁶ and fits an `i64`.

use serde::{Deserialize, Serialize};

use crate::contract::Bound;

use super::DomainError;

/// Payments in one sale.
pub const PAYMENTS: Bound = crate::contract::PAYMENTS;
/// One payment's amount, in minor units.
pub const PAYMENT_AMOUNT: Bound = crate::contract::PAYMENT_AMOUNT;

/// How the customer paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    Cash,
    Card,
    Other,
}

impl Method {
    /// Every method, in the order reports list them.
    pub const ALL: [Method; 3] = [Method::Cash, Method::Card, Method::Other];

    /// The method as the interface writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cash => "cash",
            Self::Card => "card",
            Self::Other => "other",
        }
    }

    /// Parses a method as sent; anything else is refused naming `field`.
    pub fn parse(field: &str, raw: &str) -> Result<Self, DomainError> {
        match raw {
            "cash" => Ok(Self::Cash),
            "card" => Ok(Self::Card),
            "other" => Ok(Self::Other),
            _ => Err(DomainError::invalid(
                field,
                "must be one of cash, card, other",
            )),
        }
    }
}

/// One payment of a sale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payment {
    pub method: Method,
    pub amount: i64,
}

/// Payments that do not cover a sale's total, or that overpay other than in cash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentMismatch {
    pub message: String,
}

impl From<PaymentMismatch> for DomainError {
    fn from(mismatch: PaymentMismatch) -> Self {
        DomainError::PaymentMismatch(mismatch.message)
    }
}

/// The change due when `payments` pay a sale of `total`: the excess of the payments over the
/// total, which only cash may make up.
pub fn change(total: i64, payments: &[Payment]) -> Result<i64, PaymentMismatch> {
    let paid: i64 = payments.iter().map(|p| p.amount).sum();
    let not_cash: i64 = payments
        .iter()
        .filter(|p| p.method != Method::Cash)
        .map(|p| p.amount)
        .sum();
    if paid < total {
        return Err(PaymentMismatch {
            message: format!("the payments ({paid}) do not cover the total ({total})"),
        });
    }
    if not_cash > total {
        return Err(PaymentMismatch {
            message: format!(
                "card and other payments ({not_cash}) exceed the total ({total}); only cash \
                 may be more than the total"
            ),
        });
    }
    Ok(paid - total)
}

/// Money by payment method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ByMethod {
    pub cash: i64,
    pub card: i64,
    pub other: i64,
}

impl ByMethod {
    /// What a sale took by method, net of the change given back in cash.
    pub fn taken(payments: &[Payment], change: i64) -> Self {
        let mut taken = Self::default();
        for payment in payments {
            taken.add(payment.method, payment.amount);
        }
        taken.cash = taken.cash.saturating_sub(change);
        taken
    }

    /// Adds `amount` to `method`'s sum (sums stop at the end of the range rather than wrap).
    pub fn add(&mut self, method: Method, amount: i64) {
        let slot = self.slot(method);
        *slot = slot.saturating_add(amount);
    }

    /// The sum of one method.
    pub fn get(&self, method: Method) -> i64 {
        match method {
            Method::Cash => self.cash,
            Method::Card => self.card,
            Method::Other => self.other,
        }
    }

    fn slot(&mut self, method: Method) -> &mut i64 {
        match method {
            Method::Cash => &mut self.cash,
            Method::Card => &mut self.card,
            Method::Other => &mut self.other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Method::*;

    /// (total, payments) → the change, or none for a mismatch.
    type Case = (i64, &'static [(Method, i64)], Option<i64>);

    fn pay(list: &[(Method, i64)]) -> Vec<Payment> {
        list.iter()
            .map(|&(method, amount)| Payment { method, amount })
            .collect()
    }

    /// (total, payments) → change, or a mismatch.
    #[test]
    fn payments_cover_the_total_and_only_cash_gives_change() {
        let cases: &[Case] = &[
            (1_000, &[(Cash, 1_000)], Some(0)),
            (1_000, &[(Cash, 5_000)], Some(4_000)),
            (1_000, &[(Card, 1_000)], Some(0)),
            (1_000, &[(Other, 1_000)], Some(0)),
            (1_000, &[(Card, 600), (Cash, 500)], Some(100)),
            (1_000, &[(Card, 600), (Other, 400)], Some(0)),
            (1_000, &[(Cash, 200), (Cash, 900)], Some(100)),
            (0, &[(Cash, 0)], Some(0)),
            (0, &[(Card, 0)], Some(0)),
            // short
            (1_000, &[(Cash, 999)], None),
            (1_000, &[(Card, 500), (Cash, 499)], None),
            // card or other more than the total
            (1_000, &[(Card, 1_001)], None),
            (1_000, &[(Other, 1_001)], None),
            (1_000, &[(Card, 600), (Other, 600)], None),
            (1_000, &[(Card, 1_200), (Cash, 100)], None),
            (0, &[(Card, 1)], None),
        ];
        for &(total, payments, want) in cases {
            let got = change(total, &pay(payments)).ok();
            assert_eq!(got, want, "{total} paid by {payments:?}");
        }
    }

    #[test]
    fn the_change_is_never_more_than_the_cash_paid() {
        for (total, payments) in [
            (1_000, pay(&[(Card, 600), (Cash, 500)])),
            (1, pay(&[(Cash, 1_000_000)])),
        ] {
            let given = change(total, &payments).unwrap();
            let cash: i64 = payments
                .iter()
                .filter(|p| p.method == Cash)
                .map(|p| p.amount)
                .sum();
            assert!(given <= cash);
        }
    }

    #[test]
    fn a_mismatch_says_what_was_paid_against_what_was_due() {
        let short = change(1_000, &pay(&[(Cash, 999)])).unwrap_err();
        assert!(short.message.contains("999") && short.message.contains("1000"));
        let over = change(1_000, &pay(&[(Card, 1_001)])).unwrap_err();
        assert!(over.message.contains("only cash"), "{}", over.message);
    }

    #[test]
    fn the_largest_payments_the_bounds_allow_do_not_overflow() {
        let most = PAYMENT_AMOUNT.max;
        let payments = pay(&[(Cash, most); 5]);
        assert_eq!(
            change(200_000_000_000_000, &payments),
            Ok(5 * most - 200_000_000_000_000)
        );
    }

    #[test]
    fn what_a_sale_took_by_method_is_net_of_change() {
        let payments = pay(&[(Card, 600), (Cash, 500), (Other, 10)]);
        assert_eq!(
            ByMethod::taken(&payments, 110),
            ByMethod {
                cash: 390,
                card: 600,
                other: 10
            }
        );
    }

    #[test]
    fn methods_are_parsed_as_written_and_nothing_else() {
        assert_eq!(Method::parse("method", "cash"), Ok(Cash));
        assert_eq!(Method::parse("method", "card"), Ok(Card));
        assert_eq!(Method::parse("method", "other"), Ok(Other));
        for bad in ["Cash", "cheque", ""] {
            assert!(matches!(
                Method::parse("method", bad),
                Err(DomainError::Validation { .. })
            ));
        }
        for method in Method::ALL {
            assert_eq!(Method::parse("method", method.as_str()), Ok(method));
        }
    }
}
