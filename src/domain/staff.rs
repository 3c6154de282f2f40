//! Staff members: the shop's people, who sign in with their name and a PIN.
//!
//! A member has a role (`readonly`, `staff` or `admin`; tills keep `pos` keys) and may be
//! disabled. A PIN is 4 to 8 digits and is only ever stored as a slow salted hash. The last
//! enabled admin member cannot be disabled or demoted, so the shop always keeps a way in.

use serde::{Deserialize, Serialize, Serializer};

use super::key::Role;
use super::{required, text, DomainError};
use crate::contract;

/// Fewest digits in a PIN.
pub const PIN_MIN: usize = contract::PIN.min as usize;
/// Most digits in a PIN.
pub const PIN_MAX: usize = contract::PIN.max_usize();
/// The roles a member may have, as the interface spells them.
pub const ROLES: [Role; 3] = [Role::Readonly, Role::Staff, Role::Admin];

/// When wrong PINs lock a name: [`PinLock::failures`] wrong PINs within
/// [`PinLock::window`] seconds lock it for [`PinLock::lock_for`] seconds, whether or not a
/// member has that name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PinLock {
    pub failures: i64,
    pub window: i64,
    pub lock_for: i64,
}

/// The lock the interface promises (5 wrong PINs within 15 minutes lock for 15 minutes).
pub const PIN_LOCK: PinLock = PinLock {
    failures: contract::PIN_FAILURES,
    window: contract::PIN_LOCK_MINUTES * 60,
    lock_for: contract::PIN_LOCK_MINUTES * 60,
};

/// A stored member, without the hash of their PIN: also what the interface shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StaffMember {
    pub id: i64,
    pub name: String,
    #[serde(serialize_with = "role_name")]
    pub role: Role,
    pub created_at: String,
    pub disabled_at: Option<String>,
}

impl StaffMember {
    /// Whether the member may sign in.
    pub fn is_enabled(&self) -> bool {
        self.disabled_at.is_none()
    }

    fn is_enabled_admin(&self) -> bool {
        self.is_enabled() && self.role == Role::Admin
    }
}

/// The member a change was made by (through their session): named in the stock history
/// and the events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberRef {
    pub id: i64,
    pub name: String,
}

/// A PIN as typed: 4 to 8 ASCII digits. Never printed by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct Pin(String);

impl Pin {
    pub fn parse(field: &str, raw: &str) -> Result<Self, DomainError> {
        let digits = raw.len();
        if !raw.bytes().all(|b| b.is_ascii_digit()) || !(PIN_MIN..=PIN_MAX).contains(&digits) {
            return Err(DomainError::invalid(
                field,
                format!("must be {PIN_MIN} to {PIN_MAX} digits"),
            ));
        }
        Ok(Self(raw.to_owned()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Pin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pin(<redacted>)")
    }
}

/// The body of `POST /admin/staff` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewStaffInput {
    pub name: Option<String>,
    pub role: Option<String>,
    pub pin: Option<String>,
}

/// A validated new member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewStaff {
    pub name: String,
    pub role: Role,
    pub pin: Pin,
}

impl TryFrom<NewStaffInput> for NewStaff {
    type Error = DomainError;

    fn try_from(input: NewStaffInput) -> Result<Self, DomainError> {
        let name = required("name", input.name)?;
        let role = required("role", input.role)?;
        let pin = required("pin", input.pin)?;
        Ok(Self {
            name: text::name("name", &name)?,
            role: parse_role(&role)?,
            pin: Pin::parse("pin", &pin)?,
        })
    }
}

/// The body of `PATCH /admin/staff/{staffId}` as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StaffPatchInput {
    pub name: Option<String>,
    pub role: Option<String>,
    pub pin: Option<String>,
    pub disabled: Option<bool>,
}

/// A validated change to a member; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StaffPatch {
    pub name: Option<String>,
    pub role: Option<Role>,
    pub pin: Option<Pin>,
    pub disabled: Option<bool>,
}

impl TryFrom<StaffPatchInput> for StaffPatch {
    type Error = DomainError;

    fn try_from(input: StaffPatchInput) -> Result<Self, DomainError> {
        Ok(Self {
            name: input.name.map(|n| text::name("name", &n)).transpose()?,
            role: input.role.map(|r| parse_role(&r)).transpose()?,
            pin: input.pin.map(|p| Pin::parse("pin", &p)).transpose()?,
            disabled: input.disabled,
        })
    }
}

