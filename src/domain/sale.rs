//! The body of `POST /store/sales`, parsed once into a [`NewSale`].
//!
//! A sale is one customer's basket, paid at once: 1–100 lines, each pet at most once, each
//! 1–10,000 units with a discount of 0 up to the line's `unitPrice × quantity` (the price is
//! the store's, so that last bound is checked when the line is priced, see [`super::tax`]);
//! 1–5 payments by `cash`, `card` or `other`; an optional customer, a note of up to 500
//! characters and the till's name (1–40). `soldAt` is the till's own clock: at most 5 minutes
//! ahead of the store's and 7 days behind it; a sale whose `soldAt` is more than 60 seconds
//! old was made while the till was offline, and is recorded as a fact (see [`NewSale::offline`]).

use chrono::{DateTime, Duration, Utc};
use serde::Deserialize;

use crate::contract::Bound;

use super::payment::{Method, Payment, PAYMENTS, PAYMENT_AMOUNT};
use super::pet::positive_id;
use super::tax::{PRICE_MAX, QUANTITY_MAX, SALE_LINES};
use super::{required, text, time, DomainError};

/// Characters of a till's name.
pub const TILL: Bound = crate::contract::TILL;
/// Characters of a sale's note.
pub const NOTE: Bound = crate::contract::SALE_NOTE;
/// Characters of a customer's phone number.
pub const PHONE: Bound = crate::contract::PHONE;
/// Characters of a customer's email address.
pub const EMAIL: Bound = crate::contract::EMAIL;
/// How far ahead of the store's clock a till's `soldAt` may be.
pub const AHEAD_MAX: Duration = Duration::minutes(5);
/// How far behind the store's clock a till's `soldAt` may be.
pub const BEHIND_MAX: Duration = Duration::days(7);
/// A sale whose `soldAt` is older than this was made offline.
pub const OFFLINE_AFTER: Duration = Duration::seconds(60);

/// The body of `POST /store/sales` as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SaleInput {
    pub lines: Option<Vec<SaleLineInput>>,
    pub payments: Option<Vec<PaymentInput>>,
    /// Absent is `None`; `null` is refused (leave it out instead).
    #[serde(default, deserialize_with = "super::double_option")]
    pub customer: Option<Option<CustomerInput>>,
    pub note: Option<String>,
    pub till: Option<String>,
    pub sold_at: Option<String>,
}

/// One line as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SaleLineInput {
    pub pet_id: Option<i64>,
    pub quantity: Option<i64>,
    pub discount: Option<i64>,
}

/// One payment as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentInput {
    pub method: Option<String>,
    pub amount: Option<i64>,
}

/// The customer as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CustomerInput {
    pub name: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
}

/// A sale's body together with the moment the store received it (for `soldAt`).
#[derive(Debug, Clone)]
pub struct Received<T> {
    pub body: T,
    pub at: DateTime<Utc>,
}

/// A validated line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewSaleLine {
    pub pet_id: i64,
    pub quantity: i64,
    pub discount: i64,
}

/// The customer, as far as the till knows them. Empty fields are none.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, Deserialize)]
pub struct Customer {
    pub name: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
}

/// A validated new sale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSale {
    pub lines: Vec<NewSaleLine>,
    pub payments: Vec<Payment>,
    pub customer: Option<Customer>,
    pub note: Option<String>,
    pub till: Option<String>,
    /// When the sale was made (RFC 3339, UTC): the till's `soldAt`, else when it arrived.
    pub sold_at: String,
    /// When the store received it (RFC 3339, UTC): the sale's `placedAt`, so a sale without a
    /// `soldAt` of its own shows the same second in both however long the writer's queue was.
    pub received_at: String,
    /// Made while the till was offline: never refused for stock, status or hold.
    pub offline: bool,
}

impl TryFrom<Received<SaleInput>> for NewSale {
    type Error = DomainError;

