// The Direct3D 12 book's Sobel edge detection (exercise 6 of "The Compute Shader"): the inverted
// edge image, 1 - saturate(luminance(|gradient|)), from each texel's 3x3 neighbourhood.
//
// Repairs of the document's text: the lost line breaks restored, and `Gy`'s `- 1.0f*c[2][1]`
// (c[2][1] twice, no c[2][2]) read as `- 1.0f*c[2][2]`: the Sobel operator's vertical kernel is
// the horizontal one transposed. Edits for Shoal: the `ResourceDescriptorHeap[...]` lines became
// registers; the neighbourhood is clamped to the image and threads past it skipped (D3D returns
// zero for an out-of-bounds read and drops such a write; WebGPU promises neither).

Texture2D gInput : register(t0);
RWTexture2D<float4> gOutput : register(u0);

// Approximates luminance ("brightness") from an RGB value.
// These weights are derived from experiment based on eye
// sensitivity to different wavelengths of light.
float CalcLuminance(float3 color)
{
    return dot(color, float3(0.299f, 0.587f, 0.114f));
}

[numthreads(16, 16, 1)]
void SobelCS(int3 dispatchThreadID : SV_DispatchThreadID)
{
    uint width, height;
    gInput.GetDimensions(width, height);
    int2 last = int2(width, height) - 1;
    if (any(dispatchThreadID.xy > last))
        return;
    // Sample the pixels in the neighborhood of this pixel.
    float4 c[3][3];
    for (int i = 0; i < 3; ++i)
    {
        for (int j = 0; j < 3; ++j)
        {
            int2 xy = clamp(dispatchThreadID.xy + int2(-1 + j, -1 + i), int2(0, 0), last);
            c[i][j] = gInput[xy];
        }
    }
    // For each color channel, estimate partial x derivative
    // using Sobel scheme.
    float4 Gx = -1.0f*c[0][0] - 2.0f*c[1][0] - 1.0f*c[2][0] + 1.0f*c[0][2] + 2.0f*c[1][2] + 1.0f*c[2][2];
    // For each color channel, estimate partial y derivative
    // using Sobel scheme.
    float4 Gy = -1.0f*c[2][0] - 2.0f*c[2][1] - 1.0f*c[2][2] + 1.0f*c[0][0] + 2.0f*c[0][1] + 1.0f*c[0][2];
    // Gradient is (Gx, Gy). For each color channel, compute magnitude
    // to get maximum rate of change.
    float4 mag = sqrt(Gx*Gx + Gy*Gy);
    // Make edges black, and nonedges white.
    mag = 1.0f - saturate(CalcLuminance(mag.rgb));
    gOutput[dispatchThreadID.xy] = mag;
}
