/* Known answers through the C API: every file of tests/data/MANIFEST.tsv in
   every mode of TRACE.txt, fed in random chunks, with the right digest and
   flag, and the callback's reports: the offsets TRACE.txt lists, the chaining
   values and expanded message of RECOMPRESSION_KAT.txt, and the partner
   message m1 xor the DV's difference from DV_TABLE.tsv.
     kat DATA_DIR CONTROLS_DIR      (CONTROLS_DIR: gen_controls.py's output) */
#include "common.h"

static const char *data_dir, *ctrl_dir;

/* The named input, from DATA_DIR or, for the generated controls, CONTROLS_DIR. */
static unsigned char *input(const char *name, size_t *len)
{
	return read_file(strncmp(name, "ctrl-", 5) ? data_dir : ctrl_dir, name, len);
}

/* DV_TABLE.tsv: each DV's name and message difference. */
struct dv { char name[16]; uint32_t dm[80]; };
static struct dv dvs[32];

static void load_dvs(void)
{
	size_t len, n = 0;
	char *text = (char *)read_file(data_dir, "DV_TABLE.tsv", &len);
	char *line = strtok(text, "\n");
	for (line = strtok(NULL, "\n"); line; line = strtok(NULL, "\n")) {
		char *p;
		int i, field;
		if (n == 32)
			break;
		if (sscanf(line, "%*s %*s %*s %*s %15s", dvs[n].name) != 1)
			continue;
		for (p = line, field = 0; field < 8; field++)
			p = strchr(p, '\t') + 1;
		for (i = 0; i < 80; i++) {
			dvs[n].dm[i] = (uint32_t)strtoul(p, &p, 16);
			p++;
		}
		n++;
	}
	CHECK(n == 32, "DV_TABLE.tsv lists %zu DVs", n);
	free(text);
}

static const uint32_t *dm_of(const char *name)
{
	int i;
	for (i = 0; i < 32; i++)
		if (!strcmp(dvs[i].name, name))
			return dvs[i].dm;
	CHECK(0, "no DV %s", name);
	return dvs[0].dm;
}

/* RECOMPRESSION_KAT.txt: what the callback must report for these blocks. */
struct kat {
	char file[64];
	uint64_t offset;
	uint32_t ihv_in[5], w[80], ihv2_in[5];
	int used;
};
static struct kat kats[16];
static int n_kats;

static void load_kats(void)
{
	size_t len;
	char *text = (char *)read_file(data_dir, "RECOMPRESSION_KAT.txt", &len);
	char *line, *save = NULL;
	struct kat *k = NULL;
	int w_row = -1;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long off;
		if (sscanf(line, "file=%63s block=%*d byte_offset=%llu", kats[n_kats].file, &off) == 2) {
			k = &kats[n_kats++];
			k->offset = off;
			w_row = -1;
		} else if (!k) {
			continue;
		} else if (!strncmp(line, "ihv_in ", 7)) {
			read_words(strchr(line, '=') + 1, k->ihv_in, 5);
		} else if (!strncmp(line, "recompressed ihv2_in ", 21)) {
			read_words(strchr(line, '=') + 1, k->ihv2_in, 5);
		} else if (!strncmp(line, "W[0..79]", 8)) {
			w_row = 0;
		} else if (w_row >= 0 && w_row < 10) {
			read_words(line, k->w + 8 * w_row, 8);
			w_row++;
		}
	}
	CHECK(n_kats == 5, "RECOMPRESSION_KAT.txt has %d blocks", n_kats);
	free(text);
}

/* One section of TRACE.txt. */
struct fired { uint64_t block; char dv[16]; int input_diff_zero; };
struct section {
	char name[64];
	struct { unsigned options; char hex[41]; int coll; } modes[8];
	int n_modes;
	struct fired full[8], rr[8];
	int n_full, n_rr;
};

static long cases;

/* The callback's report `r` (the i-th of a run) against the block TRACE.txt
   lists and, when RECOMPRESSION_KAT.txt has it, its values. */
