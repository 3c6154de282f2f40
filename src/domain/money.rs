//! Money as a shop writes it: amounts in the currency's major unit with its decimal places
//! ("27.50" for 2,750 cents), for the CSV files of interface 1.2's `money=decimal`. The store
//! keeps integers in minor units; this module turns one into the other and back, exactly
//! (no floating point).

/// How the money columns of a CSV file are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MoneyFormat {
    /// Integers in the currency's minor unit (cents), as in interface 1.1.
    #[default]
    Minor,
    /// The currency's major unit with its decimal places (`27.00`).
    Decimal,
}

impl MoneyFormat {
    /// The query value (`minor` or `decimal`).
    pub fn parse(raw: &str) -> Option<Self> {
        match raw {
            "minor" => Some(Self::Minor),
            "decimal" => Some(Self::Decimal),
            _ => None,
        }
    }
}

/// Decimal places of an ISO 4217 currency (its minor unit): 0 for JPY, 3 for KWD, else 2.
pub fn decimals(currency: &str) -> u32 {
    match currency {
        "BIF" | "CLP" | "DJF" | "GNF" | "ISK" | "JPY" | "KMF" | "KRW" | "PYG" | "RWF" | "UGX"
        | "VND" | "VUV" | "XAF" | "XOF" | "XPF" => 0,
        "BHD" | "IQD" | "JOD" | "KWD" | "LYD" | "OMR" | "TND" => 3,
        _ => 2,
    }
}

/// `minor` written in the major unit with exactly `decimals` places: `2750, 2` is `27.50`.
pub fn to_decimal(minor: i64, decimals: u32) -> String {
    if decimals == 0 {
        return minor.to_string();
    }
    let scale = 10_i64.pow(decimals);
    let sign = if minor < 0 { "-" } else { "" };
    let abs = minor.unsigned_abs();
    let scale = scale.unsigned_abs();
    format!(
        "{sign}{}.{:0width$}",
        abs / scale,
        abs % scale,
        width = decimals as usize
    )
}

/// Why a written amount is not money.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecimalError {
    /// Not digits with at most one decimal separator.
    NotANumber,
    /// More decimal places than the currency has.
    TooManyDecimals,
    /// Too large to count in minor units.
    TooLarge,
}

/// An amount written in the major unit (`27`, `27.5`, `27.50`, or `27,50` with a comma as the
/// decimal separator) in minor units. No sign, no thousands separators, at most `decimals`
/// places.
pub fn from_decimal(raw: &str, decimals: u32) -> Result<i64, DecimalError> {
    let (whole, fraction) = match raw.find(['.', ',']) {
        Some(at) => (&raw[..at], Some(&raw[at + 1..])),
        None => (raw, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let fraction = fraction.unwrap_or("");
    // "27." and ".5" are numbers a spreadsheet may write; "" and "." are not.
    let whole_ok = whole.is_empty() || digits(whole);
    let fraction_ok = fraction.is_empty() || digits(fraction);
    if !whole_ok || !fraction_ok || (whole.is_empty() && fraction.is_empty()) {
        return Err(DecimalError::NotANumber);
    }
    let fraction = fraction.trim_end_matches('0');
    if fraction.len() > decimals as usize {
        return Err(DecimalError::TooManyDecimals);
    }
    let scale = 10_i64.pow(decimals);
    let whole: i64 = if whole.is_empty() {
        0
    } else {
        whole.trim_start_matches('0').parse::<i64>().or_else(|_| {
            if whole.bytes().all(|b| b == b'0') {
                Ok(0)
            } else {
                Err(DecimalError::TooLarge)
            }
        })?
    };
    let cents: i64 = if fraction.is_empty() {
        0
    } else {
        let padded = format!("{fraction:0<width$}", width = decimals as usize);
        padded.parse().map_err(|_| DecimalError::NotANumber)?
    };
    whole
        .checked_mul(scale)
        .and_then(|w| w.checked_add(cents))
        .ok_or(DecimalError::TooLarge)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minor_units_are_written_with_the_currency_s_decimal_places() {
        assert_eq!(to_decimal(2700, 2), "27.00");
        assert_eq!(to_decimal(2750, 2), "27.50");
        assert_eq!(to_decimal(5, 2), "0.05");
        assert_eq!(to_decimal(0, 2), "0.00");
        assert_eq!(to_decimal(450, 0), "450");
        assert_eq!(to_decimal(1234, 3), "1.234");
        assert_eq!(to_decimal(-150, 2), "-1.50");
    }

    #[test]
    fn whole_short_and_full_amounts_and_a_comma_separator_are_read() {
        for (raw, minor) in [
            ("27", 2700),
            ("27.5", 2750),
            ("27.50", 2750),
            ("27,50", 2750),
            ("27.", 2700),
            ("027.50", 2750),
        ] {
            assert_eq!(from_decimal(raw, 2), Ok(minor), "{raw}");
        }
        assert_eq!(from_decimal(".5", 2), Ok(50));
        assert_eq!(from_decimal("0", 2), Ok(0));
        assert_eq!(from_decimal("450", 0), Ok(450));
        assert_eq!(from_decimal("1.234", 3), Ok(1234));
        assert_eq!(
            from_decimal("27.500", 2),
            Ok(2750),
            "trailing zeros are not decimals"
        );
    }

    #[test]
    fn more_decimals_than_the_currency_has_or_other_text_is_refused() {
        assert_eq!(from_decimal("6.005", 2), Err(DecimalError::TooManyDecimals));
        assert_eq!(from_decimal("450.5", 0), Err(DecimalError::TooManyDecimals));
        for raw in ["", ".", "-5", "+5", "1,234.50", "6 00", "$6", "6e2", "x"] {
            assert_eq!(
                from_decimal(raw, 2),
                Err(DecimalError::NotANumber),
                "{raw:?}"
            );
        }
        assert_eq!(
            from_decimal("99999999999999999999", 2),
            Err(DecimalError::TooLarge)
        );
        assert_eq!(
            from_decimal("92233720368547759", 2),
            Err(DecimalError::TooLarge)
        );
    }

    #[test]
    fn currencies_have_their_iso_decimal_places() {
        assert_eq!(decimals("USD"), 2);
        assert_eq!(decimals("JPY"), 0);
        assert_eq!(decimals("KWD"), 3);
        assert_eq!(decimals("EUR"), 2);
    }
}
