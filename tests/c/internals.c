/* The reference's exported internals (<sha1dc/ubc_check.h>, and
   sha1_compression_states in <sha1dc/sha1.h>) against the known answers:
   sha1_dvs is DV_TABLE.tsv with its end entry; sha1_compression_states,
   block by block over every file of TRACE.txt, gives the file's SHA-1
   (MANIFEST.tsv), its expanded messages and states 58 and 65 are those of
   RECOMPRESSION_KAT.txt, and its 80 states follow one from the other by the
   SHA-1 step in the reference's order; ubc_check of each block's expanded
   message gives UBC_MASKS_splitmix64.tsv's mask for every block of the
   1 MiB control, TRACE.txt's mask counts for every file and its filter bit
   for every block that fires; NULL pointers do nothing.
     internals DATA_DIR CONTROLS_DIR      (CONTROLS_DIR: gen_controls.py's output) */
#include "common.h"

#include <sha1dc/ubc_check.h>

static const char *data_dir, *ctrl_dir;
static long cases;

static uint32_t rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

static unsigned char *input(const char *name, size_t *len)
{
	return read_file(strncmp(name, "ctrl-", 5) ? data_dir : ctrl_dir, name, len);
}

/* sha1_dvs: DV_TABLE.tsv's 32 rows in order, then dvType 0. */
static void check_table(void)
{
	size_t len;
	char *text = (char *)read_file(data_dir, "DV_TABLE.tsv", &len);
	char *line, *save = NULL;
	int n = 0, i;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int idx, type, k, b, testt, maski, maskb;
		uint32_t dm[80];
		char *p = line;
		if (sscanf(line, "%d %d %d %d %*s %d %d %d", &idx, &type, &k, &b, &testt, &maski,
			   &maskb) != 7)
			continue;
		for (i = 0; i < 8; i++)
			p = strchr(p, '\t') + 1;
		read_words(p, dm, 80);
		CHECK(idx == n && n < 32, "DV_TABLE.tsv row %d", idx);
		if (n >= 32)
			break;
		CHECK(sha1_dvs[n].dvType == type && sha1_dvs[n].dvK == k && sha1_dvs[n].dvB == b &&
			      sha1_dvs[n].testt == testt && sha1_dvs[n].maski == maski &&
			      sha1_dvs[n].maskb == maskb,
		      "sha1_dvs[%d] is %d %d %d %d %d %d", n, sha1_dvs[n].dvType, sha1_dvs[n].dvK,
		      sha1_dvs[n].dvB, sha1_dvs[n].testt, sha1_dvs[n].maski, sha1_dvs[n].maskb);
		CHECK(!memcmp(sha1_dvs[n].dm, dm, sizeof dm), "sha1_dvs[%d].dm", n);
		n++;
		cases++;
	}
	CHECK(n == 32, "DV_TABLE.tsv has %d rows", n);
	for (i = 0; sha1_dvs[i].dvType != 0 && i < 40; i++)
		;
	CHECK(i == 32, "sha1_dvs ends after %d entries", i);
	CHECK(sha1_dvs[32].dvK == 0 && sha1_dvs[32].testt == 0 && sha1_dvs[32].maskb == 0 &&
		      sha1_dvs[32].dm[0] == 0 && sha1_dvs[32].dm[79] == 0,
	      "the end entry is not all zeros");
	free(text);
}

/* The state (a, b, c, d, e) before step t, from states[t] in the
   reference's order: states[t][j] is word (j + t) mod 5. */
static void state_before(uint32_t states[80][5], int t, uint32_t s[5])
{
	int i;
	for (i = 0; i < 5; i++)
		s[i] = states[t][(i + 5 - t % 5) % 5];
}

static void sha1_step(int t, uint32_t s[5], uint32_t w)
{
	static const uint32_t k[4] = {0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6};
	uint32_t f, a;
	if (t < 20)
		f = s[3] ^ (s[1] & (s[2] ^ s[3]));
	else if (t >= 40 && t < 60)
		f = (s[1] & s[2]) | (s[3] & (s[1] | s[2]));
	else
		f = s[1] ^ s[2] ^ s[3];
	a = rotl(s[0], 5) + f + s[4] + k[t / 20] + w;
	s[4] = s[3];
	s[3] = s[2];
	s[2] = rotl(s[1], 30);
	s[1] = s[0];
	s[0] = a;
}

/* sha1_compression_states on `block` from `ihv`, checked against the
   definition of SHA-1: the expansion, each state the step of the one
   before, the output the input plus the last state. */
