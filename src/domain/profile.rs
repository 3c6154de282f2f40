//! The store profile: the shop's name, the currency its prices are in, the time zone its
//! days are counted in (the daily report, the stock history's date ranges), and how its
//! prices carry tax (interface 1.2: whether they include it, and the default rate).

use std::str::FromStr;

use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use super::tax::TAX_RATE;
use super::{text, DomainError};

/// The name a store has until it is given one.
pub const DEFAULT_NAME: &str = "Pet Store";
/// The currency a store has until it is given one.
pub const DEFAULT_CURRENCY: &str = "USD";

/// ISO 4217 codes in use (active currencies and the funds and metals codes shops never use
/// are left out).
const CURRENCIES: &[&str] = &[
    "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD", "BDT",
    "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BRL", "BSD", "BTN", "BWP", "BYN", "BZD", "CAD",
    "CDF", "CHF", "CLP", "CNY", "COP", "CRC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD",
    "EGP", "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ",
    "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD", "JOD",
    "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP", "LKR",
    "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU", "MUR", "MVR",
    "MWK", "MXN", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR", "NZD", "OMR", "PAB", "PEN",
    "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD", "RUB", "RWF", "SAR", "SBD", "SCR",
    "SDG", "SEK", "SGD", "SHP", "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB",
    "TJS", "TMT", "TND", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "UYU", "UZS",
    "VES", "VND", "VUV", "WST", "XAF", "XCD", "XCG", "XOF", "XPF", "YER", "ZAR", "ZMW", "ZWG",
];

/// The store profile as the interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreProfile {
    pub name: String,
    pub currency: String,
    pub timezone: String,
    /// Whether prices include tax (default `true`).
    pub tax_included: bool,
    /// The tax rate, in basis points, of a pet without its own (default 0).
    pub default_tax_rate: i64,
}

/// The profile's columns as stored: `None` is the default.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoredProfile {
    pub name: Option<String>,
    pub currency: Option<String>,
    pub timezone: Option<String>,
    pub tax_included: Option<bool>,
    pub default_tax_rate: Option<i64>,
}

impl StoreProfile {
    /// The profile from what is stored: a missing value is the default.
    pub fn from_stored(stored: StoredProfile) -> Self {
        Self {
            name: stored.name.unwrap_or_else(|| DEFAULT_NAME.to_owned()),
            currency: stored
                .currency
                .unwrap_or_else(|| DEFAULT_CURRENCY.to_owned()),
            timezone: stored
                .timezone
                .filter(|t| Tz::from_str(t).is_ok())
                .unwrap_or_else(machine_timezone),
            tax_included: stored.tax_included.unwrap_or(true),
            default_tax_rate: stored.default_tax_rate.unwrap_or(0),
        }
    }

    /// The rate that applies to a pet with `own` rate (or none).
    pub fn rate_for(&self, own: Option<i64>) -> i64 {
        own.unwrap_or(self.default_tax_rate)
    }

    /// The time zone the store counts its days in.
    pub fn tz(&self) -> Tz {
        Tz::from_str(&self.timezone).unwrap_or(Tz::UTC)
    }
}

/// This machine's IANA time zone, or `UTC` when it has none that is known.
pub fn machine_timezone() -> String {
    std::env::var("TZ")
        .ok()
        .map(|tz| tz.trim_start_matches(':').to_owned())
        .filter(|tz| Tz::from_str(tz).is_ok())
        .or_else(|| {
            iana_time_zone::get_timezone()
                .ok()
                .filter(|tz| Tz::from_str(tz).is_ok())
        })
        .unwrap_or_else(|| "UTC".to_owned())
}

/// The body of `PATCH /store/profile` as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ProfilePatchInput {
    #[serde(default, deserialize_with = "super::present")]
    pub name: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "super::present")]
    pub currency: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "super::present")]
    pub timezone: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "super::present")]
    pub tax_included: Option<serde_json::Value>,
    #[serde(default, deserialize_with = "super::present")]
    pub default_tax_rate: Option<serde_json::Value>,
}

/// A validated change of the profile.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfilePatch {
    pub name: Option<String>,
    pub currency: Option<String>,
    pub timezone: Option<String>,
    pub tax_included: Option<bool>,
    pub default_tax_rate: Option<i64>,
}

fn string<'v>(field: &str, value: &'v serde_json::Value) -> Result<&'v str, DomainError> {
    value
        .as_str()
        .ok_or_else(|| DomainError::invalid(field, "must be a string"))
}

/// A tax rate in basis points, 0 to 10,000 (2,000 is 20 %), named `field` when refused.
pub fn tax_rate(field: &str, value: &serde_json::Value) -> Result<i64, DomainError> {
    value
        .as_i64()
        .filter(|rate| TAX_RATE.contains(*rate))
        .ok_or_else(|| {
            DomainError::invalid(
                field,
                format!(
                    "must be a whole number of basis points from {} to {} (2000 is 20 %)",
                    TAX_RATE.min, TAX_RATE.max
                ),
            )
        })
}

/// An ISO 4217 currency code, upper-cased.
pub fn currency(raw: &str) -> Result<String, DomainError> {
    let code = raw.trim().to_ascii_uppercase();
    if CURRENCIES.contains(&code.as_str()) {
        Ok(code)
    } else {
        Err(DomainError::invalid(
            "currency",
            "must be an ISO 4217 currency code such as USD, EUR or GBP",
        ))
    }
}

