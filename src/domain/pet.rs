//! Pets: the animals for sale, and the rules for creating and changing them.

use serde::{Deserialize, Serialize};

use super::animal::{self, Animal, Hold};
use super::{code, double_option, not_null, present, required, text, DomainError};

/// A pet's status. A pet may also have none (the field is then omitted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PetStatus {
    Available,
    Pending,
    Sold,
}

impl PetStatus {
    /// Every status, in the order the interface lists them.
    pub const ALL: [PetStatus; 3] = [Self::Available, Self::Pending, Self::Sold];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Available => "available",
            Self::Pending => "pending",
            Self::Sold => "sold",
        }
    }

    /// Parses a status as the interface spells it.
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == raw)
    }

    fn from_field(field: &str, raw: &str) -> Result<Self, DomainError> {
        Self::parse(raw)
            .ok_or_else(|| DomainError::invalid(field, "must be one of available, pending, sold"))
    }
}

/// A pet as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Pet {
    pub id: i64,
    pub name: String,
    pub category_id: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<PetStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sku: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub barcode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub price: Option<i64>,
    /// The pet's own tax rate in basis points; absent: the store's default applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tax_rate: Option<i64>,
    /// The stockroom's fields: who supplies the pet, what it costs, how many to reorder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supplier_id: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reorder_quantity: Option<i64>,
    /// The individual animal this pet is, if it is one (its stock is then 0 or 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub animal: Option<Animal>,
    /// Held back from orders and sales until the end of `hold.until`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold: Option<Hold>,
}

/// The body of `POST /pets` and `PUT /pets/{petId}` as sent. The selling codes arrive as
/// raw JSON so that a wrong type is a 422 naming the field, like a wrong format.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PetInput {
    pub name: Option<String>,
    pub category_id: Option<i64>,
    pub status: Option<String>,
    #[serde(default)]
    pub sku: Option<serde_json::Value>,
    #[serde(default)]
    pub barcode: Option<serde_json::Value>,
    #[serde(default)]
    pub price: Option<serde_json::Value>,
    #[serde(default)]
    pub tax_rate: Option<serde_json::Value>,
    #[serde(default)]
    pub supplier_id: Option<serde_json::Value>,
    #[serde(default)]
    pub cost: Option<serde_json::Value>,
    #[serde(default)]
    pub reorder_quantity: Option<serde_json::Value>,
    #[serde(default)]
    pub animal: Option<serde_json::Value>,
    #[serde(default)]
    pub hold: Option<serde_json::Value>,
}

/// A validated new pet (or the whole replacement of one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPet {
    pub name: String,
    pub category_id: i64,
    pub status: Option<PetStatus>,
    pub sku: Option<String>,
    pub barcode: Option<String>,
    pub price: Option<i64>,
    pub tax_rate: Option<i64>,
    pub supplier_id: Option<i64>,
    pub cost: Option<i64>,
    pub reorder_quantity: Option<i64>,
    pub animal: Option<Animal>,
    pub hold: Option<Hold>,
}

impl NewPet {
    /// A pet with its name and category only: no status, codes, price, supplier or animal.
    pub fn named(name: impl Into<String>, category_id: i64) -> Self {
        Self {
            name: name.into(),
            category_id,
            status: None,
            sku: None,
            barcode: None,
            price: None,
            tax_rate: None,
            supplier_id: None,
            cost: None,
            reorder_quantity: None,
            animal: None,
            hold: None,
        }
    }
}

fn sku_value(value: &serde_json::Value) -> Result<Option<String>, DomainError> {
    match value {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::String(s) => code::sku("sku", s).map(Some),
        _ => Err(DomainError::invalid("sku", "must be a string")),
    }
}

fn barcode_value(value: &serde_json::Value) -> Result<Option<String>, DomainError> {
    match value {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::String(s) => code::barcode("barcode", s).map(Some),
        _ => Err(DomainError::invalid(
            "barcode",
            "must be a string of 8, 12, 13 or 14 digits",
        )),
    }
}

/// What a price or a cost must be.
const MINOR_UNITS: &str = "must be a whole number of minor units (e.g. cents)";

fn price_value(value: &serde_json::Value) -> Result<Option<i64>, DomainError> {
    whole_number("price", value, MINOR_UNITS, |v| code::price("price", v))
}

/// A field that is `null` (none) or a whole number that `check` accepts; anything else (text,
/// a fraction, a number beyond 64 bits) is refused with `expected`.
fn whole_number(
    field: &str,
    value: &serde_json::Value,
    expected: &'static str,
    check: impl FnOnce(i64) -> Result<i64, DomainError>,
) -> Result<Option<i64>, DomainError> {
    if value.is_null() {
        return Ok(None);
    }
    match value.as_i64() {
        Some(v) => check(v).map(Some),
        None => Err(DomainError::invalid(field, expected)),
    }
}

