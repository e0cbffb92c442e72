//! Shared pieces of the demo binaries: the [`Demo`](demo::Demo) trait with its headless and
//! windowed runners, the command line, the full-screen blit, and a text table. Built for wasm32
//! (as a cdylib, by `cargo xtask web`), the library is also the web site's code: see [`web`].

pub mod all;
pub mod blit;
pub mod blur;
pub mod boids;
pub mod cli;
pub mod demo;
pub mod draw;
pub mod grid;
pub mod particles;
pub mod primitives;
pub mod raytrace;
#[cfg(not(target_arch = "wasm32"))]
pub mod reload;
pub mod splat;
pub mod waves;
#[cfg(target_arch = "wasm32")]
pub mod web;
#[cfg(not(target_arch = "wasm32"))]
pub mod window;

// The headless renders are checked natively (their tests block on pollster's executor).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

/// Prints rows as an aligned text table with a header.
pub fn print_table(header: &[&str], rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<String>| {
        let padded: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        println!("  {}", padded.join("  ").trim_end());
    };
    line(header.iter().map(|h| h.to_string()).collect());
    line(widths.iter().map(|w| "-".repeat(*w)).collect());
    for row in rows {
        line(row.clone());
    }
}
