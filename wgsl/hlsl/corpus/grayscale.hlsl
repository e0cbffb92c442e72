// Grayscale: each texel's luminance into every channel of an rgba32f storage texture (the
// default format of an `RWTexture2D<float4>`).

Texture2D<float4> gSource : register(t0);
RWTexture2D<float4> gGray : register(u0);

[numthreads(8, 8, 1)]
void GrayCS(uint3 id : SV_DispatchThreadID)
{
    uint w, h;
    gGray.GetDimensions(w, h);
    if (id.x >= w || id.y >= h)
        return;
    float4 c = gSource.Load(int3(id.xy, 0));
    float y = dot(c.rgb, float3(0.2126f, 0.7152f, 0.0722f));
    gGray[id.xy] = float4(y, y, y, c.a);
}
