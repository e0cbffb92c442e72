// HLSL 2021's `select()` (a per-component choice) clamping values into a band: below the low
// bound they become 0, above the high bound 1, in between they stay.

cbuffer BandCB : register(b0)
{
    float gLow;
    float gHigh;
};

RWStructuredBuffer<float4> gValues : register(u0);

[numthreads(32, 1, 1)]
void ThresholdCS(uint3 id : SV_DispatchThreadID)
{
    uint count, stride;
    gValues.GetDimensions(count, stride);
    if (id.x >= count)
        return;
    float4 v = gValues[id.x];
    gValues[id.x] = select(v < gLow, float4(0, 0, 0, 0), select(v > gHigh, float4(1, 1, 1, 1), v));
}
