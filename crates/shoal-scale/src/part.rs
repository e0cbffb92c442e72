//! [`Part`]: one device's share of a spread buffer, with its place in the whole; and
//! [`Spread`]: every part of one buffer over a [`Group`](crate::Group).

use std::ops::Range;

use shoal::{Buffer, Element, Gpu, Result};

/// One part of a buffer spread over several devices: a [`Buffer`] on its device, and where its
/// elements sit in the whole. Parts may be empty.
#[derive(Debug, Clone)]
pub struct Part<T: Element> {
    /// The part's elements, on its device.
    pub buffer: Buffer<T>,
    /// The global index of its first element.
    pub start: u64,
}

impl<T: Element> Part<T> {
    /// A part holding `buffer`, whose first element is element `start` of the whole.
    pub fn new(buffer: Buffer<T>, start: u64) -> Self {
        Self { buffer, start }
    }

    /// The global indices of its elements.
    pub fn range(&self) -> Range<u64> {
        self.start..self.start + self.buffer.len()
    }

    /// Its device.
    pub fn gpu(&self) -> &Gpu {
        self.buffer.gpu()
    }

    /// Its elements, read back.
    pub fn read(&self) -> Result<Vec<T>> {
        if self.buffer.is_empty() {
            return Ok(Vec::new());
        }
        self.buffer.read_blocking()
    }
}

/// A buffer spread over the devices of a [`Group`](crate::Group): part `i` on device `i`, the
/// parts in order of their global ranges, which follow each other from 0.
///
/// ```
/// # fn main() -> Result<(), shoal::Error> {
/// let group = shoal_scale::Group::same_adapter(3, Default::default())?;
/// let spread = group.split(&[1u32, 2, 3, 4, 5], &[2, 0, 3])?; // uneven, with an empty part
/// assert_eq!(spread.parts()[2].range(), 2..5);
/// assert_eq!(spread.read()?, [1, 2, 3, 4, 5]);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct Spread<T: Element> {
    pub(crate) parts: Vec<Part<T>>,
}

impl<T: Element> Spread<T> {
    /// Its parts, device by device.
    pub fn parts(&self) -> &[Part<T>] {
        &self.parts
    }

    /// Its parts, taken.
    pub fn into_parts(self) -> Vec<Part<T>> {
        self.parts
    }

    /// Elements in all.
    pub fn len(&self) -> u64 {
        self.parts.iter().map(|p| p.buffer.len()).sum()
    }

    /// Whether no part holds an element.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The lengths of the parts.
    pub fn lens(&self) -> Vec<u64> {
        self.parts.iter().map(|p| p.buffer.len()).collect()
    }

    /// Every element, read back part after part into one `Vec`.
    pub fn read(&self) -> Result<Vec<T>> {
        let mut all = Vec::new();
        for part in &self.parts {
            all.extend(part.read()?);
        }
        Ok(all)
    }
}