static void compress(uint32_t ihv[5], const unsigned char block[64], uint32_t w[80],
		     uint32_t states[80][5], const char *what)
{
	uint32_t m[16], in[5], s[5], next[5];
	int t, ok = 1;
	memcpy(m, block, 64);
	memcpy(in, ihv, sizeof in);
	sha1_compression_states(ihv, m, w, states);
	for (t = 0; t < 80; t++) {
		const unsigned char *b = block + 4 * t;
		uint32_t want = t < 16 ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
						 (uint32_t)b[2] << 8 | b[3]
				       : rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
		ok &= w[t] == want;
	}
	state_before(states, 0, s);
	ok &= !memcmp(s, in, sizeof s);
	for (t = 0; t < 80; t++) {
		sha1_step(t, s, w[t]);
		if (t < 79) {
			state_before(states, t + 1, next);
			ok &= !memcmp(s, next, sizeof s);
		}
	}
	for (t = 0; t < 5; t++)
		ok &= ihv[t] == in[t] + s[t];
	CHECK(ok, "%s: sha1_compression_states is not SHA-1's compression", what);
}

/* One file of TRACE.txt: every padded block compressed and filtered. */
struct file_result {
	uint32_t ihv[5];
	long blocks, masked, bits;
	uint32_t *masks; /* one per block */
};

static void run_file(const char *name, struct file_result *r)
{
	size_t len, n, i;
	unsigned char *data = input(name, &len), *padded;
	uint32_t w[80], states[80][5];
	static const uint32_t iv[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
	uint64_t bits = (uint64_t)len * 8;
	n = (len + 8) / 64 + 1;
	padded = xmalloc(n * 64);
	memset(padded, 0, n * 64);
	memcpy(padded, data, len);
	padded[len] = 0x80;
	for (i = 0; i < 8; i++)
		padded[n * 64 - 1 - i] = (unsigned char)(bits >> (8 * i));
	memcpy(r->ihv, iv, sizeof iv);
	r->blocks = (long)n;
	r->masked = r->bits = 0;
	r->masks = xmalloc(n * sizeof *r->masks);
	for (i = 0; i < n; i++) {
		uint32_t mask[DVMASKSIZE] = {0xdeadbeef};
		char what[96];
		snprintf(what, sizeof what, "%s block %zu", name, i);
		compress(r->ihv, padded + 64 * i, w, states, what);
		ubc_check(w, mask);
		r->masks[i] = mask[0];
		if (CHECK_DVMASK(mask))
			r->masked++;
		for (; mask[0]; mask[0] &= mask[0] - 1)
			r->bits++;
	}
	free(padded);
	free(data);
}

/* MANIFEST.tsv's plain SHA-1 of `name`. */
static const char *plain_sha1(const char *name)
{
	static char *text;
	static size_t len;
	static char hex[41];
	char *at, pattern[80];
	if (!text)
		text = (char *)read_file(data_dir, "MANIFEST.tsv", &len);
	snprintf(pattern, sizeof pattern, "\n%s\t", name);
	at = strstr(text, pattern);
	CHECK(at != NULL, "MANIFEST.tsv has no %s", name);
	if (!at || sscanf(strchr(at + 1, '\t') + 1, "%*s %40s", hex) != 1)
		return "";
	return hex;
}

/* TRACE.txt: for each file, its SHA-1, its mask counts and the filter bit of
   each block that fires. */
static void check_trace(void)
{
	size_t len;
	char *text = (char *)read_file(data_dir, "TRACE.txt", &len);
	char *line, *save = NULL, name[64] = "";
	struct file_result r = {{0}, 0, 0, 0, NULL};
	int files = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long blocks, masked, bits, block;
		int maskb, ubc_bit;
		const char *fired;
		if (sscanf(line, "file=%63s", name) == 1) {
			unsigned char digest[20];
			char hex[41];
			int i;
			free(r.masks);
			run_file(name, &r);
			for (i = 0; i < 20; i++)
				digest[i] = (unsigned char)(r.ihv[i / 4] >> (24 - 8 * (i % 4)));
			to_hex(digest, hex);
			CHECK(!strcmp(hex, plain_sha1(name)), "%s: compressed to %s", name, hex);
			files++;
			cases++;
		} else if (sscanf(line, " blocks=%ld blocks_with_nonzero_ubc_mask=%ld total_ubc_bits=%ld",
				  &blocks, &masked, &bits) == 3) {
			CHECK(r.blocks == blocks && r.masked == masked && r.bits == bits,
			      "%s: %ld blocks, %ld masked, %ld bits; TRACE.txt: %ld, %ld, %ld", name,
			      r.blocks, r.masked, r.bits, blocks, masked, bits);
			cases++;
		} else if ((fired = strstr(line, "] block ")) &&
			   sscanf(fired, "] block %ld", &block) == 1 &&
			   (fired = strstr(line, "maskb=")) &&
			   sscanf(fired, "maskb=%d ubc_bit=%d", &maskb, &ubc_bit) == 2) {
			CHECK(block < r.blocks && (int)(r.masks[block] >> maskb & 1) == ubc_bit,
			      "%s block %ld: mask %08x, TRACE.txt: bit %d is %d", name, block,
			      block < r.blocks ? r.masks[block] : 0, maskb, ubc_bit);
			cases++;
		}
	}
	CHECK(files == 12, "TRACE.txt lists %d files", files);
	free(r.masks);
	free(text);
}

