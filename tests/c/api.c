/* The C API's promises, one by one: defaults, Final leaving the context as
   it was, the setters mid-message as the reference applies them, the
   callback once per block, NULL and oversized arguments, zeroed contexts,
   contexts on threads, the extension header's calls.
     api DATA_DIR      (set SHA1DC_TEST_NO_BIG=1 to skip the 2 GiB message) */
#include "common.h"

#include <pthread.h>
#include <limits.h>
#include <sys/mman.h>

static const char *data_dir;
static long cases;

/* The known answers these tests use (tests/data/MANIFEST.tsv). */
#define ABC "a9993e364706816aba3e25717850c26c9cd0d89d"
#define AB "da23614e02469a0d7c7bd1bdab5c9c474b1904dc"
#define SHATTERED_PLAIN "f92d74e3874587aaf443d1db961d4e26dde13e9c"
#define SHATTERED_SAFE "7117b3cb9225aaf0d8ef1a40e493957b0bf8693d"
#define REDUCED_PLAIN "a56374e1cf4c3746499bc7c0acb39498ad2ee185"
#define REDUCED_RR "dd39885a2a5d8f59030b451e00cb45da9f9d3828"

/* Final's hex and flag checked against the expected ones. */
static void expect(SHA1_CTX *ctx, const char *hex, int flag, const char *what)
{
	unsigned char digest[20];
	char got[41];
	int f = SHA1DCFinal(digest, ctx);
	to_hex(digest, got);
	CHECK(!strcmp(got, hex), "%s: %s, not %s", what, got, hex);
	CHECK(!!f == flag, "%s: flag %d, not %d", what, f, flag);
	cases++;
}

static void defaults_and_final(const unsigned char *shattered)
{
	SHA1_CTX ctx;
	SHA1DCInit(&ctx);
	SHA1DCUpdate(&ctx, "ab", 2);
	expect(&ctx, AB, 0, "ab");
	expect(&ctx, AB, 0, "Final twice");
	SHA1DCUpdate(&ctx, NULL, 0);
	SHA1DCUpdate(&ctx, "c", 1);
	expect(&ctx, ABC, 0, "Update after Final continues the message");
	SHA1DCInit(&ctx);
	expect(&ctx, "da39a3ee5e6b4b0d3255bfef95601890afd80709", 0, "Init starts over");

	SHA1DCInit(&ctx);
	SHA1DCUpdate(&ctx, (const char *)shattered, 256);
	expect(&ctx, "5b72b916c85d1980f8ac6846fad79b9b70ea7f85", 0, "before the collision block");
	SHA1DCUpdate(&ctx, (const char *)shattered + 256, 64);
	expect(&ctx, SHATTERED_SAFE, 1, "default: safe hash, flagged");
	expect(&ctx, SHATTERED_SAFE, 1, "default, Final twice");
}

/* The reference applies the options when it compresses a block, which it
   does as soon as an Update completes it. */
