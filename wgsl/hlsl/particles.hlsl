// The Direct3D 12 book's particle update on consume and append buffers ("The Compute Shader",
// Append and Consume Buffers): every thread consumes one particle, integrates it over one time
// step, and appends it. On Shoal both are `AppendBuffer<Particle>`s (one binding each, counter
// in its header).
//
// Repairs of the document's text: `gOutput.Add(p)` read as `gOutput.Append(p)` (the method HLSL
// has, which the comment above it names), and `float TimeStep` made `static const` (a plain
// file-scope variable is a member of HLSL's implicit `$Globals` constant buffer, not the constant
// the book means). Edit for Shoal: the `DescriptorHeap[...]` lines became registers.

struct Particle
{
    float3 Position;
    float3 Velocity;
    float3 Acceleration;
};

static const float TimeStep = 1.0f / 60.0f;

ConsumeStructuredBuffer<Particle> gInput : register(u0);
AppendStructuredBuffer<Particle> gOutput : register(u1);

[numthreads(16, 16, 1)]
void CS()
{
    // Consume a data element from the input buffer.
    Particle p = gInput.Consume();
    p.Velocity += p.Acceleration*TimeStep;
    p.Position += p.Velocity*TimeStep;
    // Append normalized vector to output buffer.
    gOutput.Append(p);
}
