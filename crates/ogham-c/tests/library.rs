//! The `--library` output: the generated C API compiles warning-free with
//! its header, and a C program using it (arrays, an opaque tuple output, an
//! opaque record, a run-time error that must not end the process, store and
//! restore, large arrays at 1 KB boundaries) runs correctly, under the
//! sanitizers where the C compiler has them.

use std::path::Path;
use std::process::Command;

use ogham_c::{generate, Backend, Options};

const PROG: &str = r#"
entry stats (size_0: i64, in_1: [size_0]f64) : (f64, [size_0]f64)
  inputs ("xs": "[]f64" [1])
  outputs ("f64" [0], "[]f64" [1]) {
  let (red_6: f64) = screma(size_0, in_1, scans [], reduces [op([0.0f64], \(acc_2: f64, x_3: f64) : (f64) {
      let (t_4: f64) = add.f64 acc_2 x_3
      in (t_4)
    })], \(r_5: f64) : (f64) {
      in (r_5)
    })
  let (map_9: [size_0]f64) = map(size_0, in_1, \(row_7: f64) : (f64) {
      let (t_8: f64) = mul.f64 row_7 2.0f64
      in (t_8)
    })
  in (red_6, map_9)
}

entry norm (in_10: f64, in_11: f64) : (f64)
  inputs ("pt" [0, 1] record {"x": "f64" 1, "y": "f64" 1})
  outputs ("f64" [0]) {
  let (t_12: f64) = mul.f64 in_10 in_10
  let (t_13: f64) = mul.f64 in_11 in_11
  let (t_14: f64) = add.f64 t_12 t_13
  let (sqrt_15: f64) = sqrt.f64 t_14
  in (sqrt_15)
}

entry get (size_16: i64, in_17: [size_16]i64, in_18: i64) : (i64)
  inputs ("xs": "[]i64" [1], "i": "i64" [2])
  outputs ("i64" [0]) {
  let (idx_19: i64) = index in_17[in_18]
  in (idx_19)
}
"#;

const HARNESS: &str = r#"
#include "prog.h"
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#define CHECK(x) do { if (!(x)) { printf("FAILED line %d: %s\n", __LINE__, #x); return 1; } } while (0)
int main(void) {
  struct futhark_context_config *cfg = futhark_context_config_new();
  futhark_context_config_set_num_threads(cfg, 2);
  struct futhark_context *ctx = futhark_context_new(cfg);
  double xs[3] = {1, 2, 3.5};
  struct futhark_f64_1d *a = futhark_new_f64_1d(ctx, xs, 3);
  struct futhark_opaque_tup2_f64_arr1d_f64 *st = NULL, *back = NULL;
  CHECK(futhark_entry_stats(ctx, &st, a) == 0);
  CHECK(futhark_context_sync(ctx) == 0);
  double total;
  CHECK(futhark_project_opaque_tup2_f64_arr1d_f64_0(ctx, &total, st) == 0 && total == 6.5);
  void *blob = NULL;
  size_t n = 0;
  CHECK(futhark_store_opaque_tup2_f64_arr1d_f64(ctx, st, &blob, &n) == 0 && n > 0);
  back = futhark_restore_opaque_tup2_f64_arr1d_f64(ctx, blob);
  free(blob);
  CHECK(back != NULL);
  struct futhark_f64_1d *d = NULL;
  CHECK(futhark_project_opaque_tup2_f64_arr1d_f64_1(ctx, &d, back) == 0);
  CHECK(futhark_shape_f64_1d(ctx, d)[0] == 3);
  double out[3];
  CHECK(futhark_values_f64_1d(ctx, d, out) == 0 && out[2] == 7);
  double e;
  CHECK(futhark_index_f64_1d(ctx, &e, d, 3) == 2);
  free(futhark_context_get_error(ctx));
  struct futhark_opaque_pt *p = NULL;
  CHECK(futhark_new_opaque_pt(ctx, &p, 3, 4) == 0);
  double r;
  CHECK(futhark_entry_norm(ctx, &r, p) == 0 && r == 5);
  int64_t is[2] = {5, 6}, got;
  struct futhark_i64_1d *ia = futhark_new_i64_1d(ctx, is, 2);
  CHECK(futhark_entry_get(ctx, &got, ia, 2) == 2);
  char *err = futhark_context_get_error(ctx);
  CHECK(err != NULL);
  printf("error: %s", err);
  free(err);
  CHECK(futhark_entry_get(ctx, &got, ia, 1) == 0 && got == 6);
  /* Arrays of over 64 KiB start at a multiple of 1024 bytes (core.h,
     og_mem_alloc_paged: 0, 1, 2 or 3 KB into a page), so that a stencil's
     stores and the next step's loads do not alias. */
  enum { BIG = 20000 };
  double *big = malloc(sizeof(double) * BIG);
  for (int i = 0; i < BIG; i++) big[i] = i;
  struct futhark_f64_1d *bin = futhark_new_f64_1d(ctx, big, BIG), *bout = NULL;
  struct futhark_opaque_tup2_f64_arr1d_f64 *bst = NULL;
  CHECK(futhark_entry_stats(ctx, &bst, bin) == 0);
  CHECK(futhark_project_opaque_tup2_f64_arr1d_f64_1(ctx, &bout, bst) == 0);
  CHECK(((uintptr_t)futhark_values_raw_f64_1d(ctx, bin) & 1023) == 0);
  CHECK(((uintptr_t)futhark_values_raw_f64_1d(ctx, bout) & 1023) == 0);
  CHECK(futhark_values_f64_1d(ctx, bout, big) == 0 && big[BIG - 1] == 2.0 * (BIG - 1));
  futhark_free_f64_1d(ctx, bout);
  futhark_free_opaque_tup2_f64_arr1d_f64(ctx, bst);
  futhark_free_f64_1d(ctx, bin);
  free(big);
  free(futhark_context_report(ctx));
  futhark_free_i64_1d(ctx, ia);
  futhark_free_opaque_pt(ctx, p);
  futhark_free_f64_1d(ctx, d);
  futhark_free_opaque_tup2_f64_arr1d_f64(ctx, back);
  futhark_free_opaque_tup2_f64_arr1d_f64(ctx, st);
  futhark_free_f64_1d(ctx, a);
  futhark_context_free(ctx);
  futhark_context_config_free(cfg);
  printf("ok\n");
  return 0;
}
"#;

