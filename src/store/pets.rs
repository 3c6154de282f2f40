//! Queries and changes of pets.

use std::sync::{Arc, LazyLock, OnceLock};

use rusqlite::params;
use rusqlite::types::Value;

use super::db::{Connection, DbResult, OptionalExtension, Row};
use super::pages::{Pages, Tables};
use super::sql::{self, contains_pattern, starts_pattern, Filter, ListSql};
use super::{care, categories, inventory, on_unique, profile, suppliers, Call, Result, Store, Tx};
use crate::domain::animal::{self, Animal, Hold, Sex};
use crate::domain::pet::{NewPet, Pet, PetPatch, PetStatus};
use crate::domain::query::{Paged, PetQuery, PetSort};
use crate::domain::{code, report, text, DomainError, Precondition};

const COLUMNS: &str = "id, name, category_id, status, sku, barcode, price, tax_rate, \
                       supplier_id, cost, reorder_quantity, \
     animal_sex, animal_born_on, animal_breed, animal_colour, animal_microchip, animal_source, \
     animal_arrived_on, hold_until, hold_reason";

/// The statement that reads one record by id, written out once (not on every read).
static BY_ID: LazyLock<String> =
    LazyLock::new(|| format!("SELECT {COLUMNS} FROM pets WHERE id = ?1"));

/// The first of the animal and hold columns in [`COLUMNS`].
const ANIMAL_AT: usize = 11;

fn from_row(row: &Row<'_>) -> DbResult<Pet> {
    let status: Option<String> = row.get(3)?;
    Ok(Pet {
        id: row.get(0)?,
        name: row.get(1)?,
        category_id: row.get(2)?,
        status: status.as_deref().and_then(PetStatus::parse),
        sku: row.get(4)?,
        barcode: row.get(5)?,
        price: row.get(6)?,
        tax_rate: row.get(7)?,
        supplier_id: row.get(8)?,
        cost: row.get(9)?,
        reorder_quantity: row.get(10)?,
        animal: animal_from_row(row, ANIMAL_AT)?,
        hold: hold_from_row(row, ANIMAL_AT + 7)?,
    })
}

/// The animal record read from its seven columns from `at` (none when `animal_sex` is NULL).
fn animal_from_row(row: &Row<'_>, at: usize) -> DbResult<Option<Animal>> {
    let sex: Option<String> = row.get(at)?;
    let Some(sex) = sex.as_deref().and_then(Sex::parse) else {
        return Ok(None);
    };
    Ok(Some(Animal {
        sex,
        born_on: row.get(at + 1)?,
        breed: row.get(at + 2)?,
        colour: row.get(at + 3)?,
        microchip: row.get(at + 4)?,
        source: row.get(at + 5)?,
        arrived_on: row.get(at + 6)?,
    }))
}

/// The hold read from its two columns from `at`.
fn hold_from_row(row: &Row<'_>, at: usize) -> DbResult<Option<Hold>> {
    let until: Option<String> = row.get(at)?;
    let reason: Option<String> = row.get(at + 1)?;
    Ok(until.map(|until| Hold {
        until,
        reason: reason.unwrap_or_default(),
    }))
}

pub(super) fn get(conn: &Connection, id: i64) -> Result<Option<Pet>> {
    conn.prepare_cached(&BY_ID)?
        .query_row([id], from_row)
        .optional()?
        .map(|pet| current(conn, pet))
        .transpose()
}

/// A pet as the store answers it: a hold whose last day has passed (the store's time zone)
/// is left out, as if cleared.
fn current(conn: &Connection, mut pet: Pet) -> Result<Pet> {
    pet.hold = live_hold(conn, pet.hold.take())?;
    Ok(pet)
}

/// `hold`, or none once its last day has passed in the store's time zone.
fn live_hold(conn: &Connection, hold: Option<Hold>) -> Result<Option<Hold>> {
    if hold.is_none() {
        return Ok(None);
    }
    let today = report::today(profile::get(conn)?.tz());
    Ok(animal::current_hold(hold, today))
}

/// The pet, or `not_found`.
pub(super) fn require(conn: &Connection, id: i64) -> Result<Pet> {
    get(conn, id)?.ok_or(DomainError::NotFound { kind: "pet", id }.into())
}

