//! What a list request asks for: filters, sort order and the page.

use chrono::NaiveDate;

use super::payment::Method;
use super::pet::PetStatus;

use crate::contract;

/// Most records in one page.
pub const LIMIT_MAX: i64 = contract::LIMIT.max;
/// Records in a page when the client does not say.
pub const LIMIT_DEFAULT: i64 = contract::LIMIT_DEFAULT;
/// Most ids in one `ids` filter.
pub const IDS_MAX: usize = contract::IDS.max_usize();

/// A window of a list: `limit` records from `offset`, or (`after`, the opt-in cursor)
/// `limit` records after the one with that id, in the list's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub limit: i64,
    pub offset: i64,
    pub after: Option<i64>,
}

impl Default for Page {
    fn default() -> Self {
        Self {
            limit: LIMIT_DEFAULT,
            offset: 0,
            after: None,
        }
    }
}

/// One page of a list and how many records the whole list has.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paged<T> {
    pub items: Vec<T>,
    pub total: i64,
}

/// The orders `GET /pets` can sort by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PetSort {
    #[default]
    IdAsc,
    IdDesc,
    NameAsc,
    NameDesc,
}

impl PetSort {
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "id" => Some(Self::IdAsc),
            "-id" => Some(Self::IdDesc),
            "name" => Some(Self::NameAsc),
            "-name" => Some(Self::NameDesc),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PetQuery {
    /// Any of these statuses; empty means any status (or none).
    pub statuses: Vec<PetStatus>,
    pub category_id: Option<i64>,
    /// Name contains, case-insensitively.
    pub q: Option<String>,
    /// Only these ids; empty means all.
    pub ids: Vec<i64>,
    /// Only the pet with this SKU (compared case-insensitively, as SKUs are unique).
    pub sku: Option<String>,
    /// Only the pet with this barcode.
    pub barcode: Option<String>,
    pub sort: PetSort,
    pub page: Page,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CategoryQuery {
    pub q: Option<String>,
    pub page: Page,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderQuery {
    pub complete: Option<bool>,
    pub pet_id: Option<i64>,
    pub page: Page,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InventoryQuery {
    /// Any of these statuses, a pet without one counting as `available`.
    pub statuses: Vec<PetStatus>,
    /// Only quantities below this.
    pub below: Option<i64>,
    /// `true`: only items at or below their reorder point; `false`: only the others.
    pub low: Option<bool>,
    pub page: Page,
}

/// `GET /store/sales`: newest first; `from` and `to` are local days of `soldAt`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SaleQuery {
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    pub till: Option<String>,
    pub staff_id: Option<i64>,
    /// Sales with a payment of this method.
    pub method: Option<Method>,
    pub page: Page,
}

/// `GET /store/shifts`: newest first, optionally one till's or one status's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ShiftQuery {
    pub till: Option<String>,
    pub status: Option<super::shift_record::ShiftStatus>,
    pub page: Page,
}
