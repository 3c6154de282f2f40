//! Shelf labels: what one label says (the pet's name, its price in the store's currency) and
//! which barcode it carries. A pet's `barcode` is drawn as the symbol its length names (EAN-8,
//! UPC-A, EAN-13, ITF-14); a pet without one gets Code 128 of its `sku`; a pet with neither
//! has no label (422). The bar patterns come from the `barcoders` crate; this module only
//! chooses the symbology and checks the bounds of one sheet. No drawing, no HTTP, no SQL.

use barcoders::sym::code128::Code128;
use barcoders::sym::ean13::EAN13;
use barcoders::sym::ean8::EAN8;
use barcoders::sym::tf::TF;

use super::money;
use super::pet::Pet;
use super::DomainError;
use crate::contract::{LABELS, LABEL_COPIES, LABEL_PETS};

/// The symbology a label's barcode is drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symbology {
    Ean13,
    UpcA,
    Ean8,
    Itf14,
    Code128,
}

impl Symbology {
    /// Its name as a reader reports it.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Ean13 => "EAN-13",
            Self::UpcA => "UPC-A",
            Self::Ean8 => "EAN-8",
            Self::Itf14 => "ITF-14",
            Self::Code128 => "Code 128",
        }
    }

    /// Quiet zone each side, in modules (what readers need to find the symbol's ends).
    pub const fn quiet_zone(self) -> usize {
        match self {
            Self::Ean13 | Self::UpcA => 11,
            Self::Ean8 => 7,
            Self::Itf14 | Self::Code128 => 10,
        }
    }
}

/// A barcode: its symbology, the text it encodes (printed under it) and its modules from
/// left to right, `true` for a dark one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub symbology: Symbology,
    pub text: String,
    pub modules: Vec<bool>,
}

/// One label as it is printed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    pub name: String,
    /// `27.50 USD`; `None` when the pet has no price.
    pub price: Option<String>,
    pub symbol: Symbol,
}

/// Which labels to print: the pets in the order asked and copies of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelRequest {
    pub ids: Vec<i64>,
    pub copies: usize,
}

impl LabelRequest {
    /// Checks the sheet's bounds: 1 to [`LABEL_PETS`] pets (an id listed twice prints twice),
    /// 1 to [`LABEL_COPIES`] copies, at most [`LABELS`] labels in all.
    pub fn new(ids: Vec<i64>, copies: i64) -> Result<Self, DomainError> {
        if ids.is_empty() || ids.len() > LABEL_PETS.max_usize() {
            return Err(DomainError::invalid(
                "ids",
                format!("must list 1 to {} pets", LABEL_PETS.max),
            ));
        }
        if !LABEL_COPIES.contains(copies) {
            return Err(DomainError::invalid(
                "copies",
                format!("must be from {} to {}", LABEL_COPIES.min, LABEL_COPIES.max),
            ));
        }
        let copies = copies as usize;
        if ids.len() * copies > LABELS.max_usize() {
            return Err(DomainError::invalid(
                "copies",
                format!(
                    "{} pets times {copies} copies is {} labels; at most {} fit one request",
                    ids.len(),
                    ids.len() * copies,
                    LABELS.max
                ),
            ));
        }
        Ok(Self { ids, copies })
    }
}

/// The barcode of a pet with this `barcode` and `sku`; `None` when it has neither.
pub fn symbol(barcode: Option<&str>, sku: Option<&str>) -> Option<Result<Symbol, String>> {
    let (symbology, text, modules) = match (barcode, sku) {
        (Some(gtin), _) => {
            let encoded = match gtin.len() {
                8 => EAN8::new(gtin).map(|s| (Symbology::Ean8, s.encode())),
                // UPC-A is EAN-13 with a leading 0: the same bars.
                12 => EAN13::new(format!("0{gtin}")).map(|s| (Symbology::UpcA, s.encode())),
                13 => EAN13::new(gtin).map(|s| (Symbology::Ean13, s.encode())),
                14 => TF::interleaved(gtin).map(|s| (Symbology::Itf14, s.encode())),
                _ => Err(barcoders::error::Error::Length),
            };
            match encoded {
                Ok((symbology, bars)) => (symbology, gtin, bars),
                Err(e) => return Some(Err(format!("barcode {gtin:?} cannot be drawn ({e})"))),
            }
        }
        // Code set B holds every character a SKU may have (`A-Z a-z 0-9 . _ -`).
        (None, Some(sku)) => match Code128::new(format!("\u{0181}{sku}")) {
            Ok(s) => (Symbology::Code128, sku, s.encode()),
            Err(e) => return Some(Err(format!("sku {sku:?} cannot be drawn ({e})"))),
        },
        (None, None) => return None,
    };
    Some(Ok(Symbol {
        symbology,
        text: text.to_owned(),
        modules: modules.into_iter().map(|m| m == 1).collect(),
    }))
}

/// `minor` in the currency's major unit, with its code: `27.50 USD`.
pub fn price_text(minor: i64, currency: &str) -> String {
    format!(
        "{} {currency}",
        money::to_decimal(minor, money::decimals(currency))
    )
}