fn list(conn: &Connection, pages: &Pages, query: &PetQuery) -> Result<Paged<Pet>> {
    let mut filter = Filter::default();
    if !query.statuses.is_empty() {
        let values = query
            .statuses
            .iter()
            .map(|s| Value::Text(s.as_str().into()))
            .collect();
        filter.and_in("status", values);
    }
    if let Some(category_id) = query.category_id {
        filter.and("category_id = ?", [Value::Integer(category_id)]);
    }
    if let Some(q) = &query.q {
        // Every word, in any order: found anywhere in the name, the sku or the barcode, or at
        // the start of a word of the category's name ("puppy beagle", "dog rex"; "o" does not
        // match all of "Dogs").
        for word in text::fold(q).split_whitespace() {
            let starts = starts_pattern(word);
            let anywhere = contains_pattern(word);
            filter.and(
                "(name_fold LIKE ? ESCAPE '\\' OR sku_fold LIKE ? ESCAPE '\\' \
                 OR barcode LIKE ? ESCAPE '\\' OR category_id IN (SELECT c.id FROM categories c \
                 WHERE c.name_fold LIKE ? ESCAPE '\\' OR c.name_fold LIKE ? ESCAPE '\\'))",
                [
                    Value::Text(anywhere.clone()),
                    Value::Text(anywhere.clone()),
                    Value::Text(anywhere),
                    Value::Text(starts.clone()),
                    Value::Text(format!("% {starts}")),
                ],
            );
        }
    }
    if let Some(sku) = &query.sku {
        filter.and("sku_fold = ?", [Value::Text(code::sku_fold(sku))]);
    }
    if let Some(barcode) = &query.barcode {
        filter.and("barcode = ?", [Value::Text(barcode.clone())]);
    }
    if !query.ids.is_empty() {
        filter.and_in(
            "id",
            query.ids.iter().map(|&id| Value::Integer(id)).collect(),
        );
    }
    let (order, key, then_id) = match query.sort {
        PetSort::IdAsc => ("id", Some(("id", false)), None),
        PetSort::IdDesc => ("id DESC", Some(("id", true)), None),
        PetSort::NameAsc => ("name_fold, id", None, Some(("name_fold", false, "pet"))),
        PetSort::NameDesc => (
            "name_fold DESC, id DESC",
            None,
            Some(("name_fold", true, "pet")),
        ),
    };
    let list = ListSql {
        columns: COLUMNS,
        from: "pets",
        order,
        key,
        then_id,
        tables: &TABLES,
    };
    let mut paged = sql::paged(conn, pages, &list, &filter, query.page, from_row)?;
    if paged.items.iter().any(|pet| pet.hold.is_some()) {
        paged.items = paged
            .items
            .into_iter()
            .map(|pet| current(conn, pet))
            .collect::<Result<_>>()?;
    }
    Ok(paged)
}

/// What a list of pets reads (a search looks at the categories' names too).
const TABLES: [&str; 2] = ["pets", "categories"];

/// The name under which an answer to `query` is remembered: every field of the query, a
/// text with its length first, so that no two queries share a name. Written by hand (with
/// `itoa` for the numbers): the derived `Debug` text it replaces cost a few percent of a
/// remembered read.
fn answer_key(query: &PetQuery) -> String {
    let PetQuery {
        statuses,
        category_id,
        q,
        ids,
        sku,
        barcode,
        sort,
        page,
    } = query;
    let mut key = String::with_capacity(64);
    let mut number = itoa::Buffer::new();
    key.push_str("pets s");
    for status in statuses {
        key.push(' ');
        key.push_str(status.as_str());
    }
    key.push_str(" c");
    if let Some(id) = category_id {
        key.push_str(number.format(*id));
    }
    for text in [q, sku, barcode] {
        key.push_str(" t");
        if let Some(text) = text {
            key.push_str(number.format(text.len()));
            key.push(':');
            key.push_str(text);
        }
    }
    key.push_str(" i");
    for id in ids {
        key.push(' ');
        key.push_str(number.format(*id));
    }
    key.push_str(match sort {
        PetSort::IdAsc => " o0",
        PetSort::IdDesc => " o1",
        PetSort::NameAsc => " o2",
        PetSort::NameDesc => " o3",
    });
    key.push_str(" l");
    key.push_str(number.format(page.limit));
    key.push_str(" f");
    key.push_str(number.format(page.offset));
    key.push_str(" a");
    if let Some(after) = page.after {
        key.push_str(number.format(after));
    }
    key
}

