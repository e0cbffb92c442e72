//! The fields of an error as bytes: strings, numbers, lists and the limit names Shoal keeps as
//! `&'static str`, each readable back into its own type.

use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// A variant the decoding side does not know (its tag, or a tag of a newer Shoal): what the
/// sender wrote instead, the variant's name and its text.
pub(crate) struct Unknown {
    /// `a rank's <Variant>`.
    pub(crate) context: String,
    /// The error's text as the sending rank rendered it.
    pub(crate) message: String,
}

/// The bytes left to read. A short message reads as zeros and empty strings rather than
/// failing: every rank must return an error, and a damaged one still names what it could.
pub(crate) struct Reader<'a>(pub(crate) &'a [u8]);

impl Reader<'_> {
    pub(crate) fn byte(&mut self) -> u8 {
        let (head, rest) = self.0.split_first().map_or((0, &[][..]), |(h, r)| (*h, r));
        self.0 = rest;
        head
    }

    fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let (head, rest) = self.0.split_at(N.min(self.0.len()));
        self.0 = rest;
        let mut w = [0u8; N];
        w[..head.len()].copy_from_slice(head);
        w
    }
}

/// A value that crosses a process as bytes and comes back as the same value.
pub(crate) trait Wire: Sized {
    /// Appends `self` to `out`.
    fn put(&self, out: &mut Vec<u8>);
    /// Reads what [`Wire::put`] wrote; `Err` only for an enum's variant this side does not know.
    fn take(r: &mut Reader<'_>) -> Result<Self, Unknown>;
}

macro_rules! numbers {
    ($($t:ty),*) => {$(
        impl Wire for $t {
            fn put(&self, out: &mut Vec<u8>) {
                out.extend(self.to_le_bytes());
            }
            fn take(r: &mut Reader<'_>) -> Result<Self, Unknown> {
                Ok(<$t>::from_le_bytes(r.bytes()))
            }
        }
    )*};
}
numbers!(u32, u64, u128);

/// `usize` as 64 bits, whatever the ranks' pointer width.
impl Wire for usize {
    fn put(&self, out: &mut Vec<u8>) {
        (*self as u64).put(out);
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, Unknown> {
        Ok(usize::try_from(u64::take(r)?).unwrap_or(usize::MAX))
    }
}

impl Wire for String {
    fn put(&self, out: &mut Vec<u8>) {
        self.len().put(out);
        out.extend(self.as_bytes());
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, Unknown> {
        let len = usize::take(r)?.min(r.0.len());
        let (s, rest) = r.0.split_at(len);
        r.0 = rest;
        Ok(String::from_utf8_lossy(s).into_owned())
    }
}

/// The limit and type names Shoal keeps as `&'static str`. Another process's pointer means
/// nothing here, so the text crosses and is made static once per distinct name: a finite set
/// (the specification's limit names, access modes, Rust type names), so memory stays bounded.
impl Wire for &'static str {
    fn put(&self, out: &mut Vec<u8>) {
        out.extend((self.len() as u64).to_le_bytes());
        out.extend(self.as_bytes());
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, Unknown> {
        static NAMES: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
        let text = String::take(r)?;
        let mut names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
        let names = names.get_or_insert_with(HashSet::new);
        if let Some(known) = names.get(text.as_str()) {
            return Ok(known);
        }
        let name: &'static str = Box::leak(text.into_boxed_str());
        names.insert(name);
        Ok(name)
    }
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, out: &mut Vec<u8>) {
        self.len().put(out);
        self.iter().for_each(|x| x.put(out));
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, Unknown> {
        // Never more items than bytes left: a damaged count cannot allocate without bound.
        let n = usize::take(r)?.min(r.0.len());
        (0..n).map(|_| T::take(r)).collect()
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, out: &mut Vec<u8>) {
        match self {
            Some(x) => {
                out.push(1);
                x.put(out);
            }
            None => out.push(0),
        }
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, Unknown> {
        Ok(if r.byte() == 1 {
            Some(T::take(r)?)
        } else {
            None
        })
    }
}

impl<T: Wire> Wire for Box<T> {
    fn put(&self, out: &mut Vec<u8>) {
        (**self).put(out);
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, Unknown> {
        T::take(r).map(Box::new)
    }
}

impl Wire for [u32; 3] {
    fn put(&self, out: &mut Vec<u8>) {
        self.iter().for_each(|x| x.put(out));
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, Unknown> {
        Ok([u32::take(r)?, u32::take(r)?, u32::take(r)?])
    }
}

impl Wire for Duration {
    fn put(&self, out: &mut Vec<u8>) {
        self.as_secs().put(out);
        self.subsec_nanos().put(out);
    }
    fn take(r: &mut Reader<'_>) -> Result<Self, Unknown> {
        Ok(Duration::new(u64::take(r)?, u32::take(r)?.min(999_999_999)))
    }
}
