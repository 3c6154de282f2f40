//! Query strings: parsed strictly into the domain's list queries. An unknown parameter, a
//! repeated one or a bad value is 400 `bad_request`, so a typo never silently widens a list.

use std::collections::HashMap;

use axum::extract::{FromRequestParts, RawQuery};
use axum::http::request::Parts;

use super::error::ApiError;
use crate::domain::pet::PetStatus;
use crate::domain::query::{
    CategoryQuery, InventoryQuery, OrderQuery, Page, PetQuery, PetSort, IDS_MAX, LIMIT_MAX,
};

/// The query string as name → value, checked against the names an operation accepts.
pub struct Params {
    values: HashMap<String, String>,
}

impl Params {
    /// Parses `raw`, refusing names outside `allowed` and names given twice.
    pub fn parse(raw: Option<&str>, allowed: &[&str]) -> Result<Self, ApiError> {
        let mut values = HashMap::new();
        for (name, value) in form_urlencoded::parse(raw.unwrap_or("").as_bytes()) {
            if !allowed.contains(&name.as_ref()) {
                let expected = if allowed.is_empty() {
                    "this operation takes no query parameters".to_owned()
                } else {
                    format!("expected one of: {}", allowed.join(", "))
                };
                return Err(ApiError::bad_request(format!(
                    "unknown query parameter {name:?}; {expected}"
                )));
            }
            if values.insert(name.to_string(), value.to_string()).is_some() {
                return Err(ApiError::bad_request(format!(
                    "query parameter {name:?} is given more than once"
                )));
            }
        }
        Ok(Self { values })
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    pub fn int(&self, name: &str, min: i64, max: i64) -> Result<Option<i64>, ApiError> {
        let Some(raw) = self.get(name) else {
            return Ok(None);
        };
        match raw.trim().parse::<i64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(Some(n)),
            _ => Err(ApiError::bad_request(format!(
                "query parameter {name:?} must be an integer from {min} to {max}, not {raw:?}"
            ))),
        }
    }

    /// A text parameter taken as given, `bound.min` to `bound.max` characters, else 400.
    pub fn bounded(
        &self,
        name: &str,
        bound: crate::contract::Bound,
    ) -> Result<Option<String>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some(raw) if bound.contains(raw.chars().count() as i64) => Ok(Some(raw.to_owned())),
            Some(_) => Err(ApiError::bad_request(format!(
                "query parameter {name:?} must be {} to {} characters",
                bound.min, bound.max
            ))),
        }
    }

    fn text(&self, name: &str) -> Option<String> {
        self.get(name)
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .map(str::to_owned)
    }

    /// A search text (`q`): at most [`crate::contract::SEARCH`] characters, longer is 400.
    fn search(&self, name: &str) -> Result<Option<String>, ApiError> {
        let Some(raw) = self.text(name) else {
            return Ok(None);
        };
        let max = crate::contract::SEARCH.max_usize();
        if raw.chars().count() > max {
            return Err(ApiError::bad_request(format!(
                "query parameter {name:?} must be at most {max} characters"
            )));
        }
        Ok(Some(raw))
    }

    /// A code to look up exactly (`sku`, `barcode`): at most a SKU's longest ([`crate::contract::SKU`]).
    fn code(&self, name: &str) -> Result<Option<String>, ApiError> {
        let Some(raw) = self.text(name) else {
            return Ok(None);
        };
        let most = crate::contract::SKU.max_usize();
        if raw.chars().count() > most {
            return Err(ApiError::bad_request(format!(
                "query parameter {name:?} must be at most {most} characters"
            )));
        }
        Ok(Some(raw))
    }

    pub fn page(&self) -> Result<Page, ApiError> {
        let defaults = Page::default();
        let after = self.int("after", 1, i64::MAX)?;
        Ok(Page {
            limit: self.int("limit", 1, LIMIT_MAX)?.unwrap_or(defaults.limit),
            offset: self.int("offset", 0, i64::MAX)?.unwrap_or(0),
            after,
        })
    }

    fn statuses(&self) -> Result<Vec<PetStatus>, ApiError> {
        let Some(raw) = self.get("status") else {
            return Ok(Vec::new());
        };
        raw.split(',')
            .map(|s| {
                PetStatus::parse(s.trim()).ok_or_else(|| {
                    ApiError::bad_request(format!(
                        "query parameter \"status\": {s:?} is not one of available, pending, sold"
                    ))
                })
            })
            .collect()
    }

    fn bool(&self, name: &str) -> Result<Option<bool>, ApiError> {
        match self.get(name) {
            None => Ok(None),
            Some("true") => Ok(Some(true)),
            Some("false") => Ok(Some(false)),
            Some(other) => Err(ApiError::bad_request(format!(
                "query parameter {name:?} must be true or false, not {other:?}"
            ))),
        }
    }
}

/// The page parameters, shared by every list.
pub const PAGING: [&str; 2] = ["limit", "offset"];