/* UBC_MASKS_splitmix64.tsv: the mask of every block of the 1 MiB control. */
static void check_control_masks(void)
{
	size_t len;
	char *text = (char *)read_file(data_dir, "UBC_MASKS_splitmix64.tsv", &len);
	char *line, *save = NULL;
	struct file_result r;
	long i, listed = 0;
	uint32_t *want;
	run_file("ctrl-splitmix64-1MiB.bin", &r);
	want = xmalloc((size_t)r.blocks * sizeof *want);
	memset(want, 0, (size_t)r.blocks * sizeof *want);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long block;
		unsigned mask;
		if (sscanf(line, "%ld %x", &block, &mask) != 2)
			continue;
		CHECK(block >= 0 && block < r.blocks, "block %ld", block);
		if (block >= 0 && block < r.blocks)
			want[block] = mask;
		listed++;
	}
	CHECK(listed == 781 && r.blocks == 16385, "%ld masks listed, %ld blocks", listed, r.blocks);
	for (i = 0; i < r.blocks; i++) {
		CHECK(r.masks[i] == want[i], "control block %ld: mask %08x, not %08x", i, r.masks[i],
		      want[i]);
		cases++;
	}
	free(want);
	free(r.masks);
	free(text);
}

/* RECOMPRESSION_KAT.txt: each block's input and output chaining value,
   expanded message, states before steps 58 and 65 and filter mask. */
static void check_recompression_kat(void)
{
	size_t len;
	char *text = (char *)read_file(data_dir, "RECOMPRESSION_KAT.txt", &len);
	char *line, *save = NULL, file[64];
	uint32_t ihv_in[5], ihv_out[5], w[80], s58[5], s65[5], mask = 0;
	unsigned long long offset = 0;
	int w_row = -1, n = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "file=%63s block=%*d byte_offset=%llu", file, &offset) == 2) {
			w_row = -1;
		} else if (!strncmp(line, "ihv_in ", 7)) {
			read_words(strchr(line, '=') + 1, ihv_in, 5);
		} else if (!strncmp(line, "ihv_out ", 8)) {
			read_words(strchr(line, '=') + 1, ihv_out, 5);
		} else if (!strncmp(line, "W[0..79]", 8)) {
			w_row = 0;
		} else if (w_row >= 0 && w_row < 10) {
			read_words(line, w + 8 * w_row++, 8);
		} else if (!strncmp(line, "state_before_step58", 19)) {
			read_words(strchr(line, '=') + 1, s58, 5);
		} else if (!strncmp(line, "state_before_step65", 19)) {
			read_words(strchr(line, '=') + 1, s65, 5);
		} else if (sscanf(line, "ubc_dvmask = %x", &mask) == 1) {
			size_t flen;
			unsigned char *data = input(file, &flen);
			uint32_t ihv[5], got_w[80], states[80][5], got_mask[DVMASKSIZE];
			char what[96];
			snprintf(what, sizeof what, "%s at %llu", file, offset);
			CHECK(offset + 64 <= flen, "%s: past the end", what);
			if (offset + 64 <= flen) {
				memcpy(ihv, ihv_in, sizeof ihv);
				compress(ihv, data + offset, got_w, states, what);
				ubc_check(got_w, got_mask);
				CHECK(!memcmp(ihv, ihv_out, sizeof ihv), "%s: ihv_out", what);
				CHECK(!memcmp(got_w, w, sizeof w), "%s: W", what);
				CHECK(!memcmp(states[58], s58, sizeof s58), "%s: states[58]", what);
				CHECK(!memcmp(states[65], s65, sizeof s65), "%s: states[65]", what);
				CHECK(got_mask[0] == mask, "%s: mask %08x, not %08x", what, got_mask[0], mask);
			}
			free(data);
			n++;
			cases++;
		}
	}
	CHECK(n == 5, "RECOMPRESSION_KAT.txt has %d blocks", n);
	free(text);
}

/* NULL pointers: nothing is written, nothing crashes. */
static void check_null(void)
{
	uint32_t ihv[5] = {1, 2, 3, 4, 5}, m[16] = {0}, w[80] = {0}, states[80][5], mask = 7;
	sha1_compression_states(NULL, m, w, states);
	sha1_compression_states(ihv, NULL, w, states);
	sha1_compression_states(ihv, m, NULL, states);
	sha1_compression_states(ihv, m, w, NULL);
	CHECK(ihv[0] == 1 && ihv[4] == 5 && w[0] == 0, "a call with a NULL pointer wrote");
	ubc_check(NULL, &mask);
	ubc_check(w, NULL);
	CHECK(mask == 7, "ubc_check with NULL W wrote");
	cases++;
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: internals DATA_DIR CONTROLS_DIR\n");
		return 2;
	}
	data_dir = argv[1];
	ctrl_dir = argv[2];
	check_table();
	check_recompression_kat();
	check_control_masks();
	check_trace();
	check_null();
	return finish("internals", cases);
}
