// A tiled matrix transpose: a 16x16 tile read into groupshared memory (one column of padding
// against bank conflicts), written back transposed. The sizes come from a cbuffer.

cbuffer TransposeCB : register(b0)
{
    uint gRows;
    uint gCols;
};

StructuredBuffer<float> gIn : register(t0);
RWStructuredBuffer<float> gOut : register(u0);

groupshared float gTile[16][17];

[numthreads(16, 16, 1)]
void TransposeCS(uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID)
{
    uint row = gid.y * 16 + tid.y;
    uint col = gid.x * 16 + tid.x;
    if (row < gRows && col < gCols)
        gTile[tid.y][tid.x] = gIn[row * gCols + col];
    GroupMemoryBarrierWithGroupSync();
    uint outRow = gid.x * 16 + tid.y;
    uint outCol = gid.y * 16 + tid.x;
    if (outRow < gCols && outCol < gRows)
        gOut[outRow * gRows + outCol] = gTile[tid.x][tid.y];
}
