/* libvips comparison for the resampler benchmark (see README.md).
 *
 *   vips_resize_bench decode IN.jpg OUT.rgba          decode with libvips to raw RGBA8, print WxH
 *   vips_resize_bench resize IN.rgba W H TW TH KERNEL GAP THREADS [OUT.rgba]
 *       time vips_resize (best of 7) from an in-memory RGBA8 image to TWxTH;
 *       KERNEL is libvips' VipsKernel number (1 linear, 5 lanczos3), GAP 0 = exact.
 *
 * libvips-dev is not installed here, so the few prototypes are declared by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct _VipsImage VipsImage;
int vips_init(const char *argv0);
void vips_concurrency_set(int concurrency);
void vips_cache_set_max(int max);
VipsImage *vips_image_new_from_file(const char *name, ...);
VipsImage *vips_image_new_from_memory(const void *data, size_t size, int width, int height, int bands, int format);
int vips_image_get_width(const VipsImage *image);
int vips_image_get_height(const VipsImage *image);
int vips_image_get_bands(const VipsImage *image);
int vips_resize(VipsImage *in, VipsImage **out, double scale, ...);
int vips_bandjoin_const1(VipsImage *in, VipsImage **out, double c, ...);
void *vips_image_write_to_memory(VipsImage *in, size_t *size);
const char *vips_error_buffer(void);
void g_object_unref(void *object);
void g_free(void *memory);

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void fail(const char *what) {
    fprintf(stderr, "%s: %s\n", what, vips_error_buffer());
    exit(1);
}

int main(int argc, char **argv) {
    if (vips_init(argv[0])) fail("vips_init");
    vips_cache_set_max(0);
    if (argc == 4 && !strcmp(argv[1], "decode")) {
        VipsImage *in = vips_image_new_from_file(argv[2], NULL), *rgba;
        if (!in) fail("load");
        if (vips_image_get_bands(in) == 3) {
            if (vips_bandjoin_const1(in, &rgba, 255, NULL)) fail("bandjoin");
        } else {
            rgba = in;
        }
        size_t size;
        void *bytes = vips_image_write_to_memory(rgba, &size);
        FILE *f = fopen(argv[3], "wb");
        fwrite(bytes, 1, size, f);
        fclose(f);
        printf("%dx%d\n", vips_image_get_width(rgba), vips_image_get_height(rgba));
        return 0;
    }
    if (argc < 10 || strcmp(argv[1], "resize")) {
        fprintf(stderr, "usage: see the comment at the top of vips_resize_bench.c\n");
        return 2;
    }
    int w = atoi(argv[3]), h = atoi(argv[4]), tw = atoi(argv[5]), th = atoi(argv[6]);
    int kernel = atoi(argv[7]);
    double gap = atof(argv[8]);
    vips_concurrency_set(atoi(argv[9]));
    size_t size = (size_t)w * h * 4;
    unsigned char *pixels = malloc(size);
    FILE *f = fopen(argv[2], "rb");
    if (!f || fread(pixels, 1, size, f) != size) { fprintf(stderr, "cannot read %s\n", argv[2]); return 1; }
    fclose(f);

    double best = 1e9;
    void *result = NULL;
    size_t resultSize = 0;
    for (int run = 0; run < 7; run++) {
        double start = now();
        VipsImage *in = vips_image_new_from_memory(pixels, size, w, h, 4, 0 /* uchar */), *out;
        if (vips_resize(in, &out, (double)tw / w, "vscale", (double)th / h, "kernel", kernel, "gap", gap, NULL))
            fail("resize");
        if (result) g_free(result);
        result = vips_image_write_to_memory(out, &resultSize);
        double t = now() - start;
        if (t < best) best = t;
        g_object_unref(out);
        g_object_unref(in);
    }
    printf("%.2f ms (%dx%d)\n", best * 1e3, tw, th);
    if (argc > 10) {
        FILE *o = fopen(argv[10], "wb");
        fwrite(result, 1, resultSize, o);
        fclose(o);
    }
    return 0;
}
