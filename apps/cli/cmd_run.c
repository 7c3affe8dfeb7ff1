/* puddle run: simulate a scene and write pictures, video, exports and snapshots. */
#define _POSIX_C_SOURCE 200809L
#include "cli.h"

#include "puddle/export.h"
#include "puddle/image.h"
#include "puddle/render.h"
#include "puddle/snapshot.h"
#include "puddle/surface.h"
#include "puddle/vdb.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
	"Usage: puddle run SCENE [options]\n"
	"\n"
	"Simulates SCENE (a JSON scene file, see docs/scenes.md) and writes what the options ask for.\n"
	"By default it runs the scene's output.seconds and writes DIR/final.png.\n"
	"\n"
	"Length (frames are world steps of world.dt; counted from the scene's start, also when resuming):\n"
	"  --seconds T          run until T simulated seconds\n"
	"  --steps N            run until frame N\n"
	"\n"
	"Output:\n"
	"  --out DIR            folder for everything below (default: out/NAME, NAME the scene\n"
	"                       file's name without .json)\n"
	"  --png FILE           the last frame's picture (default: DIR/final.png)\n"
	"  --png-every K        also a picture every K frames: DIR/frames/frame_NNNNNN.png\n"
	"  --video FILE.mp4     H.264 video at output.fps (needs ffmpeg)\n"
	"  --vtk                ParaView: DIR/vtk/frame_NNNNNN.vtp and DIR/NAME.pvd; with rigid\n"
	"                       bodies also their surfaces, DIR/vtk/bodies_NNNNNN.vtp\n"
	"  --ply                Blender: DIR/ply/frame_NNNNNN.ply; with the scene's diffuse particles\n"
	"                       also DIR/ply/diffuse_NNNNNN.ply (spray, foam, bubbles)\n"
	"  --csv                DIR/csv/frame_NNNNNN.csv; with rigid bodies also\n"
	"                       DIR/csv/bodies_NNNNNN.csv (pose, velocities, the fluid's force)\n"
	"  --surface            the fluid's outline (marching squares): DIR/surface/frame_NNNNNN.svg\n"
	"                       and .vtp, and DIR/NAME_surface.pvd; 3D scenes: its closed surface\n"
	"                       (marching tetrahedra) as binary PLY: DIR/surface/frame_NNNNNN.ply,\n"
	"                       with the scene's diffuse particles DIR/surface/diffuse_NNNNNN.ply\n"
	"  --surface-obj        3D: the surface also as OBJ (text, about 3 times the PLY's size)\n"
	"  --vdb                3D: OpenVDB volumes, DIR/vdb/frame_NNNNNN.vdb: the fluid's mass\n"
	"                       density (fog volume) and surface (level set), for Blender or Houdini\n"
	"  --export-every K     frames between --vtk/--ply/--csv/--surface files (default: one per\n"
	"                       video frame)\n"
	"  --snapshot-every K   DIR/snapshots/snap_NNNNNN.pdls every K frames\n"
	"  --resume SNAP        continue from a snapshot of the same scene; the end state is bitwise\n"
	"                       the same as an uninterrupted run's\n"
	"  --size WxH           picture and video size in pixels, even (default: output.width/height)\n"
	"  --color MODE         material, speed, density or pressure (default: output.color_mode)\n"
	"  --spheres            3D: draw the particles as shaded spheres instead of the liquid's\n"
	"                       smoothed, refracting surface\n"
	"\n"
	"Other:\n"
	"  --particles N        rescale the scene to about N particles (tank, fills, emitters,\n"
	"                       strokes; h kept), as puddle bench does\n"
	"  --threads N          worker threads, 0 = one per core (default: solver.threads); results\n"
	"                       are identical for every N\n"
	"  --hash               also print \"state hash (ids)\": the particles in id order and the bodies\n"
	"                       (pdl_world_hash_ids), the same hash a run under mpirun prints\n"
	"  --no-diffuse         leave out the scene's spray, foam and bubbles (\"diffuse\"); the\n"
	"                       fluid, and its hash, are the same with them or without\n"
	"  --quiet              no progress and no summary\n"
	"  -h, --help           this help\n"
	"\n"
	"Exit status: 0 done, 1 the run failed (writing, ffmpeg, particles lost or NaN),\n"
	"2 bad usage or bad input (options, scene file, snapshot); nothing is written then.\n"
	"\n"
	"Example:\n"
	"  puddle run scenes/blobs.json --seconds 8 --video out/blobs.mp4\n";

typedef struct run_options {
	const char* scene_path;
	const char* out_dir;
	const char* png_path;
	const char* video_path;
	const char* resume_path;
	long long steps, png_every, export_every, snapshot_every, particles;
	double seconds;
	bool vtk, ply, csv, surface, surface_obj, vdb, spheres, quiet, hash, no_diffuse;
	int threads, width, height, color_mode;
} run_options;

/* The folder of a file named by an option: "." for a bare name, "/" for one at the root. */
static void parent_of(const char* path, char* dir, size_t size)
{
	snprintf(dir, size, "%s", path);
	char* slash = strrchr(dir, '/');
	if (!slash) snprintf(dir, size, ".");
	else if (slash == dir) slash[1] = 0;
	else *slash = 0;
}

/* A file named by an option must be creatable where it is: its folder must exist. Checked
 * before the run, so a typo does not cost the whole run at the end. */
