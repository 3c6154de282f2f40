//! The animals report: each individual animal sold in a period, with its record, the sale
//! that sold it and the buyer, as licensing rules ask a shop to show (JSON, or CSV).

use serde::Serialize;

use super::animal::Animal;
use super::cell::guard;

/// The buyer of an animal, as the sale recorded the customer.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Buyer {
    pub name: Option<String>,
    pub phone: Option<String>,
    pub email: Option<String>,
}

/// One animal sold.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SoldAnimal {
    pub pet_id: i64,
    pub name: String,
    pub animal: Animal,
    pub sold_at: String,
    pub sale_id: i64,
    pub number: i64,
    pub buyer: Buyer,
}

/// The CSV header of the report, in the order of [`SoldAnimal::cells`].
pub const CSV_HEADER: [&str; 15] = [
    "soldAt",
    "saleId",
    "number",
    "petId",
    "name",
    "sex",
    "bornOn",
    "breed",
    "colour",
    "microchip",
    "source",
    "arrivedOn",
    "buyerName",
    "buyerPhone",
    "buyerEmail",
];

impl SoldAnimal {
    /// The row as CSV cells, in the order of [`CSV_HEADER`]; free text guarded against
    /// formulas.
    pub fn cells(&self) -> [String; 15] {
        let text = |v: Option<&str>| guard(v.unwrap_or_default()).into_owned();
        let a = &self.animal;
        [
            self.sold_at.clone(),
            self.sale_id.to_string(),
            self.number.to_string(),
            self.pet_id.to_string(),
            text(Some(&self.name)),
            a.sex.as_str().to_owned(),
            a.born_on.clone().unwrap_or_default(),
            text(a.breed.as_deref()),
            text(a.colour.as_deref()),
            a.microchip.clone().unwrap_or_default(),
            text(a.source.as_deref()),
            a.arrived_on.clone().unwrap_or_default(),
            text(self.buyer.name.as_deref()),
            text(self.buyer.phone.as_deref()),
            text(self.buyer.email.as_deref()),
        ]
    }
}