/// Reads a list of pets, remembering the answer while nothing it read changes.
fn list_remembering(conn: &Connection, pages: &Pages, query: &PetQuery) -> Result<Paged<Pet>> {
    let tables = Tables::of(&TABLES);
    let before = pages.version(tables);
    let list = list(conn, pages, query)?;
    if let Some(version) = before.filter(|v| pages.version(tables) == Some(*v)) {
        let kept = RememberedPage {
            list: list.clone(),
            rendered: OnceLock::new(),
        };
        pages.keep_answer(answer_key(query), version, list.items.len(), Arc::new(kept));
    }
    Ok(list)
}

/// A page of pets remembered from an earlier read, shared by the requests it answers, with
/// room for the caller's rendering of it (made once, by the first caller that needs it).
pub struct RememberedPage {
    pub list: Paged<Pet>,
    pub rendered: OnceLock<bytes::Bytes>,
}

/// Creates a pet and its stock record at 0.
pub(super) fn create(tx: &mut Tx<'_>, mut new: NewPet) -> Result<Pet> {
    new.hold = live_hold(tx, new.hold.take())?;
    categories::require_for_pet(tx, new.category_id)?;
    if let Some(supplier_id) = new.supplier_id {
        suppliers::require_for_pet(tx, supplier_id)?;
    }
    codes_free(tx, None, new.sku.as_deref(), new.barcode.as_deref())?;
    animal_fits(tx, None, &new)?;
    let inserted = tx
        .prepare_cached(
            "INSERT INTO pets (name, name_fold, category_id, status, sku, sku_fold, barcode, price,
                 tax_rate, supplier_id, cost, reorder_quantity)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        )?
        .insert(params![
            new.name,
            text::fold(&new.name),
            new.category_id,
            new.status.map(PetStatus::as_str),
            new.sku,
            new.sku.as_deref().map(code::sku_fold),
            new.barcode,
            new.price,
            new.tax_rate,
            new.supplier_id,
            new.cost,
            new.reorder_quantity
        ]);
    let id = on_unique(inserted, || codes_clash(&new.sku, &new.barcode))?;
    if new.animal.is_some() || new.hold.is_some() {
        write_animal(tx, id, &new.animal, &new.hold)?;
    }
    tx.prepare_cached("INSERT INTO inventory (pet_id, quantity) VALUES (?1, 0)")?
        .execute([id])?;
    let pet = stored(id, new);
    tx.emit("pet.created", &pet)?;
    Ok(pet)
}

/// The pet `new` once stored under `id`.
fn stored(id: i64, new: NewPet) -> Pet {
    Pet {
        id,
        name: new.name,
        category_id: new.category_id,
        status: new.status,
        sku: new.sku,
        barcode: new.barcode,
        price: new.price,
        tax_rate: new.tax_rate,
        supplier_id: new.supplier_id,
        cost: new.cost,
        reorder_quantity: new.reorder_quantity,
        animal: new.animal,
        hold: new.hold,
    }
}

/// Replaces a pet's fields (`PUT`): a missing status clears it.
pub(super) fn replace(tx: &mut Tx<'_>, id: i64, new: NewPet, pre: &Precondition) -> Result<Pet> {
    let current = require(tx, id)?;
    pre.check(&current)?;
    write(tx, current, new)
}

/// Applies a merge patch to a pet.
fn patch(tx: &mut Tx<'_>, id: i64, patch: PetPatch, pre: &Precondition) -> Result<Pet> {
    let current = require(tx, id)?;
    pre.check(&current)?;
    let new = patch.apply(&current);
    write(tx, current, new)
}

