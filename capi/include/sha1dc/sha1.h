/*
 * sha1dc/sha1.h - SHA-1 with collision detection (libsha1detectcoll)
 *
 * The C interface of sha1collisiondetection (Marc Stevens and Dan Shumow),
 * served by sha1dc-wasm's Rust engine: a program written, compiled or
 * linked against that library's header and libsha1detectcoll.so.1 works
 * with this one unchanged (same functions, same SHA1_CTX size and
 * alignment, same soname).  Extensions live in <sha1dc/sha1dc_ext.h>.
 *
 * SHA-1 is broken: collisions have been published (SHAttered, 2017;
 * SHA-mbles, 2020).  While hashing, this library checks every 64-byte block
 * for the traces of the known attacks (Stevens and Shumow's
 * counter-cryptanalysis: 32 disturbance vectors).  A message without such a
 * block gets its ordinary SHA-1; a message with one is reported by
 * SHA1DCFinal, and by default gets a "safe hash" instead of its SHA-1, so
 * that the two messages of a collision hash differently.
 *
 * USE
 *     SHA1_CTX ctx;
 *     unsigned char digest[20];
 *     SHA1DCInit(&ctx);
 *     SHA1DCUpdate(&ctx, data, len);            (any number of times)
 *     if (SHA1DCFinal(digest, &ctx))
 *             (a collision attack was detected: warn, refuse the input)
 *
 * CONTEXTS
 *     A SHA1_CTX is a plain value of the reference's size and alignment.
 *     It holds no pointer to memory of its own and needs no cleanup: drop it
 *     at any time.  A copy made with memcpy or assignment at any point goes
 *     on independently of the original (git clones contexts this way).
 *     Contexts on different threads are independent; one context must not
 *     be used by two threads at once.  The library keeps no state but the
 *     one-time choice of the fastest code for this CPU.
 *     Its members are not part of the interface: their names here are
 *     placeholders.
 *
 * WHAT DIFFERS FROM THE REFERENCE
 *     - SHA1DCFinal leaves the context as it was (it finishes a copy): a
 *       second SHA1DCFinal returns the same digest and flag, and
 *       SHA1DCUpdate after SHA1DCFinal continues the same message, so the
 *       digest of every prefix of a message can be taken on the way.  The
 *       reference's master modifies the context and needs SHA1DCInit again.
 *     - The callback is called: once for each block detected, before the
 *       safe hash changes anything (the reference's master never calls it;
 *       see SHA1DCSetCallback).
 *     - A context that SHA1DCInit never saw but whose bytes are zero (or do
 *       not hold this library's tag) is initialised with the defaults on
 *       first use.  Calling SHA1DCInit first is still the rule.
 *     - NULL pointers: NULL data with length 0 is fine.  The others are
 *       errors, undefined as in the reference, but this library does not
 *       crash on them: with a NULL context every call does nothing
 *       (SHA1DCFinal returns 0); SHA1DCFinal with a NULL output writes
 *       nothing and still returns the flag; SHA1DCUpdate ignores NULL data
 *       with a non-zero length.
 *     - sha1_compression_states() fills all 80 states (the reference only those
 *       its build selects: 58 and 65), each in the reference's order.
 *
 * INTERNALS
 *     The reference's shared library also exports the pieces of its
 *     detection: sha1_compression_states() below, and the disturbance
 *     vector table and the filter (<sha1dc/ubc_check.h>).  This library
 *     exports them too, computed by its own engine, for the programs that
 *     call them.
 *
 * Copyright the sha1dc-wasm authors.  MIT OR Apache-2.0.
 */

#ifndef SHA1DC_SHA1_H
#define SHA1DC_SHA1_H

/* Define SHA1DC_NO_STANDARD_INCLUDES to provide uint32_t, uint64_t and
   size_t yourself (git does, for its own copy of the reference). */
#ifndef SHA1DC_NO_STANDARD_INCLUDES
#include <stddef.h>
#include <stdint.h>
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * collision_block_callback(byte_offset, ihvin1, ihvin2, m1, m2)
 *
 * Called for each block detected as half of a collision, with:
 *     byte_offset  where the 64-byte block starts in the message;
 *     ihvin1       the chaining value (5 words) the block was compressed
 *                  from;
 *     ihvin2       the chaining value the other half of the collision would
 *                  have to start from (equal to ihvin1 for a reduced-round
 *                  collision);
 *     m1           the block's expanded message (80 words);
 *     m2           the other half's expanded message: m1 xor the
 *                  disturbance vector's message difference.
 * The arrays are valid during the call only.  The callback must not use the
 * context it reports on, and must not throw (C++) or longjmp out.
 */