static bool parent_exists(const char* option, const char* path)
{
	char dir[1024];
	parent_of(path, dir, sizeof dir);
	struct stat st;
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode)) return true;
	fprintf(stderr, "puddle run: %s: folder '%s' does not exist\n", option, dir);
	return false;
}

static int parse_options(int argc, char** argv, run_options* o)
{
	static const char* const known[] = {"--seconds", "--steps", "--out", "--png", "--png-every", "--video",
	                                    "--vtk", "--ply", "--csv", "--surface", "--surface-obj", "--vdb", "--export-every", "--snapshot-every",
	                                    "--resume", "--size", "--color", "--spheres", "--particles", "--threads", "--quiet",
	                                    "--hash", "--no-diffuse", "--help"};
	memset(o, 0, sizeof *o);
	o->threads = -1;
	o->color_mode = -1;
	for (int i = 1; i < argc; ++i) {
		const char* a = argv[i];
		const char* v;
		long long n;
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			return -1;
		} else if (strcmp(a, "--seconds") == 0) {
			if (!(v = cli_option_value("run", argc, argv, &i)) || !cli_parse_float("run", a, v, 0, 86400, &o->seconds))
				return EXIT_USAGE;
		} else if (strcmp(a, "--steps") == 0) {
			if (!(v = cli_option_value("run", argc, argv, &i)) || !cli_parse_int("run", a, v, 1, 1LL << 40, &o->steps))
				return EXIT_USAGE;
		} else if (strcmp(a, "--png-every") == 0 || strcmp(a, "--export-every") == 0 || strcmp(a, "--snapshot-every") == 0) {
			if (!(v = cli_option_value("run", argc, argv, &i)) || !cli_parse_int("run", a, v, 1, 1LL << 40, &n))
				return EXIT_USAGE;
			if (a[2] == 'p') o->png_every = n;
			else if (a[2] == 'e') o->export_every = n;
			else o->snapshot_every = n;
		} else if (strcmp(a, "--particles") == 0) {
			if (!(v = cli_option_value("run", argc, argv, &i)) || !cli_parse_int("run", a, v, 1, 67108864, &o->particles))
				return EXIT_USAGE;
		} else if (strcmp(a, "--threads") == 0) {
			if (!(v = cli_option_value("run", argc, argv, &i)) || !cli_parse_int("run", a, v, 0, 256, &n)) return EXIT_USAGE;
			o->threads = (int)n;
		} else if (strcmp(a, "--size") == 0) {
			if (!(v = cli_option_value("run", argc, argv, &i)) || !cli_parse_size("run", a, v, &o->width, &o->height))
				return EXIT_USAGE;
		} else if (strcmp(a, "--color") == 0) {
			if (!(v = cli_option_value("run", argc, argv, &i))) return EXIT_USAGE;
			for (int m = 0; m < PDL_COLOR_MODE_COUNT; ++m)
				if (strcmp(v, pdl_color_mode_name((pdl_color_mode)m)) == 0) o->color_mode = m;
			if (o->color_mode < 0) {
				fprintf(stderr, "puddle run: --color: must be material, speed, density or pressure, got '%s'\n", v);
				return EXIT_USAGE;
			}
		} else if (strcmp(a, "--out") == 0 || strcmp(a, "--png") == 0 || strcmp(a, "--video") == 0 ||
		           strcmp(a, "--resume") == 0) {
			if (!(v = cli_option_value("run", argc, argv, &i))) return EXIT_USAGE;
			if (!*v) {
				fprintf(stderr, "puddle run: %s: must not be empty\n", a);
				return EXIT_USAGE;
			}
			if (strcmp(a, "--out") == 0) o->out_dir = v;
			else if (strcmp(a, "--png") == 0) o->png_path = v;
			else if (strcmp(a, "--video") == 0) o->video_path = v;
			else o->resume_path = v;
		} else if (strcmp(a, "--vtk") == 0) {
			o->vtk = true;
		} else if (strcmp(a, "--ply") == 0) {
			o->ply = true;
		} else if (strcmp(a, "--csv") == 0) {
			o->csv = true;
		} else if (strcmp(a, "--surface") == 0) {
			o->surface = true;
		} else if (strcmp(a, "--surface-obj") == 0) {
			o->surface = o->surface_obj = true;
		} else if (strcmp(a, "--vdb") == 0) {
			o->vdb = true;
		} else if (strcmp(a, "--quiet") == 0) {
			o->quiet = true;
		} else if (strcmp(a, "--hash") == 0) {
			o->hash = true;
		} else if (strcmp(a, "--no-diffuse") == 0) {
			o->no_diffuse = true;
		} else if (strcmp(a, "--mpi-stats") == 0) {
			/* an option of a run under mpirun: say why it does nothing here */
#ifdef PUDDLE_HAVE_MPI
			fprintf(stderr, "puddle run: --mpi-stats is for a run under mpirun (mpirun -np N puddle run ...; docs/mpi.md)\n");
#else
			fprintf(stderr, "puddle run: --mpi-stats: this puddle was built without MPI (install Open MPI, "
			                "scripts/install-deps.sh mpi, and build again; docs/mpi.md)\n");
#endif
			return EXIT_USAGE;
		} else if (strcmp(a, "--spheres") == 0) {
			o->spheres = true;
		} else if (a[0] == '-' && a[1]) {
			cli_unknown_option("run", a, known, (int)(sizeof known / sizeof known[0]));
			return EXIT_USAGE;
		} else if (!o->scene_path) {
			o->scene_path = a;
		} else {
			fprintf(stderr, "puddle run: one scene at a time, got '%s' and '%s'\nTry 'puddle run --help'.\n",
			        o->scene_path, a);
			return EXIT_USAGE;
		}
	}
	if (!o->scene_path) {
		fprintf(stderr, "puddle run: which scene? (e.g. puddle run scenes/blobs.json)\nTry 'puddle run --help'.\n");
		return EXIT_USAGE;
	}
	if (o->steps && o->seconds > 0) {
		fprintf(stderr, "puddle run: --steps and --seconds both say how long; give one\n");
		return EXIT_USAGE;
	}
	if ((o->png_path && !parent_exists("--png", o->png_path)) || (o->video_path && !parent_exists("--video", o->video_path)))
		return EXIT_USAGE;
	if (o->video_path) {
		size_t n = strlen(o->video_path);
		if (n < 5 || strcmp(o->video_path + n - 4, ".mp4") != 0) {
			fprintf(stderr, "puddle run: --video: the file must end in .mp4, got '%s'\n", o->video_path);
			return EXIT_USAGE;
		}
	}
	return EXIT_OK;
}

