/* What the C tests share: failure reports, files, hex, a seeded generator,
   chunked hashing with the callback's reports recorded. C99. */
#ifndef SHA1DC_TEST_COMMON_H
#define SHA1DC_TEST_COMMON_H

#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sha1dc/sha1.h>
#include <sha1dc/sha1dc_ext.h>

static int failures;

/* Records a failure (and goes on, so one run shows them all). */
#define CHECK(cond, ...)                                                    \
	do {                                                                \
		if (!(cond)) {                                              \
			fprintf(stderr, "%s:%d: FAILED %s: ", __FILE__,     \
				__LINE__, #cond);                           \
			fprintf(stderr, __VA_ARGS__);                       \
			fputc('\n', stderr);                                \
			if (++failures > 50)                                \
				exit(1);                                    \
		}                                                           \
	} while (0)

/* Exits 1 if anything failed, after saying how many checks ran. */
static int finish(const char *name, long checked)
{
	if (failures) {
		fprintf(stderr, "%s: %d failure(s)\n", name, failures);
		return 1;
	}
	printf("%s: ok (%ld cases)\n", name, checked);
	return 0;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		perror("malloc");
		exit(2);
	}
	return p;
}

/* The whole file dir/name; its length in *len. Exits if unreadable. */
static unsigned char *read_file(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	FILE *f;
	unsigned char *buf;
	long n;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(2);
	}
	buf = xmalloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(2);
	}
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

/* The `n` hex words of `s`, separated by blanks or commas, into `out`. */
static void read_words(const char *s, uint32_t *out, int n)
{
	char *p = (char *)s;
	int i;
	for (i = 0; i < n; i++) {
		out[i] = (uint32_t)strtoul(p, &p, 16);
		if (*p == ',')
			p++;
	}
}

static void to_hex(const unsigned char digest[20], char out[41])
{
	static const char digits[] = "0123456789abcdef";
	int i;
	for (i = 0; i < 20; i++) {
		out[2 * i] = digits[digest[i] >> 4];
		out[2 * i + 1] = digits[digest[i] & 15];
	}
	out[40] = 0;
}

/* SplitMix64: the chunkings, clone points and modes of the tests. */
static uint64_t rng_state = 0x5eed;
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}
/* Uniform enough in 0..n-1 (n > 0). */
static size_t rng_below(size_t n) { return (size_t)(rng_next() % n); }

/* A chunk length: mostly short and ragged, sometimes block-sized or long. */
static size_t chunk_len(void)
{
	switch (rng_below(6)) {
	case 0: return rng_below(4);
	case 1: return 1 + rng_below(70);
	case 2: return 64 * (1 + rng_below(4));
	case 3: return 63 + rng_below(3);
	case 4: return 1 + rng_below(5000);
	default: return 1 + rng_below(100000);
	}
}

/* SHA1DCUpdate of data[0..len) in random chunks; NULL with 0 now and then. */
static void update_chunked(SHA1_CTX *ctx, const unsigned char *data, size_t len)
{
	size_t at = 0;
	while (at < len) {
		size_t n = chunk_len();
		if (n > len - at)
			n = len - at;
		SHA1DCUpdate(ctx, (const char *)data + at, n);
		if (rng_below(8) == 0)
			SHA1DCUpdate(ctx, NULL, 0);
		at += n;
	}
}

/* What the callback reported, in order: the offsets, and the first few
   reports whole. */
#define MAX_REPORTS 64
struct report {
	uint64_t offset;
	uint32_t ihv1[5], ihv2[5], m1[80], m2[80];
};
static struct report reports[MAX_REPORTS];
static size_t n_reports;

static void record(uint64_t offset, const uint32_t *ihv1, const uint32_t *ihv2,
		   const uint32_t *m1, const uint32_t *m2)
{
	struct report *r;
	if (n_reports == MAX_REPORTS) {
		n_reports++;
		return;
	}
	if (n_reports > MAX_REPORTS)
		return;
	r = &reports[n_reports++];
	r->offset = offset;
	memcpy(r->ihv1, ihv1, sizeof r->ihv1);
	memcpy(r->ihv2, ihv2, sizeof r->ihv2);
	memcpy(r->m1, m1, sizeof r->m1);
	memcpy(r->m2, m2, sizeof r->m2);
}

/* The tests' options (sha1dc_ext.h's bits) through the reference's setters,
   in a random order. */
static void set_options(SHA1_CTX *ctx, unsigned options)
{
	int order = (int)rng_below(2);
	if (order)
		SHA1DCSetDetectReducedRoundCollision(ctx, !!(options & SHA1DC_OPT_REDUCED_ROUND));
	SHA1DCSetSafeHash(ctx, !(options & SHA1DC_OPT_NO_SAFE_HASH));
	SHA1DCSetUseUBC(ctx, !(options & SHA1DC_OPT_NO_FILTER));
	SHA1DCSetUseDetectColl(ctx, !(options & SHA1DC_OPT_NO_DETECT_COLL));
	if (!order)
		SHA1DCSetDetectReducedRoundCollision(ctx, !!(options & SHA1DC_OPT_REDUCED_ROUND));
}

/* A fresh context with `options`: by the setters or by the extension's
   one call, at random. */
static void init_options(SHA1_CTX *ctx, unsigned options)
{
	if (rng_below(2)) {
		SHA1DCInit(ctx);
		set_options(ctx, options);
	} else {
		CHECK(SHA1DCInitWithOptions(ctx, options) == 0, "options %u", options);
	}
}

#endif
