//! What the messages of [`Error`](super::Error) put together from their fields.

/// `items` joined with commas, or `none`.
pub(super) fn list_or_none(items: &[String]) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}

/// How to install the adapter `requested` names, where Shoal knows it.
pub(super) fn hint(requested: &str) -> &'static str {
    match requested {
        "vulkan" => " (on Debian: apt-get install mesa-vulkan-drivers libvulkan1)",
        "gl" => " (on Debian: apt-get install libegl1 libgl1-mesa-dri)",
        _ => "",
    }
}
