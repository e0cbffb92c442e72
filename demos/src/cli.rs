//! The demos' command line: `--headless --frames N --out FILE.png --size WxH`.

/// How a demo runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Render offscreen and write a PNG instead of opening a window.
    pub headless: bool,
    /// Frames to run headless (the last is written).
    pub frames: u32,
    /// Where the PNG goes.
    pub out: Option<std::path::PathBuf>,
    /// Render size.
    pub size: [u32; 2],
    /// Demo-specific mode (e.g. the blur's `gaussian`, `sobel`, ...).
    pub mode: Option<String>,
}

impl Options {
    /// Parses `args` (without the program name); `default_size` when `--size` is absent.
    pub fn parse(
        args: impl IntoIterator<Item = String>,
        default_size: [u32; 2],
    ) -> Result<Self, String> {
        let mut o = Self {
            headless: false,
            frames: 1,
            out: None,
            size: default_size,
            mode: None,
        };
        let mut args = args.into_iter();
        while let Some(a) = args.next() {
            let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
            match a.as_str() {
                "--headless" => o.headless = true,
                "--frames" => {
                    o.frames = value("--frames")?
                        .parse()
                        .map_err(|e| format!("--frames: {e}"))?
                }
                "--out" => o.out = Some(value("--out")?.into()),
                "--size" => {
                    let v = value("--size")?;
                    let (w, h) = v.split_once('x').ok_or("--size takes WxH")?;
                    o.size = [
                        w.parse().map_err(|e| format!("--size: {e}"))?,
                        h.parse().map_err(|e| format!("--size: {e}"))?,
                    ];
                }
                "--mode" => o.mode = Some(value("--mode")?),
                "-h" | "--help" => {
                    return Err("options: [--headless] [--frames N] [--out FILE.png] [--size WxH] [--mode NAME]".into());
                }
                other => return Err(format!("unknown option `{other}`")),
            }
        }
        if o.frames == 0 {
            return Err("--frames must be at least 1".into());
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::Options;

    #[test]
    fn parses_the_headless_form() {
        let args = [
            "--headless",
            "--frames",
            "3",
            "--out",
            "x.png",
            "--size",
            "64x32",
            "--mode",
            "sobel",
        ];
        let o = Options::parse(args.map(String::from), [8, 8]).expect("parses");
        assert!(o.headless);
        assert_eq!(
            (o.frames, o.size, o.mode.as_deref()),
            (3, [64, 32], Some("sobel"))
        );
        assert!(Options::parse(["--frames".to_string()], [8, 8]).is_err());
        assert!(Options::parse(["--bogus".to_string()], [8, 8]).is_err());
    }
}
