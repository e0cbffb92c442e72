// The Direct3D 12 book's separable Gaussian blur ("The Compute Shader", Blur Demo): a thread
// group of N threads blurs N texels of a row (or column) from a groupshared cache of N + 2R
// texels, the first and last R threads loading one texel more, all clamped at the image border.
//
// Repairs of the document's damaged text: the lost line breaks restored; `#include
// "Shaders/Common.hls1"` dropped (nothing of it is used); `CacheSize $(N + 2*gMax BlurRadius)`
// read as `(N + 2*gMaxBlurRadius)`; `groupId.x` and `gGroupThreadID.y` read as
// `groupThreadID.x` and `groupThreadID.y`; `zuint3` read as `uint3`; the commented-out
// `// float4BlurColor = float4(0, 0, 0, 0);` restored as the declaration `float4 blurColor`
// (the loop adds to it); `gBlurInputInd ex` / `gBlurOutputInd dex` read as the cbuffer's index
// names. Edits for Shoal: the `ResourceDescriptorHeap[...]` lines became registers (the cbuffer
// keeps its index members, unused), and the final store is guarded to the image (D3D drops an
// out-of-bounds write; WebGPU does not promise to).

cbuffer BlurDispatchCB : register(b0)
{
    float4 gWeightVec[8]; // 8*4 = 32 floats for max blur radius of 15.
    int gBlurRadius;
    uint gBlurInputIndex;
    uint gBlurOutputIndex;
    uint BlurDispatchCB_Pad0;
};

Texture2D gInput : register(t0);
RWTexture2D<float4> gOutput : register(u0);

static const int gMaxBlurRadius = 15;

#define N 256
#define CacheSize (N + 2*gMaxBlurRadius)
groupshared float4 gCache[CacheSize];

[numthreads(N, 1, 1)]
void HorzBlurCS(uint3 groupThreadID : SV_GroupThreadID,
                uint3 dispatchThreadID : SV_DispatchThreadID)
{
    uint2 imgDims;
    gInput.GetDimensions(imgDims.x, imgDims.y);
    // Fill local thread storage to reduce bandwidth. To blur
    // N pixels, we will need to load N + 2*BlurRadius pixels
    // due to the blur radius.
    // This thread group runs N threads. To get the extra
    // 2*BlurRadius pixels, have 2*BlurRadius threads
    // sample an extra pixel.
    if (groupThreadID.x < gBlurRadius)
    {
        // Clamp out of bound samples that occur at image borders.
        // Note: Need int cast since subtracting.
        int x = max((int)dispatchThreadID.x - gBlurRadius, 0);
        gCache[groupThreadID.x] = gInput[uint2(x, dispatchThreadID.y)];
    }
    if (groupThreadID.x >= N - gBlurRadius)
    {
        // Clamp out of bound samples that occur at image borders.
        int x = min(dispatchThreadID.x + gBlurRadius, imgDims.x - 1);
        gCache[groupThreadID.x + 2*gBlurRadius] = gInput[uint2(x, dispatchThreadID.y)];
    }
    // Clamp out of bound samples that occur at image borders.
    gCache[groupThreadID.x + gBlurRadius] = gInput[min(dispatchThreadID.xy, imgDims - 1)];
    // Wait for all threads to finish.
    GroupMemoryBarrierWithGroupSync();
    // Now blur each pixel.
    float4 blurColor = float4(0, 0, 0, 0);
    for (int i = -gBlurRadius; i <= gBlurRadius; ++i)
    {
        int k = groupThreadID.x + gBlurRadius + i;
        int float4Index = (i + gBlurRadius) / 4;
        int slotIndex = (i + gBlurRadius) & 0x3;
        float weight = gWeightVec[float4Index][slotIndex];
        blurColor += weight*gCache[k];
    }
    if (dispatchThreadID.x < imgDims.x)
        gOutput[dispatchThreadID.xy] = blurColor;
}

[numthreads(1, N, 1)]
void VertBlurCS(uint3 groupThreadID : SV_GroupThreadID,
                uint3 dispatchThreadID : SV_DispatchThreadID)
{
    uint2 imgDims;
    gInput.GetDimensions(imgDims.x, imgDims.y);
    if (groupThreadID.y < gBlurRadius)
    {
        // Clamp out of bound samples that occur at image borders.
        // Note: Need int cast since subtracting.
        int y = max((int)dispatchThreadID.y - gBlurRadius, 0);
        gCache[groupThreadID.y] = gInput[uint2(dispatchThreadID.x, y)];
    }
    if (groupThreadID.y >= N - gBlurRadius)
    {
        // Clamp out of bound samples that occur at image borders.
        int y = min(dispatchThreadID.y + gBlurRadius, imgDims.y - 1);
        gCache[groupThreadID.y + 2*gBlurRadius] = gInput[uint2(dispatchThreadID.x, y)];
    }
    // Clamp out of bound samples that occur at image borders.
    gCache[groupThreadID.y + gBlurRadius] = gInput[min(dispatchThreadID.xy, imgDims - 1)];
    // Wait for all threads to finish.
    GroupMemoryBarrierWithGroupSync();
    // Now blur each pixel.
    float4 blurColor = float4(0, 0, 0, 0);
    for (int i = -gBlurRadius; i <= gBlurRadius; ++i)
    {
        int k = groupThreadID.y + gBlurRadius + i;
        int float4Index = (i + gBlurRadius) / 4;
        int slotIndex = (i + gBlurRadius) & 0x3;
        float weight = gWeightVec[float4Index][slotIndex];
        blurColor += weight*gCache[k];
    }
    if (dispatchThreadID.y < imgDims.y)
        gOutput[dispatchThreadID.xy] = blurColor;
}
