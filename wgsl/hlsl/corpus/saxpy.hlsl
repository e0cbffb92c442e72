// SAXPY, y = a*x + y, in the style of a D3D12 sample: a cbuffer of parameters, a read-only and a
// read-write structured buffer, one thread per element with a bounds check.

cbuffer SaxpyCB : register(b0)
{
    float gA;
    uint gCount;
};

StructuredBuffer<float> gX : register(t0);
RWStructuredBuffer<float> gY : register(u0);

[numthreads(64, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID)
{
    if (id.x >= gCount)
        return;
    gY[id.x] = gA * gX[id.x] + gY[id.x];
}