/* ---- the run --------------------------------------------------------------------------------------- */

typedef struct run_state {
	const run_options* o;
	pdl_scene* scene;
	pdl_world* world;
	pdl_renderer* renderer;
	cli_video* video;
	cli_pvd_list pvd, body_pvd, surface_pvd;
	/* the world has had rigid bodies in this run (or the earlier run it resumes wrote bodies'
	 * files): their files are written at every export frame from then on */
	bool bodies;
	char dir[1024], pvd_path[1200], surface_pvd_path[1200];
	long long video_every, export_every, video_frames, pngs, exports, snapshots;
	pdl_surface_def surface_def;
	long long surface_frames;
	double surface_ms_total, surface_ms_max; /* extraction only: field and marching squares */
	double diffuse_ms, solver_ms;             /* the diffuse pass and the step, summed over frames */
	long long density_iterations, divergence_iterations, substeps; /* DFSPH's, summed over frames */
	/* bytes of the files this run wrote (the video aside), and of its first export frame's,
	 * from which the size of the whole run's is estimated */
	long long bytes, first_export, export_bytes;
	double printed_estimate;
	long long estimate_frame; /* the frame after which it was printed */
	bool warned;
	long long total; /* the run's last frame */
	pdl_error err;
} run_state;

/* Counts a file just written into the run's bytes. */
static void wrote(run_state* r, const char* path)
{
	struct stat st;
	if (stat(path, &st) == 0) r->bytes += (long long)st.st_size;
}

/* Frames in (from, to] that are multiples of every, plus `from` itself when it is one. */
static long long multiples(long long from, long long to, long long every)
{
	return to / every - from / every + (from % every == 0 ? 1 : 0);
}

static void print_bytes(FILE* out, double bytes)
{
	if (bytes >= 1e9) fprintf(out, "%.2f GB", bytes / 1e9);
	else if (bytes >= 1e6) fprintf(out, "%.1f MB", bytes / 1e6);
	else fprintf(out, "%.0f kB", bytes / 1e3);
}

/* What the exports of the whole run will take: what they wrote so far and the latest export
 * frame's size for each one still to come. Printed after the second export frame (the first,
 * the starting state, is smaller: its velocities are 0, short in the text formats) and again
 * whenever it has grown by a fifth (a 3D surface grows as the fluid splashes: drop-3d's by 1.4
 * times within 2 s; particle files grow only with emitters), with a warning the first time it
 * passes 1 GB. */
static void estimate_output(run_state* r, long long done, long long frame_bytes)
{
	long long frames = multiples(r->first_export, r->total, r->export_every);
	double estimate = (double)r->export_bytes + (double)frame_bytes * (double)(frames - r->exports);
	if (r->exports < 2 && frames > 1) return;
	if (r->printed_estimate > 0 && !(estimate > 1.2 * r->printed_estimate)) return;
	/* after the progress line: on a terminal the bar is redrawn in place (a carriage return, no
	 * newline), and a first estimate printed on its line was drawn over at once, so the
	 * summary's "the last estimate said" spoke of a line nobody saw */
	const char* gap = r->printed_estimate > 0 || isatty(STDERR_FILENO) ? "\n" : "";
	r->printed_estimate = estimate;
	r->estimate_frame = done;
	if (!r->o->quiet) {
		printf("%spuddle run: the exports will take about ", gap);
		print_bytes(stdout, estimate);
		printf(" (%lld export frames; frame %lld's took ", frames, done);
		print_bytes(stdout, (double)frame_bytes);
		printf(")\n");
		fflush(stdout);
	}
	if (estimate > 1e9 && !r->warned) {
		r->warned = true;
		fprintf(stderr, "%spuddle run: warning: about ", gap);
		print_bytes(stderr, estimate);
		fprintf(stderr, " of exports (%lld frames); --export-every K writes one frame in K%s\n", frames,
		        r->o->surface_obj ? ", and without --surface-obj the surface is a third of its size" : "");
	}
}