/// The labels of `request`'s pets, in the order asked, one per pet (copies are the sheet's
/// business). `found` are the pets the store has among them; a missing one is
/// `unknown_pet`, one with neither a barcode nor a sku `validation_failed`.
pub fn labels(
    request: &LabelRequest,
    found: &[Pet],
    currency: &str,
) -> Result<Vec<Label>, DomainError> {
    request
        .ids
        .iter()
        .map(|&id| {
            let pet = found
                .iter()
                .find(|p| p.id == id)
                .ok_or(DomainError::UnknownPetIn { field: "ids", id })?;
            let symbol = symbol(pet.barcode.as_deref(), pet.sku.as_deref())
                .ok_or_else(|| {
                    DomainError::invalid(
                        "ids",
                        format!(
                            "pet {id} has neither a barcode nor a sku, so its label has no \
                             code to scan: give it one first"
                        ),
                    )
                })?
                .map_err(|why| DomainError::invalid("ids", format!("pet {id}: {why}")))?;
            Ok(Label {
                name: pet.name.clone(),
                price: pet.price.map(|p| price_text(p, currency)),
                symbol,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Modules as a string of 1s and 0s.
    fn bits(symbol: &Symbol) -> String {
        symbol
            .modules
            .iter()
            .map(|&m| if m { '1' } else { '0' })
            .collect()
    }

    fn drawn(barcode: Option<&str>, sku: Option<&str>) -> Symbol {
        symbol(barcode, sku).unwrap().unwrap()
    }

    #[test]
    fn an_ean_13_is_drawn_with_its_guards_and_the_first_digit_in_the_left_parities() {
        // 4006381333931: first digit 4 sets the left half's parities to L G L L G G.
        let s = drawn(Some("4006381333931"), Some("IGNORED"));
        assert_eq!(s.symbology, Symbology::Ean13);
        assert_eq!(s.text, "4006381333931");
        assert_eq!(
            bits(&s),
            concat!(
                "101", "0001101", // 0 L
                "0100111", // 0 G
                "0101111", // 6 L
                "0111101", // 3 L
                "0001001", // 8 G
                "0110011", // 1 G
                "01010", "1000010", // 3 R
                "1000010", // 3 R
                "1000010", // 3 R
                "1110100", // 9 R
                "1000010", // 3 R
                "1100110", // 1 R
                "101",
            )
        );
    }

    #[test]
    fn a_upc_a_is_the_ean_13_of_a_leading_zero() {
        let upc = drawn(Some("036000291452"), None);
        assert_eq!(upc.symbology, Symbology::UpcA);
        assert_eq!(upc.text, "036000291452");
        assert_eq!(upc.modules.len(), 95);
        // Leading 0: every left digit in L parity; 0 L is 0001101, 3 L is 0111101.
        assert_eq!(&bits(&upc)[..17], "10100011010111101");
    }

    #[test]
    fn an_ean_8_has_four_digits_a_side() {
        let s = drawn(Some("96385074"), None);
        assert_eq!(s.symbology, Symbology::Ean8);
        assert_eq!(
            bits(&s),
            concat!(
                "101", "0001011", // 9 L
                "0101111", // 6 L
                "0111101", // 3 L
                "0110111", // 8 L
                "01010", "1001110", // 5 R
                "1110010", // 0 R
                "1000100", // 7 R
                "1011100", // 4 R
                "101",
            )
        );
    }

    #[test]
    fn an_itf_14_interleaves_pairs_of_digits_between_its_start_and_stop() {
        let s = drawn(Some("10012345678902"), None);
        assert_eq!(s.symbology, Symbology::Itf14);
        let b = bits(&s);
        assert!(b.starts_with("1010"), "{b}");
        // Seven pairs of digits, each two wide and three narrow elements of each colour
        // (wide is three modules): 18 modules a pair.
        assert_eq!(b.len(), 4 + 7 * 18 + 4);
    }

    #[test]
    fn a_sku_is_code_128_in_code_set_b_with_its_check_character() {
        let s = drawn(None, Some("AB"));
        assert_eq!(s.symbology, Symbology::Code128);
        assert_eq!(s.text, "AB");
        assert_eq!(
            bits(&s),
            concat!(
                "11010010000",   // Start B (104)
                "10100011000",   // A (33)
                "10001011000",   // B (34)
                "11110101110",   // check (104 + 33 + 2 * 34) % 103 = 102
                "1100011101011", // stop
            )
        );
    }

    #[test]
    fn a_pet_with_neither_code_has_no_symbol() {
        assert!(symbol(None, None).is_none());
    }

    #[test]
    fn prices_are_written_in_the_currencys_major_unit() {
        assert_eq!(price_text(2750, "USD"), "27.50 USD");
        assert_eq!(price_text(500, "JPY"), "500 JPY");
        assert_eq!(price_text(1234, "KWD"), "1.234 KWD");
    }

    #[test]
    fn a_sheet_holds_two_hundred_pets_fifty_copies_and_a_thousand_labels_at_most() {
        assert!(LabelRequest::new(vec![1; 200], 5).is_ok());
        assert!(LabelRequest::new(vec![1; 201], 1).is_err());
        assert!(LabelRequest::new(vec![], 1).is_err());
        assert!(LabelRequest::new(vec![1; 20], 50).is_ok());
        assert!(LabelRequest::new(vec![1; 21], 50).is_err());
        assert!(LabelRequest::new(vec![1], 0).is_err());
        assert!(LabelRequest::new(vec![1], 51).is_err());
    }
}
