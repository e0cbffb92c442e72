// A 3D storage texture: each voxel of an r32f volume set to its distance from the centre, the
// `[[vk::image_format]]` naming the format (`RWTexture3D<float>`).

[[vk::image_format("r32f")]] RWTexture3D<float> gVolume : register(u0);

[numthreads(4, 4, 4)]
void FillCS(uint3 id : SV_DispatchThreadID)
{
    uint w, h, d;
    gVolume.GetDimensions(w, h, d);
    if (any(id >= uint3(w, h, d)))
        return;
    float3 centre = float3(w, h, d) * 0.5f;
    gVolume[id] = length(float3(id) + 0.5f - centre);
}