static void setters_mid_message(const unsigned char *shattered, const unsigned char *reduced)
{
	SHA1_CTX ctx;
	SHA1DCInit(&ctx);
	SHA1DCUpdate(&ctx, (const char *)shattered, 320);
	SHA1DCSetSafeHash(&ctx, 0);
	expect(&ctx, SHATTERED_SAFE, 1, "safe hash off after the block");

	SHA1DCInit(&ctx);
	SHA1DCUpdate(&ctx, (const char *)shattered, 256);
	SHA1DCSetSafeHash(&ctx, 0);
	SHA1DCUpdate(&ctx, (const char *)shattered + 256, 64);
	expect(&ctx, SHATTERED_PLAIN, 1, "safe hash off before the block");

	SHA1DCInit(&ctx);
	SHA1DCSetUseDetectColl(&ctx, 0);
	SHA1DCUpdate(&ctx, (const char *)shattered, 320);
	SHA1DCSetUseDetectColl(&ctx, 1);
	expect(&ctx, SHATTERED_PLAIN, 0, "detection on after the block");

	SHA1DCInit(&ctx);
	SHA1DCSetUseDetectColl(&ctx, 0);
	SHA1DCUpdate(&ctx, (const char *)shattered, 256);
	SHA1DCSetUseDetectColl(&ctx, 1);
	SHA1DCUpdate(&ctx, (const char *)shattered + 256, 64);
	expect(&ctx, SHATTERED_SAFE, 1, "detection on before the block");

	SHA1DCInit(&ctx);
	SHA1DCUpdate(&ctx, (const char *)shattered, 320);
	SHA1DCSetUseDetectColl(&ctx, 0);
	expect(&ctx, SHATTERED_SAFE, 1, "detection off after the block");

	SHA1DCInit(&ctx);
	SHA1DCUpdate(&ctx, (const char *)reduced, 128);
	SHA1DCSetDetectReducedRoundCollision(&ctx, 1);
	expect(&ctx, REDUCED_PLAIN, 0, "reduced round on after the block");

	SHA1DCInit(&ctx);
	SHA1DCUpdate(&ctx, (const char *)reduced, 64);
	SHA1DCSetDetectReducedRoundCollision(&ctx, 1);
	SHA1DCUpdate(&ctx, (const char *)reduced + 64, 64);
	expect(&ctx, REDUCED_RR, 1, "reduced round on before the block");

	SHA1DCInit(&ctx);
	SHA1DCSetUseUBC(&ctx, 0);
	SHA1DCUpdate(&ctx, (const char *)shattered, 100);
	SHA1DCSetUseUBC(&ctx, 1);
	SHA1DCUpdate(&ctx, (const char *)shattered + 100, 220);
	expect(&ctx, SHATTERED_SAFE, 1, "filter switched mid-message");
}

static void callback_once_per_block(const unsigned char *shattered)
{
	SHA1_CTX ctx, clone;
	unsigned char digest[20];
	size_t split;
	for (split = 0; split <= 320; split += 5) {
		SHA1DCInit(&ctx);
		SHA1DCSetCallback(&ctx, record);
		n_reports = 0;
		SHA1DCUpdate(&ctx, (const char *)shattered, split);
		SHA1DCFinal(digest, &ctx);
		SHA1DCFinal(digest, &ctx);
		clone = ctx;
		SHA1DCUpdate(&ctx, (const char *)shattered + split, 320 - split);
		expect(&ctx, SHATTERED_SAFE, 1, "callback");
		expect(&ctx, SHATTERED_SAFE, 1, "callback, Final twice");
		CHECK(n_reports == 1 && reports[0].offset == 256, "split %zu: %zu reports", split,
		      n_reports);
		/* Set after the block was given: not reported (as the reference,
		   which compressed the block in that Update). */
		n_reports = 0;
		SHA1DCSetCallback(&clone, record);
		SHA1DCUpdate(&clone, (const char *)shattered + split, 320 - split);
		expect(&clone, SHATTERED_SAFE, 1, "callback set late");
		CHECK(n_reports == (split < 320 ? 1u : 0u), "split %zu, set late: %zu reports",
		      split, n_reports);
		SHA1DCSetCallback(&clone, NULL);
		n_reports = 0;
		SHA1DCUpdate(&clone, "x", 1);
		expect(&clone, "295328cc6a617ff0951af511fc1500d0bf41bea3", 1, "callback unset");
		CHECK(n_reports == 0, "callback unset: %zu reports", n_reports);
	}
}

static void null_arguments(const unsigned char *shattered)
{
	SHA1_CTX ctx;
	unsigned char digest[20];
	SHA1DCInit(NULL);
	SHA1DCSetSafeHash(NULL, 0);
	SHA1DCSetUseUBC(NULL, 0);
	SHA1DCSetUseDetectColl(NULL, 0);
	SHA1DCSetDetectReducedRoundCollision(NULL, 1);
	SHA1DCSetCallback(NULL, record);
	SHA1DCUpdate(NULL, "abc", 3);
	CHECK(SHA1DCFinal(digest, NULL) == 0, "Final of NULL");
	SHA1DCInit(&ctx);
	SHA1DCUpdate(&ctx, NULL, 0);
	SHA1DCUpdate(&ctx, NULL, 5);
	SHA1DCUpdate(&ctx, "abc", 3);
	CHECK(SHA1DCFinal(NULL, &ctx) == 0, "Final into NULL");
	expect(&ctx, ABC, 0, "NULL data ignored");
	SHA1DCInit(&ctx);
	SHA1DCUpdate(&ctx, (const char *)shattered, 320);
	CHECK(SHA1DCFinal(NULL, &ctx) == 1, "Final into NULL still returns the flag");
	/* A context SHA1DCInit never saw, zeroed: initialised with the defaults. */
	memset(&ctx, 0, sizeof ctx);
	SHA1DCUpdate(&ctx, "abc", 3);
	expect(&ctx, ABC, 0, "zeroed context");
	memset(&ctx, 0, sizeof ctx);
	SHA1DCSetSafeHash(&ctx, 0);
	SHA1DCUpdate(&ctx, "abc", 3);
	expect(&ctx, ABC, 0, "zeroed context, a setter first");
}