    fn try_from(received: Received<SaleInput>) -> Result<Self, DomainError> {
        let Received { body, at } = received;
        let lines = lines(body.lines)?;
        let payments = payments(body.payments)?;
        let customer = match body.customer {
            None => None,
            Some(None) => {
                return Err(DomainError::invalid(
                    "customer",
                    "must be an object; leave it out for none",
                ))
            }
            Some(Some(input)) => customer(input)?,
        };
        let note = bounded_text("note", body.note.as_deref(), NOTE)?;
        let till = match body.till.as_deref() {
            None => None,
            Some(raw) => Some(
                bounded_text("till", Some(raw), TILL)?
                    .ok_or_else(|| DomainError::invalid("till", "must not be empty"))?,
            ),
        };
        let (sold_at, offline) = sold_at(body.sold_at.as_deref(), at)?;
        Ok(Self {
            lines,
            payments,
            customer,
            note,
            till,
            sold_at,
            received_at: time::format(at),
            offline,
        })
    }
}

/// A basket's `lines`: present, and between `bound.min` and `bound.max` of them. Shared by
/// sales and refunds.
pub(super) fn line_list<T>(input: Option<Vec<T>>, bound: Bound) -> Result<Vec<T>, DomainError> {
    let input = required("lines", input)?;
    if !bound.contains(input.len() as i64) {
        return Err(DomainError::invalid(
            "lines",
            format!(
                "must have {} to {} lines (got {})",
                bound.min,
                bound.max,
                input.len()
            ),
        ));
    }
    Ok(input)
}

/// Line `i`'s pet and quantity: the pet named once in the basket (`taken` says whether an
/// earlier line has it; `again` ends the message when it does), the quantity 1 to
/// `QUANTITY_MAX`. Shared by sales and refunds.
pub(super) fn pet_and_quantity(
    i: usize,
    pet_id: Option<i64>,
    quantity: Option<i64>,
    taken: impl Fn(i64) -> bool,
    again: &str,
) -> Result<(i64, i64), DomainError> {
    let field = |name: &str| format!("lines[{i}].{name}");
    let pet_id = pet_id.ok_or_else(|| DomainError::invalid(&field("petId"), "is required"))?;
    let pet_id = positive_id(&field("petId"), pet_id)?;
    if taken(pet_id) {
        return Err(DomainError::invalid(
            &field("petId"),
            format!("pet {pet_id} is already on another line{again}"),
        ));
    }
    let quantity =
        quantity.ok_or_else(|| DomainError::invalid(&field("quantity"), "is required"))?;
    if !(1..=QUANTITY_MAX).contains(&quantity) {
        return Err(DomainError::invalid(
            &field("quantity"),
            format!("must be between 1 and {QUANTITY_MAX}"),
        ));
    }
    Ok((pet_id, quantity))
}

fn lines(input: Option<Vec<SaleLineInput>>) -> Result<Vec<NewSaleLine>, DomainError> {
    let input = line_list(input, SALE_LINES)?;
    let mut out: Vec<NewSaleLine> = Vec::with_capacity(input.len());
    for (i, line) in input.into_iter().enumerate() {
        let field = |name: &str| format!("lines[{i}].{name}");
        let (pet_id, quantity) = pet_and_quantity(
            i,
            line.pet_id,
            line.quantity,
            |id| out.iter().any(|l| l.pet_id == id),
            "; sell it once with its quantity",
        )?;
        let discount = line.discount.unwrap_or(0);
        if !(0..=PRICE_MAX * quantity).contains(&discount) {
            return Err(DomainError::invalid(
                &field("discount"),
                "must be between 0 and the line's unitPrice × quantity",
            ));
        }
        out.push(NewSaleLine {
            pet_id,
            quantity,
            discount,
        });
    }
    Ok(out)
}