static bool make_subdir(run_state* r, const char* sub)
{
	char path[1100];
	snprintf(path, sizeof path, "%s/%s", r->dir, sub);
	if (cli_make_dirs(path)) return true;
	pdl_error_fill(&r->err, PDL_ERR_FILE_WRITE, NULL, NULL, "%s: cannot create folder: %s", path, strerror(errno));
	return false;
}

/* The 3D surface def: the 2D one's radius (h) and lightest-material rule, cells of h/3, and as
 * spacing the edge of the cube with the volume one particle has in the rest FCC lattice
 * (s^3 / sqrt 2 for neighbours s apart, so the edge is s / 2^(1/6)): the bulk field the iso
 * level is a fraction of. */
static pdl_surface_def surface_def_3d(const pdl_scene* s)
{
	pdl_surface_def d = pdl_default_surface_def_3d();
	float h = s->world.interaction_radius, widest = 0;
	for (int m = 0; m < s->material_count; ++m) {
		float sp = pdl_rest_spacing_3d(h, s->materials[m].def.rest_density);
		widest = sp > widest ? sp : widest;
	}
	d.radius = h;
	d.cell_size = h / 3;
	d.spacing = widest * 0.8908987181403393f; /* 2^(-1/6) */
	return d;
}

/* The fluid's surface: contours (2D) or a marching-tetrahedra mesh (3D), timed (the per-frame
 * budget in the summary), then written. */
static bool surface_outputs(run_state* r, long long done)
{
	pdl_particle_data p = pdl_world_particles(r->world);
	pdl_contours contours;
	pdl_mesh mesh;
	pdl_error serr;
	bool is_3d = p.z != NULL;
	double t0 = cli_now();
	bool made = is_3d ? pdl_surface_mesh(&r->surface_def, p.x, p.y, p.z, p.count, &mesh, &serr)
	                  : pdl_surface_contours(&r->surface_def, p.x, p.y, p.count, &contours, &serr);
	if (!made) {
		pdl_error_fill(&r->err, serr.id, NULL, NULL, "frame %lld: %s", done, serr.message);
		return false;
	}
	double ms = 1000.0 * (cli_now() - t0);
	r->surface_frames++;
	r->surface_ms_total += ms;
	if (ms > r->surface_ms_max) r->surface_ms_max = ms;
	char path[1200];
	if (is_3d) { /* binary PLY, which Blender and ParaView both read (OBJ on request); no .pvd
	              * (it lists .vtp) */
		snprintf(path, sizeof path, "%s/surface/frame_%06lld.ply", r->dir, done);
		bool ok = pdl_mesh_write_ply(path, &mesh, &r->err);
		if (ok) wrote(r, path);
		if (ok && r->o->surface_obj) {
			snprintf(path, sizeof path, "%s/surface/frame_%06lld.obj", r->dir, done);
			ok = pdl_mesh_write_obj(path, &mesh, &r->err);
			if (ok) wrote(r, path);
		}
		if (ok && r->scene->diffuse.enabled) { /* beside the surface: what scripts/render-blender.py draws */
			snprintf(path, sizeof path, "%s/surface/diffuse_%06lld.ply", r->dir, done);
			ok = pdl_export_diffuse_ply(path, r->world, &r->err);
			if (ok) wrote(r, path);
		}
		pdl_mesh_free(&mesh);
		return ok;
	}
	snprintf(path, sizeof path, "%s/surface/frame_%06lld.svg", r->dir, done);
	bool ok = pdl_contours_write_svg(path, &contours, &r->err);
	if (ok) wrote(r, path);
	snprintf(path, sizeof path, "%s/surface/frame_%06lld.vtp", r->dir, done);
	ok = ok && pdl_contours_write_vtp(path, &contours, &r->err);
	if (ok) wrote(r, path);
	pdl_contours_free(&contours);
	return ok && cli_pvd_add(&r->surface_pvd, done) &&
	       cli_pvd_write(&r->surface_pvd, NULL, r->surface_pvd_path, r->scene->world.dt, &r->err);
}