fn sanitizers_work(dir: &Path) -> bool {
    let probe = dir.join("probe.c");
    std::fs::write(&probe, "int main(void) { return 0; }\n").unwrap();
    Command::new("cc")
        .arg(&probe)
        .args(["-fsanitize=address,undefined", "-o"])
        .arg(dir.join("probe"))
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

#[test]
fn library_api_works_from_c() {
    let prog = ogham_ir::parse::parse_program(PROG).unwrap_or_else(|e| panic!("bad test IR: {e:?}"));
    for backend in [Backend::Sequential, Backend::Multicore] {
        let dir = std::env::temp_dir().join(format!("ogham-c-library-{}-{backend:?}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let opts = Options { backend, library: true, ..Options::default() };
        let verified = ogham_ir::verify::verify(&prog).unwrap_or_else(|e| panic!("{e:?}"));
        let g = generate(&verified, &opts).unwrap();
        let manifest = g.manifest.unwrap();
        assert!(manifest.contains("\"output\": {\"type\": \"(f64, []f64)\""), "{manifest}");
        assert!(manifest.contains("\"project\": \"futhark_project_opaque_pt_x\""), "{manifest}");
        // Source names in the manifest; an input the IR does not name is `_`.
        assert!(manifest.contains("\"inputs\": [{\"name\": \"xs\", \"type\": \"[]i64\", \"unique\": false}, {\"name\": \"i\", \"type\": \"i64\""), "{manifest}");
        assert!(manifest.contains("\"inputs\": [{\"name\": \"_\", \"type\": \"pt\""), "{manifest}");
        std::fs::write(dir.join("prog.c"), &g.c).unwrap();
        std::fs::write(dir.join("prog.h"), g.header.unwrap()).unwrap();
        std::fs::write(dir.join("harness.c"), HARNESS).unwrap();
        let mut cmd = Command::new("cc");
        cmd.current_dir(&dir)
            .args(["harness.c", "prog.c", "-o", "harness", "-std=c11", "-O1", "-g", "-pthread"])
            .args(["-Wall", "-Wextra", "-Werror"]);
        if sanitizers_work(&dir) {
            cmd.args(["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]);
        }
        cmd.arg("-lm");
        let built = cmd.output().unwrap();
        assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
        let run = Command::new(dir.join("harness")).output().unwrap();
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(run.status.success(), "{stdout}{}", String::from_utf8_lossy(&run.stderr));
        assert!(stdout.contains("out of bounds") && stdout.ends_with("ok\n"), "{stdout}");
    }
}
