// VecAdd, the Direct3D 12 book's structured-buffer demo ("The Compute Shader", Structured
// Buffer Resources): the sum of two structured buffers of `Data`, one thread group of 32.
//
// Edits from the book's text, each for Shoal: the three `ResourceDescriptorHeap[...]` lines
// became registers (so the `DispatchCB` of descriptor indices went with them), and a guard
// skips threads past the buffer's end (the book dispatches exactly 32; WebGPU does not promise
// D3D's dropped out-of-bounds write).

struct Data
{
    float3 v1;
    float2 v2;
};

StructuredBuffer<Data> gInputA : register(t0);
StructuredBuffer<Data> gInputB : register(t1);
RWStructuredBuffer<Data> gOutput : register(u0);

[numthreads(32, 1, 1)]
void CS(int3 dtid : SV_DispatchThreadID)
{
    uint count, stride;
    gOutput.GetDimensions(count, stride);
    if (dtid.x >= count)
        return;
    gOutput[dtid.x].v1 = gInputA[dtid.x].v1 + gInputB[dtid.x].v1;
    gOutput[dtid.x].v2 = gInputA[dtid.x].v2 + gInputB[dtid.x].v2;
}
