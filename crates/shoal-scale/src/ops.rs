//! The spread primitives on a [`Group`]: each runs one member per device ([`Group::run`]) over
//! the in-process transport.

use shoal::{Element, Result};
use shoal_kernels::{Op, Operation, Scalar, SortOrder, Value};

use crate::group::Group;
use crate::histogram::histogram_part;
use crate::keys::SpreadKey;
use crate::meter::Meter;
use crate::part::{Part, Spread};
use crate::reduce::reduce_part;
use crate::scan::{ScanKind, scan_part};
use crate::sort::sample_sort;

impl Group {
    /// `op` over every element of `spread`: each device reduces its part, and the partial
    /// results are combined in part order on the first device.
    pub fn reduce<T: Value>(&self, spread: &Spread<T>, op: impl Into<Operation>) -> Result<T> {
        self.check(spread)?;
        let op = op.into();
        let values = self
            .run(|comm, rank| reduce_part(comm, &self.members()[rank], &spread.parts[rank], op))?;
        values
            .into_iter()
            .next()
            .ok_or_else(|| shoal::Error::Readback("spread reduce: no member".into()))
    }

    /// The scan of `spread` by `op`, a spread buffer over the same parts: each device scans its
    /// part and adds the combined totals of the parts before it.
    pub fn scan<T: Scalar>(&self, spread: &Spread<T>, op: Op, kind: ScanKind) -> Result<Spread<T>> {
        self.check(spread)?;
        let parts = self.run(|comm, rank| {
            scan_part(comm, &self.members()[rank], &spread.parts[rank], op, kind)
        })?;
        Ok(Spread { parts })
    }

    /// The histogram of `spread` in `bins` bins, as [`shoal_kernels::Histogram`] counts.
    pub fn histogram(&self, spread: &Spread<u32>, bins: u32) -> Result<Vec<u32>> {
        self.check(spread)?;
        let counts = self.run(|comm, rank| {
            histogram_part(comm, &self.members()[rank], &spread.parts[rank], bins)
        })?;
        Ok(counts.into_iter().next().unwrap_or_default())
    }

    /// `keys` sorted in `order` over the devices (a sample sort): the result's parts follow
    /// each other in order, each on its device, their lengths near even (not the input's).
    ///
    /// ```
    /// # fn main() -> Result<(), shoal::Error> {
    /// use shoal_kernels::SortOrder;
    /// let group = shoal_scale::Group::same_adapter(2, Default::default())?;
    /// let keys = group.split_even(&[5u32, 3, 9, 1, 7, 3])?;
    /// let sorted = group.sort(keys, SortOrder::Ascending)?;
    /// assert_eq!(sorted.read()?, [1, 3, 3, 5, 7, 9]);
    /// # Ok(()) }
    /// ```
    pub fn sort<K: SpreadKey>(&self, keys: Spread<K>, order: SortOrder) -> Result<Spread<K>> {
        Ok(self.sort_measured::<K, u32>(keys, None, order)?.0)
    }

    /// Keys with a value each sorted by key in `order`, stable: equal keys keep their order in
    /// the whole.
    pub fn sort_pairs<K: SpreadKey, V: Element>(
        &self,
        keys: Spread<K>,
        values: Spread<V>,
        order: SortOrder,
    ) -> Result<(Spread<K>, Spread<V>)> {
        let (keys, values, _) = self.sort_measured(keys, Some(values), order)?;
        let values =
            values.ok_or_else(|| shoal::Error::Readback("spread sort: values lost".into()))?;
        Ok((keys, values))
    }

    /// [`sort`](Self::sort) or [`sort_pairs`](Self::sort_pairs) (with `values`), with each
    /// device's [`Meter`]: its time in local work and in the exchange, and the bytes it sent.
    #[expect(
        clippy::type_complexity,
        reason = "keys, values and one meter per device"
    )]
    pub fn sort_measured<K: SpreadKey, V: Element>(
        &self,
        keys: Spread<K>,
        values: Option<Spread<V>>,
        order: SortOrder,
    ) -> Result<(Spread<K>, Option<Spread<V>>, Vec<Meter>)> {
        self.check(&keys)?;
        if let Some(v) = &values {
            self.check(v)?;
        }
        let keys = take_parts(keys.parts);
        let values = values.map(|v| take_parts(v.parts));
        let results = self.run(|comm, rank| {
            let taken = (|| {
                let k = take(&keys[rank])?;
                let v = match &values {
                    Some(v) => Some(take(&v[rank])?),
                    None => None,
                };
                Ok((k, v))
            })();
            // Agreed like any step: a member that returned alone would leave the others waiting.
            let (k, v) = crate::transport::step(comm, taken)?;
            let mut meter = Meter::default();
            let (k, v) = sample_sort(comm, &self.members()[rank], k, v, order, &mut meter)?;
            Ok((k, v, meter))
        })?;
        let mut out = (Vec::new(), Vec::new(), Vec::new());
        for (k, v, m) in results {
            out.0.push(k);
            out.1.extend(v);
            out.2.push(m);
        }
        let values = values.map(|_| Spread { parts: out.1 });
        Ok((Spread { parts: out.0 }, values, out.2))
    }
}

/// Parts handed to the member threads, each taken once.
fn take_parts<T: Element>(parts: Vec<Part<T>>) -> Vec<std::sync::Mutex<Option<Part<T>>>> {
    parts
        .into_iter()
        .map(|p| std::sync::Mutex::new(Some(p)))
        .collect()
}

fn take<T: Element>(slot: &std::sync::Mutex<Option<Part<T>>>) -> Result<Part<T>> {
    slot.lock()
        .unwrap_or_else(|p| p.into_inner())
        .take()
        .ok_or_else(|| shoal::Error::Readback("spread sort: a part taken twice".into()))
}