/* Everything a frame writes once `done` frames have run. */
static bool frame_outputs(run_state* r, long long done)
{
	const run_options* o = r->o;
	char path[1200];
	const uint8_t* rgb = NULL;
	pdl_scene_output* out = &r->scene->output;
	if (pdl_world_body_count(r->world) > 0) r->bodies = true;
	if (r->video && done % r->video_every == 0) {
		if (!(rgb = pdl_render(r->renderer, r->world))) {
			pdl_error_fill(&r->err, PDL_ERR_OUT_OF_MEMORY, NULL, NULL, "frame %lld: out of memory drawing the picture", done);
			return false;
		}
		if (!cli_video_frame(r->video, rgb)) { /* ffmpeg stopped: its exit and log say why */
			cli_video* v = r->video;
			r->video = NULL;
			if (cli_video_close(v, &r->err))
				pdl_error_fill(&r->err, PDL_ERR_EXPORT_DATA, NULL, NULL, "ffmpeg stopped taking frames (writing %s)", o->video_path);
			return false;
		}
		r->video_frames++;
	}
	if (o->png_every && done % o->png_every == 0) {
		if (!rgb && !(rgb = pdl_render(r->renderer, r->world))) {
			pdl_error_fill(&r->err, PDL_ERR_OUT_OF_MEMORY, NULL, NULL, "frame %lld: out of memory drawing the picture", done);
			return false;
		}
		snprintf(path, sizeof path, "%s/frames/frame_%06lld.png", r->dir, done);
		if (!pdl_png_write(path, rgb, out->width, out->height, &r->err)) return false;
		wrote(r, path);
		r->pngs++;
	}
	if ((o->vtk || o->ply || o->csv || o->surface || o->vdb) && done % r->export_every == 0) {
		const long long before = r->bytes;
		if (o->vtk) {
			snprintf(path, sizeof path, "%s/vtk/frame_%06lld.vtp", r->dir, done);
			if (!pdl_export_vtp(path, r->world, &r->err) || !cli_pvd_add(&r->pvd, done)) return false;
			wrote(r, path);
			if (r->bodies) {
				snprintf(path, sizeof path, "%s/vtk/bodies_%06lld.vtp", r->dir, done);
				if (!pdl_export_bodies_vtp(path, r->world, &r->err) || !cli_pvd_add(&r->body_pvd, done))
					return false;
				wrote(r, path);
			}
			if (!cli_pvd_write(&r->pvd, &r->body_pvd, r->pvd_path, r->scene->world.dt, &r->err)) return false;
		}
		if (o->ply) {
			snprintf(path, sizeof path, "%s/ply/frame_%06lld.ply", r->dir, done);
			if (!pdl_export_ply(path, r->world, &r->err)) return false;
			wrote(r, path);
			if (r->scene->diffuse.enabled) { /* spray, foam, bubbles: a point set of their own */
				snprintf(path, sizeof path, "%s/ply/diffuse_%06lld.ply", r->dir, done);
				if (!pdl_export_diffuse_ply(path, r->world, &r->err)) return false;
				wrote(r, path);
			}
		}
		if (o->csv) {
			snprintf(path, sizeof path, "%s/csv/frame_%06lld.csv", r->dir, done);
			if (!pdl_export_csv(path, r->world, &r->err)) return false;
			wrote(r, path);
			snprintf(path, sizeof path, "%s/csv/bodies_%06lld.csv", r->dir, done);
			if (r->bodies && !pdl_export_bodies_csv(path, r->world, done, &r->err)) return false;
			if (r->bodies) wrote(r, path);
		}
		if (o->surface && !surface_outputs(r, done)) return false;
		if (o->vdb) {
			snprintf(path, sizeof path, "%s/vdb/frame_%06lld.vdb", r->dir, done);
			pdl_vdb_def vd = pdl_default_vdb_def(r->world);
			if (!pdl_export_vdb(path, r->world, &vd, &r->err)) return false;
			wrote(r, path);
		}
		r->export_bytes += r->bytes - before;
		if (r->exports++ == 0) r->first_export = done;
		estimate_output(r, done, r->bytes - before);
	}
	if (o->snapshot_every && done % o->snapshot_every == 0 && done > 0) {
		snprintf(path, sizeof path, "%s/snapshots/snap_%06lld.pdls", r->dir, done);
		pdl_snapshot_info info = {done, pdl_scene_hash(r->scene), ""};
		snprintf(info.scene_name, sizeof info.scene_name, "%s", r->scene->name);
		if (!pdl_snapshot_write(path, r->world, &info, &r->err)) return false;
		wrote(r, path);
		r->snapshots++;
	}
	return true;
}

