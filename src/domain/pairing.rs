//! Pairing a till: a one-time code of 8 characters, valid 10 minutes, that a device on the
//! shop's network trades for its own key. The code's alphabet leaves out the characters that
//! look alike on a screen or a label (0/O, 1/I/L), and typing is forgiving: case, spaces
//! and dashes do not matter.

use rand::Rng;
use serde::Deserialize;

use super::key::{NewKey, NewKeyInput, Role};
use super::DomainError;

/// The characters of a pairing code: no 0, O, 1, I or L.
pub const ALPHABET: &[u8] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/// Characters in a code.
pub const CODE_LEN: usize = 8;
/// Seconds a code stays valid.
pub const VALID_SECS: i64 = 600;

/// The body of `POST /admin/pairings` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewPairingInput {
    pub name: Option<String>,
    pub role: Option<String>,
    pub plan: Option<String>,
}

/// The key a pairing will make: any role but `admin` (an admin key is never handed to a
/// device by a code shown on a screen).
impl TryFrom<NewPairingInput> for NewKey {
    type Error = DomainError;

    fn try_from(input: NewPairingInput) -> Result<Self, DomainError> {
        let new = NewKey::try_from(NewKeyInput {
            name: input.name,
            role: input.role,
            plan: input.plan,
            per_minute: None,
            per_day: None,
        })?;
        if new.role == Role::Admin {
            return Err(DomainError::invalid(
                "role",
                "must be one of readonly, pos, staff (an admin key is never paired)",
            ));
        }
        Ok(new)
    }
}

/// A code waiting for its device, as the store keeps it: the key it will make and when it
/// ends (Unix seconds). The code itself is not kept, only its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitingPairing {
    pub key: NewKey,
    pub expires_at: i64,
}

/// The body of `POST /pair` as sent.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairInput {
    pub code: Option<String>,
}

/// A new random code.
pub fn new_code() -> String {
    let mut rng = rand::thread_rng();
    (0..CODE_LEN)
        .map(|_| char::from(ALPHABET[rng.gen_range(0..ALPHABET.len())]))
        .collect()
}

/// The code as typed, in its stored form (upper case, no spaces or dashes); `None` when it
/// cannot be a code at all.
pub fn normalize(typed: &str) -> Option<String> {
    let code: String = typed
        .chars()
        .filter(|c| !matches!(c, ' ' | '-'))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    (code.len() == CODE_LEN && code.bytes().all(|b| ALPHABET.contains(&b))).then_some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_eight_characters_without_look_alikes() {
        for _ in 0..200 {
            let code = new_code();
            assert_eq!(code.len(), 8);
            assert!(!code.contains(['0', 'O', '1', 'I', 'L']), "{code}");
            assert_eq!(normalize(&code).as_deref(), Some(code.as_str()));
        }
    }

    #[test]
    fn a_typed_code_ignores_case_spaces_and_dashes_but_nothing_else() {
        assert_eq!(normalize("abcd-efgh").as_deref(), Some("ABCDEFGH"));
        assert_eq!(normalize(" AB CD EF GH ").as_deref(), Some("ABCDEFGH"));
        assert_eq!(normalize("ABCDEFG"), None);
        assert_eq!(normalize("ABCDEFGO"), None);
        assert_eq!(normalize("ABCDEFGHJ"), None);
    }

    #[test]
    fn a_pairing_never_makes_an_admin_key() {
        let input = |role: &str| NewPairingInput {
            name: Some("till 2".into()),
            role: Some(role.into()),
            plan: Some("pro".into()),
        };
        assert!(NewKey::try_from(input("admin")).is_err());
        assert_eq!(NewKey::try_from(input("pos")).unwrap().role, Role::Pos);
    }
}
