// The installed headers from C++ (extern "C" linkage), run once.
#include <cstring>

#include <sha1dc/sha1.h>
#include <sha1dc/sha1dc_ext.h>

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
	return std::memcmp(digest, batch[0], 20) || std::memcmp(digest, batch[1], 20);
}
