// The installed headers from C++ (extern "C" linkage), run once; the C
// tests link it statically too (g++ -static).
#include <cstdint>
#include <cstring>

#include <sha1dc/sha1.h>
#include <sha1dc/sha1dc_ext.h>
#include <sha1dc/ubc_check.h>

#if defined(__x86_64__) && !defined(__ILP32__)
static_assert(sizeof(SHA1_CTX) == 2400 && alignof(SHA1_CTX) == 8, "the reference's SHA1_CTX");
#endif

int main()
{
	SHA1_CTX ctx;
	unsigned char digest[20], batch[2][20];
	const void *data[2] = {"abc", "abc"};
	const size_t lens[2] = {3, 3};
	SHA1DCInit(&ctx);
	SHA1DCUpdate(&ctx, "abc", 3);
	if (SHA1DCFinal(digest, &ctx) != 0)
		return 1;
	if (SHA1DCHashMany(batch, nullptr, data, lens, 2, 0) != 0)
		return 1;
	if (std::memcmp(digest, batch[0], 20) || std::memcmp(digest, batch[1], 20))
		return 1;
	// The last DV is II(56,0), checked from step 65, at bit 31; an all-zero
	// expanded message meets the conditions of no DV (as in the reference).
	int last = 0;
	while (sha1_dvs[last + 1].dvType != 0)
		last++;
	const dv_info_t &dv = sha1_dvs[last];
	uint32_t w[80] = {}, mask[DVMASKSIZE];
	ubc_check(w, mask);
	return last != 31 || dv.dvType != 2 || dv.dvK != 56 || dv.testt != 65 || dv.maskb != 31 ||
	       CHECK_DVMASK(mask);
}
