//! CSV import of pets: reading the file into checked rows, each error named by its line and
//! field. Matching rows to pets and applying them is the store's job
//! ([`crate::store::import`]); nothing here touches storage.
//!
//! The columns are those of the pets export, in any order; only `name` and `category` are
//! required. An empty cell means "none" (for `quantity`: "leave the stock as it is", or 0
//! for a new pet); a column the file does not have leaves that field of an existing pet as it
//! is.
//!
//! Money (`price`) is read in minor units, or with [`MoneyFormat::Decimal`] in the currency's
//! major unit (`27.50`). A text cell that an export guarded against spreadsheet formulas
//! (`'=…`) is read without its guard, so an export imports back as it was.

use serde::Serialize;

use super::cell;
use super::inventory::STOCK_MAX;
use super::money::{self, DecimalError, MoneyFormat};
use super::pet::PetStatus;
use super::{code, text};

/// Largest CSV body accepted, in bytes (5 MiB).
pub const BODY_MAX: usize = crate::contract::IMPORT_BYTES.max_usize();
/// Most errors listed in one answer; past it the list ends with a note.
pub const ERRORS_MAX: usize = 1000;

/// The columns of the pets export and import, in the export's order. The last four are
/// interface 1.2's; a file without them imports as before.
pub const COLUMNS: [&str; WIDTH] = [
    "id",
    "sku",
    "barcode",
    "name",
    "category",
    "status",
    "price",
    "quantity",
    "reorderPoint",
    "supplier",
    "cost",
    "reorderQuantity",
    "taxRate",
];

/// How many columns a pets file may have.
pub const WIDTH: usize = 13;

/// One problem of an import, by CSV line (the header is line 1) and field.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineError {
    pub line: u64,
    pub field: String,
    pub message: String,
}

impl LineError {
    pub fn new(line: u64, field: &str, message: impl Into<String>) -> Self {
        Self {
            line,
            field: field.to_owned(),
            message: message.into(),
        }
    }
}

/// A row of the file, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    pub line: u64,
    pub id: Option<i64>,
    pub sku: Option<String>,
    pub barcode: Option<String>,
    pub name: String,
    pub category: String,
    pub status: Option<PetStatus>,
    pub price: Option<i64>,
    /// `None`: leave an existing pet's stock as it is (a new pet starts at 0).
    pub quantity: Option<i64>,
    pub reorder_point: Option<i64>,
    /// The supplier's name (the store's supplier of that name, made when there is none).
    pub supplier: Option<String>,
    pub cost: Option<i64>,
    pub reorder_quantity: Option<i64>,
    pub tax_rate: Option<i64>,
    /// Which of [`COLUMNS`] the file has, by index.
    pub has: [bool; WIDTH],
}

impl Row {
    /// Whether the file has the column `name` (one of [`COLUMNS`]).
    pub fn has(&self, name: &str) -> bool {
        COLUMNS
            .iter()
            .position(|c| *c == name)
            .is_some_and(|i| self.has[i])
    }
}

/// The outcome of an import (or of its dry run).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub created: u64,
    pub updated: u64,
    pub unchanged: u64,
    pub errors: Vec<LineError>,
}

/// How the money cells of a file are written: the format, and the currency's decimal places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Money {
    pub format: MoneyFormat,
    pub decimals: u32,
}

impl Money {
    /// Minor units (cents), as in interface 1.1.
    pub const MINOR: Money = Money {
        format: MoneyFormat::Minor,
        decimals: 2,
    };
}

