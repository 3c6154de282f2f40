//! A sale as the store records and shows it, and how a basket's lines are checked against
//! the pets they sell and priced (the arithmetic itself is [`super::tax`]'s).
//!
//! Every line's pet must exist (422 `unknown_pet`), have a price (422 `validation_failed`),
//! take a discount of at most its `unitPrice × quantity` (422), be sellable as for an order
//! and have the stock (409 `pet_not_available`, `insufficient_stock`, checked in that order);
//! the first line that fails decides the answer, which names it with `line`. A sale made
//! offline is a fact: it is never refused for stock or status; a line that finds too little
//! stock takes what there is and carries `shortBy`.

use serde::Serialize;

use super::order;
use super::payment::Payment;
use super::pet::{Pet, PetStatus};
use super::sale::{Customer, NewSaleLine};
use super::tax::{self, LineAmounts, LinePrice};
use super::DomainError;

/// A line of a recorded sale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SaleLine {
    pub pet_id: i64,
    pub name: String,
    pub sku: Option<String>,
    pub barcode: Option<String>,
    pub quantity: i64,
    pub unit_price: i64,
    pub discount: i64,
    pub tax_rate: i64,
    pub tax: i64,
    pub total: i64,
    pub order_id: i64,
    /// The units an offline sale could not take from stock; absent when it took them all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short_by: Option<i64>,
}

/// A sale as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sale {
    pub id: i64,
    pub number: i64,
    pub placed_at: String,
    pub sold_at: String,
    pub key_name: Option<String>,
    pub staff_id: Option<i64>,
    pub till: Option<String>,
    pub lines: Vec<SaleLine>,
    pub subtotal: i64,
    pub discount: i64,
    pub tax: i64,
    pub total: i64,
    pub payments: Vec<Payment>,
    pub change: i64,
    /// Absent when the till named no customer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub customer: Option<ShownCustomer>,
    pub note: Option<String>,
    /// The sum of the sale's refunds.
    pub refunded: i64,
}

/// The customer as an answer shows them: without `phone` and `email` to readonly and pos
/// keys.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ShownCustomer {
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

impl ShownCustomer {
    /// The whole record, for staff and admin.
    pub fn full(customer: &Customer) -> Self {
        Self {
            name: customer.name.clone(),
            phone: customer.phone.clone(),
            email: customer.email.clone(),
        }
    }
}

impl Sale {
    /// The sale as a key that may not see the customer's contact sees it.
    pub fn without_contact(mut self) -> Self {
        if let Some(customer) = &mut self.customer {
            customer.phone = None;
            customer.email = None;
        }
        self
    }
}

/// A line's pet as the sale finds it: the record, its stock, and the rate that applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinePet {
    pub pet: Pet,
    pub stock: i64,
    pub tax_rate: i64,
}

/// A line checked and priced, ready to be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PricedLine {
    pub pet: Pet,
    pub quantity: i64,
    pub unit_price: i64,
    pub tax_rate: i64,
    pub amounts: LineAmounts,
    /// Units to take from stock (all of them, unless an offline sale finds too few).
    pub take: i64,
    pub stock_after: i64,
    pub short_by: Option<i64>,
    pub status_after: Option<PetStatus>,
}

/// Checks and prices line `index` of a sale. `pet` is `None` when no pet has the line's id.
/// `open_orders` counts the pet's other incomplete orders (rule 3 decides from it whether the
/// last unit sold makes the pet `sold`).
pub fn price_line(
    index: usize,
    line: &NewSaleLine,
    pet: Option<LinePet>,
    open_orders: i64,
    tax_included: bool,
    offline: bool,
) -> Result<PricedLine, DomainError> {
    let at_line = |error: DomainError| error.at_line(index);
    let LinePet {
        pet,
        stock,
        tax_rate,
    } = pet.ok_or_else(|| at_line(DomainError::UnknownPet(line.pet_id)))?;
    let unit_price = pet.price.ok_or_else(|| {
        at_line(DomainError::invalid(
            "price",
            format!("pet {} has no price and cannot be sold", pet.id),
        ))
    })?;
    let amounts = tax::line(
        LinePrice {
            unit_price,
            quantity: line.quantity,
            discount: line.discount,
            tax_rate,
        },
        tax_included,
    )
    .map_err(at_line)?;
    let (take, status) = if offline {
        (line.quantity.min(stock.max(0)), pet.status)
    } else {
        order::place(pet.id, pet.status, stock, line.quantity).map_err(at_line)?;
        (line.quantity, pet.status)
    };
    let stock_after = stock - take;
    let short_by = (take < line.quantity).then(|| line.quantity - take);
    let status_after = status_after_line(status, stock_after, open_orders);
    Ok(PricedLine {
        pet,
        quantity: line.quantity,
        unit_price,
        tax_rate,
        amounts,
        take,
        stock_after,
        short_by,
        status_after,
    })
}

/// The pet's status once a line of a sale has left `stock_after` units: the line is an order
/// placed and completed at once, so rules 2 and 3 apply in turn (the last unit sold makes the
/// pet `sold`, or `pending` while it has other open orders).
pub fn status_after_line(
    status: Option<PetStatus>,
    stock_after: i64,
    open_orders: i64,
) -> Option<PetStatus> {
    let placed = order::status_after_placing(status, stock_after);
    order::status_after_completion(placed, stock_after, open_orders)
}

#[cfg(test)]
mod tests {
    use super::*;
    use PetStatus::*;

