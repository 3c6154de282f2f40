//! API keys: who may call, with which role, on which plan.

use serde::Deserialize;

use super::{required, text, DomainError};
use crate::limits::{Plan, Quota};

/// What a key may do. Each role can do everything the roles before it can.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    Readonly,
    Pos,
    Staff,
    Admin,
}

impl Role {
    pub const ALL: [Role; 4] = [Self::Readonly, Self::Pos, Self::Staff, Self::Admin];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Readonly => "readonly",
            Self::Pos => "pos",
            Self::Staff => "staff",
            Self::Admin => "admin",
        }
    }

    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.as_str() == raw)
    }
}

/// Highest custom per-minute limit of an enterprise key.
pub const PER_MINUTE_MAX: u64 = crate::contract::PER_MINUTE.max_u64();
/// Highest custom per-day limit of an enterprise key.
pub const PER_DAY_MAX: u64 = crate::contract::PER_DAY.max_u64();

/// A stored key, without its secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRecord {
    pub id: i64,
    pub name: String,
    pub role: Role,
    pub plan: Plan,
    /// The limits set on the key; only enterprise keys have them.
    pub custom: Option<Quota>,
    /// The first characters of the secret, to tell keys apart.
    pub prefix: String,
    pub created_at: String,
    pub last_used_at: Option<String>,
    pub revoked_at: Option<String>,
}

impl KeyRecord {
    /// The limits that apply to the key.
    pub fn quota(&self) -> Quota {
        self.plan.quota(self.custom).unwrap_or_else(|| {
            Plan::Free.quota(None).unwrap_or(Quota {
                per_minute: 60,
                per_day: 1000,
            })
        })
    }
}

/// The body of `POST /admin/keys` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewKeyInput {
    pub name: Option<String>,
    pub role: Option<String>,
    pub plan: Option<String>,
    pub per_minute: Option<u64>,
    pub per_day: Option<u64>,
}

/// A validated new key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewKey {
    pub name: String,
    pub role: Role,
    pub plan: Plan,
    pub custom: Option<Quota>,
}

impl TryFrom<NewKeyInput> for NewKey {
    type Error = DomainError;

    fn try_from(input: NewKeyInput) -> Result<Self, DomainError> {
        let name = required("name", input.name)?;
        let role = parse_role(required("role", input.role.as_deref())?)?;
        let plan = parse_plan(required("plan", input.plan.as_deref())?)?;
        Ok(Self {
            name: text::name("name", &name)?,
            role,
            plan,
            custom: custom_quota(plan, input.per_minute, input.per_day)?,
        })
    }
}

/// The body of `PATCH /admin/keys/{keyId}` as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct KeyPatchInput {
    pub name: Option<String>,
    pub role: Option<String>,
    pub plan: Option<String>,
    pub per_minute: Option<u64>,
    pub per_day: Option<u64>,
}

impl KeyPatchInput {
    /// The key as it is after this patch, validated as a whole.
    pub fn apply(self, key: &KeyRecord) -> Result<NewKey, DomainError> {
        let plan = match self.plan.as_deref() {
            Some(p) => parse_plan(p)?,
            None => key.plan,
        };
        let (per_minute, per_day) = match (plan, self.per_minute, self.per_day) {
            (Plan::Enterprise, m, d) => (
                m.or(key.custom.map(|q| q.per_minute)),
                d.or(key.custom.map(|q| q.per_day)),
            ),
            (_, m, d) => (m, d),
        };
        Ok(NewKey {
            name: match self.name {
                Some(n) => text::name("name", &n)?,
                None => key.name.clone(),
            },
            role: match self.role.as_deref() {
                Some(r) => parse_role(r)?,
                None => key.role,
            },
            plan,
            custom: custom_quota(plan, per_minute, per_day)?,
        })
    }
}

fn parse_role(raw: &str) -> Result<Role, DomainError> {
    Role::parse(raw)
        .ok_or_else(|| DomainError::invalid("role", "must be one of readonly, pos, staff, admin"))
}

fn parse_plan(raw: &str) -> Result<Plan, DomainError> {
    raw.parse::<Plan>()
        .map_err(|_| DomainError::invalid("plan", "must be one of free, pro, business, enterprise"))
}

/// Enterprise keys need both numbers; other plans take neither.
fn custom_quota(
    plan: Plan,
    per_minute: Option<u64>,
    per_day: Option<u64>,
) -> Result<Option<Quota>, DomainError> {
    if plan != Plan::Enterprise {
        return match (per_minute, per_day) {
            (None, None) => Ok(None),
            (Some(_), _) => Err(DomainError::invalid(
                "perMinute",
                "is set only on enterprise keys",
            )),
            (_, Some(_)) => Err(DomainError::invalid(
                "perDay",
                "is set only on enterprise keys",
            )),
        };
    }
    let per_minute = per_minute
        .ok_or_else(|| DomainError::invalid("perMinute", "is required for an enterprise key"))?;
    let per_day = per_day
        .ok_or_else(|| DomainError::invalid("perDay", "is required for an enterprise key"))?;
    if !(1..=PER_MINUTE_MAX).contains(&per_minute) {
        return Err(DomainError::invalid(
            "perMinute",
            format!("must be between 1 and {PER_MINUTE_MAX}"),
        ));
    }
    if !(1..=PER_DAY_MAX).contains(&per_day) {
        return Err(DomainError::invalid(
            "perDay",
            format!("must be between 1 and {PER_DAY_MAX}"),
        ));
    }
    Ok(Some(Quota {
        per_minute,
        per_day,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(plan: &str, m: Option<u64>, d: Option<u64>) -> NewKeyInput {
        NewKeyInput {
            name: Some("till 1".into()),
            role: Some("pos".into()),
            plan: Some(plan.into()),
            per_minute: m,
            per_day: d,
        }
    }

    #[test]
    fn enterprise_keys_need_both_limits_and_other_plans_take_none() {
        assert!(NewKey::try_from(input("enterprise", Some(10), None)).is_err());
        assert!(NewKey::try_from(input("enterprise", Some(10), Some(100))).is_ok());
        assert!(NewKey::try_from(input("pro", Some(10), None)).is_err());
        assert!(NewKey::try_from(input("pro", None, None)).is_ok());
    }

    #[test]
    fn roles_are_ordered_from_readonly_to_admin() {
        assert!(Role::Readonly < Role::Pos && Role::Pos < Role::Staff && Role::Staff < Role::Admin);
    }
}