fn write(tx: &mut Tx<'_>, current: Pet, mut new: NewPet) -> Result<Pet> {
    // A hold that ended before today is no hold: kept neither in the answer nor the store.
    new.hold = live_hold(tx, new.hold.take())?;
    if new.category_id != current.category_id {
        categories::require_for_pet(tx, new.category_id)?;
    }
    if let Some(supplier_id) = new
        .supplier_id
        .filter(|&id| Some(id) != current.supplier_id)
    {
        suppliers::require_for_pet(tx, supplier_id)?;
    }
    codes_free(
        tx,
        Some(current.id),
        new.sku.as_deref(),
        new.barcode.as_deref(),
    )?;
    animal_fits(tx, Some(current.id), &new)?;
    let pet = stored(current.id, new);
    if pet != current {
        let updated = tx
            .prepare_cached(
                "UPDATE pets SET name = ?2, name_fold = ?3, category_id = ?4, status = ?5,
                 sku = ?6, sku_fold = ?7, barcode = ?8, price = ?9, tax_rate = ?10,
                 supplier_id = ?11, cost = ?12, reorder_quantity = ?13 WHERE id = ?1",
            )?
            .execute(params![
                pet.id,
                pet.name,
                text::fold(&pet.name),
                pet.category_id,
                pet.status.map(PetStatus::as_str),
                pet.sku,
                pet.sku.as_deref().map(code::sku_fold),
                pet.barcode,
                pet.price,
                pet.tax_rate,
                pet.supplier_id,
                pet.cost,
                pet.reorder_quantity
            ]);
        on_unique(updated, || codes_clash(&pet.sku, &pet.barcode))?;
        write_animal(tx, pet.id, &pet.animal, &pet.hold)?;
        tx.emit("pet.updated", &pet)?;
    }
    Ok(pet)
}

/// The pet (other than `except`) that has this SKU (case-insensitively), if any.
pub(super) fn with_sku(conn: &Connection, sku: &str, except: Option<i64>) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT id FROM pets WHERE sku_fold = ?1 AND id IS DISTINCT FROM ?2")?
        .query_row(params![code::sku_fold(sku), except], |row| row.get(0))
        .optional()?)
}

/// The pet (other than `except`) that has this barcode, if any.
pub(super) fn with_barcode(
    conn: &Connection,
    barcode: &str,
    except: Option<i64>,
) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached("SELECT id FROM pets WHERE barcode = ?1 AND id IS DISTINCT FROM ?2")?
        .query_row(params![barcode, except], |row| row.get(0))
        .optional()?)
}

/// `duplicate_code` when another pet already has this SKU or barcode.
fn codes_free(
    conn: &Connection,
    except: Option<i64>,
    sku: Option<&str>,
    barcode: Option<&str>,
) -> Result<()> {
    if let Some(sku) = sku {
        if let Some(pet_id) = with_sku(conn, sku, except)? {
            return Err(DomainError::DuplicateCode {
                field: "sku",
                value: sku.to_owned(),
                pet_id: Some(pet_id),
            }
            .into());
        }
    }
    if let Some(barcode) = barcode {
        if let Some(pet_id) = with_barcode(conn, barcode, except)? {
            return Err(DomainError::DuplicateCode {
                field: "barcode",
                value: barcode.to_owned(),
                pet_id: Some(pet_id),
            }
            .into());
        }
    }
    Ok(())
}

/// The error of a write that met another pet's code at the same moment (the unique indexes
/// are the last word; [`codes_free`] names the pet first in every other case).
fn codes_clash(sku: &Option<String>, barcode: &Option<String>) -> DomainError {
    let (field, value) = match (sku, barcode) {
        (Some(sku), _) => ("sku", sku.clone()),
        (None, Some(barcode)) => ("barcode", barcode.clone()),
        (None, None) => ("sku", String::new()),
    };
    DomainError::DuplicateCode {
        field,
        value,
        pet_id: None,
    }
}

/// Checks a pet's animal record against the store: its dates not after the store's today, its
/// microchip on no other pet (`duplicate_code`), and, being one individual, its stock 0 or 1.
fn animal_fits(tx: &Tx<'_>, id: Option<i64>, new: &NewPet) -> Result<()> {
    let Some(record) = &new.animal else {
        return Ok(());
    };
    record.check_dates(report::today(profile::get(tx)?.tz()))?;
    if let Some(chip) = &record.microchip {
        if let Some(pet_id) = with_microchip(tx, chip, id)? {
            return Err(DomainError::DuplicateCode {
                field: "animal.microchip",
                value: chip.clone(),
                pet_id: Some(pet_id),
            }
            .into());
        }
    }
    if let Some(id) = id {
        let stock = inventory::require(tx, id)?.quantity;
        animal::check_individual_stock("animal", id, stock)?;
    }
    Ok(())
}

/// The pet (other than `except`) with this microchip, if any.
fn with_microchip(conn: &Connection, chip: &str, except: Option<i64>) -> Result<Option<i64>> {
    Ok(conn
        .prepare_cached(
            "SELECT id FROM pets WHERE animal_microchip = ?1 AND id IS DISTINCT FROM ?2",
        )?
        .query_row(params![chip, except], |row| row.get(0))
        .optional()?)
}