fn payments(input: Option<Vec<PaymentInput>>) -> Result<Vec<Payment>, DomainError> {
    let input = required("payments", input)?;
    if !PAYMENTS.contains(input.len() as i64) {
        return Err(DomainError::invalid(
            "payments",
            format!(
                "must have {} to {} payments (got {})",
                PAYMENTS.min,
                PAYMENTS.max,
                input.len()
            ),
        ));
    }
    input
        .into_iter()
        .enumerate()
        .map(|(i, payment)| {
            let field = |name: &str| format!("payments[{i}].{name}");
            let method = payment
                .method
                .ok_or_else(|| DomainError::invalid(&field("method"), "is required"))?;
            let method = Method::parse(&field("method"), &method)?;
            let amount = payment
                .amount
                .ok_or_else(|| DomainError::invalid(&field("amount"), "is required"))?;
            if !PAYMENT_AMOUNT.contains(amount) {
                return Err(DomainError::invalid(
                    &field("amount"),
                    format!(
                        "must be between {} and {}",
                        PAYMENT_AMOUNT.min, PAYMENT_AMOUNT.max
                    ),
                ));
            }
            Ok(Payment { method, amount })
        })
        .collect()
}

/// The customer, or none when every field is empty.
fn customer(input: CustomerInput) -> Result<Option<Customer>, DomainError> {
    let name = match input.name.as_deref() {
        Some(raw) if !raw.trim().is_empty() => Some(text::name("customer.name", raw)?),
        _ => None,
    };
    let phone = bounded_text("customer.phone", input.phone.as_deref(), PHONE)?;
    if let Some(phone) = &phone {
        let digits = phone.chars().filter(char::is_ascii_digit).count();
        if digits < 3
            || !phone
                .chars()
                .all(|c| c.is_ascii_digit() || " +-().".contains(c))
        {
            return Err(DomainError::invalid(
                "customer.phone",
                "must be a phone number: digits, spaces and + - ( ) .",
            ));
        }
    }
    let email = email_address("customer.email", input.email.as_deref(), "name@example.com")?;
    let customer = Customer { name, phone, email };
    Ok((customer != Customer::default()).then_some(customer))
}

/// Optional text of at most `bound.max` characters, no control characters, stored trimmed;
/// empty means none ([`text::optional`] with a contract bound).
pub(crate) fn bounded_text(
    field: &str,
    raw: Option<&str>,
    bound: Bound,
) -> Result<Option<String>, DomainError> {
    text::optional(field, raw, bound.max_usize())
}

/// An optional email address as [`bounded_text`] takes it, that must also look like one: one
/// `@` with text on both sides and no white space. The error names `example` as a model.
pub(crate) fn email_address(
    field: &str,
    raw: Option<&str>,
    example: &str,
) -> Result<Option<String>, DomainError> {
    let email = bounded_text(field, raw, EMAIL)?;
    if let Some(email) = &email {
        let well_formed = email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty() && !domain.is_empty() && !domain.contains('@')
        }) && !email.contains(char::is_whitespace);
        if !well_formed {
            return Err(DomainError::invalid(
                field,
                format!("must be an email address such as {example}"),
            ));
        }
    }
    Ok(email)
}

