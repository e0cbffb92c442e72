// Raw buffers: a `ByteAddressBuffer` of packed pairs read with `Load`, their products written
// to an `RWByteAddressBuffer` with `Store`, addresses in bytes.

ByteAddressBuffer gPairs : register(t0);
RWByteAddressBuffer gProducts : register(u0);

[numthreads(64, 1, 1)]
void MultiplyCS(uint3 id : SV_DispatchThreadID)
{
    uint bytes;
    gProducts.GetDimensions(bytes);
    if (id.x * 4 >= bytes)
        return;
    uint a = gPairs.Load(id.x * 8);
    uint b = gPairs.Load(id.x * 8 + 4);
    gProducts.Store(id.x * 4, a * b);
}