/// Writes a pet's animal and hold columns.
fn write_animal(tx: &Tx<'_>, id: i64, record: &Option<Animal>, hold: &Option<Hold>) -> Result<()> {
    let a = record.as_ref();
    let written = tx
        .prepare_cached(
            "UPDATE pets SET animal_sex = ?2, animal_born_on = ?3, animal_breed = ?4,
                 animal_colour = ?5, animal_microchip = ?6, animal_source = ?7,
                 animal_arrived_on = ?8, hold_until = ?9, hold_reason = ?10
             WHERE id = ?1",
        )?
        .execute(params![
            id,
            a.map(|a| a.sex.as_str()),
            a.and_then(|a| a.born_on.clone()),
            a.and_then(|a| a.breed.clone()),
            a.and_then(|a| a.colour.clone()),
            a.and_then(|a| a.microchip.clone()),
            a.and_then(|a| a.source.clone()),
            a.and_then(|a| a.arrived_on.clone()),
            hold.as_ref().map(|h| h.until.clone()),
            hold.as_ref().map(|h| h.reason.clone())
        ]);
    on_unique(written, || DomainError::DuplicateCode {
        field: "animal.microchip",
        value: a.and_then(|a| a.microchip.clone()).unwrap_or_default(),
        pet_id: None,
    })?;
    Ok(())
}

/// `on_hold` while the pet's hold applies (until the end of its day, the store's time zone).
pub(super) fn check_not_held(conn: &Connection, pet: &Pet) -> Result<()> {
    if pet.hold.is_none() {
        return Ok(());
    }
    let today = report::today(profile::get(conn)?.tz());
    Ok(animal::check_not_held(pet.id, pet.hold.as_ref(), today)?)
}

/// Whether a pet is one individual animal (its stock is then 0 or 1).
pub(super) fn is_individual(conn: &Connection, id: i64) -> Result<bool> {
    Ok(conn
        .prepare_cached("SELECT animal_sex IS NOT NULL FROM pets WHERE id = ?1")?
        .query_row([id], |row| row.get::<_, bool>(0))
        .optional()?
        .unwrap_or(false))
}

/// Sets a pet's status as a consequence of an order (rules 2–4), announcing the change.
pub(super) fn set_status(tx: &mut Tx<'_>, pet: &Pet, status: Option<PetStatus>) -> Result<()> {
    if pet.status == status {
        return Ok(());
    }
    tx.prepare_cached("UPDATE pets SET status = ?2 WHERE id = ?1")?
        .execute(params![pet.id, status.map(PetStatus::as_str)])?;
    let updated = Pet {
        status,
        ..pet.clone()
    };
    tx.emit("pet.updated", &updated)
}

/// Why a pet's record must be kept rather than deleted: it has care entries, or it is an
/// individual animal that was sold (a sale or a completed order names it, or it is `sold`).
fn record_to_keep(conn: &Connection, pet: &Pet) -> Result<Option<&'static str>> {
    if care::has_entries(conn, pet.id)? {
        return Ok(Some("has care entries"));
    }
    if pet.animal.is_none() {
        return Ok(None);
    }
    let sold: bool = conn
        .prepare_cached("SELECT EXISTS (SELECT 1 FROM orders WHERE pet_id = ?1 AND complete = 1)")?
        .query_row([pet.id], |row| row.get(0))?;
    Ok((sold || pet.status == Some(PetStatus::Sold)).then_some("is an animal that was sold"))
}

/// Deletes a pet and its stock record; refused while it has open orders.
fn delete(tx: &mut Tx<'_>, id: i64, pre: &Precondition) -> Result<()> {
    let current = require(tx, id)?;
    pre.check(&current)?;
    let open: i64 = tx
        .prepare_cached("SELECT COUNT(*) FROM orders WHERE pet_id = ?1 AND complete = 0")?
        .query_row([id], |row| row.get(0))?;
    if open > 0 {
        return Err(DomainError::PetHasOpenOrders(id).into());
    }
    if let Some(why) = record_to_keep(tx, &current)? {
        return Err(DomainError::Conflict(format!(
            "pet {id} {why}: its record is kept; mark it sold instead"
        ))
        .into());
    }
    tx.prepare_cached("DELETE FROM pets WHERE id = ?1")?
        .execute([id])?;
    tx.emit("pet.deleted", &serde_json::json!({ "id": id }))
}