/// Parses a query string for an operation that accepts `allowed` names.
pub struct Query<T>(pub T);

/// A list query that can be read from a query string.
pub trait FromParams: Sized {
    const NAMES: &'static [&'static str];
    fn from_params(params: &Params) -> Result<Self, ApiError>;
}

impl<S: Send + Sync, T: FromParams> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let RawQuery(raw) = RawQuery::from_request_parts(parts, state)
            .await
            .map_err(|_| ApiError::bad_request("the query string cannot be read"))?;
        let params = Params::parse(raw.as_deref(), T::NAMES)?;
        T::from_params(&params).map(Query)
    }
}

/// No query parameters at all.
pub struct NoParams;

impl FromParams for NoParams {
    const NAMES: &'static [&'static str] = &[];
    fn from_params(_: &Params) -> Result<Self, ApiError> {
        Ok(NoParams)
    }
}

impl FromParams for Page {
    const NAMES: &'static [&'static str] = &PAGING;
    fn from_params(params: &Params) -> Result<Self, ApiError> {
        params.page()
    }
}

impl FromParams for PetQuery {
    const NAMES: &'static [&'static str] = &[
        "limit",
        "offset",
        "after",
        "status",
        "categoryId",
        "q",
        "ids",
        "sort",
        "sku",
        "barcode",
    ];
    fn from_params(params: &Params) -> Result<Self, ApiError> {
        let ids = match params.get("ids") {
            None => Vec::new(),
            Some(raw) => parse_ids(raw)?,
        };
        let sort = match params.get("sort") {
            None => PetSort::default(),
            Some(raw) => PetSort::parse(raw).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "query parameter \"sort\" must be id, name, -id or -name, not {raw:?}"
                ))
            })?,
        };
        let page = params.page()?;
        Ok(Self {
            statuses: params.statuses()?,
            category_id: params.int("categoryId", 1, i64::MAX)?,
            q: params.search("q")?,
            ids,
            sku: params.code("sku")?,
            barcode: params.code("barcode")?,
            sort,
            page,
        })
    }
}

/// The `ids` parameter's comma-separated positive integers, each checked (no count limit).
pub(super) fn positive_ids(raw: &str) -> Result<Vec<i64>, ApiError> {
    raw.split(',')
        .map(|s| match s.trim().parse::<i64>() {
            Ok(id) if id > 0 => Ok(id),
            _ => Err(ApiError::bad_request(format!(
                "query parameter \"ids\": {s:?} is not a positive integer"
            ))),
        })
        .collect()
}

fn parse_ids(raw: &str) -> Result<Vec<i64>, ApiError> {
    let ids = positive_ids(raw)?;
    if ids.len() > IDS_MAX {
        return Err(ApiError::bad_request(format!(
            "query parameter \"ids\" lists {} ids; at most {IDS_MAX} are allowed",
            ids.len()
        )));
    }
    Ok(ids)
}

impl FromParams for CategoryQuery {
    const NAMES: &'static [&'static str] = &["limit", "offset", "after", "q"];
    fn from_params(params: &Params) -> Result<Self, ApiError> {
        Ok(Self {
            q: params.search("q")?,
            page: params.page()?,
        })
    }
}

impl FromParams for OrderQuery {
    const NAMES: &'static [&'static str] = &["limit", "offset", "after", "complete", "petId"];
    fn from_params(params: &Params) -> Result<Self, ApiError> {
        Ok(Self {
            complete: params.bool("complete")?,
            pet_id: params.int("petId", 1, i64::MAX)?,
            page: params.page()?,
        })
    }
}

impl FromParams for InventoryQuery {
    const NAMES: &'static [&'static str] = &["limit", "offset", "after", "status", "below", "low"];
    fn from_params(params: &Params) -> Result<Self, ApiError> {
        Ok(Self {
            statuses: params.statuses()?,
            below: params.int("below", 0, i64::MAX)?,
            low: params.bool("low")?,
            page: params.page()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_and_repeated_parameters_are_refused() {
        assert!(Params::parse(Some("limt=5"), &PAGING).is_err());
        assert!(Params::parse(Some("limit=5&limit=6"), &PAGING).is_err());
        assert!(Params::parse(Some("limit=5"), &PAGING).is_ok());
    }

    #[test]
    fn limits_outside_bounds_are_refused() {
        for raw in ["limit=0", "limit=501", "offset=-1", "limit=abc"] {
            let params = Params::parse(Some(raw), &PAGING).unwrap();
            assert!(params.page().is_err(), "{raw}");
        }
    }

    #[test]
    fn ids_are_limited_to_a_hundred() {
        let many = (1..=101)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",");
        assert!(parse_ids(&many).is_err());
        assert_eq!(parse_ids("1, 2,3").unwrap(), vec![1, 2, 3]);
        assert!(parse_ids("1,-2").is_err());
    }
}
