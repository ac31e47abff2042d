/*
 * sha1dc/ubc_check.h - the disturbance vectors and the filter of
 * libsha1detectcoll
 *
 * The interface of sha1collisiondetection's lib/ubc_check.h, which that
 * library's shared object exports but does not install: its table of the 32
 * disturbance vectors (DVs) it checks and its filter, the unavoidable bit
 * conditions (UBC).  Detection checks a block against a DV only when the
 * block's expanded message meets all the DV's conditions; this header lets
 * a program ask the same question.  Not needed to hash: <sha1dc/sha1.h> is.
 *
 * Copyright the sha1dc-wasm authors.  MIT OR Apache-2.0.
 */

#ifndef SHA1DC_UBC_CHECK_H
#define SHA1DC_UBC_CHECK_H

#ifndef SHA1DC_NO_STANDARD_INCLUDES
#include <stdint.h>
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/* The words of a DV mask: one (32 DVs, one bit each). */
#define DVMASKSIZE 1

/*
 * One disturbance vector: dvType 1 or 2 and dvK, dvB name it, I(K,B) or
 * II(K,B) in Stevens' notation; testt is the step the recompression starts
 * from (58 or 65); bit maskb of word maski (always 0) of a DV mask is this
 * DV's; dm is the message difference of the other half of a collision, word
 * by word of the expanded message.
 */
typedef struct {
	int dvType;
	int dvK;
	int dvB;
	int testt;
	int maski;
	int maskb;
	uint32_t dm[80];
} dv_info_t;

/* The 32 DVs in the order detection checks them (maskb 0 to 31), then an
   entry of zeros: loop while dvType != 0.  Read-only. */
extern dv_info_t sha1_dvs[];

/* Sets dvmask[0] to the mask of the DVs whose unavoidable bit conditions
   the expanded message W meets: the DVs a block must be recompressed for.
   Does nothing if a pointer is NULL. */
void ubc_check(const uint32_t W[80], uint32_t dvmask[DVMASKSIZE]);

/* Whether a DV mask has any DV left. */
#define CHECK_DVMASK(_DVMASK) (0 != (_DVMASK)[0])

/* The states sha1_compression_states stores that the recompression starts
   from (this library stores all 80). */
#define DOSTORESTATE58
#define DOSTORESTATE65

#if defined(__cplusplus)
}
#endif

#endif /* SHA1DC_UBC_CHECK_H */
