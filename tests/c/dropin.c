/* The binary drop-in check (scripts/c-dropin.sh): compiled against the
   REFERENCE's <sha1dc/sha1.h> and run once with its libsha1detectcoll.so.1
   and once with this library's: the outputs must be the same.  Prints, for
   each file and each of the 16 combinations of the reference's setters, the
   digest and flag, after checking that random chunkings and a memcpy clone
   taken at a random point agree.  Uses only the reference's API.
     dropin FILE... */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sha1dc/sha1.h>

static uint64_t state = 42;
static size_t below(size_t n)
{
	uint64_t z = (state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return (size_t)((z ^ (z >> 31)) % n);
}

static void setup(SHA1_CTX *ctx, unsigned options)
{
	SHA1DCInit(ctx);
	SHA1DCSetSafeHash(ctx, !(options & 1));
	SHA1DCSetUseUBC(ctx, !(options & 2));
	SHA1DCSetUseDetectColl(ctx, !(options & 4));
	SHA1DCSetDetectReducedRoundCollision(ctx, !!(options & 8));
}

static void feed(SHA1_CTX *ctx, const unsigned char *p, size_t n)
{
	while (n) {
		size_t k = 1 + below(below(2) ? 64 : 9000);
		if (k > n)
			k = n;
		SHA1DCUpdate(ctx, (const char *)p, k);
		p += k;
		n -= k;
	}
}

int main(int argc, char **argv)
{
	int i, bad = 0;
	printf("sizeof(SHA1_CTX) = %u\n", (unsigned)sizeof(SHA1_CTX));
	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		unsigned char *data;
		long len;
		unsigned options;
		if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
			return 2;
		data = malloc((size_t)len + 1);
		if (!data || fread(data, 1, (size_t)len, f) != (size_t)len)
			return 2;
		fclose(f);
		for (options = 0; options < 16; options++) {
			SHA1_CTX ctx, clone;
			unsigned char d1[20], d2[20];
			size_t at = below((size_t)len + 1);
			int f1, f2, k;
			setup(&ctx, options);
			SHA1DCUpdate(&ctx, (const char *)data, (size_t)len);
			f1 = SHA1DCFinal(d1, &ctx);
			setup(&ctx, options);
			feed(&ctx, data, at);
			memcpy(&clone, &ctx, sizeof ctx);
			feed(&ctx, data + at, (size_t)len - at);
			f2 = SHA1DCFinal(d2, &ctx);
			if (f1 != f2 || memcmp(d1, d2, 20)) {
				printf("MISMATCH %s options %u: chunked\n", argv[i], options);
				bad = 1;
			}
			feed(&clone, data + at, (size_t)len - at);
			f2 = SHA1DCFinal(d2, &clone);
			if (f1 != f2 || memcmp(d1, d2, 20)) {
				printf("MISMATCH %s options %u: clone\n", argv[i], options);
				bad = 1;
			}
			printf("%s options=%u ", argv[i], options);
			for (k = 0; k < 20; k++)
				printf("%02x", d1[k]);
			printf(" %d\n", f1 != 0);
		}
		free(data);
	}
	return bad;
}