static void print_summary(const run_state* r, long long start, long long total, double wall, double step_wall,
                          int lost, const char* png_path)
{
	const pdl_scene* s = r->scene;
	pdl_stats st = pdl_world_stats(r->world);
	long long frames = total - start;
	printf("puddle run: %s (%s)\n", s->name, r->o->scene_path);
	printf("  particles          %d\n", st.particles);
	int bodies = pdl_world_bodies(r->world, NULL, 0);
	if (bodies > 0) {
		int kinematic = 0;
		pdl_body_id* ids = malloc((size_t)bodies * sizeof *ids);
		for (int k = 0; ids && k < pdl_world_bodies(r->world, ids, bodies); ++k) {
			pdl_body_def d;
			kinematic += pdl_world_get_body(r->world, ids[k], &d) && d.type == PDL_BODY_KINEMATIC;
		}
		free(ids);
		printf("  bodies             %d (%d dynamic, %d kinematic)\n", bodies, bodies - kinematic, kinematic);
	}
	printf("  dimensions         %d\n", s->world.dimensions);
	if (s->world.solver != PDL_SOLVER_CLAVET) /* the CFL rule picks the substeps each frame */
		printf("  simulated time     %.3f s (frames %lld to %lld, %s: %d substeps in the last, %.2f per frame on average)\n",
		       st.time, start, total, s->world.solver == PDL_SOLVER_SPH ? "SPH" : "DFSPH", pdl_world_profile(r->world).substeps,
		       total > 0 ? (double)st.steps / (double)total : 0);
	else
		printf("  simulated time     %.3f s (frames %lld to %lld, %d substep%s each)\n", st.time, start, total,
		       s->world.substeps, s->world.substeps == 1 ? "" : "s");
	printf("  wall time          %.2f s (%.2f s stepping)\n", wall, step_wall);
	printf("  steps/s            %.1f (stepping only: %.1f)\n", wall > 0 ? (double)frames / wall : 0,
	       step_wall > 0 ? (double)frames / step_wall : 0);
	/* The density error is |rho - rho0| / rho0 against each particle's own material. Said
	 * alone it reads as a fault; what it mostly is in a compressible fluid is the compression
	 * under the fluid's weight (stratify's 21 % mean is 20 % of compression, the same with 1 to
	 * 4 substeps), and where materials meet a light particle sums its heavy neighbours' masses
	 * (stratify's 109 % max is a light particle among heavy ones). So the summary says which. */
	double signed_sum = 0, speed_sum = 0;
	int signed_count = 0;
	{
		pdl_particle_data p = pdl_world_particles(r->world);
		for (int i = 0; i < p.count; ++i) {
			const double rho0 = pdl_world_rest_density(r->world, p.material[i]);
			const double vz = p.vz ? p.vz[i] : 0, speed = sqrt((double)p.vx[i] * p.vx[i] + (double)p.vy[i] * p.vy[i] + vz * vz);
			if (isfinite(speed)) speed_sum += speed;
			if (rho0 > 0 && p.density[i] >= 0.5 * rho0) signed_sum += p.density[i] / rho0 - 1, signed_count++;
		}
	}
	printf("  density error      mean %.2f %%, max %.2f %% (against each particle's own rest density%s)\n",
	       100.0 * st.mean_density_error, 100.0 * st.max_density_error,
	       s->material_count > 1 ? "; a light particle among heavy ones counts their mass" : "");
	if (signed_count)
		printf("  mean density       %+.2f %% against rest%s\n", 100.0 * signed_sum / signed_count,
		       signed_sum / signed_count > 0.01 && s->world.solver != PDL_SOLVER_DFSPH
		           ? " (compressed: this solver lets the fluid compress under its weight, docs/physics.md)"
		           : "");
	if (s->world.solver == PDL_SOLVER_DFSPH) { /* how hard the last frame's pressure solves worked */
		pdl_profile pr = pdl_world_profile(r->world);
		printf("  pressure solves    last frame: %d density and %d divergence iterations over %d substeps, "
		       "density error %.4f %%\n", pr.density_iterations, pr.divergence_iterations, pr.substeps,
		       100.0 * pr.density_solve_error);
		if (r->substeps > 0) /* the run's frames: what the solves cost as a whole */
			printf("  pressure solves    this run: %lld density and %lld divergence iterations over %lld substeps "
			       "(%.2f and %.2f a substep)\n",
			       r->density_iterations, r->divergence_iterations, r->substeps,
			       (double)r->density_iterations / (double)r->substeps,
			       (double)r->divergence_iterations / (double)r->substeps);
	}
	/* what the kernel density cannot show: pairs that have fallen onto each other */
	printf("  clumped            %.2f %% (particles closer than half a rest spacing to another)\n", 100.0 * st.clumped);
	printf("  max speed          %.4g units/s\n", st.max_speed);
	if (st.particles > 0)
		printf("  mean speed         %.4g units/s (%.3g h/s; a fluid at rest is near 0)\n", speed_sum / st.particles,
		       speed_sum / st.particles / s->world.interaction_radius);
	printf("  particles lost     %d%s\n", lost, lost ? "  (outside world.bounds or not finite)" : "");
	printf("  state hash         %016llx\n", (unsigned long long)pdl_world_hash(r->world));
	if (r->o->hash) printf("  state hash (ids)   %016llx\n", (unsigned long long)pdl_world_hash_ids(r->world));
	pdl_diffuse_data dd = pdl_world_diffuse(r->world);
	if (s->diffuse.enabled && frames > 0)
		printf("  diffuse            %d spray, %d foam, %d bubbles; their pass %.2f ms a frame (the step %.2f ms)\n",
		       dd.kind_count[PDL_DIFFUSE_SPRAY], dd.kind_count[PDL_DIFFUSE_FOAM], dd.kind_count[PDL_DIFFUSE_BUBBLE],
		       r->diffuse_ms / (double)frames, r->solver_ms / (double)frames);
	if (r->surface_frames)
		printf("  surface            %.2f ms mean, %.2f ms max per frame (field + marching %s, %lld frames)\n",
		       r->surface_ms_total / (double)r->surface_frames, r->surface_ms_max,
		       s->world.dimensions == 3 ? "tetrahedra" : "squares", r->surface_frames);
	printf("  wrote              %s", png_path);
	if (r->video_frames) printf(", %s (%lld frames)", r->o->video_path, r->video_frames);
	if (r->pngs) printf(", %lld PNG frames", r->pngs);
	if (r->exports) printf(", %lld export frames", r->exports);
	if (r->surface_frames) printf(", %lld surface frames", r->surface_frames);
	if (r->snapshots) printf(", %lld snapshots", r->snapshots);
	printf("\n");
	if (r->exports) {
		printf("  exports            ");
		print_bytes(stdout, (double)r->export_bytes);
		printf(" (%lld bytes", r->export_bytes);
		if (r->printed_estimate > 0) {
			printf("; the estimate printed at frame %lld said ", r->estimate_frame);
			print_bytes(stdout, r->printed_estimate);
		}
		printf(")\n");
	}
}

void cli_watch_parent(int slot, const char* path)
{
	char dir[1100];
	parent_of(path, dir, sizeof dir);
	cli_interrupt_watch_dir(slot, dir);
}

