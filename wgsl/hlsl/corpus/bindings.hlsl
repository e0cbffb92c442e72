// Engine-style bindings: explicit `[[vk::binding(n, set)]]` numbers beside registers in two
// spaces, one `b0`, `t0`, `s0` and `u0` each (which must not share a binding).

[[vk::binding(0, 0)]] StructuredBuffer<float4> gPositions;
[[vk::binding(1, 0)]] RWStructuredBuffer<float> gDistances;
cbuffer ViewCB : register(b0)
{
    float4 gEye;
};
Texture2D<float> gMask : register(t0);
SamplerState gPoint : register(s0);
RWStructuredBuffer<uint> gVisible : register(u0, space1);

[numthreads(64, 1, 1)]
void DistanceCS(uint3 id : SV_DispatchThreadID)
{
    uint count, stride;
    gDistances.GetDimensions(count, stride);
    if (id.x >= count)
        return;
    float d = distance(gPositions[id.x].xyz, gEye.xyz);
    gDistances[id.x] = d;
    float m = gMask.SampleLevel(gPoint, float2(0.5f, 0.5f), 0);
    gVisible[id.x] = d * m < 10.0f ? 1 : 0;
}