/// An IANA time zone name, as the tz database spells it.
pub fn timezone(raw: &str) -> Result<String, DomainError> {
    Tz::from_str(raw.trim())
        .map(|tz| tz.name().to_owned())
        .map_err(|_| {
            DomainError::invalid(
                "timezone",
                "must be an IANA time zone name such as Europe/Paris or America/New_York",
            )
        })
}

impl TryFrom<ProfilePatchInput> for ProfilePatch {
    type Error = DomainError;

    fn try_from(input: ProfilePatchInput) -> Result<Self, DomainError> {
        Ok(Self {
            name: input
                .name
                .map(|v| text::name("name", string("name", &v)?))
                .transpose()?,
            currency: input
                .currency
                .map(|v| currency(string("currency", &v)?))
                .transpose()?,
            timezone: input
                .timezone
                .map(|v| timezone(string("timezone", &v)?))
                .transpose()?,
            tax_included: input
                .tax_included
                .map(|v| {
                    v.as_bool()
                        .ok_or_else(|| DomainError::invalid("taxIncluded", "must be true or false"))
                })
                .transpose()?,
            default_tax_rate: input
                .default_tax_rate
                .map(|v| tax_rate("defaultTaxRate", &v))
                .transpose()?,
        })
    }
}

impl ProfilePatch {
    /// The profile after this change.
    pub fn apply(&self, profile: &StoreProfile) -> StoreProfile {
        StoreProfile {
            name: self.name.clone().unwrap_or_else(|| profile.name.clone()),
            currency: self
                .currency
                .clone()
                .unwrap_or_else(|| profile.currency.clone()),
            timezone: self
                .timezone
                .clone()
                .unwrap_or_else(|| profile.timezone.clone()),
            tax_included: self.tax_included.unwrap_or(profile.tax_included),
            default_tax_rate: self.default_tax_rate.unwrap_or(profile.default_tax_rate),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn patch(json: &str) -> Result<ProfilePatch, DomainError> {
        ProfilePatch::try_from(serde_json::from_str::<ProfilePatchInput>(json).unwrap())
    }

    #[test]
    fn a_new_store_is_called_pet_store_and_counts_in_dollars() {
        let profile = StoreProfile::from_stored(StoredProfile::default());
        assert_eq!(profile.name, "Pet Store");
        assert_eq!(profile.currency, "USD");
        assert!(Tz::from_str(&profile.timezone).is_ok());
    }

    #[test]
    fn a_new_store_s_prices_include_tax_at_a_rate_of_zero() {
        let profile = StoreProfile::from_stored(StoredProfile::default());
        assert!(profile.tax_included);
        assert_eq!(profile.default_tax_rate, 0);
        assert_eq!(profile.rate_for(None), 0);
        assert_eq!(profile.rate_for(Some(550)), 550);
    }

    /// (body) → accepted, as (taxIncluded, defaultTaxRate), or refused naming the field.
    #[test]
    fn tax_settings_are_a_boolean_and_basis_points_up_to_ten_thousand() {
        type Accepted = (Option<bool>, Option<i64>);
        let cases: &[(&str, Result<Accepted, &str>)] = &[
            (r#"{"taxIncluded": false}"#, Ok((Some(false), None))),
            (r#"{"defaultTaxRate": 0}"#, Ok((None, Some(0)))),
            (r#"{"defaultTaxRate": 2000}"#, Ok((None, Some(2000)))),
            (r#"{"defaultTaxRate": 10000}"#, Ok((None, Some(10000)))),
            (r#"{"defaultTaxRate": 10001}"#, Err("defaultTaxRate")),
            (r#"{"defaultTaxRate": -1}"#, Err("defaultTaxRate")),
            (r#"{"defaultTaxRate": 20.5}"#, Err("defaultTaxRate")),
            (r#"{"defaultTaxRate": null}"#, Err("defaultTaxRate")),
            (r#"{"taxIncluded": "yes"}"#, Err("taxIncluded")),
            (r#"{"taxIncluded": null}"#, Err("taxIncluded")),
        ];
        for (body, want) in cases {
            let got = match patch(body) {
                Ok(p) => Ok((p.tax_included, p.default_tax_rate)),
                Err(DomainError::Validation { field, .. }) => Err(field),
                Err(other) => panic!("{body}: {other:?}"),
            };
            assert_eq!(got, want.map_err(str::to_owned), "{body}");
        }
    }

    #[test]
    fn currencies_are_iso_codes_and_time_zones_iana_names() {
        assert_eq!(
            patch(r#"{"currency": "eur"}"#).unwrap().currency.as_deref(),
            Some("EUR")
        );
        assert!(patch(r#"{"currency": "XYZ"}"#).is_err());
        assert!(patch(r#"{"currency": "EURO"}"#).is_err());
        assert_eq!(
            patch(r#"{"timezone": "Europe/Paris"}"#)
                .unwrap()
                .timezone
                .as_deref(),
            Some("Europe/Paris")
        );
        assert!(patch(r#"{"timezone": "Mars/Olympus"}"#).is_err());
        assert!(patch(r#"{"timezone": "+02:00"}"#).is_err());
        assert!(patch(r#"{"name": ""}"#).is_err());
        assert!(patch(r#"{"name": null}"#).is_err());
    }
}