static void check_report(const char *file, const char *what, const struct report *r,
			 const struct fired *f)
{
	const uint32_t *dm = dm_of(f->dv);
	int i, k;
	CHECK(r->offset == f->block * 64, "%s: offset %llu", what, (unsigned long long)r->offset);
	for (i = 0; i < 80; i++)
		CHECK(r->m2[i] == (r->m1[i] ^ dm[i]), "%s: m2[%d]", what, i);
	if (f->input_diff_zero)
		CHECK(!memcmp(r->ihv1, r->ihv2, sizeof r->ihv1), "%s: reduced round, ihv2 != ihv1", what);
	for (k = 0; k < n_kats; k++) {
		if (strcmp(file, kats[k].file) || kats[k].offset != r->offset)
			continue;
		CHECK(!memcmp(r->ihv1, kats[k].ihv_in, sizeof r->ihv1), "%s: ihv1", what);
		CHECK(!memcmp(r->ihv2, kats[k].ihv2_in, sizeof r->ihv2), "%s: ihv2", what);
		CHECK(!memcmp(r->m1, kats[k].w, sizeof r->m1), "%s: m1", what);
		kats[k].used++;
	}
}

static void run_mode(const struct section *s, int m, const unsigned char *data, size_t len)
{
	unsigned options = s->modes[m].options;
	int safe = !(options & SHA1DC_OPT_NO_SAFE_HASH);
	const struct fired *fired = options & SHA1DC_OPT_REDUCED_ROUND ? s->rr : s->full;
	int n_fired = options & SHA1DC_OPT_REDUCED_ROUND ? s->n_rr : s->n_full;
	unsigned char digest[20];
	char hex[41], what[160];
	SHA1_CTX ctx;
	int coll;
	size_t i;
	snprintf(what, sizeof what, "%s options=%u", s->name, options);
	if (options & SHA1DC_OPT_NO_DETECT_COLL)
		n_fired = 0;
	init_options(&ctx, options);
	SHA1DCSetCallback(&ctx, record);
	n_reports = 0;
	update_chunked(&ctx, data, len);
	coll = SHA1DCFinal(digest, &ctx);
	to_hex(digest, hex);
	CHECK(!strcmp(hex, s->modes[m].hex), "%s: %s, not %s", what, hex, s->modes[m].hex);
	CHECK(!!coll == s->modes[m].coll, "%s: flag %d", what, coll);
	/* The safe hash changes the chain after the first detected block, so
	   only without it do the later blocks TRACE.txt lists fire too. */
	if (n_fired == 0)
		CHECK(n_reports == 0, "%s: %zu reports, none listed", what, n_reports);
	else if (safe)
		CHECK(n_reports >= 1, "%s: no report, %d listed", what, n_fired);
	else
		CHECK(n_reports == (size_t)n_fired, "%s: %zu reports, %d listed", what, n_reports, n_fired);
	for (i = 0; i < n_reports && i < (size_t)n_fired && (i == 0 || !safe); i++)
		check_report(s->name, what, &reports[i], &fired[i]);
	cases++;
}

/* Parses a mode line of TRACE.txt into s->modes. */
static void parse_mode(struct section *s, const char *line)
{
	int safe, ubc, rr, coll;
	char hex[41];
	const char *colon = strstr(line, ": ");
	unsigned options;
	if (!colon || sscanf(colon + 2, "%40s coll=%d", hex, &coll) != 2)
		return;
	if (strstr(line, "detect=off"))
		options = SHA1DC_OPT_NO_DETECT_COLL;
	else if (sscanf(line, " safe=%d ubc=%d rr=%d", &safe, &ubc, &rr) == 3)
		options = (safe ? 0 : SHA1DC_OPT_NO_SAFE_HASH) | (ubc ? 0 : SHA1DC_OPT_NO_FILTER) |
			  (rr ? SHA1DC_OPT_REDUCED_ROUND : 0);
	else
		return;
	s->modes[s->n_modes].options = options;
	strcpy(s->modes[s->n_modes].hex, hex);
	s->modes[s->n_modes].coll = coll;
	s->n_modes++;
}

