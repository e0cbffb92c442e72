// A 2x downsample with a bilinear sampler: a `Texture2D` and a `SamplerState` bound apart, read
// with `SampleLevel` at the centre of each 2x2 block.

Texture2D gFull : register(t0);
SamplerState gLinearClamp : register(s0);
[[vk::image_format("rgba8")]] RWTexture2D<float4> gHalf : register(u0);

[numthreads(8, 8, 1)]
void DownsampleCS(uint3 id : SV_DispatchThreadID)
{
    uint w, h;
    gHalf.GetDimensions(w, h);
    if (id.x >= w || id.y >= h)
        return;
    float2 uv = (float2(id.xy) + 0.5f) / float2(w, h);
    gHalf[id.xy] = gFull.SampleLevel(gLinearClamp, uv, 0);
}