static void extension(const unsigned char *shattered)
{
	SHA1_CTX ctx;
	unsigned char digest[20], digests[3][20];
	const void *data[3];
	size_t lens[3] = {3, 320, 0};
	int flags[3] = {7, 7, 7};
	char hex[41];
	CHECK(SHA1DCInitWithOptions(&ctx, SHA1DC_OPT_NO_DETECT_COLL) == 0, "plain");
	SHA1DCUpdate(&ctx, (const char *)shattered, 320);
	expect(&ctx, SHATTERED_PLAIN, 0, "plain SHA-1");
	CHECK(SHA1DCInitWithOptions(&ctx, SHA1DC_OPT_NO_SAFE_HASH) == 0, "git's");
	SHA1DCUpdate(&ctx, (const char *)shattered, 320);
	expect(&ctx, SHATTERED_PLAIN, 1, "git's options");
	CHECK(SHA1DCInitWithOptions(&ctx, 0x10) == -1, "reserved bit");
	SHA1DCUpdate(&ctx, (const char *)shattered, 320);
	expect(&ctx, SHATTERED_SAFE, 1, "reserved bit: the defaults");

	CHECK(SHA1DCHash(digest, shattered, 320, 0) == 1, "one-shot");
	to_hex(digest, hex);
	CHECK(!strcmp(hex, SHATTERED_SAFE), "one-shot: %s", hex);
	CHECK(SHA1DCHash(digest, NULL, 0, 0) == 0, "one-shot, empty");
	memset(digest, 0xAA, 20);
	CHECK(SHA1DCHash(digest, NULL, 1, 0) == -1 && digest[0] == 0xAA, "one-shot, NULL data");
	CHECK(SHA1DCHash(NULL, "abc", 3, 0) == -1, "one-shot, NULL digest");
	CHECK(SHA1DCHash(digest, "abc", 3, 0x100) == -1 && digest[0] == 0xAA, "one-shot, reserved");

	data[0] = "abc";
	data[1] = shattered;
	data[2] = NULL;
	CHECK(SHA1DCHashMany(digests, flags, data, lens, 3, SHA1DC_OPT_NO_SAFE_HASH) == 1, "batch");
	to_hex(digests[0], hex);
	CHECK(!strcmp(hex, ABC) && flags[0] == 0, "batch 0: %s", hex);
	to_hex(digests[1], hex);
	CHECK(!strcmp(hex, SHATTERED_PLAIN) && flags[1] == 1, "batch 1: %s", hex);
	to_hex(digests[2], hex);
	CHECK(!strcmp(hex, "da39a3ee5e6b4b0d3255bfef95601890afd80709") && flags[2] == 0, "batch 2");
	CHECK(SHA1DCHashMany(digests, NULL, data, lens, 1, 0) == 0, "batch, no flags");
	CHECK(SHA1DCHashMany(NULL, NULL, NULL, NULL, 0, 0) == 0, "batch of none");
	CHECK(SHA1DCHashMany(NULL, NULL, data, lens, 3, 0) == -1, "batch, NULL digests");
	CHECK(SHA1DCHashMany(digests, NULL, data, lens, 3, 0x20) == -1, "batch, reserved");
	lens[2] = 1;
	memset(digests, 0xAA, sizeof digests);
	CHECK(SHA1DCHashMany(digests, flags, data, lens, 3, 0) == -1 && digests[0][0] == 0xAA,
	      "batch, NULL data with a length");
	cases += 12;
}

