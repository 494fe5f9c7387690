/* The --manifest printer probe.c and probe_ext.c share: one JSON entry of n values of
 * w bytes each, as zero-padded hex of their bits (what capture.py expects). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void hexs(const char *name, const char *fmt, const void *p, int n, int w, int last) {
    printf("  \"%s\": {\"format\": \"%s\", \"bits\": [", name, fmt);
    for (int i = 0; i < n; i++) {
        uint64_t u = 0;
        memcpy(&u, (const char *)p + i * w, w);
        printf("%s\"0x%0*llx\"", i ? ", " : "", w * 2, (unsigned long long)u);
    }
    printf("]}%s\n", last ? "" : ",");
}
