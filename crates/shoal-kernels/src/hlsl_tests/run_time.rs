//! `Source::hlsl` at run time (native, hot reload) is the macro's translation, and its mistakes
//! are typed errors with the file, the line and the remedy.

use shoal::Source;

#[test]
fn hlsl_at_run_time_equals_the_macro() {
    let text = include_str!("../../wgsl/hlsl/blur.hlsl");
    let source = Source::hlsl("wgsl/hlsl/blur.hlsl", text, "HorzBlurCS").expect("translates");
    assert_eq!(source.text(), super::BLUR_H.text());
    assert_eq!(super::BLUR_H.path(), "wgsl/hlsl/blur.hlsl");
}

#[test]
fn hlsl_errors_are_typed_with_file_line_and_remedy() {
    let broken = "RWStructuredBuffer<float> o : register(u0);\n[numthreads(1, 1, 1)]\nvoid CS() {\n    o[0] = nope;\n}\n";
    match Source::hlsl("edited/broken.hlsl", broken, "CS") {
        Err(shoal::Error::Hlsl(shoal::HlslError::Compile { kernel, message })) => {
            assert_eq!(kernel, "edited/broken.hlsl");
            assert!(message.contains("edited/broken.hlsl:4:"), "{message}");
        }
        other => panic!("{other:?}"),
    }
    let bindless = "RWStructuredBuffer<float> o : register(u0);\n[numthreads(1, 1, 1)]\nvoid CS() {\n    Texture2D t = ResourceDescriptorHeap[0];\n    o[0] = t[int2(0, 0)].x;\n}\n";
    match Source::hlsl("k.hlsl", bindless, "CS") {
        Err(e @ shoal::Error::Hlsl(shoal::HlslError::Unsupported { .. })) => {
            let text = e.to_string();
            assert!(
                text.contains("k.hlsl:4")
                    && text.contains("ResourceDescriptorHeap")
                    && text.contains("register(t0)"),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
}
