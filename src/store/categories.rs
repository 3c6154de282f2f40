//! Queries and changes of categories. Names are unique, compared case-insensitively.

use rusqlite::types::Value;
use rusqlite::{params, Connection, OptionalExtension, Row};

use super::sql::{self, contains_pattern, Filter};
use super::{Result, Tx};
use crate::domain::category::{Category, CategoryPatch, NewCategory};
use crate::domain::query::{CategoryQuery, Paged};
use crate::domain::{etag, text, DomainError};

const COLUMNS: &str = "id, name, description";

fn from_row(row: &Row<'_>) -> rusqlite::Result<Category> {
    Ok(Category {
        id: row.get(0)?,
        name: row.get(1)?,
        description: row.get(2)?,
    })
}

pub fn get(conn: &Connection, id: i64) -> Result<Option<Category>> {
    Ok(conn
        .prepare_cached(&format!("SELECT {COLUMNS} FROM categories WHERE id = ?1"))?
        .query_row([id], from_row)
        .optional()?)
}

pub fn require(conn: &Connection, id: i64) -> Result<Category> {
    get(conn, id)?.ok_or(
        DomainError::NotFound {
            kind: "category",
            id,
        }
        .into(),
    )
}

/// Refuses a pet's `categoryId` that names no category.
pub fn require_for_pet(conn: &Connection, id: i64) -> Result<()> {
    let exists = conn
        .prepare_cached("SELECT 1 FROM categories WHERE id = ?1")?
        .exists([id])?;
    if exists {
        Ok(())
    } else {
        Err(DomainError::UnknownCategory(id).into())
    }
}

pub fn list(conn: &Connection, query: &CategoryQuery) -> Result<Paged<Category>> {
    let mut filter = Filter::default();
    if let Some(q) = &query.q {
        filter.and(
            "name_fold LIKE ? ESCAPE '\\'",
            [Value::Text(contains_pattern(&text::fold(q)))],
        );
    }
    sql::paged(
        conn,
        (COLUMNS, "categories", "id"),
        &filter,
        query.page,
        from_row,
    )
}

fn ensure_unique(conn: &Connection, name: &str, except: Option<i64>) -> Result<()> {
    let holder: Option<i64> = conn
        .prepare_cached("SELECT id FROM categories WHERE name_fold = ?1")?
        .query_row([text::fold(name)], |row| row.get(0))
        .optional()?;
    match holder {
        Some(id) if Some(id) != except => Err(DomainError::DuplicateName(name.to_owned()).into()),
        _ => Ok(()),
    }
}

pub fn create(tx: &mut Tx<'_>, new: NewCategory) -> Result<Category> {
    ensure_unique(tx, &new.name, None)?;
    tx.prepare_cached("INSERT INTO categories (name, name_fold, description) VALUES (?1, ?2, ?3)")?
        .execute(params![new.name, text::fold(&new.name), new.description])?;
    let category = Category {
        id: tx.last_insert_rowid(),
        name: new.name,
        description: new.description,
    };
    tx.emit("category.created", &category)?;
    Ok(category)
}

pub fn replace(
    tx: &mut Tx<'_>,
    id: i64,
    new: NewCategory,
    if_match: Option<&str>,
) -> Result<Category> {
    let current = require(tx, id)?;
    etag::check(if_match, &current)?;
    write(tx, current, new)
}

pub fn patch(
    tx: &mut Tx<'_>,
    id: i64,
    patch: CategoryPatch,
    if_match: Option<&str>,
) -> Result<Category> {
    let current = require(tx, id)?;
    etag::check(if_match, &current)?;
    let new = patch.apply(&current);
    write(tx, current, new)
}

fn write(tx: &mut Tx<'_>, current: Category, new: NewCategory) -> Result<Category> {
    ensure_unique(tx, &new.name, Some(current.id))?;
    let category = Category {
        id: current.id,
        name: new.name,
        description: new.description,
    };
    if category != current {
        tx.prepare_cached(
            "UPDATE categories SET name = ?2, name_fold = ?3, description = ?4 WHERE id = ?1",
        )?
        .execute(params![
            category.id,
            category.name,
            text::fold(&category.name),
            category.description
        ])?;
        tx.emit("category.updated", &category)?;
    }
    Ok(category)
}

/// Deletes a category; refused while pets belong to it.
pub fn delete(tx: &mut Tx<'_>, id: i64, if_match: Option<&str>) -> Result<()> {
    let current = require(tx, id)?;
    etag::check(if_match, &current)?;
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
