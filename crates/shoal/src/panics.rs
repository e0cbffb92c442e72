//! Panics reported where a page can show them: in wasm32 a panic is a trap, and the page would
//! just stop with nothing said. The demos' site and the bench page both install this hook.

use std::sync::Once;

/// Installs, once per process, a panic hook that passes `"panic: "` and the panic's message and
/// place to `report` (e.g. a page's function that shows an error and sets the flag its automation
/// waits for), then runs the hook that was installed before (natively, the message on stderr).
/// Later calls change nothing: the first reporter stays.
///
/// ```
/// fn report(message: &str) {
///     // A page would show it; here, the standard error.
///     eprintln!("{message}");
/// }
/// shoal::report_panics(report);
/// ```
pub fn report_panics(report: fn(&str)) {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            report(&format!("panic: {info}"));
            previous(info);
        }));
    });
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use std::sync::Mutex;

    use super::report_panics;

    static REPORTED: Mutex<Vec<String>> = Mutex::new(Vec::new());

    fn record(message: &str) {
        if let Ok(mut reported) = REPORTED.lock() {
            reported.push(message.to_string());
        }
    }

    fn ignore(_: &str) {}

    #[test]
    fn a_panic_reaches_the_first_reporter_with_its_message() {
        report_panics(record);
        report_panics(ignore);
        let caught = std::panic::catch_unwind(|| panic!("boom {}", 42));
        assert!(caught.is_err());
        let reported = REPORTED.lock().expect("not poisoned").clone();
        // Other tests of this binary may panic meanwhile: look for this one's message.
        assert!(
            reported
                .iter()
                .any(|m| m.starts_with("panic: ") && m.contains("boom 42")),
            "{reported:?}"
        );
    }
}
