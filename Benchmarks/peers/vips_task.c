// One benchmark task of Benchmarks/peers.sh with libvips's C API: every file in one process,
// as vipsthumbnail runs, so no interpreter start-up is in libvips's time. Compiled twice by
// peers.sh against Debian's libvips-dev headers: linked with Debian's libvips (8.14) and with the
// libvips that PyPI's pyvips-binary bundles (8.18; only stable API is used here).
//
//   vips_task T1|T2|T3|T4|T5 OUT_DIR FILE...      (run with VIPS_CONCURRENCY=1)
//   vips_task T1-png|T2-png OUT_DIR FILE...        (the same pixels saved as PNG: quality twins)
//   vips_task --version                            (the libvips it runs with)
//
// T1 thumbnail within 256×256, JPEG Q80     T2 thumbnail 200×200, centre crop, JPEG Q80
// T3 thumbnail within 512×512, PNG level 6  T4 full-size JPEG, sequential, re-saved at Q80
// T5 thumbnail to 1024 wide, gaussblur σ=4, JPEG Q80
// Every output is stripped of metadata, as Darkroom's are. The geometry is Benchmarks/peers/tasks.py's.
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vips/vips.h>

static int fail(const char *path) {
    fprintf(stderr, "vips_task: %s: %s", path, vips_error_buffer());
    return 1;
}

/// OUT_DIR/STEM.EXT for the input `path`.
static void output_path(char *out, size_t capacity, const char *dir, const char *path, const char *ext) {
    char copy[4096];
    snprintf(copy, sizeof copy, "%s", path);
    char *name = basename(copy);
    char *dot = strrchr(name, '.');
    if (dot != NULL) *dot = '\0';
    snprintf(out, capacity, "%s/%s.%s", dir, name, ext);
}

/// Runs `task` on one file, saving PNG when `png` (else the task's format); 0 on success.
static int run(const char *task, int png, const char *dir, const char *path) {
    VipsImage *image = NULL, *blurred = NULL;
    char out[4096];
    int failed;
    if (strcmp(task, "T1") == 0) {
        failed = vips_thumbnail(path, &image, 256, "height", 256, "size", VIPS_SIZE_DOWN, NULL);
    } else if (strcmp(task, "T2") == 0) {
        failed = vips_thumbnail(path, &image, 200, "height", 200, "crop", VIPS_INTERESTING_CENTRE, NULL);
    } else if (strcmp(task, "T3") == 0) {
        failed = vips_thumbnail(path, &image, 512, "height", 512, "size", VIPS_SIZE_DOWN, NULL);
    } else if (strcmp(task, "T4") == 0) {
        image = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        failed = image == NULL;
    } else {
        failed = vips_thumbnail(path, &blurred, 1024, "height", 16384, "size", VIPS_SIZE_DOWN, NULL)
            || vips_gaussblur(blurred, &image, 4.0, NULL);
    }
    if (blurred != NULL) g_object_unref(blurred);
    if (failed) return fail(path);
    if (png || strcmp(task, "T3") == 0) {
        output_path(out, sizeof out, dir, path, "png");
        failed = vips_pngsave(image, out, "compression", 6, "strip", TRUE, NULL);
    } else {
        output_path(out, sizeof out, dir, path, "jpg");
        failed = vips_jpegsave(image, out, "Q", 80, "strip", TRUE, NULL);
    }
    g_object_unref(image);
    return failed ? fail(path) : 0;
}

int main(int argc, char **argv) {
    static const char *tasks[] = {"T1", "T2", "T3", "T4", "T5", "T1-png", "T2-png"};
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        if (vips_init(argv[0]) != 0) return fail("vips_init");
        printf("libvips %s\n", vips_version_string());
        return 0;
    }
    int known = 0;
    for (int i = 0; argc >= 2 && i < 7; i++) known |= strcmp(argv[1], tasks[i]) == 0;
    if (argc < 4 || !known) {
        fprintf(stderr, "usage: vips_task T1|T2|T3|T4|T5|T1-png|T2-png OUT_DIR FILE... | vips_task --version\n");
        return 2;
    }
    if (vips_init(argv[0]) != 0) return fail("vips_init");
    char task[3] = {argv[1][0], argv[1][1], 0};
    int png = strlen(argv[1]) > 2;
    for (int i = 3; i < argc; i++) {
        if (run(task, png, argv[2], argv[i]) != 0) return 1;
    }
    vips_shutdown();
    return 0;
}
