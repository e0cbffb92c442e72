// A per-group tree reduction through groupshared memory: each group of 128 threads sums its 128
// inputs (zero past the end) and thread 0 writes the group's sum.

#define GROUP 128

StructuredBuffer<uint> gInput : register(t0);
RWStructuredBuffer<uint> gSums : register(u0);

groupshared uint gPartial[GROUP];

[numthreads(GROUP, 1, 1)]
void ReduceCS(uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint3 did : SV_DispatchThreadID)
{
    uint count, stride;
    gInput.GetDimensions(count, stride);
    gPartial[tid.x] = did.x < count ? gInput[did.x] : 0;
    GroupMemoryBarrierWithGroupSync();
    [unroll]
    for (uint s = GROUP / 2; s > 0; s >>= 1)
    {
        if (tid.x < s)
            gPartial[tid.x] += gPartial[tid.x + s];
        GroupMemoryBarrierWithGroupSync();
    }
    if (tid.x == 0)
        gSums[gid.x] = gPartial[0];
}
