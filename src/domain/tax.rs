//! The money of a sale's line and of the sale, written once: amount, tax, total.
//!
//! For a line, `amount = unitPrice × quantity − discount`; its `tax` is
//! `amount × rate / (10,000 + rate)` when prices include tax and `amount × rate / 10,000`
//! otherwise, rounded half away from zero, per line; its `total` is `amount` when tax is
//! included and `amount + tax` otherwise. A sale's `subtotal` is the sum of `unitPrice ×
//! quantity`, its `discount`, `tax` and `total` the sums of its lines'.
//!
//! Bounds, and why nothing here overflows: a price is at most [`PRICE_MAX`] (10⁸), a quantity
//! at most [`QUANTITY_MAX`] (10⁴), so a line's `unitPrice × quantity` is at most 10¹²; a rate
//! is at most [`TAX_RATE`]`.max` (10⁴, 100 %), so `amount × rate` is at most 10¹⁶ and a line's
//! total at most 2 × 10¹²; a sale has at most [`SALE_LINES`]`.max` (100) lines, so its sums are
//! at most 2 × 10¹⁴. The products are taken in `i128` all the same, so a caller that passes
//! larger numbers gets a wrong-bound error, never a wrapped sum.

use crate::contract::Bound;

use super::DomainError;

/// A tax rate in basis points: 2,000 is 20 %, 10,000 is 100 %.
pub const TAX_RATE: Bound = crate::contract::TAX_RATE;
/// Lines in one sale.
pub const SALE_LINES: Bound = crate::contract::SALE_LINES;
/// The largest price (minor units), as for a pet.
pub const PRICE_MAX: i64 = crate::contract::PRICE.max;
/// The most units of one line, as for an order.
pub const QUANTITY_MAX: i64 = crate::contract::QUANTITY.max;

/// `numerator / denominator` rounded to the nearest whole number, halves away from zero.
/// `denominator` is positive.
pub fn div_round(numerator: i128, denominator: i128) -> i128 {
    debug_assert!(denominator > 0, "a positive denominator");
    let quotient = numerator / denominator;
    let remainder = numerator % denominator;
    if 2 * remainder.abs() >= denominator {
        quotient + numerator.signum()
    } else {
        quotient
    }
}

/// A line as priced when the sale is made: the pet's price then, the units, the discount the
/// till gave, and the tax rate that applies (the pet's, else the store's default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinePrice {
    pub unit_price: i64,
    pub quantity: i64,
    pub discount: i64,
    pub tax_rate: i64,
}

/// A line's money.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineAmounts {
    /// `unitPrice × quantity`.
    pub gross: i64,
    pub discount: i64,
    /// `gross − discount`.
    pub amount: i64,
    pub tax: i64,
    /// What the customer pays for the line.
    pub total: i64,
}

/// The money of one line. A discount past the line's `unitPrice × quantity`, or a value
/// outside its bounds, is refused naming the field (the caller names the line).
pub fn line(price: LinePrice, tax_included: bool) -> Result<LineAmounts, DomainError> {
    let LinePrice {
        unit_price,
        quantity,
        discount,
        tax_rate,
    } = price;
    if !(0..=PRICE_MAX).contains(&unit_price) {
        return Err(DomainError::invalid(
            "unitPrice",
            format!("must be between 0 and {PRICE_MAX}"),
        ));
    }
    if !(1..=QUANTITY_MAX).contains(&quantity) {
        return Err(DomainError::invalid(
            "quantity",
            format!("must be between 1 and {QUANTITY_MAX}"),
        ));
    }
    if !TAX_RATE.contains(tax_rate) {
        return Err(DomainError::invalid(
            "taxRate",
            format!("must be between {} and {}", TAX_RATE.min, TAX_RATE.max),
        ));
    }
    let gross = unit_price * quantity;
    if !(0..=gross).contains(&discount) {
        return Err(DomainError::invalid(
            "discount",
            format!("must be between 0 and the line's unitPrice × quantity ({gross})"),
        ));
    }
    let amount = gross - discount;
    let tax = tax_of(amount, tax_rate, tax_included);
    let total = if tax_included { amount } else { amount + tax };
    Ok(LineAmounts {
        gross,
        discount,
        amount,
        tax,
        total,
    })
}

/// The tax in `amount` (`tax_included`) or on top of it, at `rate` basis points, rounded
/// half away from zero.
pub fn tax_of(amount: i64, rate: i64, tax_included: bool) -> i64 {
    let scale = i128::from(TAX_RATE.max);
    let denominator = if tax_included {
        scale + i128::from(rate)
    } else {
        scale
    };
    narrow(div_round(
        i128::from(amount) * i128::from(rate),
        denominator,
    ))
}

/// A sale's sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SaleTotals {
    /// The sum of `unitPrice × quantity`.
    pub subtotal: i64,
    pub discount: i64,
    pub tax: i64,
    pub total: i64,
}

