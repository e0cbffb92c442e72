//! Sorts 2^20 keys spread over one adapter opened `DEVICES` times (2 unless set), checked
//! against the CPU. `cargo run -p shoal-scale --example devices_sort`
use shoal_kernels::SortOrder;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let devices: usize = std::env::var("DEVICES").map_or(Ok(2), |d| d.parse())?;
    let group = shoal_scale::Group::same_adapter(devices, Default::default())?;
    let keys: Vec<u32> = (0..1u32 << 20)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    let sorted = group.sort(group.split_even(&keys)?, SortOrder::Ascending)?;
    let mut want = keys;
    want.sort_unstable();
    if sorted.read()? != want {
        return Err("devices_sort: the devices' order differs from the CPU's".into());
    }
    println!(
        "devices_sort: {} keys over {devices} devices, parts of {:?}",
        want.len(),
        sorted.lens()
    );
    Ok(())
}