/// The animals for sale: `store.pets()`.
pub struct Pets<'s>(pub(super) &'s Store);

impl<'s> Pets<'s> {
    /// One page of pets matching `query`.
    pub fn list(&self, query: PetQuery) -> Call<'s, Paged<Pet>> {
        let pages = self.0.pages();
        Call::read(self.0, move |c| list_remembering(c, &pages, &query))
    }

    /// The same page as [`Pets::list`] would read, when it is remembered from an earlier
    /// read and nothing it depends on has changed since: answered without a reader.
    pub fn remembered(&self, query: &PetQuery) -> Option<Arc<RememberedPage>> {
        let pages = &self.0.inner.pages;
        let version = pages.version(Tables::of(&TABLES))?;
        let hit: Arc<RememberedPage> = pages.answer(&answer_key(query), version)?;
        // A hold on the page may have ended since it was read (days change without a write):
        // read it again, so the store's today decides whether the hold is still shown. (The
        // clock is read only for a page with a hold on it: most have none.)
        let stale = hit.list.items.iter().any(|pet| {
            pet.hold
                .as_ref()
                .is_some_and(|hold| animal::may_have_ended(hold, chrono::Utc::now()))
        });
        (!stale).then_some(hit)
    }

    /// The pet, or `not_found`.
    pub fn get(&self, id: i64) -> Call<'s, Pet> {
        Call::read(self.0, move |c| require(c, id))
    }

    /// The pets among `ids` that exist, each once; ids that name no pet are left out.
    pub fn among(&self, mut ids: Vec<i64>) -> Call<'s, Vec<Pet>> {
        ids.sort_unstable();
        ids.dedup();
        Call::read(self.0, move |c| {
            ids.iter()
                .filter_map(|&id| get(c, id).transpose())
                .collect()
        })
    }

    /// Creates a pet, with its stock at 0.
    pub fn create(&self, new: NewPet) -> Call<'s, Pet> {
        Call::write(self.0, move |tx| create(tx, new))
    }

    /// Replaces a pet's fields: a missing status clears it.
    pub fn replace(&self, id: i64, new: NewPet, pre: Precondition) -> Call<'s, Pet> {
        Call::write(self.0, move |tx| replace(tx, id, new, &pre))
    }

    /// Applies a merge patch to a pet.
    pub fn patch(&self, id: i64, patch: PetPatch, pre: Precondition) -> Call<'s, Pet> {
        Call::write(self.0, move |tx| self::patch(tx, id, patch, &pre))
    }

    /// Deletes a pet and its stock; refused while it has open orders.
    pub fn delete(&self, id: i64, pre: Precondition) -> Call<'s, ()> {
        Call::write(self.0, move |tx| delete(tx, id, &pre))
    }
}

#[cfg(test)]
mod tests {
    use super::answer_key;
    use crate::domain::pet::PetStatus;
    use crate::domain::query::{Page, PetQuery, PetSort};

    #[test]
    fn queries_that_differ_in_any_field_are_remembered_under_different_names() {
        let base = PetQuery::default();
        let variants = [
            PetQuery {
                statuses: vec![PetStatus::Available],
                ..base.clone()
            },
            PetQuery {
                category_id: Some(1),
                ..base.clone()
            },
            PetQuery {
                q: Some("a t1:b".into()),
                ..base.clone()
            },
            PetQuery {
                q: Some("a".into()),
                sku: Some("b".into()),
                ..base.clone()
            },
            PetQuery {
                q: Some(String::new()),
                ..base.clone()
            },
            PetQuery {
                ids: vec![1, 2],
                ..base.clone()
            },
            PetQuery {
                ids: vec![12],
                ..base.clone()
            },
            PetQuery {
                barcode: Some("1".into()),
                ..base.clone()
            },
            PetQuery {
                sort: PetSort::NameDesc,
                ..base.clone()
            },
            PetQuery {
                page: Page {
                    after: Some(3),
                    ..Page::default()
                },
                ..base.clone()
            },
            PetQuery {
                page: Page {
                    offset: 3,
                    ..Page::default()
                },
                ..base.clone()
            },
            base.clone(),
        ];
        let keys: std::collections::HashSet<String> = variants.iter().map(answer_key).collect();
        assert_eq!(keys.len(), variants.len(), "{keys:?}");
        assert_eq!(answer_key(&base), answer_key(&PetQuery::default()));
    }
}