/// The sums of a sale's lines.
pub fn sale(lines: &[LineAmounts]) -> SaleTotals {
    let sum = |part: fn(&LineAmounts) -> i64| {
        narrow(lines.iter().map(|l| i128::from(part(l))).sum::<i128>())
    };
    SaleTotals {
        subtotal: sum(|l| l.gross),
        discount: sum(|l| l.discount),
        tax: sum(|l| l.tax),
        total: sum(|l| l.total),
    }
}

/// An `i128` back to `i64`; within the bounds above it always fits, and past them it stops
/// at the end of the range rather than wrap.
pub(crate) fn narrow(value: i128) -> i64 {
    i64::try_from(value).unwrap_or(if value < 0 { i64::MIN } else { i64::MAX })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ((unit price, quantity, discount, rate, included), (amount, tax, total)).
    type Case = ((i64, i64, i64, i64, bool), (i64, i64, i64));

    #[test]
    fn division_rounds_halves_away_from_zero_on_both_signs() {
        let cases: &[(i128, i128, i128)] = &[
            (5, 10, 1),
            (15, 10, 2),
            (25, 10, 3),
            (-5, 10, -1),
            (-15, 10, -2),
            (-25, 10, -3),
            (4, 10, 0),
            (-4, 10, 0),
            (6, 10, 1),
            (-6, 10, -1),
            (1, 3, 0),
            (2, 3, 1),
            (-2, 3, -1),
            (0, 7, 0),
            (10, 10, 1),
        ];
        for &(n, d, want) in cases {
            assert_eq!(div_round(n, d), want, "{n} / {d}");
        }
    }

    fn priced(unit_price: i64, quantity: i64, discount: i64, tax_rate: i64) -> LinePrice {
        LinePrice {
            unit_price,
            quantity,
            discount,
            tax_rate,
        }
    }

    /// (unit price, quantity, discount, rate, included) → (amount, tax, total).
    #[test]
    fn a_line_s_amount_tax_and_total_follow_the_contract() {
        let cases: &[Case] = &[
            // zero rate: no tax either way
            ((1_000, 3, 0, 0, true), (3_000, 0, 3_000)),
            ((1_000, 3, 0, 0, false), (3_000, 0, 3_000)),
            // 20 % included: 1,200 holds 200 of tax
            ((1_200, 1, 0, 2_000, true), (1_200, 200, 1_200)),
            // 20 % on top
            ((1_000, 1, 0, 2_000, false), (1_000, 200, 1_200)),
            // 100 % included: half the amount is tax; on top: the tax equals the amount
            ((1_000, 2, 0, 10_000, true), (2_000, 1_000, 2_000)),
            ((999, 1, 0, 10_000, true), (999, 500, 999)),
            ((1_000, 2, 0, 10_000, false), (2_000, 2_000, 4_000)),
            // a discount comes off before tax
            ((1_000, 3, 500, 2_000, false), (2_500, 500, 3_000)),
            ((1_000, 3, 600, 2_000, true), (2_400, 400, 2_400)),
            // the whole line discounted: nothing to pay, no tax
            ((1_000, 3, 3_000, 2_000, false), (0, 0, 0)),
            ((1_000, 3, 3_000, 2_000, true), (0, 0, 0)),
            // a free pet
            ((0, 5, 0, 2_000, false), (0, 0, 0)),
            ((25, 1, 0, 2_000, false), (25, 5, 30)),
            // rounding at exactly .5 goes up (amounts are never negative): 0.5 and 1.5
            ((5, 1, 0, 1_000, false), (5, 1, 6)),
            ((15, 1, 0, 1_000, false), (15, 2, 17)),
            // 3 × 700 / 10,700 = 0.196…: rounds to 0; 10 % included in 11 is exactly 1
            ((3, 1, 0, 700, true), (3, 0, 3)),
            ((11, 1, 0, 1_000, true), (11, 1, 11)),
            // 10 % included: exact shares of 55 and 33, also as 33 units of 1
            ((55, 1, 0, 1_000, true), (55, 5, 55)),
            ((33, 1, 0, 1_000, true), (33, 3, 33)),
            ((1, 33, 0, 1_000, true), (33, 3, 33)),
            // 5 % of 10 is 0.5 → 1; 5 % of 30 is 1.5 → 2
            ((10, 1, 0, 500, false), (10, 1, 11)),
            ((30, 1, 0, 500, false), (30, 2, 32)),
            // tax is per line: 7 units at 7 cents, 7.5 %
            ((7, 7, 0, 750, false), (49, 4, 53)),
        ];
        for &((unit_price, quantity, discount, rate, included), (amount, tax, total)) in cases {
            let got = line(priced(unit_price, quantity, discount, rate), included).unwrap();
            assert_eq!(
                (got.amount, got.tax, got.total),
                (amount, tax, total),
                "{unit_price} × {quantity} − {discount} at {rate} (included: {included})"
            );
            assert_eq!(got.gross, unit_price * quantity);
            assert_eq!(got.discount, discount);
        }
    }

    #[test]
    fn half_a_cent_of_included_tax_rounds_up() {
        // 21 × 10,000 / 20,000 = 10.5 at a 100 % rate
        assert_eq!(tax_of(21, 10_000, true), 11);
        // 105 × 500 / 10,500 = 5 exactly; 63 × 500 / 10,500 = 3 exactly; 21 × 500 / 10,500 = 1
        assert_eq!(tax_of(105, 500, true), 5);
        // 2,100 × 500 / 10,500 = 100; 2,205 × 500 / 10,500 = 105
        assert_eq!(tax_of(2_205, 500, true), 105);
        // 1,050 × 2,000 / 12,000 = 175; 1,053 × 2,000 / 12,000 = 175.5 → 176
        assert_eq!(tax_of(1_053, 2_000, true), 176);
        assert_eq!(tax_of(1_051, 2_000, true), 175);
    }

    #[test]
    fn tax_rounds_half_away_from_zero_for_negative_amounts_too() {
        assert_eq!(tax_of(-25, 2_000, false), -5);
        assert_eq!(tax_of(-5, 1_000, false), -1);
        assert_eq!(tax_of(-1_053, 2_000, true), -176);
    }

    #[test]
    fn the_largest_line_the_bounds_allow_does_not_overflow() {
        let most = priced(PRICE_MAX, QUANTITY_MAX, 0, TAX_RATE.max);
        let on_top = line(most, false).unwrap();
        assert_eq!(on_top.amount, 1_000_000_000_000);
        assert_eq!(on_top.tax, 1_000_000_000_000);
        assert_eq!(on_top.total, 2_000_000_000_000);
        let included = line(most, true).unwrap();
        assert_eq!(included.tax, 500_000_000_000);
        assert_eq!(included.total, 1_000_000_000_000);
        let odd = line(priced(PRICE_MAX, QUANTITY_MAX, 1, 1), false).unwrap();
        // 999,999,999,999 × 1 / 10,000 = 99,999,999.9999 → 100,000,000
        assert_eq!(odd.tax, 100_000_000);
    }

    #[test]
    fn a_discount_past_the_line_or_below_zero_is_refused() {
        let err = line(priced(1_000, 3, 3_001, 0), true).unwrap_err();
        assert!(matches!(err, DomainError::Validation { .. }), "{err:?}");
        assert!(err.to_string().starts_with("discount:"), "{err}");
        assert!(line(priced(1_000, 3, -1, 0), true).is_err());
    }

    #[test]
    fn rates_prices_and_quantities_outside_their_bounds_are_refused() {
        assert!(line(priced(1, 1, 0, 10_001), true).is_err());
        assert!(line(priced(1, 1, 0, -1), true).is_err());
        assert!(line(priced(PRICE_MAX + 1, 1, 0, 0), true).is_err());
        assert!(line(priced(-1, 1, 0, 0), true).is_err());
        assert!(line(priced(1, 0, 0, 0), true).is_err());
        assert!(line(priced(1, QUANTITY_MAX + 1, 0, 0), true).is_err());
    }

    #[test]
    fn a_sale_s_sums_are_the_sums_of_its_lines() {
        let lines = [
            line(priced(1_000, 2, 100, 2_000), false).unwrap(),
            line(priced(350, 1, 0, 500), false).unwrap(),
            line(priced(0, 1, 0, 2_000), false).unwrap(),
        ];
        assert_eq!(
            sale(&lines),
            SaleTotals {
                subtotal: 2_350,
                discount: 100,
                tax: 380 + 18,
                total: 2_280 + 368,
            }
        );
        assert_eq!(sale(&[]), SaleTotals::default());
    }

    #[test]
    fn the_largest_sale_the_bounds_allow_does_not_overflow() {
        let most = line(priced(PRICE_MAX, QUANTITY_MAX, 0, TAX_RATE.max), false).unwrap();
        let lines = vec![most; SALE_LINES.max_usize()];
        let sums = sale(&lines);
        assert_eq!(sums.subtotal, 100_000_000_000_000);
        assert_eq!(sums.tax, 100_000_000_000_000);
        assert_eq!(sums.total, 200_000_000_000_000);
    }

    #[test]
    fn a_sum_past_i64_stops_at_the_end_of_the_range() {
        assert_eq!(narrow(i128::from(i64::MAX) + 1), i64::MAX);
        assert_eq!(narrow(i128::from(i64::MIN) - 1), i64::MIN);
        assert_eq!(narrow(42), 42);
    }
}
