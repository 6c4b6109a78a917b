/* ogham runtime: what the generated program defines and the boundary code
 * (api.h, main.h) uses, declared for a boundary compiled apart from its
 * program (test executables, `ogham_c::generate_split`; OG_GLOBAL in
 * core.h). In the one self-contained C file ogham generates otherwise, the
 * program's own definitions come before the boundary and this file is not
 * included. */
extern const char *const og_tuning_names[];
int og_consts_init(og_ctx *ctx);
void og_consts_free(og_ctx *ctx);
void og_consts_restore(og_ctx *ctx);
extern const og_entry og_entries[];
extern const int og_num_entries;
extern const og_type_desc *const og_opaque_types[];
extern const int og_num_opaque_types;
