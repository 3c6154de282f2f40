//! Applying a CSV import of pets in one transaction: every row is matched (by `id`, else
//! `sku`, else `barcode`; otherwise it is a new pet) and checked against the store and the
//! other rows first; only when no row has an error is anything written. A dry run stops
//! after the checks. Stock set by an import is an `import` history entry.

use std::collections::HashMap;

use rusqlite::params;

use super::db::{Connection, OptionalExtension};
use super::inventory::{self, Cause};
use super::{categories, pets, suppliers, Call, Result, Store, StoreError, Tx};
use crate::domain::animal::INDIVIDUAL_STOCK_MAX;
use crate::domain::category::NewCategory;
use crate::domain::import::{LineError, Row, Summary, ERRORS_MAX};
use crate::domain::inventory::{InventoryItem, Source};
use crate::domain::pet::{NewPet, Pet};
use crate::domain::supplier::NewSupplier;
use crate::domain::{code, text, Precondition};

/// What one row does.
enum Plan {
    Create,
    Update {
        pet: Box<Pet>,
        quantity: i64,
        reorder_point: Option<i64>,
    },
    Unchanged,
}

/// Imports `rows` (already checked one by one), or only checks them when `dry_run`.
fn import(
    tx: &mut Tx<'_>,
    rows: Vec<Row>,
    dry_run: bool,
    key_name: Option<&str>,
) -> Result<Summary> {
    let mut summary = Summary::default();
    let mut plans = Vec::with_capacity(rows.len());
    let mut category_ids: HashMap<String, Option<i64>> = HashMap::new();
    // Which line claimed each pet, SKU and barcode, so two rows cannot claim the same one.
    let mut pets_claimed: HashMap<i64, u64> = HashMap::new();
    let mut skus_claimed: HashMap<String, u64> = HashMap::new();
    let mut barcodes_claimed: HashMap<String, u64> = HashMap::new();
    for row in &rows {
        if summary.errors.len() >= ERRORS_MAX {
            break;
        }
        let mut errors = Vec::new();
        let target = match_pet(tx, row, &mut errors)?;
        if let Some(pet) = &target {
            if let Some(first) = pets_claimed.insert(pet.id, row.line) {
                errors.push(LineError::new(
                    row.line,
                    matched_by(row),
                    format!("matches pet {}, as line {first} does", pet.id),
                ));
            }
        }
        let target_id = target.as_ref().map(|p| p.id);
        if let Some(sku) = &row.sku {
            if let Some(owner) = pets::with_sku(tx, sku, target_id)? {
                errors.push(LineError::new(
                    row.line,
                    "sku",
                    format!("{sku:?} is already used by pet {owner}"),
                ));
            } else if let Some(first) = skus_claimed.insert(code::sku_fold(sku), row.line) {
                errors.push(LineError::new(
                    row.line,
                    "sku",
                    format!("{sku:?} is also on line {first}"),
                ));
            }
        }
        if let Some(barcode) = &row.barcode {
            if let Some(owner) = pets::with_barcode(tx, barcode, target_id)? {
                errors.push(LineError::new(
                    row.line,
                    "barcode",
                    format!("{barcode} is already used by pet {owner}"),
                ));
            } else if let Some(first) = barcodes_claimed.insert(barcode.clone(), row.line) {
                errors.push(LineError::new(
                    row.line,
                    "barcode",
                    format!("{barcode} is also on line {first}"),
                ));
            }
        }
        let fold = text::fold(&row.category);
        let category_id = match category_ids.get(&fold) {
            Some(id) => *id,
            None => {
                let id = category_by_name(tx, &fold)?;
                category_ids.insert(fold, id);
                id
            }
        };
        if !errors.is_empty() {
            summary.errors.append(&mut errors);
            continue;
        }
        let plan = match target {
            None => {
                summary.created += 1;
                Plan::Create
            }
            Some(pet) => {
                let item = inventory::require(tx, pet.id)?;
                let supplier_id = match &row.supplier {
                    Some(name) => suppliers::named(tx, name)?,
                    None => None,
                };
                let new = new_pet(row, category_id.unwrap_or(0), supplier_id, Some(&pet));
                let quantity = row.quantity.unwrap_or(item.quantity);
                if pet.animal.is_some() && quantity > INDIVIDUAL_STOCK_MAX {
                    summary.errors.push(LineError::new(
                        row.line,
                        "quantity",
                        format!(
                            "pet {} is one individual animal: its stock is 0 or 1, not {quantity}",
                            pet.id
                        ),
                    ));
                    continue;
                }
                let reorder_point = if row.has("reorderPoint") {
                    row.reorder_point
                } else {
                    item.reorder_point
                };
                // A supplier the store does not have yet is a change (the import makes it).
                let same = category_id == Some(pet.category_id)
                    && (row.supplier.is_none() || supplier_id.is_some())
                    && same_pet(&pet, &new)
                    && quantity == item.quantity
                    && reorder_point == item.reorder_point;
                if same {
                    summary.unchanged += 1;
                    Plan::Unchanged
                } else {
                    summary.updated += 1;
                    Plan::Update {
                        pet: Box::new(pet),
                        quantity,
                        reorder_point,
                    }
                }
            }
        };
        plans.push(plan);
    }
    summary.errors.truncate(ERRORS_MAX);
    if dry_run || !summary.errors.is_empty() {
        return Ok(summary);
    }
    for (row, plan) in rows.iter().zip(plans) {
        if matches!(plan, Plan::Unchanged) {
            continue;
        }
        let category_id = category_for(tx, row, &mut category_ids)?;
        let supplier_id = supplier_for(tx, row)?;
        let current = match &plan {
            Plan::Update { pet, .. } => Some(&**pet),
            _ => None,
        };
        let new = new_pet(row, category_id, supplier_id, current);
        let cause = || Cause {
            source: Source::Import,
            reason: None,
            order_id: None,
            key_name,
        };
        match plan {
            Plan::Create => {
                let pet = pets::create(tx, new)?;
                let item = inventory::require(tx, pet.id)?;
                let item = match row.quantity.filter(|q| *q > 0) {
                    Some(quantity) => moved(inventory::shift(tx, pet.id, quantity, cause())?)?,
                    None => item,
                };
                if row.reorder_point.is_some() {
                    inventory::set_reorder_point(tx, &item, row.reorder_point)?;
                }
            }
            Plan::Update {
                pet,
                quantity,
                reorder_point,
            } => {
                pets::replace(tx, pet.id, new, &Precondition::None)?;
                let item = inventory::require(tx, pet.id)?;
                let item = if quantity != item.quantity {
                    moved(inventory::shift(
                        tx,
                        pet.id,
                        quantity - item.quantity,
                        cause(),
                    )?)?
                } else {
                    item
                };
                inventory::set_reorder_point(tx, &item, reorder_point)?;
            }
            Plan::Unchanged => {}
        }
    }
    Ok(summary)
}

