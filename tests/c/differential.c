/* The C API against the Rust API: the messages and answers of the oracle
   (tests/c/oracle.rs), each hashed in random chunks, cloned with memcpy at a
   random point (the clone finished on its own, after a Final that must not
   disturb it), and through the one-shot and batch calls.
     differential ORACLE_FILE SEED */
#include "common.h"

struct message {
	unsigned options;
	size_t len;
	char hex[41];
	int flag;
	size_t n_offsets;
	uint64_t *offsets;
	unsigned char *data;
};

static struct message *read_oracle(const char *path, size_t *count)
{
	FILE *f = fopen(path, "rb");
	struct message *msgs;
	size_t i, j;
	if (!f || fscanf(f, "%zu", count) != 1) {
		perror(path);
		exit(2);
	}
	msgs = xmalloc(*count * sizeof *msgs);
	for (i = 0; i < *count; i++) {
		struct message *m = &msgs[i];
		if (fscanf(f, "%u %zu %40s %d %zu", &m->options, &m->len, m->hex, &m->flag,
			   &m->n_offsets) != 5) {
			fprintf(stderr, "%s: bad record %zu\n", path, i);
			exit(2);
		}
		m->offsets = xmalloc((m->n_offsets + 1) * sizeof *m->offsets);
		for (j = 0; j < m->n_offsets; j++) {
			unsigned long long o;
			if (fscanf(f, "%llu", &o) != 1)
				exit(2);
			m->offsets[j] = o;
		}
		m->data = xmalloc(m->len);
		if (fgetc(f) != '\n' || fread(m->data, 1, m->len, f) != m->len || fgetc(f) != '\n') {
			fprintf(stderr, "%s: bad message %zu\n", path, i);
			exit(2);
		}
	}
	fclose(f);
	return msgs;
}

/* Final's digest, flag and the reports so far against the oracle's. */
static void check_final(const struct message *m, SHA1_CTX *ctx, const char *what, size_t i)
{
	unsigned char digest[20];
	char hex[41];
	size_t j;
	int flag = SHA1DCFinal(digest, ctx);
	to_hex(digest, hex);
	CHECK(!strcmp(hex, m->hex), "message %zu %s: %s, not %s (options %u, %zu bytes)", i, what,
	      hex, m->hex, m->options, m->len);
	CHECK(!!flag == m->flag, "message %zu %s: flag %d", i, what, flag);
	CHECK(n_reports == m->n_offsets, "message %zu %s: %zu reports, %zu expected", i, what,
	      n_reports, m->n_offsets);
	for (j = 0; j < n_reports && j < m->n_offsets && j < MAX_REPORTS; j++)
		CHECK(reports[j].offset == m->offsets[j], "message %zu %s: report %zu", i, what, j);
}

/* Streaming with a clone taken at a random point. */
static void check_streaming(const struct message *m, size_t i)
{
	SHA1_CTX ctx, clone;
	unsigned char first[20], second[20];
	size_t at = rng_below(m->len + 1), before;
	int callback_first = (int)rng_below(2);
	if (callback_first) {
		SHA1DCInit(&ctx);
		SHA1DCSetCallback(&ctx, record);
		set_options(&ctx, m->options);
	} else {
		init_options(&ctx, m->options);
		SHA1DCSetCallback(&ctx, record);
	}
	n_reports = 0;
	update_chunked(&ctx, m->data, at);
	before = n_reports;
	if (rng_below(2))
		memcpy(&clone, &ctx, sizeof ctx);
	else
		clone = ctx;
	update_chunked(&ctx, m->data + at, m->len - at);
	check_final(m, &ctx, "streamed", i);
	/* The clone: the reports of the original up to the copy, then its own. */
	n_reports = before;
	if (rng_below(2)) {
		int a = SHA1DCFinal(first, &clone), b = SHA1DCFinal(second, &clone);
		CHECK(a == b && !memcmp(first, second, 20), "message %zu: Final twice", i);
	}
	update_chunked(&clone, m->data + at, m->len - at);
	check_final(m, &clone, "clone", i);
	check_final(m, &clone, "clone's second Final", i);
}

/* The one-shot call, and the batch over the messages of each options. */
static void check_one_shot_and_batch(const struct message *msgs, size_t count)
{
	unsigned options;
	unsigned char(*digests)[20] = xmalloc(count * sizeof *digests);
	const void **data = xmalloc(count * sizeof *data);
	size_t *lens = xmalloc(count * sizeof *lens), *index = xmalloc(count * sizeof *index);
	int *flags = xmalloc(count * sizeof *flags);
	size_t i;
	for (i = 0; i < count; i++) {
		unsigned char digest[20];
		char hex[41];
		int flag = SHA1DCHash(digest, msgs[i].data, msgs[i].len, msgs[i].options);
		to_hex(digest, hex);
		CHECK(!strcmp(hex, msgs[i].hex) && flag == msgs[i].flag, "message %zu one-shot", i);
	}
	for (options = 0; options < 16; options++) {
		size_t n = 0, any = 0;
		int ret;
		for (i = 0; i < count; i++)
			if (msgs[i].options == options) {
				index[n] = i;
				data[n] = msgs[i].len || rng_below(2) ? msgs[i].data : NULL;
				lens[n++] = msgs[i].len;
				any |= (size_t)msgs[i].flag;
			}
		ret = SHA1DCHashMany(digests, flags, data, lens, n, options);
		CHECK(ret == (int)any, "batch of options %u: %d", options, ret);
		for (i = 0; i < n; i++) {
			char hex[41];
			to_hex(digests[i], hex);
			CHECK(!strcmp(hex, msgs[index[i]].hex) && flags[i] == msgs[index[i]].flag,
			      "message %zu in the batch of options %u", index[i], options);
		}
	}
	free(digests);
	free(data);
	free(lens);
	free(index);
	free(flags);
}

int main(int argc, char **argv)
{
	size_t count, i, flagged = 0;
	struct message *msgs;
	if (argc != 3) {
		fprintf(stderr, "usage: %s ORACLE_FILE SEED\n", argv[0]);
		return 2;
	}
	rng_state = strtoull(argv[2], NULL, 10);
	msgs = read_oracle(argv[1], &count);
	for (i = 0; i < count; i++) {
		check_streaming(&msgs[i], i);
		flagged += msgs[i].n_offsets > 0;
	}
	check_one_shot_and_batch(msgs, count);
	/* The oracle's messages must exercise the callback at all. */
	CHECK(flagged >= count / 20, "only %zu of %zu messages have a report", flagged, count);
	for (i = 0; i < count; i++) {
		free(msgs[i].offsets);
		free(msgs[i].data);
	}
	free(msgs);
	return finish("differential", (long)count);
}
