//! The animals report: every individual animal sold in a range of local days, read from
//! the sales (each line is an order naming its sale) joined to the animal's record.

use chrono_tz::Tz;
use rusqlite::params;

use super::db::{Connection, DbResult};
use super::{profile, Call, Result, Store};
use crate::domain::animal::{Animal, Sex};
use crate::domain::animal_report::{Buyer, SoldAnimal};
use crate::domain::report::{self, Range};

/// The animals sold in `range` (local days of the store's time zone), oldest sale first.
fn sold(conn: &Connection, range: Range, tz: Tz) -> Result<Vec<SoldAnimal>> {
    let (start, end) = range.utc_bounds(tz);
    let rows = conn
        .prepare_cached(
            "SELECT p.id, p.name, p.animal_sex, p.animal_born_on, p.animal_breed,
                 p.animal_colour, p.animal_microchip, p.animal_source, p.animal_arrived_on,
                 s.sold_at, s.id, s.number, s.customer_name, s.customer_phone, s.customer_email
             FROM sales s
             JOIN orders o ON o.sale_id = s.id
             JOIN pets p ON p.id = o.pet_id
             WHERE s.sold_at >= ?1 AND s.sold_at < ?2 AND p.animal_sex IS NOT NULL
             ORDER BY s.sold_at, s.id, p.id",
        )?
        .query_map(params![start, end], |row| {
            let sex: String = row.get(2)?;
            Ok(SoldAnimal {
                pet_id: row.get(0)?,
                name: row.get(1)?,
                animal: Animal {
                    sex: Sex::parse(&sex).unwrap_or(Sex::Unknown),
                    born_on: row.get(3)?,
                    breed: row.get(4)?,
                    colour: row.get(5)?,
                    microchip: row.get(6)?,
                    source: row.get(7)?,
                    arrived_on: row.get(8)?,
                },
                sold_at: row.get(9)?,
                sale_id: row.get(10)?,
                number: row.get(11)?,
                buyer: Buyer {
                    name: row.get(12)?,
                    phone: row.get(13)?,
                    email: row.get(14)?,
                },
            })
        })?
        .collect::<DbResult<Vec<_>>>()?;
    Ok(rows)
}

/// The animals report: `store.animal_report()`.
pub struct AnimalReport<'s>(pub(super) &'s Store);

impl<'s> AnimalReport<'s> {
    /// The animals sold from `from` to `to` (local days; the report's default range when
    /// absent). A bad range is `Err` with its message, before any read.
    pub fn sold(
        &self,
        from: Option<chrono::NaiveDate>,
        to: Option<chrono::NaiveDate>,
    ) -> Call<'s, std::result::Result<(Range, Vec<SoldAnimal>), String>> {
        Call::read(self.0, move |c| {
            let tz = profile::get(c)?.tz();
            match Range::new(from, to, report::today(tz)) {
                Ok(range) => Ok(Ok((range, sold(c, range, tz)?))),
                Err(message) => Ok(Err(message)),
            }
        })
    }
}
