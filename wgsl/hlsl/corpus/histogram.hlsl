// A 16-bin histogram with groupshared bins: each group counts into its own bins with
// InterlockedAdd, then adds them to the global bins. `SV_GroupIndex` names the thread.

#define BINS 16

StructuredBuffer<uint> gValues : register(t0);
RWStructuredBuffer<uint> gBins : register(u0);

groupshared uint gLocal[BINS];

[numthreads(64, 1, 1)]
void HistogramCS(uint index : SV_GroupIndex, uint3 did : SV_DispatchThreadID)
{
    if (index < BINS)
        gLocal[index] = 0;
    GroupMemoryBarrierWithGroupSync();
    uint count, stride;
    gValues.GetDimensions(count, stride);
    if (did.x < count)
        InterlockedAdd(gLocal[gValues[did.x] % BINS], 1);
    GroupMemoryBarrierWithGroupSync();
    if (index < BINS)
        InterlockedAdd(gBins[index], gLocal[index]);
}
