/*
 * sha1dc/sha1dc_ext.h - libsha1detectcoll's calls beyond the reference API
 *
 * Only in this library (sha1dc-wasm's), not in sha1collisiondetection:
 *     SHA1DCInitWithOptions  a context with its options set in one call;
 *     SHA1DCHash             one message in one call;
 *     SHA1DCHashMany         many messages in one call, several at a time
 *                            (one per vector lane), results in order.
 * A program that uses them needs this library; test for it with
 * SHA1DC_EXT_VERSION.
 *
 * OPTIONS are an OR of the SHA1DC_OPT_ flags; 0 gives the defaults of
 * SHA1DCInit (the reference's).  Other bits are reserved: a call given one
 * fails (returns -1).
 *
 * PLAIN SHA-1: SHA1DC_OPT_NO_DETECT_COLL gives SHA-1 without detection, at
 * the hardware's plain SHA-1 speed, for checksums that no attacker chooses
 * (git's pack and index checksums, for one).  SHA1DCFinal then returns 0.
 *
 * Copyright the sha1dc-wasm authors.  MIT OR Apache-2.0.
 */

#ifndef SHA1DC_SHA1DC_EXT_H
#define SHA1DC_SHA1DC_EXT_H

#include "sha1.h"

#if defined(__cplusplus)
extern "C" {
#endif

/* The version of this header's interface (2: SHA1DC_OPT_NO_FILTER). */
#define SHA1DC_EXT_VERSION 2

/* Output the SHA-1 even for a detected collision (SHA1DCSetSafeHash 0). */
#define SHA1DC_OPT_NO_SAFE_HASH 0x1u
/* No filter (SHA1DCSetUseUBC 0): every block recompressed for every
   disturbance vector, not only those whose unavoidable bit conditions it
   meets; for tests. */
#define SHA1DC_OPT_NO_FILTER 0x2u
/* SHA1DC_OPT_NO_FILTER's name in version 1, kept for the programs using it. */
#define SHA1DC_OPT_NO_UBC SHA1DC_OPT_NO_FILTER
/* No collision detection: plain SHA-1 (SHA1DCSetUseDetectColl 0). */
#define SHA1DC_OPT_NO_DETECT_COLL 0x4u
/* Reduced-round detection too (SHA1DCSetDetectReducedRoundCollision 1). */
#define SHA1DC_OPT_REDUCED_ROUND 0x8u

/* SHA1DCInit, then the options: SHA1DCInitWithOptions(ctx,
   SHA1DC_OPT_NO_SAFE_HASH) is git's context, SHA1DC_OPT_NO_DETECT_COLL a
   plain SHA-1 one.  Returns 0, or -1 for reserved bits (the context then has
   the defaults).  The context is then used as any other. */
int SHA1DCInitWithOptions(SHA1_CTX *ctx, unsigned options);

/*
 * Hashes the len bytes at data (NULL if len is 0) with options into digest,
 * as SHA1DCInitWithOptions, SHA1DCUpdate and SHA1DCFinal would.  Returns 0
 * when no collision was detected, 1 when one was, and -1, writing nothing,
 * for reserved option bits, a NULL digest, or NULL data with a length.
 */
int SHA1DCHash(unsigned char digest[20], const void *data, size_t len,
               unsigned options);

/*
 * Hashes count messages, message i being the lens[i] bytes at data[i]
 * (NULL if lens[i] is 0), with options: digests[i] gets its digest and,
 * unless collisions is NULL, collisions[i] gets 1 if a collision was
 * detected in it, else 0.  Each result is exactly what SHA1DCHash gives
 * for that message.  Independent messages are hashed several at a time
 * (one per vector lane: 16 with AVX-512), faster than one by one when there
 * are many small ones.  Allocates nothing.
 * Returns 1 if any message had a collision, else 0; -1, writing nothing,
 * for reserved option bits, or (when count is not 0) a NULL digests, data
 * or lens, or a NULL data[i] with a length.
 */
int SHA1DCHashMany(unsigned char (*digests)[20], int *collisions,
                   const void *const *data, const size_t *lens, size_t count,
                   unsigned options);

#if defined(__cplusplus)
}
#endif

#endif /* SHA1DC_SHA1DC_EXT_H */