/// When the sale was made, and whether that was offline.
fn sold_at(raw: Option<&str>, received: DateTime<Utc>) -> Result<(String, bool), DomainError> {
    let Some(raw) = raw else {
        return Ok((time::format(received), false));
    };
    let formatted = time::parse("soldAt", raw)?;
    let at = DateTime::parse_from_rfc3339(&formatted)
        .map_err(|_| DomainError::invalid("soldAt", "must be an RFC 3339 date-time"))?
        .with_timezone(&Utc);
    if at > received + AHEAD_MAX {
        return Err(DomainError::invalid(
            "soldAt",
            "must be at most 5 minutes ahead of the store's clock",
        ));
    }
    if at < received - BEHIND_MAX {
        return Err(DomainError::invalid(
            "soldAt",
            "must be at most 7 days in the past",
        ));
    }
    Ok((formatted, at < received - OFFLINE_AFTER))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn received(body: serde_json::Value) -> Result<NewSale, DomainError> {
        let at = DateTime::parse_from_rfc3339("2026-03-10T12:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let body: SaleInput = serde_json::from_value(body).unwrap();
        NewSale::try_from(Received { body, at })
    }

    fn basket() -> serde_json::Value {
        json!({
            "lines": [{"petId": 1, "quantity": 2}, {"petId": 2, "quantity": 1, "discount": 50}],
            "payments": [{"method": "cash", "amount": 5000}],
        })
    }

    fn with(field: &str, value: serde_json::Value) -> serde_json::Value {
        let mut body = basket();
        body[field] = value;
        body
    }

    /// The field a refusal names.
    fn refused(body: serde_json::Value) -> String {
        match received(body).unwrap_err() {
            DomainError::Validation { field, .. } => field,
            other => panic!("not a validation error: {other:?}"),
        }
    }

    #[test]
    fn a_basket_paid_in_cash_is_parsed_with_the_time_it_arrived() {
        let sale = received(basket()).unwrap();
        assert_eq!(
            sale.lines,
            vec![
                NewSaleLine {
                    pet_id: 1,
                    quantity: 2,
                    discount: 0
                },
                NewSaleLine {
                    pet_id: 2,
                    quantity: 1,
                    discount: 50
                }
            ]
        );
        assert_eq!(
            sale.payments,
            vec![Payment {
                method: Method::Cash,
                amount: 5000
            }]
        );
        assert_eq!(sale.sold_at, "2026-03-10T12:00:00Z");
        assert!(!sale.offline);
        assert_eq!((sale.customer, sale.note, sale.till), (None, None, None));
    }

    /// (the body's change) → the field named in the refusal.
    #[test]
    fn each_bound_of_the_body_is_refused_naming_its_field() {
        let line = |q: i64| json!({"petId": 1, "quantity": q});
        let many_lines: Vec<_> = (1..=101)
            .map(|id| json!({"petId": id, "quantity": 1}))
            .collect();
        let cases: Vec<(serde_json::Value, &str)> = vec![
            (
                json!({"payments": [{"method": "cash", "amount": 1}]}),
                "lines",
            ),
            (with("lines", json!([])), "lines"),
            (with("lines", json!(many_lines)), "lines"),
            (with("lines", json!([{"quantity": 1}])), "lines[0].petId"),
            (
                with("lines", json!([{"petId": 0, "quantity": 1}])),
                "lines[0].petId",
            ),
            (with("lines", json!([line(1), line(2)])), "lines[1].petId"),
            (with("lines", json!([{"petId": 1}])), "lines[0].quantity"),
            (with("lines", json!([line(0)])), "lines[0].quantity"),
            (with("lines", json!([line(10_001)])), "lines[0].quantity"),
            (
                with(
                    "lines",
                    json!([{"petId": 1, "quantity": 1, "discount": -1}]),
                ),
                "lines[0].discount",
            ),
            (
                with(
                    "lines",
                    json!([{"petId": 1, "quantity": 1, "discount": 100_000_001}]),
                ),
                "lines[0].discount",
            ),
            (json!({"lines": [line(1)]}), "payments"),
            (with("payments", json!([])), "payments"),
            (
                with(
                    "payments",
                    json!(vec![json!({"method": "cash", "amount": 1}); 6]),
                ),
                "payments",
            ),
            (
                with("payments", json!([{"method": "cheque", "amount": 1}])),
                "payments[0].method",
            ),
            (
                with("payments", json!([{"amount": 1}])),
                "payments[0].method",
            ),
            (
                with("payments", json!([{"method": "card"}])),
                "payments[0].amount",
            ),
            (
                with("payments", json!([{"method": "card", "amount": -1}])),
                "payments[0].amount",
            ),
            (with("till", json!("")), "till"),
            (with("till", json!("   ")), "till"),
            (with("till", json!("x".repeat(41))), "till"),
            (with("note", json!("x".repeat(501))), "note"),
            (with("note", json!("line\nbreak")), "note"),
            (
                with("customer", json!({"name": "x".repeat(101)})),
                "customer.name",
            ),
            (
                with("customer", json!({"phone": "call me"})),
                "customer.phone",
            ),
            (
                with("customer", json!({"phone": "1".repeat(41)})),
                "customer.phone",
            ),
            (
                with("customer", json!({"email": "nobody"})),
                "customer.email",
            ),
            (
                with("customer", json!({"email": "a@b@c"})),
                "customer.email",
            ),
            (with("customer", json!(null)), "customer"),
            (with("soldAt", json!("yesterday")), "soldAt"),
            (with("soldAt", json!("2026-03-10T12:05:01Z")), "soldAt"),
            (with("soldAt", json!("2026-03-03T11:59:59Z")), "soldAt"),
        ];
        for (body, field) in cases {
            assert_eq!(refused(body.clone()), field, "{body}");
        }
    }

    #[test]
    fn the_largest_body_the_bounds_allow_is_accepted() {
        let lines: Vec<_> = (1..=100)
            .map(|id| json!({"petId": id, "quantity": 10_000, "discount": 1_000_000_000_000_i64}))
            .collect();
        let body = json!({
            "lines": lines,
            "payments": vec![json!({"method": "cash", "amount": PAYMENT_AMOUNT.max}); 5],
            "customer": {"name": "x".repeat(100), "phone": "1".repeat(40),
                         "email": format!("{}@example.com", "a".repeat(242))},
            "note": "n".repeat(500),
            "till": "t".repeat(40),
            "soldAt": "2026-03-03T12:00:00Z",
        });
        let sale = received(body).unwrap();
        assert_eq!(sale.lines.len(), 100);
        assert_eq!(sale.payments.len(), 5);
        assert!(sale.offline);
    }

    /// (soldAt) → (stored soldAt, offline).
    #[test]
    fn a_sale_older_than_a_minute_is_offline_and_times_are_kept_in_utc() {
        for (sent, stored, offline) in [
            ("2026-03-10T12:05:00Z", "2026-03-10T12:05:00Z", false),
            ("2026-03-10T12:00:00Z", "2026-03-10T12:00:00Z", false),
            ("2026-03-10T11:59:00Z", "2026-03-10T11:59:00Z", false),
            ("2026-03-10T11:58:59Z", "2026-03-10T11:58:59Z", true),
            ("2026-03-10T13:30:00+02:00", "2026-03-10T11:30:00Z", true),
            ("2026-03-03T12:00:00Z", "2026-03-03T12:00:00Z", true),
        ] {
            let sale = received(with("soldAt", json!(sent))).unwrap();
            assert_eq!(
                (sale.sold_at.as_str(), sale.offline),
                (stored, offline),
                "{sent}"
            );
        }
    }

    #[test]
    fn text_is_trimmed_and_an_empty_customer_is_none() {
        let mut body = basket();
        body["till"] = json!("  Front till ");
        body["note"] = json!("   ");
        body["customer"] = json!({"name": " ", "phone": "", "email": null});
        let sale = received(body).unwrap();
        assert_eq!(sale.till.as_deref(), Some("Front till"));
        assert_eq!(sale.note, None);
        assert_eq!(sale.customer, None);
        let sale = received(with(
            "customer",
            json!({"name": " Ada ", "phone": "+44 (0)20 7946-0000", "email": "ada@example.com"}),
        ))
        .unwrap();
        assert_eq!(
            sale.customer,
            Some(Customer {
                name: Some("Ada".into()),
                phone: Some("+44 (0)20 7946-0000".into()),
                email: Some("ada@example.com".into()),
            })
        );
    }

    #[test]
    fn unknown_fields_are_not_part_of_the_body() {
        let body = with("coupon", json!("FREE"));
        assert!(serde_json::from_value::<SaleInput>(body).is_err());
        let mut body = basket();
        body["lines"][0]["price"] = json!(1);
        assert!(serde_json::from_value::<SaleInput>(body).is_err());
    }
}