/* Contexts on threads are independent: each thread hashes its own
   messages, cloning contexts as it goes, and must get the answers of one
   thread alone. */
#define THREADS 4
#define THREAD_MESSAGES 200
struct job { const unsigned char *data; size_t len; unsigned char out[THREAD_MESSAGES][20]; };

static void *thread_run(void *arg)
{
	struct job *job = arg;
	size_t i;
	for (i = 0; i < THREAD_MESSAGES; i++) {
		SHA1_CTX ctx, clone;
		size_t len = (i * 997) % job->len, half = len / 2;
		SHA1DCInit(&ctx);
		SHA1DCUpdate(&ctx, (const char *)job->data, half);
		clone = ctx;
		SHA1DCUpdate(&clone, (const char *)job->data + half, len - half);
		SHA1DCFinal(job->out[i], &clone);
	}
	return NULL;
}

static void threads(const unsigned char *pdf, size_t pdf_len)
{
	static struct job jobs[THREADS];
	pthread_t ids[THREADS];
	size_t i, t;
	for (t = 0; t < THREADS; t++) {
		jobs[t].data = pdf + t * 1000;
		jobs[t].len = 50000;
		CHECK(pdf_len > t * 1000 + 50000, "input too short");
		CHECK(pthread_create(&ids[t], NULL, thread_run, &jobs[t]) == 0, "thread %zu", t);
	}
	for (t = 0; t < THREADS; t++)
		pthread_join(ids[t], NULL);
	for (t = 0; t < THREADS; t++)
		for (i = 0; i < THREAD_MESSAGES; i++) {
			unsigned char digest[20];
			size_t len = (i * 997) % jobs[t].len;
			SHA1DCHash(digest, jobs[t].data, len, 0);
			CHECK(!memcmp(digest, jobs[t].out[i], 20), "thread %zu message %zu", t, i);
		}
	cases += THREADS * THREAD_MESSAGES;
}

/* One Update of more than INT_MAX bytes (a sparse mapping) against the same
   bytes in 64 MiB calls. */
static void beyond_int_max(void)
{
	size_t len = (size_t)INT_MAX + 1000, at;
	unsigned char *big, one[20], chunked[20];
	SHA1_CTX a, b;
	big = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		   -1, 0);
	if (big == MAP_FAILED) {
		printf("api: skipped the %zu-byte message (mmap failed)\n", len);
		return;
	}
	memcpy(big, "head", 4);
	memcpy(big + len - 4, "tail", 4);
	SHA1DCInit(&a);
	SHA1DCUpdate(&a, (const char *)big, len);
	SHA1DCFinal(one, &a);
	SHA1DCInit(&b);
	for (at = 0; at < len; at += (size_t)64 << 20)
		SHA1DCUpdate(&b, (const char *)big + at, len - at < (64u << 20) ? len - at : 64u << 20);
	SHA1DCFinal(chunked, &b);
	CHECK(!memcmp(one, chunked, 20), "a %zu-byte Update", len);
	munmap(big, len);
	cases++;
}

int main(int argc, char **argv)
{
	size_t len, pdf_len, reduced_len;
	unsigned char *shattered, *pdf, *reduced;
	if (argc != 2) {
		fprintf(stderr, "usage: %s DATA_DIR\n", argv[0]);
		return 2;
	}
	data_dir = argv[1];
	shattered = read_file(data_dir, "shattered-1.prefix320.bin", &len);
	pdf = read_file(data_dir, "shattered-2.pdf", &pdf_len);
	reduced = read_file(data_dir, "sha1_reducedsha_coll.bin", &reduced_len);
	defaults_and_final(shattered);
	setters_mid_message(shattered, reduced);
	callback_once_per_block(shattered);
	null_arguments(shattered);
	extension(shattered);
	threads(pdf, pdf_len);
	if (!getenv("SHA1DC_TEST_NO_BIG"))
		beyond_int_max();
	free(shattered);
	free(pdf);
	free(reduced);
	return finish("api", cases);
}