/// The item after a move the plan checked to be in bounds.
fn moved(item: Option<InventoryItem>) -> Result<InventoryItem> {
    item.ok_or_else(|| StoreError::Internal("an imported stock count did not move".into()))
}

/// The field a row was matched by, for its errors.
fn matched_by(row: &Row) -> &'static str {
    if row.id.is_some() {
        "id"
    } else if row.sku.is_some() {
        "sku"
    } else {
        "barcode"
    }
}

/// The pet a row is about: by `id` (which must exist), else `sku`, else `barcode`.
fn match_pet(conn: &Connection, row: &Row, errors: &mut Vec<LineError>) -> Result<Option<Pet>> {
    if let Some(id) = row.id {
        let pet = pets::get(conn, id)?;
        if pet.is_none() {
            errors.push(LineError::new(
                row.line,
                "id",
                format!("no pet has the id {id}"),
            ));
        }
        return Ok(pet);
    }
    if let Some(sku) = row.sku.as_deref() {
        if let Some(id) = pets::with_sku(conn, sku, None)? {
            return pets::get(conn, id);
        }
    }
    if let Some(barcode) = row.barcode.as_deref() {
        if let Some(id) = pets::with_barcode(conn, barcode, None)? {
            return pets::get(conn, id);
        }
    }
    Ok(None)
}

