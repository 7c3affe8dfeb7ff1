/* "did you mean": the nearest name by edit distance (see suggest.h). */
#include "puddle/suggest.h"

#include <string.h>

int pdl_edit_distance(const char* a, const char* b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63) return 99;
	int row[64]; /* one row of the dynamic programme, reused in place */
	for (size_t j = 0; j <= lb; ++j) row[j] = (int)j;
	for (size_t i = 1; i <= la; ++i) {
		int diag = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; ++j) {
			int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best) best = up + 1;
			if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

const char* pdl_suggest(const char* word, const char* const* options, int count)
{
	const char* best = NULL;
	int best_d = 99, limit = (int)strlen(word) / 3 + 1;
	if (limit < 2) limit = 2;
	for (int i = 0; i < count; ++i) {
		int d = pdl_edit_distance(word, options[i]);
		if (d < best_d) best_d = d, best = options[i];
	}
	return best_d <= limit ? best : NULL;
}