/// Reads a CSV file into rows. Any error anywhere means the import must not run; every
/// error found is listed (up to [`ERRORS_MAX`]).
pub fn parse(bytes: &[u8], money: Money) -> (Vec<Row>, Vec<LineError>) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let mut errors = Vec::new();
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(bytes);
    let mut records = reader.byte_records();
    let columns = match records.next() {
        None => return (Vec::new(), errors),
        Some(Err(err)) => {
            errors.push(csv_error(&err, 1));
            return (Vec::new(), errors);
        }
        Some(Ok(header)) => match columns(&header) {
            Ok(columns) => columns,
            Err(mut errs) => {
                errors.append(&mut errs);
                return (Vec::new(), errors);
            }
        },
    };
    let mut has = [false; WIDTH];
    for &i in &columns {
        has[i] = true;
    }
    let mut rows = Vec::new();
    let mut lines = LineCounter::new(bytes);
    for record in records {
        if errors.len() >= ERRORS_MAX {
            break;
        }
        let record = match record {
            Ok(record) => record,
            Err(err) => {
                let line = err.position().map_or(0, |p| lines.at(p.byte()));
                errors.push(csv_error(&err, line));
                continue;
            }
        };
        let line = record.position().map_or(0, |p| lines.at(p.byte()));
        if record.iter().all(<[u8]>::is_empty) {
            continue;
        }
        if record.len() != columns.len() {
            errors.push(LineError::new(
                line,
                "",
                format!(
                    "has {} cells; the header has {}",
                    record.len(),
                    columns.len()
                ),
            ));
            continue;
        }
        let mut cells: [Option<&str>; WIDTH] = [None; WIDTH];
        let mut bad_text = false;
        for (i, raw) in record.iter().enumerate() {
            match std::str::from_utf8(raw) {
                Ok(text) => cells[columns[i]] = Some(text),
                Err(_) => {
                    errors.push(LineError::new(
                        line,
                        COLUMNS[columns[i]],
                        "is not UTF-8 text",
                    ));
                    bad_text = true;
                }
            }
        }
        if bad_text {
            continue;
        }
        match row(line, &cells, &has, money) {
            Ok(row) => rows.push(row),
            Err(mut errs) => errors.append(&mut errs),
        }
    }
    errors.truncate(ERRORS_MAX);
    (rows, errors)
}

/// The line number (from 1) of byte offsets, asked in increasing order. The CSV reader's
/// own line count is off after CRLF and blank lines, so lines are counted from the bytes.
struct LineCounter<'b> {
    bytes: &'b [u8],
    offset: usize,
    line: u64,
}

impl<'b> LineCounter<'b> {
    fn new(bytes: &'b [u8]) -> Self {
        Self {
            bytes,
            offset: 0,
            line: 1,
        }
    }

    fn at(&mut self, offset: u64) -> u64 {
        let mut offset = usize::try_from(offset)
            .unwrap_or(usize::MAX)
            .min(self.bytes.len());
        // The reader places a record after CRLF or a blank line at the line end before it.
        while offset < self.bytes.len() && matches!(self.bytes[offset], b'\r' | b'\n') {
            offset += 1;
        }
        if offset > self.offset {
            let newlines = self.bytes[self.offset..offset]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            self.line += newlines as u64;
            self.offset = offset;
        }
        self.line
    }
}

fn csv_error(err: &csv::Error, line: u64) -> LineError {
    let message = match err.kind() {
        csv::ErrorKind::Utf8 { .. } => "is not UTF-8 text".to_owned(),
        _ => format!("cannot be read as CSV: {err}"),
    };
    LineError::new(line, "", message)
}

/// Which known column each header cell is: errors for unknown, repeated and missing ones.
fn columns(header: &csv::ByteRecord) -> Result<Vec<usize>, Vec<LineError>> {
    let mut errors = Vec::new();
    let mut seen = Vec::new();
    for raw in header.iter() {
        let name = String::from_utf8_lossy(raw);
        match COLUMNS.iter().position(|c| c.eq_ignore_ascii_case(&name)) {
            Some(i) if seen.contains(&i) => {
                errors.push(LineError::new(1, COLUMNS[i], "is a repeated column"));
            }
            Some(i) => seen.push(i),
            None => errors.push(LineError::new(
                1,
                &name,
                format!("is not a column; the columns are {}", COLUMNS.join(",")),
            )),
        }
    }
    for required in [3, 4] {
        if !seen.contains(&required) {
            errors.push(LineError::new(1, COLUMNS[required], "is a required column"));
        }
    }
    if errors.is_empty() {
        Ok(seen)
    } else {
        Err(errors)
    }
}

/// Longest part of a bad cell repeated in its error, in characters.
pub const SHOWN_MAX: usize = 40;

