/* clang's ext_vector_type (OpenCL/Metal-style float4, half4) for the paste corpus:
 * capture.py builds this with clang and runs lldb over it. Every value is set from its
 * bits (memcpy); --manifest prints those patterns as JSON. (gcc has no ext_vector_type;
 * clang 14 has no _Float16 on x86-64: half lanes are __fp16, storage only.) */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "manifest.h"

typedef float float4 __attribute__((ext_vector_type(4)));
typedef float float2 __attribute__((ext_vector_type(2)));
typedef double double2 __attribute__((ext_vector_type(2)));
typedef __fp16 half4 __attribute__((ext_vector_type(4)));
typedef __fp16 fp16x4 __attribute__((ext_vector_type(4)));
typedef int int4 __attribute__((ext_vector_type(4)));

static const uint32_t F32[4] = {0x3f800000, 0x3eaaaaab, 0x80000001, 0x7fc00001};
static const uint32_t F32B[4] = {0x3fc00000, 0x3dcccccd, 0x00000001, 0x7f7fffff};
static const uint64_t F64[2] = {0x3fd5555555555555, 0x0000000000000001};
static const uint16_t F16[4] = {0x3c00, 0x3555, 0x0001, 0x7e00};
static const uint16_t F16B[4] = {0xc000, 0x2e66, 0x7bff, 0x8000};

float4 f4, f4arr[2];
float2 f2;
double2 d2;
half4 h4;
fp16x4 p4;
int4 i4;

static void __attribute__((noinline)) locals_ready(void) { __asm__ volatile("nop"); }

int main(int argc, char **argv) {
    memcpy(&f4, F32, 16); memcpy(&f4arr[0], F32, 16); memcpy(&f4arr[1], F32B, 16);
    memcpy(&f2, F32B, 8); memcpy(&d2, F64, 16); memcpy(&h4, F16, 8); memcpy(&p4, F16B, 8);
    memcpy(&i4, F32B, 16);
    if (argc > 1 && strcmp(argv[1], "--manifest") == 0) {
        printf("{\n");
        hexs("f4", "f32", &f4, 4, 4, 0); hexs("f4arr", "f32", f4arr, 8, 4, 0);
        hexs("f2", "f32", &f2, 2, 4, 0); hexs("d2", "f64", &d2, 2, 8, 0);
        hexs("h4", "f16", &h4, 4, 2, 0); hexs("p4", "f16", &p4, 4, 2, 0);
        hexs("i4", "f32", &i4, 4, 4, 1);
        printf("}\n");
        return 0;
    }
    float4 lf4 = f4;   /* locals */
    half4 lh4 = h4;
    locals_ready();
    return (int)lf4.x + (int)sizeof lh4 - 9;
}
