// Stream compaction with an `AppendStructuredBuffer`: every even value is appended, in no
// particular order (Shoal's append buffer: an append past the capacity is dropped and counted).

StructuredBuffer<uint> gValues : register(t0);
AppendStructuredBuffer<uint> gEven : register(u0);

[numthreads(64, 1, 1)]
void KeepEvenCS(uint3 id : SV_DispatchThreadID)
{
    uint count, stride;
    gValues.GetDimensions(count, stride);
    if (id.x < count && gValues[id.x] % 2 == 0)
        gEven.Append(gValues[id.x]);
}
