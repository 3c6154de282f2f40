//! What a till scans and charges: a pet's `sku`, its `barcode` (a GTIN whose check digit is
//! right) and its `price` in the minor unit of the store's currency. Pure checks, no storage.

use super::DomainError;

/// Longest SKU, in characters.
pub const SKU_MAX: usize = crate::contract::SKU.max_usize();
/// Highest price, in minor units (one million in major units).
pub const PRICE_MAX: i64 = crate::contract::PRICE.max;
/// The lengths a GTIN may have: GTIN-8, GTIN-12 (UPC-A), GTIN-13 (EAN-13), GTIN-14.
pub const GTIN_LENGTHS: [usize; 4] = [8, 12, 13, 14];

/// A SKU: 1 to [`SKU_MAX`] characters of `A–Z a–z 0–9 . _ -`, kept as written.
pub fn sku(field: &str, raw: &str) -> Result<String, DomainError> {
    let ok = (1..=SKU_MAX).contains(&raw.len())
        && raw
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'));
    if ok {
        Ok(raw.to_owned())
    } else {
        Err(DomainError::invalid(
            field,
            format!("must be 1 to {SKU_MAX} characters of A-Z, a-z, 0-9, '.', '_' and '-'"),
        ))
    }
}

/// The form of a SKU that uniqueness and look-ups compare.
pub fn sku_fold(sku: &str) -> String {
    sku.to_ascii_lowercase()
}

/// The GS1 check digit of `body` (the digits before the check digit): weights 3 and 1
/// alternate from the rightmost digit.
pub fn gtin_check_digit(body: &[u8]) -> u8 {
    let sum: u32 = body
        .iter()
        .rev()
        .enumerate()
        .map(|(i, d)| u32::from(d - b'0') * if i % 2 == 0 { 3 } else { 1 })
        .sum();
    ((10 - sum % 10) % 10) as u8
}

/// Whether `raw` is a GTIN of 8, 12, 13 or 14 digits with the right check digit.
pub fn is_gtin(raw: &str) -> bool {
    let bytes = raw.as_bytes();
    if !GTIN_LENGTHS.contains(&bytes.len()) || !bytes.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let (body, check) = bytes.split_at(bytes.len() - 1);
    gtin_check_digit(body) == check[0] - b'0'
}

/// A barcode: a GTIN of 8, 12, 13 or 14 digits whose check digit is right.
pub fn barcode(field: &str, raw: &str) -> Result<String, DomainError> {
    let bytes = raw.as_bytes();
    if !GTIN_LENGTHS.contains(&bytes.len()) || !bytes.iter().all(u8::is_ascii_digit) {
        return Err(DomainError::invalid(
            field,
            "must be a GTIN of 8, 12, 13 or 14 digits",
        ));
    }
    if !is_gtin(raw) {
        let (body, _) = bytes.split_at(bytes.len() - 1);
        return Err(DomainError::invalid(
            field,
            format!(
                "has a wrong check digit (a GTIN starting {} ends in {})",
                &raw[..raw.len() - 1],
                gtin_check_digit(body)
            ),
        ));
    }
    Ok(raw.to_owned())
}

/// A price: an integer from 0 to [`PRICE_MAX`] minor units.
pub fn price(field: &str, value: i64) -> Result<i64, DomainError> {
    if (0..=PRICE_MAX).contains(&value) {
        Ok(value)
    } else {
        Err(DomainError::invalid(
            field,
            format!("must be an integer from 0 to {PRICE_MAX} (minor units, e.g. cents)"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_gtins_of_every_length_pass() {
        for code in [
            "96385074",       // GTIN-8
            "036000291452",   // UPC-A
            "4006381333931",  // EAN-13
            "10012345678902", // GTIN-14
        ] {
            assert!(is_gtin(code), "{code}");
            assert_eq!(barcode("barcode", code).unwrap(), code);
        }
    }

    #[test]
    fn a_wrong_check_digit_is_refused_naming_the_right_one() {
        let err = barcode("barcode", "4006381333932").unwrap_err();
        assert_eq!(err.code(), crate::contract::Code::ValidationFailed);
        assert!(err.to_string().contains("ends in 1"), "{err}");
        for code in ["96385075", "036000291453", "10012345678903"] {
            assert!(!is_gtin(code), "{code}");
        }
    }

    #[test]
    fn other_lengths_and_non_digits_are_not_gtins() {
        for code in [
            "",
            "1234567",
            "123456789",
            "12345678901",
            "123456789012345",
            "4006381333 31",
            "400638133393a",
        ] {
            assert!(barcode("barcode", code).is_err(), "{code:?}");
        }
    }

    #[test]
    fn skus_allow_letters_digits_dot_underscore_and_dash() {
        assert_eq!(sku("sku", "FISH-gold_01.a").unwrap(), "FISH-gold_01.a");
        for bad in ["", "with space", "é", "a/b", &"x".repeat(65)] {
            assert!(sku("sku", bad).is_err(), "{bad:?}");
        }
        assert!(sku("sku", &"x".repeat(64)).is_ok());
        assert_eq!(sku_fold("AbC-1"), "abc-1");
    }

    #[test]
    fn prices_run_from_zero_to_a_hundred_million() {
        assert_eq!(price("price", 0).unwrap(), 0);
        assert_eq!(price("price", PRICE_MAX).unwrap(), PRICE_MAX);
        assert!(price("price", -1).is_err());
        assert!(price("price", PRICE_MAX + 1).is_err());
    }
}