/// A bad cell as its error repeats it: quoted and escaped, cut after [`SHOWN_MAX`]
/// characters, so a huge cell cannot make a huge answer.
pub fn shown(raw: &str) -> String {
    match raw.char_indices().nth(SHOWN_MAX) {
        None => format!("{raw:?}"),
        Some((at, _)) => {
            let rest = raw[at..].chars().count();
            format!("{:?}… ({rest} more characters)", &raw[..at])
        }
    }
}

fn whole(line: u64, field: &str, raw: &str, min: i64, max: i64) -> Result<i64, LineError> {
    raw.parse::<i64>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| {
            LineError::new(
                line,
                field,
                format!(
                    "must be a whole number from {min} to {max}, not {}",
                    shown(raw)
                ),
            )
        })
}

/// A money cell (`price`, `cost`): minor units, or the major unit with the currency's
/// decimals.
fn money_cell(line: u64, field: &str, raw: &str, money: Money) -> Result<i64, LineError> {
    if money.format == MoneyFormat::Minor {
        return whole(line, field, raw, 0, code::PRICE_MAX).map_err(|mut err| {
            err.message.push_str(" (minor units: cents; 6.00 is 600)");
            err
        });
    }
    let max = money::to_decimal(code::PRICE_MAX, money.decimals);
    let places = match money.decimals {
        0 => "no decimal places".to_owned(),
        1 => "at most 1 decimal place".to_owned(),
        n => format!("at most {n} decimal places"),
    };
    let example = money::to_decimal(2750, money.decimals);
    match money::from_decimal(raw, money.decimals) {
        Ok(minor) if minor <= code::PRICE_MAX => Ok(minor),
        Err(DecimalError::TooManyDecimals) => Err(LineError::new(
            line,
            field,
            format!(
                "has too many decimal places: the currency has {places}, not {}",
                shown(raw)
            ),
        )),
        _ => Err(LineError::new(
            line,
            field,
            format!(
                "must be a price such as {example}, from 0 to {max} with {places}, not {}",
                shown(raw)
            ),
        )),
    }
}

/// The value, or `None` with the error kept.
fn keep<T>(errors: &mut Vec<LineError>, result: Result<T, LineError>) -> Option<T> {
    match result {
        Ok(value) => Some(value),
        Err(err) => {
            errors.push(err);
            None
        }
    }
}

