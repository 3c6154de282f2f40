//! Queries and changes of categories. Names are unique, compared case-insensitively: the
//! `UNIQUE` index on the folded name decides, and its refusal is `duplicate_name` (there is
//! no check-then-insert for two writers to race through).

use std::sync::LazyLock;

use rusqlite::params;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::pages::Pages;
use super::sql;
use super::{on_unique, Call, Result, Store, Tx};
use crate::domain::category::{Category, CategoryPatch, NewCategory};
use crate::domain::query::{CategoryQuery, Paged};
use crate::domain::{text, DomainError, Precondition};

const COLUMNS: &str = "id, name, description";

/// The statement that reads one record by id, written out once (not on every read).
static BY_ID: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {COLUMNS} FROM categories WHERE id = ?1"));

fn from_row(row: &Row<'_>) -> DbResult<Category> {
    Ok(Category {
        id: row.get(0)?,
        name: row.get(1)?,
        description: row.get(2)?,
    })
}

/// The category `new` once stored under `id`.
fn stored(id: i64, new: NewCategory) -> Category {
    Category {
        id,
        name: new.name,
        description: new.description,
    }
}

fn get(conn: &Connection, id: i64) -> Result<Option<Category>> {
    Ok(conn
        .prepare_cached(&BY_ID)?
        .query_row([id], from_row)
        .optional()?)
}

fn require(conn: &Connection, id: i64) -> Result<Category> {
    get(conn, id)?.ok_or(
        DomainError::NotFound {
            kind: "category",
            id,
        }
        .into(),
    )
}

/// Refuses a pet's `categoryId` that names no category.
pub(super) fn require_for_pet(conn: &Connection, id: i64) -> Result<()> {
    if sql::exists(conn, "categories", id)? {
        Ok(())
    } else {
        Err(DomainError::UnknownCategory(id).into())
    }
}

fn list(conn: &Connection, pages: &Pages, query: &CategoryQuery) -> Result<Paged<Category>> {
    sql::paged_by_name(conn, pages, "categories", COLUMNS, query, from_row)
}

pub(super) fn create(tx: &mut Tx<'_>, new: NewCategory) -> Result<Category> {
    let inserted = tx
        .prepare_cached(
            "INSERT INTO categories (name, name_fold, description) VALUES (?1, ?2, ?3)",
        )?
        .insert(params![new.name, text::fold(&new.name), new.description]);
    let id = on_unique(inserted, || DomainError::DuplicateName(new.name.clone()))?;
    let category = stored(id, new);
    tx.emit("category.created", &category)?;
    Ok(category)
}

fn replace(tx: &mut Tx<'_>, id: i64, new: NewCategory, pre: &Precondition) -> Result<Category> {
    let current = require(tx, id)?;
    pre.check(&current)?;
    write(tx, current, new)
}

fn patch(tx: &mut Tx<'_>, id: i64, patch: CategoryPatch, pre: &Precondition) -> Result<Category> {
    let current = require(tx, id)?;
    pre.check(&current)?;
    let new = patch.apply(&current);
    write(tx, current, new)
}

fn write(tx: &mut Tx<'_>, current: Category, new: NewCategory) -> Result<Category> {
    let category = stored(current.id, new);
    if category != current {
        let updated = tx
            .prepare_cached(
                "UPDATE categories SET name = ?2, name_fold = ?3, description = ?4 WHERE id = ?1",
            )?
            .execute(params![
                category.id,
                category.name,
                text::fold(&category.name),
                category.description
            ]);
        on_unique(updated, || {
            DomainError::DuplicateName(category.name.clone())
        })?;
        tx.emit("category.updated", &category)?;
    }
    Ok(category)
}

/// Deletes a category; refused while pets belong to it.
fn delete(tx: &mut Tx<'_>, id: i64, pre: &Precondition) -> Result<()> {
    let current = require(tx, id)?;
    pre.check(&current)?;
    let in_use = tx
        .prepare_cached("SELECT 1 FROM pets WHERE category_id = ?1 LIMIT 1")?
        .exists([id])?;
    if in_use {
        return Err(DomainError::CategoryInUse(id).into());
    }
    tx.prepare_cached("DELETE FROM categories WHERE id = ?1")?
        .execute([id])?;
    tx.emit("category.deleted", &serde_json::json!({ "id": id }))
}

/// The kinds of animal: `store.categories()`.
pub struct Categories<'s>(pub(super) &'s Store);

impl<'s> Categories<'s> {
    /// One page of categories matching `query`.
    pub fn list(&self, query: CategoryQuery) -> Call<'s, Paged<Category>> {
        let pages = self.0.pages();
        Call::read(self.0, move |c| list(c, &pages, &query))
    }

    /// The category, or `not_found`.
    pub fn get(&self, id: i64) -> Call<'s, Category> {
        Call::read(self.0, move |c| require(c, id))
    }

    /// Creates a category; its name must be new (compared case-insensitively).
    pub fn create(&self, new: NewCategory) -> Call<'s, Category> {
        Call::write(self.0, move |tx| create(tx, new))
    }

    /// Replaces a category's fields.
    pub fn replace(&self, id: i64, new: NewCategory, pre: Precondition) -> Call<'s, Category> {
        Call::write(self.0, move |tx| replace(tx, id, new, &pre))
    }

    /// Applies a merge patch to a category.
    pub fn patch(&self, id: i64, patch: CategoryPatch, pre: Precondition) -> Call<'s, Category> {
        Call::write(self.0, move |tx| self::patch(tx, id, patch, &pre))
    }

    /// Deletes a category; refused while pets belong to it.
    pub fn delete(&self, id: i64, pre: Precondition) -> Call<'s, ()> {
        Call::write(self.0, move |tx| delete(tx, id, &pre))
    }
}
