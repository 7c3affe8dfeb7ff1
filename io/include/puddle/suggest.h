/* puddle_io: "did you mean" for names typed by people (scene keys, enum values, command-line
 * options), by edit distance.
 *
 * SPDX-License-Identifier: MIT */
#ifndef PUDDLE_SUGGEST_H
#define PUDDLE_SUGGEST_H

#ifdef __cplusplus
extern "C" {
#endif

/** Levenshtein distance (insert, delete, substitute one character); 99 for words over 63 chars. */
int pdl_edit_distance(const char* a, const char* b);

/** The option closest to word if it is close enough to be a likely typo (at most
 * max(2, len/3 + 1) edits), else NULL. */
const char* pdl_suggest(const char* word, const char* const* options, int count);

#ifdef __cplusplus
}
#endif

#endif