typedef void (*collision_block_callback)(uint64_t, const uint32_t *,
                                         const uint32_t *, const uint32_t *,
                                         const uint32_t *);

/* The SHA-1 context; see CONTEXTS above.  Members are placeholders with the
   reference's types in the reference's order, which gives the reference's
   size and alignment on every target (2,400 bytes, aligned 8, on x86-64). */
typedef struct {
	uint64_t reserved_u64;
	uint32_t reserved_u32_a[5];
	unsigned char reserved_bytes[64];
	int reserved_int[5];
	collision_block_callback reserved_callback;
	uint32_t reserved_u32_b[5];
	uint32_t reserved_u32_c[5];
	uint32_t reserved_u32_d[80];
	uint32_t reserved_u32_e[80];
	uint32_t reserved_u32_f[80][5];
} SHA1_CTX;

/*
 * Compresses one 64-byte block m (its bytes as they are in memory, read as
 * big-endian words) into the chaining value ihv, writing the expanded
 * message (80 words) to W and the working state before each step t to
 * states[t].  The order of states[t] is the reference's: its unrolled
 * steps rename the variables a, b, c, d, e instead of moving the values, so
 * states[t][j] is word (j + t) mod 5 of the state (a, b, c, d, e) before
 * step t; for t = 65 (a multiple of 5) that is a, b, c, d, e.  Does nothing
 * if a pointer is NULL.  An internal of the detection; not needed to hash.
 */
void sha1_compression_states(uint32_t ihv[5], const uint32_t m[16],
                             uint32_t W[80], uint32_t states[80][5]);

/* Starts a new message with the defaults: collision detection on, safe
   hash on, the filter (UBC) on, reduced-round detection off, no callback. */
void SHA1DCInit(SHA1_CTX *ctx);

/*
 * Safe hash on (non-zero, the default) or off (0).  On, a block detected
 * as part of a collision is compressed three times in all (80 steps become
 * 240 for it), so the output is no longer the message's SHA-1 and the two
 * messages of a collision get different digests: a signature forged by
 * collision does not verify.  Messages with no detection keep their SHA-1.
 * Off, the output is always the SHA-1 and SHA1DCFinal's return value
 * alone reports the attack (git turns it off and refuses such objects).
 */
void SHA1DCSetSafeHash(SHA1_CTX *ctx, int on);

/* The unavoidable-bit-condition filter on (non-zero, the default) or off.
   It only skips blocks that cannot be part of a known attack: results never
   depend on it; off is many times slower.  For testing. */
void SHA1DCSetUseUBC(SHA1_CTX *ctx, int on);

/* Collision detection on (non-zero, the default) or off (0).  Off, the
   digest is the plain SHA-1, computed at the speed of plain SHA-1. */
void SHA1DCSetUseDetectColl(SHA1_CTX *ctx, int on);

/* Detection of collisions of reduced-round SHA-1 on (non-zero) or off (0,
   the default): also reports blocks whose partner starts from the same
   chaining value.  For testing detection with reduced-round examples. */
void SHA1DCSetDetectReducedRoundCollision(SHA1_CTX *ctx, int on);

/*
 * Sets the function called for each block detected from now on (NULL, the
 * default: none); see collision_block_callback.  It is called
 * callback(offset, ihvin1, ihvin2, m1, m2) before the safe hash, once for
 * each detected block of the message, by the SHA1DCUpdate that completes
 * the block or at the latest by the next SHA1DCUpdate or SHA1DCFinal.  A
 * block detected in the padding that SHA1DCFinal adds is reported by each
 * SHA1DCFinal.  Blocks already given when the callback is set are not
 * reported.
 */
void SHA1DCSetCallback(SHA1_CTX *ctx, collision_block_callback callback);

/* Adds the len bytes at data to the message.  Any split of a message into
   calls gives the same result; len may exceed INT_MAX. */
void SHA1DCUpdate(SHA1_CTX *ctx, const char *data, size_t len);

/*
 * Writes the 20-byte digest of the message so far to digest: the safe hash
 * if a collision was detected and safe hash is on, else the SHA-1.
 * Returns 0 when no collision was detected, non-zero when one was: warn of
 * an active attack.  The context is left as it was (see WHAT DIFFERS).
 */
int SHA1DCFinal(unsigned char digest[20], SHA1_CTX *ctx);

#if defined(__cplusplus)
}
#endif

#ifdef SHA1DC_CUSTOM_TRAILING_INCLUDE_SHA1_H
#include SHA1DC_CUSTOM_TRAILING_INCLUDE_SHA1_H
#endif

#endif /* SHA1DC_SHA1_H */