fn tax_rate_value(value: &serde_json::Value) -> Result<Option<i64>, DomainError> {
    match value {
        serde_json::Value::Null => Ok(None),
        other => super::profile::tax_rate("taxRate", other).map(Some),
    }
}

fn supplier_value(value: &serde_json::Value) -> Result<Option<i64>, DomainError> {
    whole_number("supplierId", value, "must be a positive integer", |id| {
        positive_id("supplierId", id)
    })
}

fn cost_value(value: &serde_json::Value) -> Result<Option<i64>, DomainError> {
    whole_number("cost", value, MINOR_UNITS, |v| code::price("cost", v))
}

fn reorder_quantity_value(value: &serde_json::Value) -> Result<Option<i64>, DomainError> {
    let bound = crate::contract::REORDER_QUANTITY;
    let refused = || {
        DomainError::invalid(
            "reorderQuantity",
            format!("must be a whole number from {} to {}", bound.min, bound.max),
        )
    };
    match value {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::Number(n) => match n.as_i64() {
            Some(v) if bound.contains(v) => Ok(Some(v)),
            _ => Err(refused()),
        },
        _ => Err(refused()),
    }
}

impl TryFrom<PetInput> for NewPet {
    type Error = DomainError;

    fn try_from(input: PetInput) -> Result<Self, DomainError> {
        let name = required("name", input.name)?;
        let category_id = required("categoryId", input.category_id)?;
        let none = serde_json::Value::Null;
        Ok(Self {
            name: text::name("name", &name)?,
            category_id: positive_id("categoryId", category_id)?,
            status: input
                .status
                .map(|s| PetStatus::from_field("status", &s))
                .transpose()?,
            sku: sku_value(input.sku.as_ref().unwrap_or(&none))?,
            barcode: barcode_value(input.barcode.as_ref().unwrap_or(&none))?,
            price: price_value(input.price.as_ref().unwrap_or(&none))?,
            tax_rate: tax_rate_value(input.tax_rate.as_ref().unwrap_or(&none))?,
            supplier_id: supplier_value(input.supplier_id.as_ref().unwrap_or(&none))?,
            cost: cost_value(input.cost.as_ref().unwrap_or(&none))?,
            reorder_quantity: reorder_quantity_value(
                input.reorder_quantity.as_ref().unwrap_or(&none),
            )?,
            animal: animal::animal_value(input.animal.as_ref().unwrap_or(&none))?,
            hold: animal::hold_value(input.hold.as_ref().unwrap_or(&none))?,
        })
    }
}

/// The body of `PATCH /pets/{petId}` as sent (a merge patch).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PetPatchInput {
    #[serde(default, deserialize_with = "double_option")]
    pub name: Option<Option<String>>,
    #[serde(default, deserialize_with = "double_option")]
    pub category_id: Option<Option<i64>>,
    #[serde(default, deserialize_with = "double_option")]
    pub status: Option<Option<String>>,
    /// Absent is `None`; `null` arrives as `Some(Value::Null)` and clears.
    #[serde(default, deserialize_with = "present")]
    pub sku: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "present")]
    pub barcode: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "present")]
    pub price: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "present")]
    pub tax_rate: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "present")]
    pub supplier_id: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "present")]
    pub cost: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "present")]
    pub reorder_quantity: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "present")]
    pub animal: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "present")]
    pub hold: Option<serde_json::Value>,
}

/// A validated merge patch of a pet. `status: Some(None)` clears the status; likewise
/// `sku`, `barcode`, `price`, `taxRate`, `animal` and `hold` (each replaced whole).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PetPatch {
    pub name: Option<String>,
    pub category_id: Option<i64>,
    pub status: Option<Option<PetStatus>>,
    pub sku: Option<Option<String>>,
    pub barcode: Option<Option<String>>,
    pub price: Option<Option<i64>>,
    pub tax_rate: Option<Option<i64>>,
    pub supplier_id: Option<Option<i64>>,
    pub cost: Option<Option<i64>>,
    pub reorder_quantity: Option<Option<i64>>,
    pub animal: Option<Option<Animal>>,
    pub hold: Option<Option<Hold>>,
}

impl TryFrom<PetPatchInput> for PetPatch {
    type Error = DomainError;

    fn try_from(input: PetPatchInput) -> Result<Self, DomainError> {
        let name = not_null("name", input.name, |n| text::name("name", &n))?;
        let category_id = not_null("categoryId", input.category_id, |id| {
            positive_id("categoryId", id)
        })?;
        let status = match input.status {
            None => None,
            Some(None) => Some(None),
            Some(Some(s)) => Some(Some(PetStatus::from_field("status", &s)?)),
        };
        Ok(Self {
            name,
            category_id,
            status,
            sku: input.sku.as_ref().map(sku_value).transpose()?,
            barcode: input.barcode.as_ref().map(barcode_value).transpose()?,
            price: input.price.as_ref().map(price_value).transpose()?,
            tax_rate: input.tax_rate.as_ref().map(tax_rate_value).transpose()?,
            supplier_id: input.supplier_id.as_ref().map(supplier_value).transpose()?,
            cost: input.cost.as_ref().map(cost_value).transpose()?,
            reorder_quantity: input
                .reorder_quantity
                .as_ref()
                .map(reorder_quantity_value)
                .transpose()?,
            animal: input
                .animal
                .as_ref()
                .map(animal::animal_value)
                .transpose()?,
            hold: input.hold.as_ref().map(animal::hold_value).transpose()?,
        })
    }
}