fn category_by_name(conn: &Connection, fold: &str) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT id FROM categories WHERE name_fold = ?1")?
        .query_row(params![fold], |row| row.get(0))
        .optional()?)
}

/// The row's category id, creating the category when the store has none of that name.
fn category_for(
    tx: &mut Tx<'_>,
    row: &Row,
    known: &mut HashMap<String, Option<i64>>,
) -> Result<i64> {
    let fold = text::fold(&row.category);
    if let Some(Some(id)) = known.get(&fold) {
        return Ok(*id);
    }
    let category = categories::create(
        tx,
        NewCategory {
            name: row.category.clone(),
            description: None,
        },
    )?;
    known.insert(fold, Some(category.id));
    Ok(category.id)
}

/// The row's supplier id (`None` when its cell is empty), making the supplier when the store
/// has none of that name.
fn supplier_for(tx: &mut Tx<'_>, row: &Row) -> Result<Option<i64>> {
    let Some(name) = &row.supplier else {
        return Ok(None);
    };
    if let Some(id) = suppliers::named(tx, name)? {
        return Ok(Some(id));
    }
    let made = suppliers::create(
        tx,
        NewSupplier {
            name: name.clone(),
            contact: None,
            phone: None,
            email: None,
            note: None,
        },
    )?;
    Ok(Some(made.id))
}

/// The pet a row describes: a column the file does not have keeps `current`'s value.
fn new_pet(row: &Row, category_id: i64, supplier_id: Option<i64>, current: Option<&Pet>) -> NewPet {
    let kept = |column: &str| if row.has(column) { None } else { current };
    NewPet {
        name: row.name.clone(),
        category_id,
        status: kept("status").map_or(row.status, |p| p.status),
        sku: kept("sku").map_or_else(|| row.sku.clone(), |p| p.sku.clone()),
        barcode: kept("barcode").map_or_else(|| row.barcode.clone(), |p| p.barcode.clone()),
        price: kept("price").map_or(row.price, |p| p.price),
        tax_rate: kept("taxRate").map_or(row.tax_rate, |p| p.tax_rate),
        supplier_id: kept("supplier").map_or(supplier_id, |p| p.supplier_id),
        cost: kept("cost").map_or(row.cost, |p| p.cost),
        reorder_quantity: kept("reorderQuantity")
            .map_or(row.reorder_quantity, |p| p.reorder_quantity),
        // The file has no animal or hold columns: an updated pet keeps its record and hold.
        animal: current.and_then(|p| p.animal.clone()),
        hold: current.and_then(|p| p.hold.clone()),
    }
}

fn same_pet(pet: &Pet, new: &NewPet) -> bool {
    pet.name == new.name
        && pet.status == new.status
        && pet.sku == new.sku
        && pet.barcode == new.barcode
        && pet.price == new.price
        && pet.tax_rate == new.tax_rate
        && pet.supplier_id == new.supplier_id
        && pet.cost == new.cost
        && pet.reorder_quantity == new.reorder_quantity
}

/// The CSV import of pets: `store.import()`.
pub struct Import<'s>(pub(super) &'s Store);

impl<'s> Import<'s> {
    /// Imports checked rows, all or nothing, made `by` the named key; with `dry_run` (or
    /// any error) nothing is written.
    pub fn pets(&self, rows: Vec<Row>, dry_run: bool, by: Option<String>) -> Call<'s, Summary> {
        Call::write(self.0, move |tx| import(tx, rows, dry_run, by.as_deref()))
            .changing_many_pages()
    }
}
