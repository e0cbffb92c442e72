//! Square f32 matrix products (n = side^2 elements per matrix), tiled and naive, against a
//! cache-friendly CPU loop. Entries are products of values in [-0.5, 0.5): the check allows the
//! rounding of a sum of `side` products.

use shoal::{Buffer, Commands, Gpu};
use shoal_kernels::{Matmul, MatmulArgs, MatmulKernel, Record, matmul_cpu};

use super::{data, err, nanos};
use crate::harness::{Case, Fut};

/// One product of two `side` x `side` matrices.
struct MatmulCase {
    mm: Matmul,
    kernel: MatmulKernel,
    side: u32,
    a_host: Vec<f32>,
    b_host: Vec<f32>,
    a: Buffer<f32>,
    b: Buffer<f32>,
    c: Buffer<f32>,
}

/// The matmul case with `kernel`.
pub(super) fn matmul_case(
    gpu: &Gpu,
    n: u64,
    kernel: MatmulKernel,
) -> Result<Box<dyn Case>, String> {
    let side = (n as f64).sqrt() as u32;
    let to_f = |v: Vec<u32>| {
        v.into_iter()
            .map(|x| x as f32 / 1000.0 - 0.5)
            .collect::<Vec<f32>>()
    };
    let (a_host, b_host) = (to_f(data(n, 1000)), to_f(data(n + 1, 1000)[1..].to_vec()));
    Ok(Box::new(MatmulCase {
        mm: Matmul::new(gpu).map_err(err)?,
        kernel,
        side,
        a: gpu.buffer_from(&a_host).map_err(err)?,
        b: gpu.buffer_from(&b_host).map_err(err)?,
        c: gpu.buffer_zeroed(n).map_err(err)?,
        a_host,
        b_host,
    }))
}

impl Case for MatmulCase {
    fn record(&mut self, c: &mut Commands) -> Result<(), shoal::Error> {
        let s = self.side;
        self.mm.record(
            c,
            MatmulArgs {
                a: &self.a,
                b: &self.b,
                c: &self.c,
                dims: [s, s, s],
                kernel: self.kernel,
            },
        )
    }
    fn verify(&mut self) -> Fut<'_, Result<(), String>> {
        Box::pin(async {
            let s = self.side as usize;
            let want = matmul_cpu(&self.a_host, &self.b_host, [s, s, s]);
            let got = self.c.read().await.map_err(err)?;
            // Entries are sums of s products of magnitude <= 0.25.
            let bound = (s as f32 + 2.0) * f32::EPSILON * 0.25 * s as f32;
            match got
                .iter()
                .zip(&want)
                .position(|(g, w)| (g - w).abs() > bound)
            {
                Some(i) => Err(format!("index {i}: gpu {} cpu {}", got[i], want[i])),
                None => Ok(()),
            }
        })
    }
    fn cpu(&mut self) -> f64 {
        let s = self.side as usize;
        let (a, b) = (&self.a_host, &self.b_host);
        nanos(|| {
            let mut c = vec![0f32; s * s];
            for i in 0..s {
                for p in 0..s {
                    let x = a[i * s + p];
                    for (cj, bj) in c[i * s..(i + 1) * s].iter_mut().zip(&b[p * s..(p + 1) * s]) {
                        *cj += x * bj;
                    }
                }
            }
            std::hint::black_box(c);
        })
    }
}
