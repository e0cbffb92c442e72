// Root constants as Vulkan HLSL writes them: `[[vk::push_constant]]` on a plain struct (which
// glslang alone would make a member of a uniform buffer) scales and offsets the first `count`
// values; Shoal makes it a `var<immediate>`, set per dispatch with `.immediates(&value)`.

struct ScaleConstants
{
    float scale;
    float offset;
    uint count;
};

[[vk::push_constant]] ScaleConstants pc;

RWStructuredBuffer<float> gData : register(u0);

[numthreads(64, 1, 1)]
void ScaleCS(uint3 id : SV_DispatchThreadID)
{
    if (id.x < pc.count)
        gData[id.x] = gData[id.x] * pc.scale + pc.offset;
}