impl StaffPatch {
    /// The member as this patch leaves them (`now` stamps a new `disabledAt`), refused when
    /// it would disable or demote the last enabled admin. `other_admins` counts the enabled
    /// admin members other than this one.
    pub fn apply(
        &self,
        member: &StaffMember,
        other_admins: i64,
        now: &str,
    ) -> Result<StaffMember, DomainError> {
        let disabled_at = match self.disabled {
            Some(true) => member.disabled_at.clone().or_else(|| Some(now.to_owned())),
            Some(false) => None,
            None => member.disabled_at.clone(),
        };
        let after = StaffMember {
            id: member.id,
            name: self.name.clone().unwrap_or_else(|| member.name.clone()),
            role: self.role.unwrap_or(member.role),
            created_at: member.created_at.clone(),
            disabled_at,
        };
        if member.is_enabled_admin() && !after.is_enabled_admin() && other_admins == 0 {
            return Err(DomainError::LastAdmin(
                "the last enabled admin member cannot be disabled or lose the admin role; make another admin first",
            ));
        }
        Ok(after)
    }
}

/// The body of `POST /session` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignInInput {
    pub name: Option<String>,
    pub pin: Option<String>,
}

/// A sign-in attempt: the name as typed (trimmed) and the PIN as typed.
#[derive(Debug, Clone)]
pub struct SignIn {
    pub name: String,
    pub pin: String,
}

impl TryFrom<SignInInput> for SignIn {
    type Error = DomainError;

    fn try_from(input: SignInInput) -> Result<Self, DomainError> {
        let name = required("name", input.name)?;
        let pin = required("pin", input.pin)?;
        let name = name.trim();
        if name.is_empty() {
            return Err(DomainError::invalid("name", "must not be empty"));
        }
        if name.chars().count() > text::NAME_MAX {
            return Err(DomainError::invalid(
                "name",
                format!("must be at most {} characters", text::NAME_MAX),
            ));
        }
        if pin.is_empty() {
            return Err(DomainError::invalid("pin", "must not be empty"));
        }
        Ok(Self {
            name: name.to_owned(),
            // Anything longer than a PIN cannot match; keep the hashing work bounded.
            pin: pin.chars().take(PIN_MAX + 1).collect(),
        })
    }
}

fn role_name<S: Serializer>(role: &Role, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(role.as_str())
}

fn parse_role(raw: &str) -> Result<Role, DomainError> {
    Role::parse(raw)
        .filter(|r| ROLES.contains(r))
        .ok_or_else(|| DomainError::invalid("role", "must be one of readonly, staff, admin"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(role: Role, disabled: bool) -> StaffMember {
        StaffMember {
            id: 1,
            name: "Ann".into(),
            role,
            created_at: "2026-11-22T00:00:00Z".into(),
            disabled_at: disabled.then(|| "2026-11-22T01:00:00Z".into()),
        }
    }

    #[test]
    fn a_pin_is_four_to_eight_digits_and_is_never_printed() {
        assert!(Pin::parse("pin", "123").is_err());
        assert!(Pin::parse("pin", "123456789").is_err());
        assert!(Pin::parse("pin", "12a4").is_err());
        assert!(Pin::parse("pin", "١٢٣٤").is_err(), "only ASCII digits");
        let pin = Pin::parse("pin", "0042").unwrap();
        assert_eq!(pin.expose(), "0042");
        assert!(!format!("{pin:?}").contains("0042"));
    }

    #[test]
    fn members_have_no_pos_role() {
        let input = NewStaffInput {
            name: Some("Ann".into()),
            role: Some("pos".into()),
            pin: Some("1234".into()),
        };
        assert!(NewStaff::try_from(input).is_err());
    }

    #[test]
    fn the_last_enabled_admin_can_be_neither_disabled_nor_demoted() {
        let admin = member(Role::Admin, false);
        let disable = StaffPatch {
            disabled: Some(true),
            ..Default::default()
        };
        let demote = StaffPatch {
            role: Some(Role::Staff),
            ..Default::default()
        };
        assert!(disable.apply(&admin, 0, "now").is_err());
        assert!(demote.apply(&admin, 0, "now").is_err());
        assert!(disable.apply(&admin, 1, "now").is_ok());
        let rename = StaffPatch {
            name: Some("Anne".into()),
            ..Default::default()
        };
        assert_eq!(rename.apply(&admin, 0, "now").unwrap().name, "Anne");
    }

    #[test]
    fn disabling_keeps_the_first_time_and_enabling_clears_it() {
        let off = member(Role::Staff, true);
        let again = StaffPatch {
            disabled: Some(true),
            ..Default::default()
        };
        assert_eq!(
            again.apply(&off, 0, "later").unwrap().disabled_at,
            off.disabled_at
        );
        let on = StaffPatch {
            disabled: Some(false),
            ..Default::default()
        };
        assert_eq!(on.apply(&off, 0, "later").unwrap().disabled_at, None);
    }
}
