//! Plans and the quotas they grant (the numbers are in [`crate::contract::PLANS`]). Pure data:
//! the limiter is told the quota on every check, so
//! changing a key's plan takes effect on its next request.

use std::fmt;
use std::str::FromStr;

/// A key's plan, stored and exchanged in lower case (`free`, `pro`, `business`, `enterprise`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Plan {
    /// 60 requests a minute, 1,000 a day; also applies to requests without a valid key.
    Free,
    /// 300 a minute, 10,000 a day.
    Pro,
    /// 1,000 a minute, 100,000 a day.
    Business,
    /// The per-minute and per-day numbers set on the key.
    Enterprise,
}

/// The number of requests a subject may make in each window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Quota {
    /// Requests allowed in one UTC minute.
    pub per_minute: u64,
    /// Requests allowed in one UTC day.
    pub per_day: u64,
}

impl Plan {
    /// Every plan, cheapest first.
    pub const ALL: [Plan; 4] = [Plan::Free, Plan::Pro, Plan::Business, Plan::Enterprise];

    /// The plan's name as stored and shown in the API.
    pub fn as_str(self) -> &'static str {
        match self {
            Plan::Free => "free",
            Plan::Pro => "pro",
            Plan::Business => "business",
            Plan::Enterprise => "enterprise",
        }
    }

    /// The quota this plan grants. `custom` (the numbers set on the key) is used by Enterprise
    /// only, which has no quota without it; the other plans ignore it.
    pub fn quota(self, custom: Option<Quota>) -> Option<Quota> {
        let listed = crate::contract::PLANS
            .iter()
            .find(|fact| fact.name == self.as_str())?;
        match (listed.per_minute, listed.per_day) {
            (Some(per_minute), Some(per_day)) => Some(Quota {
                per_minute,
                per_day,
            }),
            _ => custom,
        }
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A plan name that is not one of the four, exactly in lower case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPlan(pub String);

impl fmt::Display for UnknownPlan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown plan {:?}: expected free, pro, business or enterprise",
            self.0
        )
    }
}

impl std::error::Error for UnknownPlan {}

impl FromStr for Plan {
    type Err = UnknownPlan;

    /// Parses the lower-case name; the contract spells plans in lower case only.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Plan::ALL
            .into_iter()
            .find(|plan| plan.as_str() == s)
            .ok_or_else(|| UnknownPlan(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quota(per_minute: u64, per_day: u64) -> Option<Quota> {
        Some(Quota {
            per_minute,
            per_day,
        })
    }

    #[test]
    fn plans_parse_from_their_lower_case_names_and_print_back() {
        for plan in Plan::ALL {
            assert_eq!(plan.as_str().parse::<Plan>(), Ok(plan));
            assert_eq!(plan.to_string(), plan.as_str());
        }
        assert_eq!("business".parse::<Plan>(), Ok(Plan::Business));
    }

    #[test]
    fn unknown_or_capitalised_plan_names_are_refused() {
        for name in ["", "Free", "PRO", " free", "gold"] {
            assert_eq!(name.parse::<Plan>(), Err(UnknownPlan(name.to_owned())));
        }
        assert!(UnknownPlan("gold".into()).to_string().contains("\"gold\""));
    }

    #[test]
    fn free_pro_and_business_have_the_contract_quotas() {
        assert_eq!(Plan::Free.quota(None), quota(60, 1_000));
        assert_eq!(Plan::Pro.quota(None), quota(300, 10_000));
        assert_eq!(Plan::Business.quota(None), quota(1_000, 100_000));
    }

    #[test]
    fn enterprise_uses_the_custom_quota_and_has_none_without_it() {
        assert_eq!(
            Plan::Enterprise.quota(quota(10_000, 1_000_000)),
            quota(10_000, 1_000_000)
        );
        assert_eq!(Plan::Enterprise.quota(None), None);
    }

    #[test]
    fn a_custom_quota_on_another_plan_is_ignored() {
        assert_eq!(Plan::Free.quota(quota(5, 5)), quota(60, 1_000));
    }
}