impl PetPatch {
    /// The pet as it is after this patch.
    pub fn apply(&self, pet: &Pet) -> NewPet {
        NewPet {
            name: self.name.clone().unwrap_or_else(|| pet.name.clone()),
            category_id: self.category_id.unwrap_or(pet.category_id),
            status: self.status.unwrap_or(pet.status),
            sku: self.sku.clone().unwrap_or_else(|| pet.sku.clone()),
            barcode: self.barcode.clone().unwrap_or_else(|| pet.barcode.clone()),
            price: self.price.unwrap_or(pet.price),
            tax_rate: self.tax_rate.unwrap_or(pet.tax_rate),
            supplier_id: self.supplier_id.unwrap_or(pet.supplier_id),
            cost: self.cost.unwrap_or(pet.cost),
            reorder_quantity: self.reorder_quantity.unwrap_or(pet.reorder_quantity),
            animal: self.animal.clone().unwrap_or_else(|| pet.animal.clone()),
            hold: self.hold.clone().unwrap_or_else(|| pet.hold.clone()),
        }
    }
}

/// An id given in a body: a positive integer.
pub fn positive_id(field: &str, id: i64) -> Result<i64, DomainError> {
    if id > 0 {
        Ok(id)
    } else {
        Err(DomainError::invalid(field, "must be a positive integer"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(name: Option<&str>, category: Option<i64>, status: Option<&str>) -> PetInput {
        PetInput {
            name: name.map(str::to_owned),
            category_id: category,
            status: status.map(str::to_owned),
            ..PetInput::default()
        }
    }

    #[test]
    fn a_new_pet_needs_a_name_and_a_category() {
        assert!(NewPet::try_from(input(None, Some(1), None)).is_err());
        assert!(NewPet::try_from(input(Some("Rex"), None, None)).is_err());
        let pet = NewPet::try_from(input(Some(" Rex "), Some(1), Some("sold"))).unwrap();
        assert_eq!(pet.name, "Rex");
        assert_eq!(pet.status, Some(PetStatus::Sold));
    }

    #[test]
    fn an_unknown_status_is_refused_naming_the_field() {
        let err = NewPet::try_from(input(Some("Rex"), Some(1), Some("lost"))).unwrap_err();
        assert_eq!(err.code(), crate::contract::Code::ValidationFailed);
        assert!(err.to_string().starts_with("status"));
    }

    #[test]
    fn a_patch_with_null_status_clears_it() {
        let patch: PetPatchInput = serde_json::from_str(r#"{"status": null}"#).unwrap();
        let patch = PetPatch::try_from(patch).unwrap();
        let pet = Pet {
            id: 1,
            name: "Rex".into(),
            category_id: 2,
            status: Some(PetStatus::Pending),
            sku: Some("REX-1".into()),
            barcode: None,
            price: Some(1500),
            tax_rate: Some(550),
            supplier_id: None,
            cost: None,
            reorder_quantity: None,
            animal: None,
            hold: None,
        };
        assert_eq!(patch.apply(&pet).status, None);
        let empty = PetPatch::try_from(PetPatchInput::default()).unwrap();
        assert_eq!(empty.apply(&pet).status, Some(PetStatus::Pending));
        assert_eq!(empty.apply(&pet).sku.as_deref(), Some("REX-1"));
        assert_eq!(empty.apply(&pet).tax_rate, Some(550));
    }

    #[test]
    fn a_patch_with_null_codes_clears_them_and_bad_codes_name_their_field() {
        let patch: PetPatchInput = serde_json::from_str(r#"{"sku": null, "price": null}"#).unwrap();
        let patch = PetPatch::try_from(patch).unwrap();
        assert_eq!(patch.sku, Some(None));
        assert_eq!(patch.price, Some(None));
        assert_eq!(patch.barcode, None);
        for (body, field) in [
            (r#"{"price": 1.5}"#, "price"),
            (r#"{"price": "100"}"#, "price"),
            (r#"{"sku": 12}"#, "sku"),
            (r#"{"barcode": "12345678"}"#, "barcode"),
        ] {
            let input: PetPatchInput = serde_json::from_str(body).unwrap();
            let err = PetPatch::try_from(input).unwrap_err();
            assert!(err.to_string().starts_with(field), "{body}: {err}");
        }
    }
}
