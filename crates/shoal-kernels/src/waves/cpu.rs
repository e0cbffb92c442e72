//! The CPU twin of `wgsl/waves.wgsl` (the book's `Waves` class): the same update in the same
//! order, the border held at zero.

/// Heights of the previous and current solutions, row by row.
#[derive(Debug, Clone, PartialEq)]
pub struct WavesCpu {
    /// Texels per row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The previous solution.
    pub prev: Vec<f32>,
    /// The current solution.
    pub curr: Vec<f32>,
    /// k1, k2, k3.
    pub k: [f32; 3],
}

impl WavesCpu {
    /// A flat surface.
    pub fn new(width: u32, height: u32, k: [f32; 3]) -> Self {
        let n = (width * height) as usize;
        Self {
            width,
            height,
            prev: vec![0.0; n],
            curr: vec![0.0; n],
            k,
        }
    }

    /// One step ([`waves_step_cpu`]), then the solutions rotate.
    pub fn step(&mut self) {
        let next = waves_step_cpu(&self.prev, &self.curr, self.width, self.height, self.k);
        self.prev = std::mem::replace(&mut self.curr, next);
    }

    /// The book's `Disturb`: the texel rises by `magnitude`, its four neighbours by half.
    pub fn disturb(&mut self, x: u32, y: u32, magnitude: f32) {
        let (w, i) = (self.width as usize, (y * self.width + x) as usize);
        self.curr[i] += magnitude;
        for j in [i + 1, i - 1, i + w, i - w] {
            self.curr[j] += 0.5 * magnitude;
        }
    }
}

/// One step of the book's update on a `width` x `height` grid, row by row: next = k1·prev +
/// k2·curr + k3·(up + down + right + left) in that order of additions, the border zero.
pub fn waves_step_cpu(
    prev: &[f32],
    curr: &[f32],
    width: u32,
    height: u32,
    k: [f32; 3],
) -> Vec<f32> {
    let (w, h) = (width as usize, height as usize);
    let [k1, k2, k3] = k;
    let mut next = vec![0.0f32; w * h];
    for y in 1..h.saturating_sub(1) {
        for x in 1..w.saturating_sub(1) {
            let i = y * w + x;
            let c = curr;
            next[i] = k1 * prev[i] + k2 * c[i] + k3 * (c[i + w] + c[i - w] + c[i + 1] + c[i - 1]);
        }
    }
    next
}

/// A discrete energy of the surface: kinetic Σ((curr − prev)/dt)² plus potential
/// c² Σ|∇curr|²/dx² over the grid's edges, halved. Constant for the undamped continuous
/// equation; damping makes it fall.
pub fn energy(prev: &[f32], curr: &[f32], width: u32, speed: f32, dt: f32, dx: f32) -> f64 {
    let w = width as usize;
    let mut kinetic = 0.0f64;
    let mut potential = 0.0f64;
    for i in 0..curr.len() {
        let v = ((curr[i] - prev[i]) / dt) as f64;
        kinetic += v * v;
        if (i + 1) % w != 0 {
            let g = ((curr[i + 1] - curr[i]) / dx) as f64;
            potential += g * g;
        }
        if i + w < curr.len() {
            let g = ((curr[i + w] - curr[i]) / dx) as f64;
            potential += g * g;
        }
    }
    0.5 * (kinetic + (speed * speed) as f64 * potential)
}
