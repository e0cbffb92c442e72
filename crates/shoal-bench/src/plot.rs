//! The SVG plot of a run: time relative to the copy kernel against n, log-log, one line per
//! primitive. Hand-written, a `format!` a line: the fields are our own numbers and names (no
//! markup in them), and a plotting crate would be more to build than the lines it would replace.

use crate::harness::Row;

/// A log-log plot of time relative to the copy kernel against n, one line per primitive.
pub fn svg(rows: &[Row], adapter: &str) -> String {
    let (w, h, left, right, top, bottom) = (760.0, 420.0, 70.0, 230.0, 40.0, 50.0);
    let names: Vec<&str> = rows.iter().fold(Vec::new(), |mut v, r| {
        if !v.contains(&r.name.as_str()) {
            v.push(r.name.as_str());
        }
        v
    });
    let xs: Vec<f64> = rows.iter().map(|r| (r.n as f64).log2()).collect();
    let ys: Vec<f64> = rows
        .iter()
        .map(|r| (r.gpu_ms / r.copy_ms).log10())
        .collect();
    let (x0, x1) = (
        xs.iter().copied().fold(f64::MAX, f64::min) - 0.5,
        xs.iter().copied().fold(f64::MIN, f64::max) + 0.5,
    );
    let (y0, y1) = (
        ys.iter().copied().fold(0.0, f64::min).floor(),
        ys.iter().copied().fold(1.0, f64::max).ceil(),
    );
    let px = |x: f64| left + (x - x0) / (x1 - x0) * (w - left - right);
    let py = |y: f64| h - bottom - (y - y0) / (y1 - y0) * (h - top - bottom);
    let colours = [
        "#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666",
        "#1f78b4", "#b2df8a",
    ];
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"20\" font-size=\"14\">GPU time / vec4 copy of the same bytes ({adapter})</text>\n"
    );
    let mut decade = y0;
    while decade <= y1 {
        let y = py(decade);
        s.push_str(&format!(
            "<line x1=\"{left}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"#ddd\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}x</text>\n",
            w - right,
            left - 6.0,
            y + 4.0,
            10f64.powf(decade)
        ));
        decade += 1.0;
    }
    for x in (x0.ceil() as u32)..=(x1.floor() as u32) {
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">2^{x}</text>\n",
            px(x as f64),
            h - bottom + 18.0
        ));
    }
    s.push_str(&format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">n (elements)</text>\n",
        (left + w - right) / 2.0,
        h - 10.0
    ));
    for (k, name) in names.iter().enumerate() {
        let colour = colours[k % colours.len()];
        let points: Vec<String> = rows
            .iter()
            .zip(xs.iter().zip(&ys))
            .filter(|(r, _)| r.name == *name)
            .map(|(_, (&x, &y))| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        s.push_str(&format!(
            "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>\n",
            points.join(" ")
        ));
        for p in &points {
            let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
            s.push_str(&format!(
                "<circle cx=\"{x}\" cy=\"{y}\" r=\"3\" fill=\"{colour}\"/>\n"
            ));
        }
        let ly = top + 10.0 + k as f64 * 18.0;
        s.push_str(&format!(
            "<line x1=\"{:.1}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{colour}\" stroke-width=\"3\"/><text x=\"{:.1}\" y=\"{:.1}\">{name}</text>\n",
            w - right + 10.0,
            w - right + 30.0,
            w - right + 36.0,
            ly + 4.0
        ));
    }
    s.push_str("</svg>\n");
    s
}
