/* The puddle command: shared pieces of the subcommands. */
#ifndef PUDDLE_CLI_H
#define PUDDLE_CLI_H

#include "puddle/scene.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes (docs/cli.md): 0 success, 1 the run failed (I/O, ffmpeg, unstable simulation),
 * 2 bad usage or bad input (arguments, scene file, snapshot). */
enum { EXIT_OK = 0, EXIT_FAILED = 1, EXIT_USAGE = 2, EXIT_INTERRUPTED = 130 };

int cmd_run(int argc, char** argv);
int cmd_info(int argc, char** argv);
int cmd_validate(int argc, char** argv);
int cmd_bench(int argc, char** argv);
int cmd_soak(int argc, char** argv);
/* args.c: whether mpirun started this process (also in a build without MPI, which then refuses) */
bool cli_under_mpi(void);
/* cmd_run_mpi.c (built with Open MPI): `puddle run` split over the processes */
int cmd_run_mpi(int argc, char** argv);

/* ---- args.c: option parsing with messages in one style ---- */

/* "puddle run: --steps: must be an integer >= 1, got 'x'" and false on error. */
bool cli_parse_int(const char* cmd, const char* option, const char* text, long long lo, long long hi, long long* out);
bool cli_parse_float(const char* cmd, const char* option, const char* text, double lo, double hi, double* out);
/* "1000,2000" -> values; false on error. */
bool cli_parse_int_list(const char* cmd, const char* option, const char* text, long long lo, long long hi,
                        long long* values, int max, int* count);
/* "800x600", both even in [16, 8192]. */
bool cli_parse_size(const char* cmd, const char* option, const char* text, int* w, int* h);
/* The value of an option that takes one: argv[*i + 1], or an error when it is missing. */
const char* cli_option_value(const char* cmd, int argc, char** argv, int* i);
/* "unknown option '--vide' (did you mean '--video'?)", to stderr with the usage hint. */
void cli_unknown_option(const char* cmd, const char* option, const char* const* known, int count);
/* Creates a directory and its parents; false with errno set on failure. */
bool cli_make_dirs(const char* path);
/* The name of a run's files: the scene file's name without ".json", each byte other than
 * [A-Za-z0-9._-] (and a leading '.') turned into '_'. A scene's "name" is a label and never
 * chooses a path: "../../x" or "/etc" in a file must not write outside the output folder. */
void cli_run_name(const char* scene_path, char* out, size_t size);
/* Loads a scene, printing its error; NULL on failure. */
pdl_scene* cli_load_scene(const char* path);
/* Wall clock in seconds (monotonic). */
double cli_now(void);
/* Every .json file of scenes/ (or of the installed scenes), sorted, as allocated paths in *out;
 * returns their count. */
int cli_default_scenes(char*** out);
/* Particles outside the scene bounds or with non-finite state (the "lost" of the summaries). */
int cli_lost_particles(const pdl_scene* scene, const pdl_world* world);
/* The same of some particles (a process's part of a world under mpirun). */
int cli_lost_in(const pdl_scene* scene, const pdl_particle_data* particles);

/* ---- pvd_list.c: the frames listed in a .pvd collection ---- */

typedef struct cli_pvd_list {
	const char* sub;    /* the folder of the files, relative to the run's folder */
	const char* prefix; /* their names: PREFIX_NNNNNN.vtp */
	const char* ext;    /* ".vtp" when NULL; ".pvtp" for the pieces of a run under mpirun */
	int count, capacity;
	long long* frames;
} cli_pvd_list;

bool cli_pvd_add(cli_pvd_list* l, long long frame);
/* A resumed run keeps the earlier frames already on disk (up to up_to) in its collection. */
void cli_pvd_scan(cli_pvd_list* l, const char* run_dir, long long up_to);
/* Writes the collection of l's files (part 0) and, when bodies lists any, the bodies' files as
 * part 1: ParaView then reads each time as two blocks, "particles" and "bodies". */
bool cli_pvd_write(const cli_pvd_list* l, const cli_pvd_list* bodies, const char* path, double dt, pdl_error* err);

/* ---- progress.c ---- */

typedef struct cli_progress {
	bool enabled, tty;
	long long total, start;
	double started, last_draw;
	/* the ETA's rate is measured from the first update on: the first frame carries the start's
	 * one-off costs (make demo's said "ETA 9m32s" for a run of seconds) */
	double rate_from;
	long long rate_done;
	int last_decile;
	const char* label;
} cli_progress;

void cli_progress_begin(cli_progress* p, const char* label, long long start, long long total, bool enabled);
void cli_progress_update(cli_progress* p, long long done, double sim_time);
void cli_progress_end(cli_progress* p);

/* ---- interrupt.c: SIGINT and SIGTERM within a second, wherever the run is ---- */

/* Blocks both signals in this and every later thread and starts the thread that takes them.
 * Called before any other thread exists. */
bool cli_interrupt_start(void);
/* The signal taken (0 if none); the caller then stops between frames on its own. */
int cli_interrupted(void);
/* Under mpirun, where the processes agree before they stop: the signal taken (0 if none),
 * without telling the watching thread that the run is stopping ... */
int cli_interrupt_signal(void);
/* ... which this does, once every process agreed to stop (the thread then ends nothing). When
 * the thread already ends the process (half a second after the signal), this and
 * cli_interrupted wait for that instead of returning: only one of them says so. */
void cli_interrupt_stopping(void);
/* The run's other processes on this machine (PIDs), to which a signal taken is handed on, the
 * PID whose NAME.tmp.PID files are the run's too (process 0's, which names the collective
 * files' temporaries; 0 for none), and this process's rank: when the run does not stop by
 * itself, only process 0 says so, and it exits first, after every process removed its
 * temporaries. */
void cli_interrupt_peers(const int* pids, int count, long temp_pid, int rank);
/* Folders (slots 0-3) whose NAME.tmp.PID files, and their sub-folders', are removed when the run
 * does not stop by itself within half a second (stuck in a long build, step or write). */
void cli_interrupt_watch_dir(int slot, const char* dir);
/* The same for the folder of a file named by an option (cmd_run.c). */
void cli_watch_parent(int slot, const char* path);
/* The running ffmpeg (0: none), killed in that case. */
void cli_interrupt_watch_ffmpeg(int pid);
/* Ends the watching thread and unblocks the signals. */
void cli_interrupt_stop(void);
/* The same once a run under mpirun has its exit status, before MPI_Finalize: a signal from then
 * on (one handed on late by another process, or mpirun's SIGTERM ending the job after another
 * process exited with an error) ends the process at once with that status (130 for 0), never
 * with "interrupted" nor killed by the signal. */
void cli_interrupt_end(int code);

/* ---- video.c: frames piped to ffmpeg ---- */

typedef struct cli_video cli_video;
/* Path of ffmpeg on PATH (or $PUDDLE_FFMPEG), or NULL. */
const char* cli_find_ffmpeg(char* buf, size_t size);
/* Starts ffmpeg writing H.264 yuv420p to a temporary file beside path. NULL and a message on
 * failure. */
cli_video* cli_video_open(const char* path, int width, int height, double fps, pdl_error* err);
bool cli_video_frame(cli_video* v, const uint8_t* rgb);
/* Finishes: waits for ffmpeg and renames the file into place. false and a message if any frame
 * or ffmpeg failed (the temporary is removed). */
bool cli_video_close(cli_video* v, pdl_error* err);
/* Stops ffmpeg and removes the temporary file. */
void cli_video_abort(cli_video* v);

#endif