static void parse_fired(struct section *s, const char *line)
{
	int full = !strncmp(line, "  [full] block ", 15);
	struct fired *f = full ? &s->full[s->n_full++] : &s->rr[s->n_rr++];
	unsigned long long block;
	sscanf(strstr(line, "block ") + 6, "%llu", &block);
	f->block = block;
	sscanf(strstr(line, "DV ") + 3, "%15s", f->dv);
	f->input_diff_zero = strstr(line, "input-diff-zero") != NULL;
}

static void run_section(const struct section *s)
{
	size_t len;
	unsigned char *data = input(s->name, &len);
	int m;
	CHECK(s->n_modes == 8, "%s: %d modes", s->name, s->n_modes);
	for (m = 0; m < s->n_modes; m++)
		run_mode(s, m, data, len);
	free(data);
}

static void check_trace(void)
{
	size_t len;
	char *text = (char *)read_file(data_dir, "TRACE.txt", &len);
	char *line, *save = NULL;
	struct section s;
	int sections = 0;
	memset(&s, 0, sizeof s);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64];
		if (sscanf(line, "file=%63s", name) == 1) {
			if (s.name[0])
				run_section(&s);
			memset(&s, 0, sizeof s);
			strcpy(s.name, name);
			sections++;
		} else if (strstr(line, " coll=")) {
			parse_mode(&s, line);
		} else if (!strncmp(line, "  [full] block ", 15) || !strncmp(line, "  [rr] block ", 13)) {
			parse_fired(&s, line);
		}
	}
	run_section(&s);
	CHECK(sections == 12, "TRACE.txt has %d files", sections);
	free(text);
}

/* MANIFEST.tsv through the one-shot call: the plain SHA-1, the default
   output and flag, and the same with reduced-round detection. */
static void check_manifest(void)
{
	size_t len;
	char *text = (char *)read_file(data_dir, "MANIFEST.tsv", &len);
	char *line, *save = NULL;
	int rows = 0;
	strtok_r(text, "\n", &save);
	for (line = strtok_r(NULL, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[64], plain[41], coll[8], out[41], rr_coll[8], rr_out[41], hex[41];
		unsigned char digest[20], *data;
		size_t n, bytes;
		char *tab = line;
		int field;
		if (sscanf(line, "%63s %zu %40s %7s %40s", name, &bytes, plain, coll, out) != 5)
			continue;
		for (field = 0; field < 7; field++)
			tab = strchr(tab, '\t') + 1;
		sscanf(tab, "%7s %40s", rr_coll, rr_out);
		data = input(name, &n);
		CHECK(n == bytes, "%s: %zu bytes", name, n);
		CHECK(SHA1DCHash(digest, data, n, SHA1DC_OPT_NO_DETECT_COLL) == 0, "%s plain", name);
		to_hex(digest, hex);
		CHECK(!strcmp(hex, plain), "%s plain: %s", name, hex);
		CHECK(SHA1DCHash(digest, data, n, 0) == !strcmp(coll, "yes"), "%s", name);
		to_hex(digest, hex);
		CHECK(!strcmp(hex, out), "%s: %s", name, hex);
		CHECK(SHA1DCHash(digest, data, n, SHA1DC_OPT_REDUCED_ROUND) == !strcmp(rr_coll, "yes"),
		      "%s rr", name);
		to_hex(digest, hex);
		CHECK(!strcmp(hex, rr_out), "%s rr: %s", name, hex);
		free(data);
		rows++;
		cases += 3;
	}
	CHECK(rows == 12, "MANIFEST.tsv has %d files", rows);
	free(text);
}

int main(int argc, char **argv)
{
	int k;
	if (argc != 3) {
		fprintf(stderr, "usage: %s DATA_DIR CONTROLS_DIR\n", argv[0]);
		return 2;
	}
	data_dir = argv[1];
	ctrl_dir = argv[2];
	load_dvs();
	load_kats();
	check_manifest();
	check_trace();
	for (k = 0; k < n_kats; k++)
		CHECK(kats[k].used > 0, "the callback never reported %s at %llu", kats[k].file,
		      (unsigned long long)kats[k].offset);
	return finish("kat", cases);
}