static int run(const run_options* opts);

int cmd_run(int argc, char** argv)
{
	run_options o;
	int rc = parse_options(argc, argv, &o);
	if (rc) return rc < 0 ? EXIT_OK : rc;
	/* from here on, SIGINT and SIGTERM are answered within a second (interrupt.c) */
	bool watching = cli_interrupt_start();
	rc = run(&o);
	if (watching) cli_interrupt_stop();
	return rc;
}

static int run(const run_options* opts)
{
	run_options o = *opts;
	run_state r;
	memset(&r, 0, sizeof r);
	r.o = &o;
	r.scene = cli_load_scene(o.scene_path);
	if (!r.scene) return EXIT_USAGE;
	pdl_scene* s = r.scene;
	pdl_scene_override(s, (double)o.particles, o.threads); /* before the hash --resume checks */
	if (o.width) s->output.width = o.width, s->output.height = o.height;
	if (o.color_mode >= 0) s->output.color_mode = (pdl_color_mode)o.color_mode;
	long long total = o.steps ? o.steps : pdl_scene_frames_for(s, o.seconds > 0 ? o.seconds : s->output.seconds);
	r.total = total;
	char name[128];
	cli_run_name(o.scene_path, name, sizeof name);
	if (o.out_dir) snprintf(r.dir, sizeof r.dir, "%s", o.out_dir);
	else snprintf(r.dir, sizeof r.dir, "out/%s", name);
	snprintf(r.pvd_path, sizeof r.pvd_path, "%s/%s.pvd", r.dir, name);
	snprintf(r.surface_pvd_path, sizeof r.surface_pvd_path, "%s/%s_surface.pvd", r.dir, name);
	r.pvd = (cli_pvd_list){.sub = "vtk", .prefix = "frame"};
	r.body_pvd = (cli_pvd_list){.sub = "vtk", .prefix = "bodies"};
	r.surface_pvd = (cli_pvd_list){.sub = "surface", .prefix = "frame"};
	r.surface_def = s->world.dimensions == 3 ? surface_def_3d(s) : pdl_surface_def_from_scene(s);
	char png_path[1100];
	if (o.png_path) snprintf(png_path, sizeof png_path, "%s", o.png_path);
	else snprintf(png_path, sizeof png_path, "%s/final.png", r.dir);
	cli_interrupt_watch_dir(0, r.dir);
	cli_watch_parent(1, png_path);
	if (o.video_path) cli_watch_parent(2, o.video_path);
	double fps = s->output.fps;
	r.video_every = llround(1.0 / (fps * s->world.dt));
	if (r.video_every < 1) r.video_every = 1;
	r.export_every = o.export_every ? o.export_every : r.video_every;
	int exit_code = EXIT_FAILED;
	long long start = 0;

	/* Everything that can be refused is checked before the first byte is written. */
	pdl_error serr;
	if (o.no_diffuse) s->diffuse.enabled = 0;
	r.world = pdl_scene_build_world(s, &serr);
	if (!r.world) {
		fprintf(stderr, "%s\n", serr.message);
		pdl_scene_destroy(s);
		return EXIT_USAGE;
	}
	if (o.resume_path) {
		pdl_snapshot_info info;
		pdl_error err;
		if (!pdl_snapshot_peek(o.resume_path, &info, &err)) {
			fprintf(stderr, "puddle run: --resume: %s\n", err.message);
			exit_code = EXIT_USAGE;
			goto done;
		}
		if (info.scene_hash != pdl_scene_hash(s)) {
			fprintf(stderr,
			        "puddle run: --resume: %s was made from scene '%s' with other settings than %s; resuming would not "
			        "continue the same run\n",
			        o.resume_path, info.scene_name, o.scene_path);
			exit_code = EXIT_USAGE;
			goto done;
		}
		if (!pdl_snapshot_read(o.resume_path, r.world, &info, &err)) {
			fprintf(stderr, "puddle run: --resume: %s\n", err.message);
			exit_code = EXIT_USAGE;
			goto done;
		}
		start = info.frame;
		if (start > total) {
			fprintf(stderr, "puddle run: --resume: the snapshot is at frame %lld, past the end of this run (frame %lld)\n",
			        start, total);
			exit_code = EXIT_USAGE;
			goto done;
		}
	}
	if (o.vdb && (s->world.dimensions != 3 || !pdl_vdb_available())) {
		fprintf(stderr, "puddle run: --vdb: %s\n",
		        s->world.dimensions != 3 ? "VDB volumes are of 3D scenes; this one is 2D"
		                                 : "this build has no OpenVDB (install libopenvdb-dev and libboost-dev, then "
		                                   "rebuild: scripts/install-deps.sh vdb)");
		exit_code = EXIT_USAGE;
		goto done;
	}
	pdl_render_def rd = pdl_render_def_from_scene(s);
	if (o.spheres) rd.liquid = false;
	rd.threads = pdl_world_thread_count(r.world); /* drawing and stepping take turns */
	r.renderer = pdl_renderer_create(&rd);
	if (!r.renderer) {
		fprintf(stderr, "puddle run: out of memory for a %dx%d picture\n", rd.width, rd.height);
		goto done;
	}
	char ffmpeg[1024];
	if (o.video_path && !cli_find_ffmpeg(ffmpeg, sizeof ffmpeg)) {
		fprintf(stderr, "puddle run: --video needs ffmpeg, which is not on PATH (install it: apt-get install ffmpeg)\n");
		goto done;
	}

	/* the run's folder only when something goes into it: a run that writes its picture and
	 * video elsewhere leaves no empty folder behind */
	const bool into_dir = !o.png_path || o.png_every || o.vtk || o.ply || o.csv || o.surface || o.vdb || o.snapshot_every;
	if (into_dir && !cli_make_dirs(r.dir)) {
		fprintf(stderr, "puddle run: %s: cannot create folder: %s\n", r.dir, strerror(errno));
		goto done;
	}
	if ((o.png_every && !make_subdir(&r, "frames")) || (o.vtk && !make_subdir(&r, "vtk")) ||
	    (o.ply && !make_subdir(&r, "ply")) || (o.csv && !make_subdir(&r, "csv")) ||
	    (o.surface && !make_subdir(&r, "surface")) || (o.vdb && !make_subdir(&r, "vdb")) ||
	    (o.snapshot_every && !make_subdir(&r, "snapshots"))) {
		fprintf(stderr, "puddle run: %s\n", r.err.message);
		goto done;
	}
	/* the earlier run wrote the frames up to the snapshot's, that one included (a resumed run
	 * does not write its starting frame again) */
	if (o.vtk && start > 0) cli_pvd_scan(&r.pvd, r.dir, start), cli_pvd_scan(&r.body_pvd, r.dir, start);
	r.bodies = r.body_pvd.count > 0;
	if (o.surface && start > 0 && s->world.dimensions == 2) cli_pvd_scan(&r.surface_pvd, r.dir, start);
	if (o.video_path) {
		r.video = cli_video_open(o.video_path, s->output.width, s->output.height, 1.0 / ((double)r.video_every * s->world.dt),
		                         &r.err);
		if (!r.video) {
			fprintf(stderr, "puddle run: %s\n", r.err.message);
			goto done;
		}
	}

	signal(SIGPIPE, SIG_IGN); /* a dead ffmpeg is a write error, not a silent death */
	cli_progress progress;
	cli_progress_begin(&progress, s->name, start, total, !o.quiet);
	double t0 = cli_now(), step_wall = 0;
	/* the starting state is a frame too (frame 0); a resumed run wrote it before */
	bool ok = start > 0 || frame_outputs(&r, 0);
	if (!ok) fprintf(stderr, "puddle run: %s\n", r.err.message);
	for (long long f = start; ok && f < total && !cli_interrupted(); ++f) {
		if (pdl_scene_apply_frame(s, r.world, f, &serr) < 0) {
			cli_progress_end(&progress); /* the bar's line ended first, on a terminal */
			fprintf(stderr, "%s\n", serr.message);
			ok = false;
			break;
		}
		double ts = cli_now();
		pdl_world_step(r.world);
		step_wall += cli_now() - ts;
		r.diffuse_ms += pdl_world_profile(r.world).diffuse;
		r.solver_ms += pdl_world_profile(r.world).step;
		r.density_iterations += pdl_world_profile(r.world).density_iterations;
		r.divergence_iterations += pdl_world_profile(r.world).divergence_iterations;
		r.substeps += pdl_world_profile(r.world).substeps;
		if (!frame_outputs(&r, f + 1)) {
			cli_progress_end(&progress);
			fprintf(stderr, "puddle run: %s\n", r.err.message);
			ok = false;
			break;
		}
		cli_progress_update(&progress, f + 1, pdl_world_time(r.world));
	}
	cli_progress_end(&progress);
	if (cli_interrupted()) {
		fprintf(stderr, "puddle run: interrupted; %sfinished files are kept\n",
		        o.video_path ? "the unfinished video was removed, " : "");
		exit_code = EXIT_INTERRUPTED;
		goto done;
	}
	if (!ok) goto done;
	if (r.video) {
		cli_video* v = r.video;
		r.video = NULL;
		if (!cli_video_close(v, &r.err)) {
			fprintf(stderr, "puddle run: %s\n", r.err.message);
			goto done;
		}
	}
	const uint8_t* rgb = pdl_render(r.renderer, r.world);
	if (!rgb) pdl_error_fill(&r.err, PDL_ERR_OUT_OF_MEMORY, NULL, NULL, "out of memory drawing the last frame");
	if (!rgb || !pdl_png_write(png_path, rgb, s->output.width, s->output.height, &r.err)) {
		fprintf(stderr, "puddle run: %s\n", r.err.message);
		goto done;
	}
	wrote(&r, png_path);
	int lost = cli_lost_particles(s, r.world);
	if (!o.quiet) print_summary(&r, start, total, cli_now() - t0, step_wall, lost, png_path);
	if (lost) {
		fprintf(stderr, "puddle run: %d particles lost (left world.bounds or became NaN): the scene is unstable\n", lost);
		goto done;
	}
	exit_code = EXIT_OK;
done:
	cli_video_abort(r.video);
	free(r.pvd.frames);
	free(r.body_pvd.frames);
	free(r.surface_pvd.frames);
	pdl_renderer_destroy(r.renderer);
	pdl_world_destroy(r.world);
	pdl_scene_destroy(s);
	return exit_code;
}
