/* Progress: a redrawn bar with ETA on a terminal; plain lines at every tenth otherwise (logs and
 * pipes should not fill with carriage returns). Both go to stderr, so stdout stays for data. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include <unistd.h>

void cli_progress_begin(cli_progress* p, const char* label, long long start, long long total, bool enabled)
{
	p->enabled = enabled;
	p->tty = isatty(STDERR_FILENO) != 0;
	p->total = total;
	p->start = start;
	p->started = cli_now();
	p->last_draw = 0;
	p->last_decile = -1;
	p->label = label;
	p->rate_from = 0;
	p->rate_done = start - 1;
}

static void format_duration(double s, char* out, size_t size)
{
	if (s < 0 || s != s) s = 0;
	long t = (long)(s + 0.5);
	if (t >= 3600) snprintf(out, size, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60) snprintf(out, size, "%ldm%02lds", t / 60, t % 60);
	else snprintf(out, size, "%lds", t);
}

void cli_progress_update(cli_progress* p, long long done, double sim_time)
{
	if (!p->enabled || p->total <= 0) return;
	double now = cli_now();
	double fraction = (double)done / (double)p->total;
	if (p->rate_done < p->start || p->rate_from <= 0) p->rate_from = now, p->rate_done = done;
	long long run = done - p->rate_done, left = p->total - done;
	char eta_text[32] = "--";
	if (run > 0) format_duration((now - p->rate_from) / (double)run * (double)left, eta_text, sizeof eta_text);
	else if (left == 0) format_duration(0, eta_text, sizeof eta_text);
	if (p->tty) {
		if (done < p->total && now - p->last_draw < 0.1) return;
		p->last_draw = now;
		char bar[31];
		int filled = (int)(fraction * 30.0);
		for (int i = 0; i < 30; ++i) bar[i] = i < filled ? '#' : '.';
		bar[30] = 0;
		fprintf(stderr, "\r%s [%s] %3d%%  frame %lld/%lld  t = %.2f s  ETA %s   ", p->label, bar, (int)(fraction * 100),
		        done, p->total, sim_time, eta_text);
		fflush(stderr);
	} else {
		int decile = (int)(fraction * 10.0);
		if (decile == p->last_decile) return;
		p->last_decile = decile;
		fprintf(stderr, "%s: %3d%%  frame %lld/%lld  t = %.2f s  ETA %s\n", p->label, decile * 10, done, p->total,
		        sim_time, eta_text);
	}
}

/* Ends the bar's line on a terminal, once: a run that stops on an error ends it before saying
 * why, then again as it ends. */
void cli_progress_end(cli_progress* p)
{
	if (p->enabled && p->tty) fprintf(stderr, "\n");
	p->enabled = false;
}
