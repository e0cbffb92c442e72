// The 2D wave equation of the Direct3D 12 book (exercise 5 of "The Compute Shader"), written in
// the chapter's HLSL from its integer-index version: each step writes
//
//   next = k0*prev + k1*curr + k2*(curr[x, y+1] + curr[x, y-1] + curr[x+1, y] + curr[x-1, y])
//
// into an r32float image, the host rotating the three images; `DisturbWavesCS` is the exercise's
// single-thread shader that raises one texel by the magnitude and its four neighbours by half.
//
// Repairs of the document's text: `gWaveConstants0..2` read as the cbuffer's `gWaveConstant0..2`.
// Edits for Shoal: the `ResourceDescriptorHeap[...]` lines became registers (the cbuffer keeps
// its index members, unused); as in the book's CPU `Waves` class, the border is held at zero
// (D3D returns zero for the reads past the image that the book's shader makes; WebGPU does not).

cbuffer cbUpdateSettings : register(b0)
{
    float gWaveConstant0;
    float gWaveConstant1;
    float gWaveConstant2;
    float gDisturbMag;
    int2 gDisturbIndex;
    uint gIndexA;
    uint gIndexB;
    uint gOutputIndex;
};

Texture2D gPrevSolInput : register(t0);
Texture2D gCurrSolInput : register(t1);
[[vk::image_format("r32f")]] RWTexture2D<float> gNextSolOutput : register(u0);
[[vk::image_format("r32f")]] RWTexture2D<float> gOutput : register(u1);

[numthreads(16, 16, 1)]
void UpdateWavesCS(int3 dispatchThreadID : SV_DispatchThreadID)
{
    uint width, height;
    gCurrSolInput.GetDimensions(width, height);
    int x = dispatchThreadID.x;
    int y = dispatchThreadID.y;
    if (x >= (int)width || y >= (int)height)
        return;
    if (x == 0 || y == 0 || x == (int)width - 1 || y == (int)height - 1)
    {
        gNextSolOutput[int2(x, y)] = 0.0f;
        return;
    }
    gNextSolOutput[int2(x, y)] =
        gWaveConstant0*gPrevSolInput[int2(x, y)].r +
        gWaveConstant1*gCurrSolInput[int2(x, y)].r +
        gWaveConstant2*(
            gCurrSolInput[int2(x, y + 1)].r +
            gCurrSolInput[int2(x, y - 1)].r +
            gCurrSolInput[int2(x + 1, y)].r +
            gCurrSolInput[int2(x - 1, y)].r);
}

[numthreads(1, 1, 1)]
void DisturbWavesCS()
{
    int x = gDisturbIndex.x;
    int y = gDisturbIndex.y;
    float halfMag = 0.5f*gDisturbMag;
    // Buffer is RW so operator += is well defined.
    gOutput[int2(x, y)] += gDisturbMag;
    gOutput[int2(x + 1, y)] += halfMag;
    gOutput[int2(x - 1, y)] += halfMag;
    gOutput[int2(x, y + 1)] += halfMag;
    gOutput[int2(x, y - 1)] += halfMag;
}