/// One data row's cells (by column index) checked into a [`Row`].
fn row(
    line: u64,
    cells: &[Option<&str>; WIDTH],
    has: &[bool; WIDTH],
    money: Money,
) -> Result<Row, Vec<LineError>> {
    let mut errors = Vec::new();
    // Text cells (sku, name, category, supplier) lose the guard an export put before a
    // formula.
    let cells: [Option<&str>; WIDTH] = std::array::from_fn(|i| match i {
        1 | 3 | 4 | 9 => cells[i].map(cell::unguard),
        _ => cells[i],
    });
    let cell = |i: usize| cells[i].filter(|c| !c.is_empty());
    let domain = |line: u64, err: super::DomainError| match err {
        super::DomainError::Validation { field, message } => LineError {
            line,
            field,
            message,
        },
        other => LineError::new(line, "", other.to_string()),
    };
    let id = cell(0).map(|raw| keep(&mut errors, whole(line, "id", raw, 1, i64::MAX)));
    let sku = cell(1).map(|raw| {
        keep(
            &mut errors,
            code::sku("sku", raw).map_err(|e| domain(line, e)),
        )
    });
    let barcode = cell(2).map(|raw| {
        keep(
            &mut errors,
            code::barcode("barcode", raw).map_err(|e| domain(line, e)),
        )
    });
    let name = keep(
        &mut errors,
        text::name("name", cells[3].unwrap_or_default()).map_err(|e| domain(line, e)),
    );
    let category = keep(
        &mut errors,
        text::name("category", cells[4].unwrap_or_default()).map_err(|e| domain(line, e)),
    );
    let status = cell(5).map(|raw| {
        keep(
            &mut errors,
            PetStatus::parse(raw).ok_or_else(|| {
                LineError::new(
                    line,
                    "status",
                    "must be one of available, pending, sold, or empty",
                )
            }),
        )
    });
    let price = cell(6).map(|raw| keep(&mut errors, money_cell(line, "price", raw, money)));
    let quantity = cell(7).map(|raw| keep(&mut errors, whole(line, "quantity", raw, 0, STOCK_MAX)));
    let reorder_point =
        cell(8).map(|raw| keep(&mut errors, whole(line, "reorderPoint", raw, 0, STOCK_MAX)));
    let supplier = cell(9).map(|raw| {
        keep(
            &mut errors,
            text::name("supplier", raw).map_err(|e| domain(line, e)),
        )
    });
    let cost = cell(10).map(|raw| keep(&mut errors, money_cell(line, "cost", raw, money)));
    let reorder = crate::contract::REORDER_QUANTITY;
    let reorder_quantity = cell(11).map(|raw| {
        keep(
            &mut errors,
            whole(line, "reorderQuantity", raw, reorder.min, reorder.max),
        )
    });
    let rate = crate::contract::TAX_RATE;
    let tax_rate =
        cell(12).map(|raw| keep(&mut errors, whole(line, "taxRate", raw, rate.min, rate.max)));
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Row {
        line,
        id: id.flatten(),
        sku: sku.flatten(),
        barcode: barcode.flatten(),
        name: name.unwrap_or_default(),
        category: category.unwrap_or_default(),
        status: status.flatten(),
        price: price.flatten(),
        quantity: quantity.flatten(),
        reorder_point: reorder_point.flatten(),
        supplier: supplier.flatten(),
        cost: cost.flatten(),
        reorder_quantity: reorder_quantity.flatten(),
        tax_rate: tax_rate.flatten(),
        has: *has,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_come_in_any_order_and_only_name_and_category_are_required() {
        let csv = "category,name,quantity\r\nFish,\"Goldfish, fancy\",12\r\n";
        let (rows, errors) = parse(csv.as_bytes(), Money::MINOR);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].name, "Goldfish, fancy");
        assert_eq!(rows[0].category, "Fish");
        assert_eq!(rows[0].quantity, Some(12));
        assert_eq!(rows[0].line, 2);
    }

    #[test]
    fn a_missing_required_column_or_an_unknown_one_is_an_error_of_line_one() {
        let (_, errors) = parse(b"name,colour\nRex,brown\n", Money::MINOR);
        let fields: Vec<_> = errors.iter().map(|e| (e.line, e.field.as_str())).collect();
        assert_eq!(fields, vec![(1, "colour"), (1, "category")]);
    }

    #[test]
    fn each_bad_cell_is_named_by_line_and_field() {
        let csv = "name,category,barcode,price,quantity\nRex,Dogs,4006381333932,-5,x\n\"Two\nlines\",Cats,,,\nTom,,,,\n";
        let (rows, errors) = parse(csv.as_bytes(), Money::MINOR);
        assert!(rows.is_empty() || rows.len() == 1);
        let found: Vec<_> = errors.iter().map(|e| (e.line, e.field.as_str())).collect();
        assert_eq!(
            found,
            vec![
                (2, "barcode"),
                (2, "price"),
                (2, "quantity"),
                (3, "name"),
                (5, "category")
            ]
        );
    }

    #[test]
    fn the_stockroom_columns_are_read_with_money_as_asked_and_bounds_checked() {
        let decimal = Money {
            format: MoneyFormat::Decimal,
            decimals: 2,
        };
        let csv = "name,category,supplier,cost,reorderQuantity,taxRate\n\
                   Rex,Dogs,'=Acme,1.20,24,2000\n\
                   Tom,Cats,,,,\n\
                   Bad,Cats,,1.234,0,10001\n";
        let (rows, errors) = parse(csv.as_bytes(), decimal);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].supplier.as_deref(), Some("=Acme"));
        assert_eq!(
            (rows[0].cost, rows[0].reorder_quantity, rows[0].tax_rate),
            (Some(120), Some(24), Some(2000))
        );
        assert!(rows[1].has("supplier") && rows[1].supplier.is_none());
        let fields: Vec<_> = errors.iter().map(|e| (e.line, e.field.as_str())).collect();
        assert_eq!(
            fields,
            vec![(4, "cost"), (4, "reorderQuantity"), (4, "taxRate")]
        );
    }

    #[test]
    fn a_byte_order_mark_and_blank_lines_are_ignored() {
        let (rows, errors) = parse(b"\xEF\xBB\xBFname,category\n\nRex,Dogs\n", Money::MINOR);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(rows[0].line, 3);
    }
}