    fn pet(status: Option<PetStatus>, price: Option<i64>) -> Pet {
        Pet {
            id: 7,
            name: "Guppy".into(),
            category_id: 1,
            status,
            sku: Some("GUP-1".into()),
            barcode: None,
            price,
            tax_rate: None,
            supplier_id: None,
            cost: None,
            reorder_quantity: None,
            animal: None,
            hold: None,
        }
    }

    fn found(status: Option<PetStatus>, price: Option<i64>, stock: i64) -> Option<LinePet> {
        Some(LinePet {
            pet: pet(status, price),
            stock,
            tax_rate: 2_000,
        })
    }

    fn line(quantity: i64, discount: i64) -> NewSaleLine {
        NewSaleLine {
            pet_id: 7,
            quantity,
            discount,
        }
    }

    /// The code and line of a refusal.
    fn refused(result: Result<PricedLine, DomainError>) -> (String, Option<usize>) {
        let err = result.unwrap_err();
        (err.to_string(), err.line())
    }

    #[test]
    fn a_line_is_priced_with_the_rate_that_applies_and_takes_its_units() {
        let priced =
            price_line(0, &line(2, 100), found(None, Some(600), 5), 0, false, false).unwrap();
        assert_eq!(priced.unit_price, 600);
        assert_eq!(priced.amounts.amount, 1_100);
        assert_eq!(priced.amounts.tax, 220);
        assert_eq!(priced.amounts.total, 1_320);
        assert_eq!(
            (priced.take, priced.stock_after, priced.short_by),
            (2, 3, None)
        );
        assert_eq!(priced.status_after, None);
    }

    #[test]
    fn selling_the_last_unit_sells_the_pet_unless_it_has_open_orders() {
        let sold = price_line(
            0,
            &line(3, 0),
            found(Some(Available), Some(1), 3),
            0,
            true,
            false,
        )
        .unwrap();
        assert_eq!(sold.status_after, Some(Sold));
        let held = price_line(
            0,
            &line(3, 0),
            found(Some(Available), Some(1), 3),
            1,
            true,
            false,
        )
        .unwrap();
        assert_eq!(held.status_after, Some(Pending));
    }

    #[test]
    fn each_refusal_names_its_line() {
        let cases = [
            (price_line(4, &line(1, 0), None, 0, true, false), 4),
            (
                price_line(2, &line(1, 0), found(None, None, 5), 0, true, false),
                2,
            ),
            (
                price_line(1, &line(1, 601), found(None, Some(600), 5), 0, true, false),
                1,
            ),
            (
                price_line(3, &line(6, 0), found(None, Some(600), 5), 0, true, false),
                3,
            ),
            (
                price_line(
                    0,
                    &line(1, 0),
                    found(Some(Sold), Some(600), 5),
                    0,
                    true,
                    false,
                ),
                0,
            ),
        ];
        for (result, index) in cases {
            assert_eq!(refused(result).1, Some(index));
        }
    }

    #[test]
    fn availability_is_checked_before_stock_and_both_after_the_price() {
        let err = price_line(
            0,
            &line(9, 0),
            found(Some(Pending), Some(1), 0),
            0,
            true,
            false,
        )
        .unwrap_err();
        assert_eq!(err.line(), Some(0));
        assert!(matches!(err.inner(), DomainError::PetNotAvailable { .. }));
        let err = price_line(
            0,
            &line(9, 0),
            found(Some(Pending), None, 0),
            0,
            true,
            false,
        )
        .unwrap_err();
        assert!(matches!(err.inner(), DomainError::Validation { .. }));
    }

    #[test]
    fn an_offline_sale_takes_what_stock_there_is_and_says_what_it_lacked() {
        let priced = price_line(
            0,
            &line(5, 0),
            found(Some(Sold), Some(100), 2),
            0,
            true,
            true,
        )
        .unwrap();
        assert_eq!(
            (priced.take, priced.stock_after, priced.short_by),
            (2, 0, Some(3))
        );
        assert_eq!(priced.status_after, Some(Sold));
        let none_left =
            price_line(0, &line(1, 0), found(None, Some(100), 0), 0, true, true).unwrap();
        assert_eq!((none_left.take, none_left.short_by), (0, Some(1)));
        let enough = price_line(
            0,
            &line(1, 0),
            found(Some(Pending), Some(100), 4),
            0,
            true,
            true,
        )
        .unwrap();
        assert_eq!(enough.short_by, None);
        // Offline or not, a line needs a pet and a price.
        assert!(price_line(0, &line(1, 0), None, 0, true, true).is_err());
        assert!(price_line(0, &line(1, 0), found(None, None, 4), 0, true, true).is_err());
    }

    #[test]
    fn readonly_and_pos_keys_see_the_customer_without_contact() {
        let customer = Customer {
            name: Some("Ada".into()),
            phone: Some("0123 456".into()),
            email: Some("ada@example.com".into()),
        };
        let shown = ShownCustomer::full(&customer);
        let sale = Sale {
            id: 1,
            number: 1,
            placed_at: String::new(),
            sold_at: String::new(),
            key_name: None,
            staff_id: None,
            till: None,
            lines: vec![],
            subtotal: 0,
            discount: 0,
            tax: 0,
            total: 0,
            payments: vec![],
            change: 0,
            customer: Some(shown),
            note: None,
            refunded: 0,
        };
        let json = serde_json::to_value(sale.without_contact()).unwrap();
        assert_eq!(json["customer"], serde_json::json!({"name": "Ada"}));
    }
}
