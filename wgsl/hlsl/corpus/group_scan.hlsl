// An inclusive prefix sum per group of 64 (Hillis-Steele through groupshared memory, two
// barriers per step so no thread reads a value being written).

groupshared float gScan[64];

RWStructuredBuffer<float> gData : register(u0);

float Read(uint i, uint count)
{
    return i < count ? gData[i] : 0.0f;
}

[numthreads(64, 1, 1)]
void ScanCS(uint3 tid : SV_GroupThreadID, uint3 did : SV_DispatchThreadID)
{
    uint count, stride;
    gData.GetDimensions(count, stride);
    gScan[tid.x] = Read(did.x, count);
    GroupMemoryBarrierWithGroupSync();
    for (uint offset = 1; offset < 64; offset <<= 1)
    {
        float add = tid.x >= offset ? gScan[tid.x - offset] : 0.0f;
        GroupMemoryBarrierWithGroupSync();
        gScan[tid.x] += add;
        GroupMemoryBarrierWithGroupSync();
    }
    if (did.x < count)
        gData[did.x] = gScan[tid.x];
}
