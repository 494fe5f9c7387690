/* Known bit patterns for the gdb and lldb `fpi` tests (tests/test_debugger_fpi.py).
   Built by the test with: gcc -g -O0 values.c -o values. The test's expected bits come
   from Python's struct module, not from this file or the debugger. */
#include <stdint.h>

typedef struct {
    int32_t id;
    float x;        /* 1.5f */
    double d;       /* 0.1 */
} Sample;

float f = 1.5f;
double d = 0.1;
_Float16 h = (_Float16)-2.0f;
float arr[4] = {1.0f, -2.5f, 0x1p-149f, 3.0e38f};
double darr[2] = {0.1, -0.0};
_Float16 harr[3] = {(_Float16)1.0f, (_Float16)65504.0f, (_Float16)0x1p-24f};
typedef float float4 __attribute__((vector_size(16)));
float4 vec = {0.5f, 0.25f, -1.0f, 2.0f};
Sample s = {7, 1.5f, 0.1};
float *ptr = arr;
int32_t code = -3;
const char *text = "no float here";

__attribute__((noinline)) void stop(void) { __asm__ volatile(""); }

int main(void) {
#if defined(__x86_64__)
    /* xmm0 = arr, lane 0 lowest; the breakpoint in stop() is reached with it untouched */
    __asm__ volatile("movups %0, %%xmm0" : : "m"(arr) : "xmm0");
#endif
    stop();
    return 0;
}
