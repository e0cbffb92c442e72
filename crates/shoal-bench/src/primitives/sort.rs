//! Radix sorts of uniformly random 32-bit keys (all 32 bits: every pass does work), keys alone
//! beside lampshade's `Sorter`, and key-value pairs.

use shoal::{Buffer, Commands, Gpu};
use shoal_kernels::{RadixSort, Record, SortArgs, SortPairsArgs, SortParams};

use super::{data, err, nanos, peer_nanos, read, same};
use crate::harness::{Case, Fut};

/// Shoal's sort of keys or pairs; lampshade's sort of keys.
struct SortCase {
    sort: RadixSort,
    host: Vec<u32>,
    /// The unsorted keys: each run starts from a copy of them (the sort is in place).
    pristine: Buffer<u32>,
    keys: Buffer<u32>,
    /// For pairs: each value is its key's index in `pristine`.
    values: Option<Buffer<u32>>,
    /// lampshade's sorter and its configuration's name (keys only).
    peer: Option<(String, lampshade::Sorter)>,
    /// Where the peer writes.
    peer_out: Buffer<u32>,
}

/// The sort case: keys alone, or with `pairs` keys and values.
pub(super) fn sort_case(gpu: &Gpu, n: u64, pairs: bool) -> Result<Box<dyn Case>, String> {
    let host = data(n, 0);
    let (device, queue) = (gpu.device(), gpu.queue());
    // lampshade's 8-bit-digit sorter is reachable only through `new_for_adapter`, which picks
    // it for NVIDIA's Vulkan discrete GPUs with 32-wide subgroups (its 4-bit "wide" variant is
    // for key-value sorts on Intel and NVIDIA); everywhere else that constructor picks the
    // portable sort with 2-bit digits, and `RadixVariant` is private: nothing else to try.
    let peer = (!pairs).then(|| match gpu.adapter() {
        Some(a) => {
            let info = a.get_info();
            let name = if info.vendor == 0x10de && info.backend == shoal::wgpu::Backend::Vulkan {
                "Sorter::new_for_adapter (NVIDIA Vulkan: 8-bit digits where its rule allows)"
            } else {
                "Sorter::new_for_adapter (portable, 2-bit digits: its 8-bit path is NVIDIA Vulkan only)"
            };
            (name.to_string(), lampshade::Sorter::new_for_adapter(device, queue, &info))
        }
        None => (
            "Sorter::new (portable, 2-bit digits)".to_string(),
            lampshade::Sorter::new(device, queue),
        ),
    });
    let values = if pairs {
        Some(
            gpu.buffer_from(&(0..n as u32).collect::<Vec<_>>())
                .map_err(err)?,
        )
    } else {
        None
    };
    Ok(Box::new(SortCase {
        sort: RadixSort::new(gpu, SortParams::default()).map_err(err)?,
        pristine: gpu.buffer_from(&host).map_err(err)?,
        keys: gpu.buffer_zeroed(n).map_err(err)?,
        peer_out: gpu.buffer_zeroed(if pairs { 1 } else { n }).map_err(err)?,
        values,
        host,
        peer,
    }))
}

impl SortCase {
    /// The CPU twin: the keys sorted.
    fn want(&self) -> Vec<u32> {
        let mut want = self.host.clone();
        want.sort_unstable();
        want
    }
}

impl Case for SortCase {
    fn reset(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        // Every run starts from the unsorted keys.
        c.copy(&self.pristine, &self.keys)?;
        Ok(())
    }
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        match &self.values {
            Some(v) => self.sort.record(
                c,
                SortPairsArgs {
                    keys: &self.keys,
                    values: v,
                },
            ),
            None => self.sort.record(c, SortArgs { keys: &self.keys }),
        }
    }
    fn verify(&mut self) -> Fut<'_, Result<(), String>> {
        Box::pin(async {
            let got = read(&self.keys).await?;
            same(&got, &self.want())?;
            if let Some(v) = &self.values {
                // Values are permuted with their keys (each value indexes the pristine keys).
                let v = read(v).await?;
                if v.iter()
                    .zip(&got)
                    .any(|(&i, &k)| self.host.get(i as usize) != Some(&k))
                {
                    return Err("values did not follow their keys".into());
                }
            }
            Ok(())
        })
    }
    fn cpu(&mut self) -> f64 {
        let mut keys = self.host.clone();
        nanos(|| keys.sort_unstable())
    }
    fn peer_configs(&self) -> Vec<String> {
        self.peer.iter().map(|p| p.0.clone()).collect()
    }
    fn peer(&mut self, _config: usize, check: bool) -> Fut<'_, Result<f64, String>> {
        Box::pin(async move {
            let n = self.host.len() as u32;
            let Some((_, peer)) = self.peer.as_mut() else {
                return Err("no peer for pairs".into());
            };
            let t = peer_nanos(
                peer.profile_sort_gpu_to_gpu(self.pristine.raw(), self.peer_out.raw(), n)
                    .await,
            )?;
            if check {
                same(&read(&self.peer_out).await?, &self.want())?;
            }
            Ok(t)
        })
    }
}
