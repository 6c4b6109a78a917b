/* The sum type API of an ogham `--library` build (Futhark's "Sums" section
 * of the C API): construct, variant, destruct, entry points on sums, and
 * the manifest's description of them is checked by run.sh. */
#include "clients.h"
#include <stdio.h>
#include <stdlib.h>
#define CHECK(x) do { if (!(x)) { printf("FAILED line %d: %s\n", __LINE__, #x); return 1; } } while (0)

int main(void) {
  struct futhark_context_config *cfg = futhark_context_config_new();
  struct futhark_context *ctx = futhark_context_new(cfg);
  CHECK(futhark_context_get_error(ctx) == NULL);
  /* Variants are numbered in the manifest's order: by constructor name. */
  enum { CIRCLE, EMPTY, POLY, RECT };
  double a;

  struct futhark_opaque_shape *rect = NULL, *grown = NULL;
  CHECK(futhark_new_opaque_shape_rect(ctx, &rect, 3, 4) == 0);
  CHECK(futhark_variant_opaque_shape(ctx, rect) == RECT);
  CHECK(futhark_entry_area(ctx, &a, rect) == 0 && a == 12);
  CHECK(futhark_entry_square(ctx, &grown, 6) == 0);
  CHECK(futhark_context_sync(ctx) == 0);
  CHECK(futhark_variant_opaque_shape(ctx, grown) == RECT);
  double w = 0, h = 0;
  CHECK(futhark_destruct_opaque_shape_rect(ctx, &w, &h, grown) == 0 && w == 6 && h == 6);
  /* Destructing as another variant fails, and the context goes on. */
  double r = -1;
  CHECK(futhark_destruct_opaque_shape_circle(ctx, &r, grown) != 0 && r == -1);
  char *err = futhark_context_get_error(ctx);
  CHECK(err != NULL);
  free(err);

  double xs[3] = {1, 2, 3.5};
  struct futhark_f64_1d *arr = futhark_new_f64_1d(ctx, xs, 3);
  struct futhark_opaque_shape *poly = NULL, *poly2 = NULL;
  CHECK(futhark_new_opaque_shape_poly(ctx, &poly, arr) == 0);
  CHECK(futhark_variant_opaque_shape(ctx, poly) == POLY);
  CHECK(futhark_entry_area(ctx, &a, poly) == 0 && a == 6.5);
  CHECK(futhark_entry_scaled(ctx, &poly2, 10, arr) == 0);
  CHECK(futhark_free_f64_1d(ctx, arr) == 0); /* the sum holds its own reference */
  CHECK(futhark_entry_area(ctx, &a, poly) == 0 && a == 6.5);
  CHECK(futhark_variant_opaque_shape(ctx, poly2) == POLY);
  struct futhark_f64_1d *got = NULL;
  CHECK(futhark_destruct_opaque_shape_poly(ctx, &got, poly2) == 0);
  CHECK(futhark_shape_f64_1d(ctx, got)[0] == 3);
  double out[3];
  CHECK(futhark_values_f64_1d(ctx, got, out) == 0 && out[0] == 10 && out[2] == 35);

  /* Store and restore keep the variant. */
  void *blob = NULL;
  size_t n = 0;
  CHECK(futhark_store_opaque_shape(ctx, poly2, &blob, &n) == 0 && n > 0);
  struct futhark_opaque_shape *back = futhark_restore_opaque_shape(ctx, blob);
  free(blob);
  CHECK(back != NULL && futhark_variant_opaque_shape(ctx, back) == POLY);
  CHECK(futhark_entry_area(ctx, &a, back) == 0 && a == 65);

  struct futhark_opaque_shape *circle = NULL, *empty = NULL;
  CHECK(futhark_new_opaque_shape_circle(ctx, &circle, 2) == 0);
  CHECK(futhark_variant_opaque_shape(ctx, circle) == CIRCLE);
  CHECK(futhark_entry_area(ctx, &a, circle) == 0 && a == 12);
  CHECK(futhark_destruct_opaque_shape_circle(ctx, &r, circle) == 0 && r == 2);
  CHECK(futhark_new_opaque_shape_empty(ctx, &empty) == 0);
  CHECK(futhark_variant_opaque_shape(ctx, empty) == EMPTY);
  CHECK(futhark_destruct_opaque_shape_empty(ctx, empty) == 0);
  CHECK(futhark_entry_area(ctx, &a, empty) == 0 && a == 0);

  futhark_free_opaque_shape(ctx, empty);
  futhark_free_opaque_shape(ctx, circle);
  futhark_free_opaque_shape(ctx, back);
  futhark_free_f64_1d(ctx, got);
  futhark_free_opaque_shape(ctx, poly2);
  futhark_free_opaque_shape(ctx, poly);
  futhark_free_opaque_shape(ctx, grown);
  futhark_free_opaque_shape(ctx, rect);
  futhark_context_free(ctx);
  futhark_context_config_free(cfg);
  printf("sum types: ok\n");
  return 0;
}
