// Texture add, the Direct3D 12 book's first compute shader ("The Compute Shader", A Simple
// Compute Shader): the sum of two textures, texel by texel, in 16x16 thread groups.
//
// Edits from the book's text, each for Shoal: the `ResourceDescriptorHeap[...]` lines became
// registers (the cbuffer of descriptor indices went with them), and a guard skips threads past
// the image (D3D drops such a write; WebGPU does not promise to).

Texture2D gInputA : register(t0);
Texture2D gInputB : register(t1);
RWTexture2D<float4> gOutput : register(u0);

[numthreads(16, 16, 1)]
void CS(int3 dispatchThreadID : SV_DispatchThreadID)
{
    uint width, height;
    gOutput.GetDimensions(width, height);
    if (dispatchThreadID.x >= width || dispatchThreadID.y >= height)
        return;
    // Sum the xyth texels and store the result in the xyth texel of gOutput.
    gOutput[dispatchThreadID.xy] = gInputA[dispatchThreadID.xy] + gInputB[dispatchThreadID.xy];
}
