//! Queries and changes of suppliers. Names are unique, compared case-insensitively: the
//! `UNIQUE` index on the folded name decides, and its refusal is `duplicate_name`. A supplier
//! that pets or purchase orders name cannot be deleted (`conflict`).

use std::sync::LazyLock;

use rusqlite::params;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::pages::Pages;
use super::sql;
use super::{on_unique, Call, Result, Store, Tx};
use crate::domain::query::{CategoryQuery, Paged};
use crate::domain::supplier::{NewSupplier, Supplier, SupplierPatch};
use crate::domain::{text, DomainError, Precondition};

const COLUMNS: &str = "id, name, contact, phone, email, note";

/// The statement that reads one record by id, written out once (not on every read).
static BY_ID: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {COLUMNS} FROM suppliers WHERE id = ?1"));

fn from_row(row: &Row<'_>) -> DbResult<Supplier> {
    Ok(Supplier {
        id: row.get(0)?,
        name: row.get(1)?,
        contact: row.get(2)?,
        phone: row.get(3)?,
        email: row.get(4)?,
        note: row.get(5)?,
    })
}

/// The supplier `new` once stored under `id`.
fn stored(id: i64, new: NewSupplier) -> Supplier {
    Supplier {
        id,
        name: new.name,
        contact: new.contact,
        phone: new.phone,
        email: new.email,
        note: new.note,
    }
}

fn get(conn: &Connection, id: i64) -> Result<Option<Supplier>> {
    Ok(conn
        .prepare_cached(&BY_ID)?
        .query_row([id], from_row)
        .optional()?)
}

/// The supplier, or `not_found`.
pub(super) fn require(conn: &Connection, id: i64) -> Result<Supplier> {
    get(conn, id)?.ok_or(
        DomainError::NotFound {
            kind: "supplier",
            id,
        }
        .into(),
    )
}

/// Refuses a `supplierId` in a body that names no supplier (422).
pub(super) fn require_for_pet(conn: &Connection, id: i64) -> Result<()> {
    if sql::exists(conn, "suppliers", id)? {
        Ok(())
    } else {
        Err(DomainError::UnknownSupplier(id).into())
    }
}

/// The supplier with this name (compared case-insensitively), if any.
pub(super) fn named(conn: &Connection, name: &str) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT id FROM suppliers WHERE name_fold = ?1")?
        .query_row([text::fold(name)], |row| row.get(0))
        .optional()?)
}

fn list(conn: &Connection, pages: &Pages, query: &CategoryQuery) -> Result<Paged<Supplier>> {
    sql::paged_by_name(conn, pages, "suppliers", COLUMNS, query, from_row)
}

pub(super) fn create(tx: &mut Tx<'_>, new: NewSupplier) -> Result<Supplier> {
    let inserted = tx
        .prepare_cached(
            "INSERT INTO suppliers (name, name_fold, contact, phone, email, note)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .insert(params![
            new.name,
            text::fold(&new.name),
            new.contact,
            new.phone,
            new.email,
            new.note
        ]);
    let id = on_unique(inserted, || {
        DomainError::DuplicateSupplierName(new.name.clone())
    })?;
    let supplier = stored(id, new);
    tx.emit("supplier.created", &supplier)?;
    Ok(supplier)
}

fn patch(tx: &mut Tx<'_>, id: i64, patch: SupplierPatch, pre: &Precondition) -> Result<Supplier> {
    let current = require(tx, id)?;
    pre.check(&current)?;
    let new = patch.apply(&current);
    let supplier = stored(id, new);
    if supplier != current {
        let updated = tx
            .prepare_cached(
                "UPDATE suppliers SET name = ?2, name_fold = ?3, contact = ?4, phone = ?5,
                 email = ?6, note = ?7 WHERE id = ?1",
            )?
            .execute(params![
                supplier.id,
                supplier.name,
                text::fold(&supplier.name),
                supplier.contact,
                supplier.phone,
                supplier.email,
                supplier.note
            ]);
        on_unique(updated, || {
            DomainError::DuplicateSupplierName(supplier.name.clone())
        })?;
        tx.emit("supplier.updated", &supplier)?;
    }
    Ok(supplier)
}

/// Deletes a supplier; refused while pets or purchase orders name it.
fn delete(tx: &mut Tx<'_>, id: i64, pre: &Precondition) -> Result<()> {
    let current = require(tx, id)?;
    pre.check(&current)?;
    let in_use = tx
        .prepare_cached(
            "SELECT 1 FROM pets WHERE supplier_id = ?1
             UNION ALL SELECT 1 FROM purchase_orders WHERE supplier_id = ?1 LIMIT 1",
        )?
        .exists([id])?;
    if in_use {
        return Err(DomainError::SupplierInUse(id).into());
    }
    tx.prepare_cached("DELETE FROM suppliers WHERE id = ?1")?
        .execute([id])?;
    tx.emit("supplier.deleted", &serde_json::json!({ "id": id }))
}

/// The wholesalers the shop buys from: `store.suppliers()`.
pub struct Suppliers<'s>(pub(super) &'s Store);

impl<'s> Suppliers<'s> {
    /// One page of suppliers matching `query` (by id; `q` searches the name).
    pub fn list(&self, query: CategoryQuery) -> Call<'s, Paged<Supplier>> {
        let pages = self.0.pages();
        Call::read(self.0, move |c| list(c, &pages, &query))
    }

    /// The supplier, or `not_found`.
    pub fn get(&self, id: i64) -> Call<'s, Supplier> {
        Call::read(self.0, move |c| require(c, id))
    }

    /// Creates a supplier; its name must be new (compared case-insensitively).
    pub fn create(&self, new: NewSupplier) -> Call<'s, Supplier> {
        Call::write(self.0, move |tx| create(tx, new))
    }

    /// Applies a merge patch to a supplier.
    pub fn patch(&self, id: i64, p: SupplierPatch, pre: Precondition) -> Call<'s, Supplier> {
        Call::write(self.0, move |tx| patch(tx, id, p, &pre))
    }

    /// Deletes a supplier; refused while pets or purchase orders name it.
    pub fn delete(&self, id: i64, pre: Precondition) -> Call<'s, ()> {
        Call::write(self.0, move |tx| delete(tx, id, &pre))
    }
}
