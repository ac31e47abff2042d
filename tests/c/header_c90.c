/* The installed headers as strict C90 (-std=c90 -pedantic -Werror -Wall
   -Wextra), and SHA1_CTX's size and alignment on x86-64: the reference's
   2,400 bytes, aligned 8.  Runs the calls once, so that it links too. */
#include <stddef.h>
#include <string.h>

#include <sha1dc/sha1.h>
#include <sha1dc/sha1dc_ext.h>
#include <sha1dc/ubc_check.h>

/* C90 has no static assertion: an array of negative size fails to compile. */
#define STATIC_CHECK(name, cond) typedef char name[(cond) ? 1 : -1]

#if defined(__x86_64__) && !defined(__ILP32__)
struct align_probe { char c; SHA1_CTX ctx; };
STATIC_CHECK(sha1_ctx_is_2400_bytes, sizeof(SHA1_CTX) == 2400);
STATIC_CHECK(sha1_ctx_is_aligned_8, offsetof(struct align_probe, ctx) == 8);
#endif
/* Version 1's name of the option stays. */
STATIC_CHECK(no_ubc_is_no_filter, SHA1DC_OPT_NO_UBC == SHA1DC_OPT_NO_FILTER);

static void on_block(uint64_t offset, const uint32_t *ihv1, const uint32_t *ihv2,
                     const uint32_t *m1, const uint32_t *m2)
{
	(void)offset; (void)ihv1; (void)ihv2; (void)m1; (void)m2;
}

/* The internals: the table's first DV is I(43,0); "abc" compressed from
   the IV gives its SHA-1, and passes the filter of no DV. */
static int internals(void)
{
	uint32_t ihv[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
	uint32_t m[16], w[80], states[80][5], mask[DVMASKSIZE];
	unsigned char block[64] = {'a', 'b', 'c', 0x80};
	block[63] = 24;
	memcpy(m, block, sizeof m);
	sha1_compression_states(ihv, m, w, states);
	ubc_check(w, mask);
	if (sha1_dvs[0].dvType != 1 || sha1_dvs[0].dvK != 43 || sha1_dvs[32].dvType != 0)
		return 1;
	return ihv[0] != 0xa9993e36 || ihv[4] != 0x9cd0d89d || CHECK_DVMASK(mask);
}

int main(void)
{
	SHA1_CTX ctx;
	unsigned char digest[20];
	static const unsigned char abc_sha1[20] = {
		0xa9, 0x99, 0x3e, 0x36, 0x47, 0x06, 0x81, 0x6a, 0xba, 0x3e,
		0x25, 0x71, 0x78, 0x50, 0xc2, 0x6c, 0x9c, 0xd0, 0xd8, 0x9d
	};
	collision_block_callback cb = on_block;
	SHA1DCInit(&ctx);
	SHA1DCSetSafeHash(&ctx, 1);
	SHA1DCSetUseUBC(&ctx, 1);
	SHA1DCSetUseDetectColl(&ctx, 1);
	SHA1DCSetDetectReducedRoundCollision(&ctx, 0);
	SHA1DCSetCallback(&ctx, cb);
	SHA1DCUpdate(&ctx, "abc", 3);
	if (SHA1DCFinal(digest, &ctx) != 0 || memcmp(digest, abc_sha1, 20) != 0)
		return 1;
	if (SHA1DCInitWithOptions(&ctx, SHA1DC_OPT_NO_SAFE_HASH) != 0)
		return 1;
	if (SHA1DCHash(digest, "abc", 3, SHA1DC_OPT_NO_DETECT_COLL) != 0 ||
	    memcmp(digest, abc_sha1, 20) != 0)
		return 1;
	return internals();
}
